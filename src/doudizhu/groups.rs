//! Groups (牌型 instances) on rank counts: the unit of hand decomposition, of the
//! decision policy and of the search. A [`Group`] is one play: its kind, the highest
//! rank of its main part, its length and its kickers.
//!
//! Everything here works on [`Counts`], a hand as the number of cards per rank (index
//! 0..=14: `3`..`A` = 0..=11, `2` = 12, small joker `X` = 13, big joker `D` = 14), and
//! enumerates through visitors so that the hot loops of the policy and the search do not
//! allocate per candidate. The rules are DESIGN.md's "Rule decisions": chains never hold
//! a 2 or a joker, kickers never share a rank with their trio / four / airplane, single
//! kickers may share ranks with each other, pair kickers are pairwise distinct, and the
//! rocket may serve as two single kickers only when [`rocket_as_kickers`] is set.
//!
//! [`rocket_as_kickers`]: Enumeration::rocket_as_kickers

/// Cards per rank, index 0..=14 (`3`..`A`, `2`, `X`, `D`). Each entry is 0..=4 (jokers 0..=1).
pub type Counts = [u8; 15];

/// Number of ranks (13 suited ranks and the two jokers).
pub const RANK_COUNT: usize = 15;
/// Rank index of the ace, the highest rank a chain may reach.
pub const ACE: u8 = 11;
/// Rank index of the 2.
pub const TWO: u8 = 12;
/// Rank index of the small (black) joker.
pub const SMALL_JOKER: u8 = 13;
/// Rank index of the big (red) joker.
pub const BIG_JOKER: u8 = 14;

/// Canonical character of each rank index (DESIGN.md notation).
pub const RANK_CHARS: [char; RANK_COUNT] = [
    '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'X', 'D',
];

/// The 14 kinds of play (seed 002's rules list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    /// One card.
    Single,
    /// Two cards of a rank.
    Pair,
    /// Three cards of a rank.
    Trio,
    /// A trio with one single kicker.
    TrioWithSingle,
    /// A trio with one pair kicker.
    TrioWithPair,
    /// Five or more consecutive singles, `3`..`A`.
    Chain,
    /// Three or more consecutive pairs, `3`..`A`.
    PairChain,
    /// Two or more consecutive trios, `3`..`A`.
    TrioChain,
    /// A trio chain with one single kicker per trio.
    AirplaneWithSingles,
    /// A trio chain with one pair kicker per trio.
    AirplaneWithPairs,
    /// Four of a rank with two single kickers.
    FourWithTwoSingles,
    /// Four of a rank with two pair kickers of different ranks.
    FourWithTwoPairs,
    /// Four of a rank.
    Bomb,
    /// Both jokers.
    Rocket,
}

impl GroupKind {
    /// Whether the kind carries kickers.
    pub fn has_kickers(self) -> bool {
        matches!(
            self,
            GroupKind::TrioWithSingle
                | GroupKind::TrioWithPair
                | GroupKind::AirplaneWithSingles
                | GroupKind::AirplaneWithPairs
                | GroupKind::FourWithTwoSingles
                | GroupKind::FourWithTwoPairs
        )
    }

    /// Whether the kickers are pairs (each kicker rank stands for two cards).
    pub fn pair_kickers(self) -> bool {
        matches!(
            self,
            GroupKind::TrioWithPair | GroupKind::AirplaneWithPairs | GroupKind::FourWithTwoPairs
        )
    }
}

/// One play: kind, highest main rank, length and kickers.
///
/// `top` is the rank index of the highest rank of the main part (the trio / four rank,
/// or the top of a chain); `len` the number of consecutive ranks of the main part (1
/// for non-chains). `kickers` lists kicker ranks in ascending order: one entry per
/// single kicker, one entry per pair kicker (standing for two cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// The kind.
    pub kind: GroupKind,
    /// Rank index of the highest rank of the main part.
    pub top: u8,
    /// Number of consecutive ranks in the main part.
    pub len: u8,
    kickers: [u8; 5],
    kicker_count: u8,
}

