//! Legal-play generation: every distinct play of a hand for a free lead, and every play
//! that beats a given play.
//!
//! "Distinct" means distinct card multisets (suits play no part). A multiset with several
//! readings is reported once, with the reading [`super::play::default_reading`] picks among those the
//! situation allows (for a lead: `555666777888` is the trio chain; when following an
//! airplane of 3: the airplane ending in 8).
//!
//! **Stable order** of every list and visit: the derived `Ord` of [`Play`], i.e. kind
//! (proto `PlayKind` order: single, pair, trio, trio+single, trio+pair, chain, pair chain,
//! trio chain, airplane+singles, airplane+pairs, four+two singles, four+two pairs, bomb,
//! rocket), then `len`, then main rank, then cards in canonical string order. Passing is
//! never included.
//!
//! Speed: works on the 15 rank counts only; plays are built on the stack and handed to a
//! visitor, so the `for_each_*` functions allocate nothing and the `legal_*` functions
//! only grow their one output `Vec`. Kickers are enumerated per rank count (taking 0..=n
//! cards of each rank), so equal multisets are never produced twice. Reference for the
//! legal set: DouZero's `MovesGener` (see `tests/doudizhu_rules.rs`).

use std::ops::ControlFlow;

use super::card::{Cards, Rank};
use super::play::{Kind, Play, Rules};

const ACE: usize = Rank::ACE.index();
const SMALL_JOKER: usize = Rank::SMALL_JOKER.index();
const BIG_JOKER: usize = Rank::BIG_JOKER.index();
const RANKS: usize = Rank::COUNT;

/// Visits every legal free-lead play of `hand` in the stable order; `visit` may stop the
/// walk early by returning `ControlFlow::Break`, which is then returned.
pub fn try_for_each_lead<B>(
    hand: &Cards,
    rules: &Rules,
    visit: impl FnMut(&Play) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut g = Gen::new(hand, rules, visit);
    g.lead()
}

/// Visits every legal free-lead play of `hand` in the stable order.
pub fn for_each_lead(hand: &Cards, rules: &Rules, mut visit: impl FnMut(&Play)) {
    let _ = try_for_each_lead::<()>(hand, rules, |p| {
        visit(p);
        ControlFlow::Continue(())
    });
}

/// Visits every play of `hand` that beats `to_beat` (same kind and length with a higher
/// main rank, then higher bombs / every bomb, then the rocket) in the stable order;
/// `visit` may stop early with `ControlFlow::Break`. Nothing beats the rocket.
pub fn try_for_each_follow<B>(
    hand: &Cards,
    to_beat: &Play,
    rules: &Rules,
    visit: impl FnMut(&Play) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut g = Gen::new(hand, rules, visit);
    g.follow(to_beat)
}

/// Visits every play of `hand` that beats `to_beat`, in the stable order.
pub fn for_each_follow(hand: &Cards, to_beat: &Play, rules: &Rules, mut visit: impl FnMut(&Play)) {
    let _ = try_for_each_follow::<()>(hand, to_beat, rules, |p| {
        visit(p);
        ControlFlow::Continue(())
    });
}

/// Every legal free-lead play of `hand`, in the stable order.
pub fn legal_leads(hand: &Cards, rules: &Rules) -> Vec<Play> {
    let mut out = Vec::new();
    legal_leads_into(hand, rules, &mut out);
    out
}

/// Every play of `hand` beating `to_beat`, in the stable order (passing not included).
pub fn legal_follows(hand: &Cards, to_beat: &Play, rules: &Rules) -> Vec<Play> {
    let mut out = Vec::new();
    legal_follows_into(hand, to_beat, rules, &mut out);
    out
}

/// Like [`legal_leads`], reusing `out` (cleared first) to save the allocation.
pub fn legal_leads_into(hand: &Cards, rules: &Rules, out: &mut Vec<Play>) {
    out.clear();
    for_each_lead(hand, rules, |p| out.push(*p));
}

/// Like [`legal_follows`], reusing `out` (cleared first) to save the allocation.
pub fn legal_follows_into(hand: &Cards, to_beat: &Play, rules: &Rules, out: &mut Vec<Play>) {
    out.clear();
    for_each_follow(hand, to_beat, rules, |p| out.push(*p));
}