impl Group {
    /// A group without kickers.
    pub const fn plain(kind: GroupKind, top: u8, len: u8) -> Group {
        Group {
            kind,
            top,
            len,
            kickers: [0; 5],
            kicker_count: 0,
        }
    }

    /// A group with the given kicker ranks (sorted here; at most 5).
    pub fn with_kickers(kind: GroupKind, top: u8, len: u8, kickers: &[u8]) -> Group {
        let mut k = [0u8; 5];
        let n = kickers.len().min(5);
        k[..n].copy_from_slice(&kickers[..n]);
        k[..n].sort_unstable();
        Group {
            kind,
            top,
            len,
            kickers: k,
            kicker_count: n as u8,
        }
    }

    /// Kicker ranks, ascending (pair kickers listed once).
    pub fn kickers(&self) -> &[u8] {
        &self.kickers[..self.kicker_count as usize]
    }

    /// The lowest rank of the main part.
    pub fn bottom(&self) -> u8 {
        self.top + 1 - self.len
    }

    /// Cards per rank of the main part only (no kickers).
    pub fn main_counts(&self) -> Counts {
        let mut c = [0u8; RANK_COUNT];
        let per = match self.kind {
            GroupKind::Single | GroupKind::Chain => 1,
            GroupKind::Pair | GroupKind::PairChain => 2,
            GroupKind::Trio
            | GroupKind::TrioWithSingle
            | GroupKind::TrioWithPair
            | GroupKind::TrioChain
            | GroupKind::AirplaneWithSingles
            | GroupKind::AirplaneWithPairs => 3,
            GroupKind::FourWithTwoSingles | GroupKind::FourWithTwoPairs | GroupKind::Bomb => 4,
            GroupKind::Rocket => {
                c[SMALL_JOKER as usize] = 1;
                c[BIG_JOKER as usize] = 1;
                return c;
            }
        };
        for r in self.bottom()..=self.top {
            c[r as usize] = per;
        }
        c
    }

    /// Cards per rank of the whole play.
    pub fn counts(&self) -> Counts {
        let mut c = self.main_counts();
        let per = if self.kind.pair_kickers() { 2 } else { 1 };
        for &k in self.kickers() {
            c[k as usize] += per;
        }
        c
    }

    /// Number of cards in the play.
    pub fn card_count(&self) -> u8 {
        self.counts().iter().sum()
    }

    /// Whether this is a bomb or the rocket.
    pub fn is_bomb(&self) -> bool {
        matches!(self.kind, GroupKind::Bomb | GroupKind::Rocket)
    }

    /// Whether this play beats `other` (DESIGN.md: same kind and length and higher main
    /// rank; bombs over non-bombs; higher bomb over lower; the rocket over all).
    pub fn beats(&self, other: &Group) -> bool {
        match (self.kind, other.kind) {
            (_, GroupKind::Rocket) => false,
            (GroupKind::Rocket, _) => true,
            (GroupKind::Bomb, GroupKind::Bomb) => self.top > other.top,
            (GroupKind::Bomb, _) => true,
            (_, GroupKind::Bomb) => false,
            (a, b) => a == b && self.len == other.len && self.top > other.top,
        }
    }

    /// Canonical card string (ascending rank order).
    pub fn cards_string(&self) -> String {
        counts_string(&self.counts())
    }
}

/// Canonical string of a count vector, ascending rank order (e.g. `"33344TX"`).
pub fn counts_string(c: &Counts) -> String {
    let mut s = String::new();
    for (r, &n) in c.iter().enumerate() {
        for _ in 0..n {
            s.push(RANK_CHARS[r]);
        }
    }
    s
}

/// Total number of cards.
pub fn total(c: &Counts) -> u8 {
    c.iter().sum()
}

/// Whether `part` fits inside `whole` rank by rank.
pub fn contains(whole: &Counts, part: &Counts) -> bool {
    whole.iter().zip(part).all(|(w, p)| w >= p)
}

/// `whole - part` rank by rank (saturating at 0).
pub fn minus(whole: &Counts, part: &Counts) -> Counts {
    let mut c = *whole;
    for (a, b) in c.iter_mut().zip(part) {
        *a = a.saturating_sub(*b);
    }
    c
}

/// Packs counts into 45 bits (3 per rank): a memo key.
pub fn pack(c: &Counts) -> u64 {
    c.iter()
        .enumerate()
        .fold(0u64, |k, (r, &n)| k | (u64::from(n) << (3 * r)))
}

/// Options of the group enumerators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Whether the rocket (both jokers) may serve as two single kickers.
    pub rocket_as_kickers: bool,
}

impl Default for Enumeration {
    fn default() -> Self {
        Enumeration {
            rocket_as_kickers: true,
        }
    }
}

/// Single-wing choices: `n` kicker ranks as a multiset (ascending), outside
/// `body_lo..=body_hi`, within the counts, not both jokers unless allowed. When `must`
/// is set, the first kicker is that rank (callers use it for the lowest rank).
fn single_wings(
    c: &Counts,
    body: (u8, u8),
    n: usize,
    must: Option<u8>,
    allow_rocket: bool,
    f: &mut dyn FnMut(&[u8]),
) {
    let mut buf = [0u8; 5];
    let mut used = [0u8; RANK_COUNT];
    let start = match must {
        Some(m) => {
            if (body.0..=body.1).contains(&m) || c[m as usize] == 0 {
                return;
            }
            buf[0] = m;
            used[m as usize] = 1;
            if n == 1 {
                f(&buf[..1]);
                return;
            }
            1
        }
        None => 0,
    };
    let from = must.unwrap_or(0);
    single_wings_rec(c, body, n, start, from, allow_rocket, &mut buf, &mut used, f);
}

#[allow(clippy::too_many_arguments)]
fn single_wings_rec(
    c: &Counts,
    body: (u8, u8),
    n: usize,
    at: usize,
    from: u8,
    allow_rocket: bool,
    buf: &mut [u8; 5],
    used: &mut Counts,
    f: &mut dyn FnMut(&[u8]),
) {
    if at == n {
        f(&buf[..n]);
        return;
    }
    for r in from..=BIG_JOKER {
        let ri = r as usize;
        if (body.0..=body.1).contains(&r) || used[ri] >= c[ri] {
            continue;
        }
        if r == BIG_JOKER && !allow_rocket && used[SMALL_JOKER as usize] > 0 {
            continue;
        }
        buf[at] = r;
        used[ri] += 1;
        single_wings_rec(c, body, n, at + 1, r, allow_rocket, buf, used, f);
        used[ri] -= 1;
    }
}

/// Pair-wing choices: `n` distinct ranks (ascending) with at least two cards, outside
/// the body. When `must` is set it is the first (lowest) kicker.
fn pair_wings(c: &Counts, body: (u8, u8), n: usize, must: Option<u8>, f: &mut dyn FnMut(&[u8])) {
    let mut buf = [0u8; 5];
    let (start, from) = match must {
        Some(m) => {
            if (body.0..=body.1).contains(&m) || c[m as usize] < 2 {
                return;
            }
            buf[0] = m;
            (1, m + 1)
        }
        None => (0, 0),
    };
    pair_wings_rec(c, body, n, start, from, &mut buf, f);
}

fn pair_wings_rec(
    c: &Counts,
    body: (u8, u8),
    n: usize,
    at: usize,
    from: u8,
    buf: &mut [u8; 5],
    f: &mut dyn FnMut(&[u8]),
) {
    if at == n {
        f(&buf[..n]);
        return;
    }
    for r in from..=TWO {
        if (body.0..=body.1).contains(&r) || c[r as usize] < 2 {
            continue;
        }
        buf[at] = r;
        pair_wings_rec(c, body, n, at + 1, r + 1, buf, f);
    }
}