/// Legal plays for a turn: a free lead when `to_beat` is `None`, else the follows.
pub fn legal_plays(hand: &Cards, to_beat: Option<&Play>, rules: &Rules) -> Vec<Play> {
    match to_beat {
        None => legal_leads(hand, rules),
        Some(p) => legal_follows(hand, p, rules),
    }
}

/// `count >= per` runs: `run[r]` = number of consecutive chainable ranks ending at `r`
/// (inclusive) that hold at least `per` cards.
fn runs(c: &[u8; RANKS], per: u8) -> [u8; RANKS] {
    let mut run = [0u8; RANKS];
    let mut n = 0u8;
    for r in 0..=ACE {
        n = if c[r] >= per { n + 1 } else { 0 };
        run[r] = n;
    }
    run
}

/// The generator state: the hand's counts, the rules and the visitor.
struct Gen<'r, F> {
    hand: [u8; RANKS],
    rules: &'r Rules,
    visit: F,
}

/// Whether kickers are emitted for a lead (skip multisets that read better as another
/// kind) or for a follow of the same kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Lead,
    Follow,
}

impl<'r, B, F: FnMut(&Play) -> ControlFlow<B>> Gen<'r, F> {
    fn new(hand: &Cards, rules: &'r Rules, visit: F) -> Self {
        Gen {
            hand: *hand.counts(),
            rules,
            visit,
        }
    }

    fn emit(&mut self, kind: Kind, len: usize, main: usize, counts: [u8; RANKS]) -> ControlFlow<B> {
        let play = Play {
            kind,
            len: len as u8,
            main: Rank::ALL[main],
            cards: Cards::from_counts_unchecked(counts),
        };
        (self.visit)(&play)
    }

    fn lead(&mut self) -> ControlFlow<B> {
        self.of_rank(Kind::Single, 1, 0)?;
        self.of_rank(Kind::Pair, 2, 0)?;
        self.of_rank(Kind::Trio, 3, 0)?;
        self.trio_with(Kind::TrioWithSingle, 0)?;
        self.trio_with(Kind::TrioWithPair, 0)?;
        for len in 5..=12 {
            self.chain(Kind::Chain, 1, len, 0)?;
        }
        for len in 3..=10 {
            self.chain(Kind::PairChain, 2, len, 0)?;
        }
        for len in 2..=6 {
            self.chain(Kind::TrioChain, 3, len, 0)?;
        }
        for len in 2..=5 {
            self.airplane(Kind::AirplaneWithSingles, len, 0, Mode::Lead)?;
        }
        for len in 2..=4 {
            self.airplane(Kind::AirplaneWithPairs, len, 0, Mode::Lead)?;
        }
        self.four_with(Kind::FourWithTwoSingles, 0)?;
        self.four_with(Kind::FourWithTwoPairs, 0)?;
        self.of_rank(Kind::Bomb, 4, 0)?;
        self.rocket()
    }

    fn follow(&mut self, to_beat: &Play) -> ControlFlow<B> {
        let from = to_beat.main.index() + 1;
        let len = to_beat.len as usize;
        match to_beat.kind {
            Kind::Rocket => return ControlFlow::Continue(()),
            Kind::Bomb => {
                self.of_rank(Kind::Bomb, 4, from)?;
                return self.rocket();
            }
            Kind::Single => self.of_rank(Kind::Single, 1, from)?,
            Kind::Pair => self.of_rank(Kind::Pair, 2, from)?,
            Kind::Trio => self.of_rank(Kind::Trio, 3, from)?,
            k @ (Kind::TrioWithSingle | Kind::TrioWithPair) => self.trio_with(k, from)?,
            Kind::Chain => self.chain(Kind::Chain, 1, len, from)?,
            Kind::PairChain => self.chain(Kind::PairChain, 2, len, from)?,
            Kind::TrioChain => self.chain(Kind::TrioChain, 3, len, from)?,
            k @ (Kind::AirplaneWithSingles | Kind::AirplaneWithPairs) => {
                self.airplane(k, len, from, Mode::Follow)?
            }
            k @ (Kind::FourWithTwoSingles | Kind::FourWithTwoPairs) => self.four_with(k, from)?,
        }
        self.of_rank(Kind::Bomb, 4, 0)?;
        self.rocket()
    }