/// Visits every legal play of the hand `c` for a free lead (each distinct reading once;
/// the same card multiset may come twice under two readings, e.g. a trio chain of 4
/// and an airplane of 3).
pub fn for_each_lead(c: &Counts, opts: Enumeration, f: &mut dyn FnMut(Group)) {
    for r in 0..RANK_COUNT as u8 {
        let n = c[r as usize];
        if n >= 1 {
            f(Group::plain(GroupKind::Single, r, 1));
        }
        if n >= 2 {
            f(Group::plain(GroupKind::Pair, r, 1));
        }
        if n >= 3 {
            carriers_at(c, r, 1, opts, None, f);
        }
        if n == 4 {
            fours_at(c, r, opts, None, f);
        }
    }
    if c[SMALL_JOKER as usize] == 1 && c[BIG_JOKER as usize] == 1 {
        f(Group::plain(GroupKind::Rocket, BIG_JOKER, 2));
    }
    for lo in 0..=ACE {
        chains_from(c, lo, opts, None, f);
    }
}

/// Trio (len 1) or trio chain (len >= 2) ending at `top`, bare and with every wing
/// choice. `must`: only wings that start with that rank.
fn carriers_at(
    c: &Counts,
    top: u8,
    len: u8,
    opts: Enumeration,
    must: Option<u8>,
    f: &mut dyn FnMut(Group),
) {
    let lo = top + 1 - len;
    let (bare, single, pair) = if len == 1 {
        (
            GroupKind::Trio,
            GroupKind::TrioWithSingle,
            GroupKind::TrioWithPair,
        )
    } else {
        (
            GroupKind::TrioChain,
            GroupKind::AirplaneWithSingles,
            GroupKind::AirplaneWithPairs,
        )
    };
    if must.is_none() {
        f(Group::plain(bare, top, len));
    }
    if len <= 5 {
        single_wings(
            c,
            (lo, top),
            len as usize,
            must,
            opts.rocket_as_kickers,
            &mut |k| f(Group::with_kickers(single, top, len, k)),
        );
    }
    if len <= 4 {
        pair_wings(c, (lo, top), len as usize, must, &mut |k| {
            f(Group::with_kickers(pair, top, len, k))
        });
    }
}

/// Bomb and four-with-two at rank `r` (four cards there).
fn fours_at(c: &Counts, r: u8, opts: Enumeration, must: Option<u8>, f: &mut dyn FnMut(Group)) {
    if must.is_none() {
        f(Group::plain(GroupKind::Bomb, r, 1));
    }
    single_wings(c, (r, r), 2, must, opts.rocket_as_kickers, &mut |k| {
        f(Group::with_kickers(GroupKind::FourWithTwoSingles, r, 1, k))
    });
    pair_wings(c, (r, r), 2, must, &mut |k| {
        f(Group::with_kickers(GroupKind::FourWithTwoPairs, r, 1, k))
    });
}

/// Chains, pair chains and trio chains (bare and with wings) starting at `lo`.
fn chains_from(c: &Counts, lo: u8, opts: Enumeration, must: Option<u8>, f: &mut dyn FnMut(Group)) {
    // Singles chains: 5..=12 long.
    if must.is_none() {
        let mut top = lo;
        while top <= ACE && c[top as usize] >= 1 {
            let len = top - lo + 1;
            if len >= 5 {
                f(Group::plain(GroupKind::Chain, top, len));
            }
            top += 1;
        }
        let mut top = lo;
        while top <= ACE && c[top as usize] >= 2 {
            let len = top - lo + 1;
            if len >= 3 {
                f(Group::plain(GroupKind::PairChain, top, len));
            }
            top += 1;
        }
    }
    let mut top = lo;
    while top <= ACE && c[top as usize] >= 3 {
        let len = top - lo + 1;
        if len >= 2 {
            carriers_at(c, top, len, opts, must, f);
        }
        top += 1;
    }
}

/// Visits every play of `c` that contains at least one card of rank `low`, where `low`
/// is the lowest rank present in `c`. This is the branching rule of the exact
/// decomposition: the group holding the lowest card is decided first.
pub fn for_each_with_lowest(c: &Counts, low: u8, opts: Enumeration, f: &mut dyn FnMut(Group)) {
    let n = c[low as usize];
    debug_assert!(n > 0 && c[..low as usize].iter().all(|&x| x == 0));
    // Main part at `low`.
    f(Group::plain(GroupKind::Single, low, 1));
    if n >= 2 {
        f(Group::plain(GroupKind::Pair, low, 1));
    }
    if n >= 3 {
        carriers_at(c, low, 1, opts, None, f);
    }
    if n == 4 {
        fours_at(c, low, opts, None, f);
    }
    if low == SMALL_JOKER && c[BIG_JOKER as usize] == 1 {
        f(Group::plain(GroupKind::Rocket, BIG_JOKER, 2));
    }
    if low <= ACE {
        chains_from(c, low, opts, None, f);
    }
    // `low` as a kicker of a trio, trio chain or four higher up.
    for r in low + 1..=TWO {
        let m = c[r as usize];
        if m >= 3 {
            carriers_at(c, r, 1, opts, Some(low), f);
        }
        if m == 4 {
            fours_at(c, r, opts, Some(low), f);
        }
    }
    for lo in low + 1..ACE {
        // Trio chains starting at `lo` carrying `low` as a wing.
        let mut top = lo;
        while top <= ACE && c[top as usize] >= 3 {
            let len = top - lo + 1;
            if len >= 2 {
                carriers_at(c, top, len, opts, Some(low), f);
            }
            top += 1;
        }
    }
}

/// Visits every play of `c` that beats `to_beat` (same kind and length with a higher
/// main rank, plus bombs and the rocket). Passing is not visited.
pub fn for_each_follow(c: &Counts, to_beat: &Group, opts: Enumeration, f: &mut dyn FnMut(Group)) {
    if to_beat.kind == GroupKind::Rocket {
        return;
    }
    let k = to_beat.kind;
    let len = to_beat.len;
    let min_top = to_beat.top + 1;
    match k {
        GroupKind::Single | GroupKind::Pair => {
            let need = if k == GroupKind::Single { 1 } else { 2 };
            for r in min_top..RANK_COUNT as u8 {
                if c[r as usize] >= need {
                    f(Group::plain(k, r, 1));
                }
            }
        }
        GroupKind::Trio | GroupKind::TrioWithSingle | GroupKind::TrioWithPair => {
            for r in min_top..=TWO {
                if c[r as usize] >= 3 {
                    same_kind_carrier(c, k, r, 1, opts, f);
                }
            }
        }
        GroupKind::Chain | GroupKind::PairChain => {
            let need = if k == GroupKind::Chain { 1 } else { 2 };
            for top in min_top.max(len - 1)..=ACE {
                let lo = top + 1 - len;
                if (lo..=top).all(|r| c[r as usize] >= need) {
                    f(Group::plain(k, top, len));
                }
            }
        }
        GroupKind::TrioChain | GroupKind::AirplaneWithSingles | GroupKind::AirplaneWithPairs => {
            for top in min_top.max(len - 1)..=ACE {
                let lo = top + 1 - len;
                if (lo..=top).all(|r| c[r as usize] >= 3) {
                    same_kind_carrier(c, k, top, len, opts, f);
                }
            }
        }
        GroupKind::FourWithTwoSingles | GroupKind::FourWithTwoPairs => {
            for r in min_top..=TWO {
                if c[r as usize] == 4 {
                    if k == GroupKind::FourWithTwoSingles {
                        single_wings(c, (r, r), 2, None, opts.rocket_as_kickers, &mut |kk| {
                            f(Group::with_kickers(k, r, 1, kk))
                        });
                    } else {
                        pair_wings(c, (r, r), 2, None, &mut |kk| {
                            f(Group::with_kickers(k, r, 1, kk))
                        });
                    }
                }
            }
        }
        GroupKind::Bomb | GroupKind::Rocket => {}
    }
    let bomb_from = if k == GroupKind::Bomb { min_top } else { 0 };
    for r in bomb_from..=TWO {
        if c[r as usize] == 4 {
            f(Group::plain(GroupKind::Bomb, r, 1));
        }
    }
    if c[SMALL_JOKER as usize] == 1 && c[BIG_JOKER as usize] == 1 {
        f(Group::plain(GroupKind::Rocket, BIG_JOKER, 2));
    }
}