    /// Singles, pairs, trios, bombs: `per` cards of one rank, main rank >= `from`.
    fn of_rank(&mut self, kind: Kind, per: u8, from: usize) -> ControlFlow<B> {
        for r in from..RANKS {
            if self.hand[r] >= per {
                let mut counts = [0u8; RANKS];
                counts[r] = per;
                self.emit(kind, 1, r, counts)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn rocket(&mut self) -> ControlFlow<B> {
        if self.hand[SMALL_JOKER] > 0 && self.hand[BIG_JOKER] > 0 {
            let mut counts = [0u8; RANKS];
            counts[SMALL_JOKER] = 1;
            counts[BIG_JOKER] = 1;
            self.emit(Kind::Rocket, 1, BIG_JOKER, counts)?;
        }
        ControlFlow::Continue(())
    }

    /// Chains of `len` ranks with `per` cards each, top rank >= `from`.
    fn chain(&mut self, kind: Kind, per: u8, len: usize, from: usize) -> ControlFlow<B> {
        if len == 0 || len > ACE + 1 {
            return ControlFlow::Continue(());
        }
        let run = runs(&self.hand, per);
        for top in from.max(len - 1)..=ACE {
            if run[top] as usize >= len {
                let mut counts = [0u8; RANKS];
                counts[top + 1 - len..=top].fill(per);
                self.emit(kind, len, top, counts)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Trio plus one single or one pair kicker of another rank, trio rank >= `from`.
    fn trio_with(&mut self, kind: Kind, from: usize) -> ControlFlow<B> {
        let per = if kind == Kind::TrioWithPair { 2 } else { 1 };
        for t in from..RANKS {
            if self.hand[t] < 3 {
                continue;
            }
            for k in 0..RANKS {
                if k != t && self.hand[k] >= per {
                    let mut counts = [0u8; RANKS];
                    counts[t] = 3;
                    counts[k] = per;
                    self.emit(kind, 1, t, counts)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Four plus two single kickers (any two other cards) or two pair kickers of two
    /// different ranks, four rank >= `from`.
    fn four_with(&mut self, kind: Kind, from: usize) -> ControlFlow<B> {
        let pairs = kind == Kind::FourWithTwoPairs;
        let no_rocket = !self.rules.rocket_as_kickers;
        for f in from..RANKS {
            if self.hand[f] < 4 {
                continue;
            }
            let mut avail = self.hand;
            avail[f] = 0;
            let mut body = [0u8; RANKS];
            body[f] = 4;
            let visit = &mut self.visit;
            let mut emit = |wings: &[u8; RANKS]| {
                let mut counts = body;
                for r in 0..RANKS {
                    counts[r] += wings[r];
                }
                visit(&Play {
                    kind,
                    len: 1,
                    main: Rank::ALL[f],
                    cards: Cards::from_counts_unchecked(counts),
                })
            };
            if pairs {
                pair_kickers(&avail, 2, &mut emit)?;
            } else {
                single_kickers(&avail, 2, no_rocket, &mut emit)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Airplanes: a trio chain of `len` ranks (top >= `from`) with `len` single wings or
    /// `len` pair wings of pairwise distinct ranks, wings outside the body's ranks.
    fn airplane(&mut self, kind: Kind, len: usize, from: usize, mode: Mode) -> ControlFlow<B> {
        let pairs = kind == Kind::AirplaneWithPairs;
        let per_group = if pairs { 5 } else { 4 };
        let total: usize = self.hand.iter().map(|&n| n as usize).sum();
        if len < 2 || per_group * len > total || len > ACE + 1 {
            return ControlFlow::Continue(());
        }
        let no_rocket = !self.rules.rocket_as_kickers;
        let run = runs(&self.hand, 3);
        for top in from.max(len - 1)..=ACE {
            if (run[top] as usize) < len {
                continue;
            }
            let bottom = top + 1 - len;
            let mut avail = self.hand;
            let mut body = [0u8; RANKS];
            avail[bottom..=top].fill(0);
            body[bottom..=top].fill(3);
            let visit = &mut self.visit;
            let mut emit = |wings: &[u8; RANKS]| {
                if !pairs {
                    // The same multiset also reads as the airplane one rank higher
                    // (wings hold the next trio): report only that higher reading.
                    if top < ACE && wings[top + 1] == 3 {
                        return ControlFlow::Continue(());
                    }
                    // As a lead, a 3-trio airplane whose wings are the adjacent trio is
                    // the trio chain of 4, reported as such.
                    if mode == Mode::Lead && len == 3 && bottom > 0 && wings[bottom - 1] == 3 {
                        return ControlFlow::Continue(());
                    }
                }
                let mut counts = body;
                for r in 0..RANKS {
                    counts[r] += wings[r];
                }
                visit(&Play {
                    kind,
                    len: len as u8,
                    main: Rank::ALL[top],
                    cards: Cards::from_counts_unchecked(counts),
                })
            };
            if pairs {
                pair_kickers(&avail, len, &mut emit)?;
            } else {
                single_kickers(&avail, len, no_rocket, &mut emit)?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Every multiset of `k` single kickers from `avail` (counts per rank), in canonical
/// order (more of a lower rank first). With `no_rocket`, never both jokers.
fn single_kickers<B>(
    avail: &[u8; RANKS],
    k: usize,
    no_rocket: bool,
    emit: &mut impl FnMut(&[u8; RANKS]) -> ControlFlow<B>,
) -> ControlFlow<B> {
    // suffix[r] = cards available at ranks r.. (for pruning).
    let mut suffix = [0usize; RANKS + 1];
    for r in (0..RANKS).rev() {
        suffix[r] = suffix[r + 1] + avail[r] as usize;
    }
    if suffix[0] < k {
        return ControlFlow::Continue(());
    }
    let mut cur = [0u8; RANKS];
    singles_rec(avail, &suffix, 0, k, no_rocket, &mut cur, emit)
}

fn singles_rec<B>(
    avail: &[u8; RANKS],
    suffix: &[usize; RANKS + 1],
    r: usize,
    left: usize,
    no_rocket: bool,
    cur: &mut [u8; RANKS],
    emit: &mut impl FnMut(&[u8; RANKS]) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if left == 0 {
        return emit(cur);
    }
    if r == RANKS || suffix[r] < left {
        return ControlFlow::Continue(());
    }
    let mut most = (avail[r] as usize).min(left);
    if no_rocket && r == BIG_JOKER && cur[SMALL_JOKER] > 0 {
        most = 0;
    }
    for take in (0..=most).rev() {
        cur[r] = take as u8;
        let flow = singles_rec(avail, suffix, r + 1, left - take, no_rocket, cur, emit);
        if flow.is_break() {
            cur[r] = 0;
            return flow;
        }
    }
    cur[r] = 0;
    ControlFlow::Continue(())
}

/// Every set of `k` pair kickers of pairwise distinct ranks from `avail`, in canonical
/// order (lower ranks first).
fn pair_kickers<B>(
    avail: &[u8; RANKS],
    k: usize,
    emit: &mut impl FnMut(&[u8; RANKS]) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut ranks = [0usize; RANKS];
    let mut m = 0;
    for (r, &n) in avail.iter().enumerate() {
        if n >= 2 {
            ranks[m] = r;
            m += 1;
        }
    }
    if m < k {
        return ControlFlow::Continue(());
    }
    // Lexicographic k-combinations of ranks[..m] by index vector.
    let mut idx = [0usize; RANKS];
    for (i, slot) in idx.iter_mut().enumerate().take(k) {
        *slot = i;
    }
    loop {
        let mut cur = [0u8; RANKS];
        for &i in &idx[..k] {
            cur[ranks[i]] = 2;
        }
        emit(&cur)?;
        // Advance: rightmost index that can move.
        let mut i = k;
        loop {
            if i == 0 {
                return ControlFlow::Continue(());
            }
            i -= 1;
            if idx[i] < m - k + i {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}