fn same_kind_carrier(
    c: &Counts,
    k: GroupKind,
    top: u8,
    len: u8,
    opts: Enumeration,
    f: &mut dyn FnMut(Group),
) {
    let lo = top + 1 - len;
    match k {
        GroupKind::Trio | GroupKind::TrioChain => f(Group::plain(k, top, len)),
        GroupKind::TrioWithSingle | GroupKind::AirplaneWithSingles => single_wings(
            c,
            (lo, top),
            len as usize,
            None,
            opts.rocket_as_kickers,
            &mut |kk| f(Group::with_kickers(k, top, len, kk)),
        ),
        _ => pair_wings(c, (lo, top), len as usize, None, &mut |kk| {
            f(Group::with_kickers(k, top, len, kk))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &str) -> Counts {
        let mut c = [0u8; RANK_COUNT];
        for ch in s.chars() {
            let r = RANK_CHARS.iter().position(|&x| x == ch).unwrap();
            c[r] += 1;
        }
        c
    }

    fn leads(s: &str) -> Vec<String> {
        let mut v = Vec::new();
        for_each_lead(&counts(s), Enumeration::default(), &mut |g| {
            v.push(g.cards_string())
        });
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn lead_of_a_trio_with_two_singles() {
        // 333 + 4 + 5: singles 3,4,5; pair 33; trio 333; 3334; 3335.
        assert_eq!(
            leads("33345"),
            vec!["3", "33", "333", "3334", "3335", "4", "5"]
        );
    }

    #[test]
    fn rocket_kickers_follow_the_flag() {
        let c = counts("666777XD");
        let mut with = 0;
        for_each_lead(&c, Enumeration::default(), &mut |g| {
            if g.kind == GroupKind::AirplaneWithSingles && g.kickers() == [13, 14] {
                with += 1;
            }
        });
        assert_eq!(with, 1);
        let mut without = 0;
        let opts = Enumeration {
            rocket_as_kickers: false,
        };
        for_each_lead(&c, opts, &mut |g| {
            if g.kind == GroupKind::AirplaneWithSingles && g.kickers() == [13, 14] {
                without += 1;
            }
        });
        assert_eq!(without, 0);
    }

    #[test]
    fn a_four_is_not_two_pairs() {
        // 33334444: four+two pairs needs two different pair ranks besides the four.
        let mut v = Vec::new();
        for_each_lead(&counts("33334444"), Enumeration::default(), &mut |g| {
            if g.card_count() == 8 {
                v.push(g)
            }
        });
        assert!(v.is_empty(), "{v:?}");
    }

    #[test]
    fn follows_of_a_pair() {
        let to_beat = Group::plain(GroupKind::Pair, 9, 1); // QQ
        let mut v = Vec::new();
        for_each_follow(
            &counts("3KKA8888XD"),
            &to_beat,
            Enumeration::default(),
            &mut |g| v.push(g.cards_string()),
        );
        assert_eq!(v, vec!["KK", "8888", "XD"]);
    }

    #[test]
    fn lowest_rank_groups_cover_kicker_use() {
        // The 3 can be a kicker of 555.
        let mut v = Vec::new();
        for_each_with_lowest(&counts("3555"), 0, Enumeration::default(), &mut |g| {
            v.push(g.cards_string())
        });
        assert_eq!(v, vec!["3", "3555"]);
    }
}
