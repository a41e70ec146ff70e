//! Worlds: deals of the unseen cards to the two other seats, drawn from what the
//! history implies.
//!
//! **Hard constraints.** Each other seat gets exactly the number of cards it holds; the
//! bottom cards the landlord has not played are in the landlord's hand.
//!
//! **Inference model** ([`Inference`]). Every pass a seat made on a play of the other
//! side is evidence about the hand it held then (its hand in the world plus the cards it
//! played afterwards). A world is weighted by the product, over those passes, of the
//! probability that a seat holding that hand would pass:
//!
//! - 1 when the hand held no follow but bombs or the rocket;
//! - [`Inference::cheap`] when it held a *cheap* follow: one whose main part takes a
//!   whole rank group of the hand exactly (a lone single, an exact pair or trio, a chain
//!   over lone cards: nothing is broken up) below the 2 (2s and jokers are kept for
//!   control, so passing with them says little);
//! - [`Inference::costly`] when it held only follows that break a group or spend a 2 or
//!   a joker.
//!
//! Passes on the teammate's plays carry no evidence (seed 002: a teammate's play is left
//! alone). The probabilities are the model's parameters, measured on recorded games
//! (BENCHMARKS.md, "Dou Dizhu inference"): with them the sampled worlds put more of the
//! unseen cards where they really are than uniform deals do.
//!
//! **Drawing.** When the unseen cards split in at most [`ENUMERATE_WORLDS`] ways, every
//! split is taken with its weight. Otherwise each world is drawn by
//! sampling-importance-resampling: [`Inference::draws`] uniform deals (under the hard
//! constraints), one of them picked with probability proportional to its weight.

use rand::Rng;
use rand::rngs::SmallRng;
use std::ops::ControlFlow;

use crate::doudizhu::card::{Cards, Rank};
use crate::doudizhu::movegen::try_for_each_follow;
use crate::doudizhu::play::{Kind, Play, Rules};
use crate::doudizhu::state::{GameState, Seat};

/// Enumerate every split of the unseen cards when there are at most this many.
pub const ENUMERATE_WORLDS: usize = 64;

/// The inference model's parameters (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inference {
    /// Probability of a pass by a seat that held a cheap follow.
    pub cheap: f64,
    /// Probability of a pass by a seat whose follows all break a group or spend a 2 or
    /// a joker.
    pub costly: f64,
    /// Uniform deals drawn per sampled world (1 = no resampling).
    pub draws: usize,
}

impl Inference {
    /// The parameters the search uses.
    pub const DEFAULT: Inference = Inference {
        cheap: 0.01,
        costly: 0.1,
        draws: 32,
    };

    /// No inference: every deal under the hard constraints equally likely.
    pub const UNIFORM: Inference = Inference {
        cheap: 1.0,
        costly: 1.0,
        draws: 1,
    };

    /// The probability that a seat holding `hand` passes on `to_beat` (see the module
    /// docs).
    pub fn pass_likelihood(&self, hand: &Cards, to_beat: &Play, rules: &Rules) -> f64 {
        let mut any = false;
        let cheap = try_for_each_follow(hand, to_beat, rules, |f| {
            if f.kind.is_bomb() {
                return ControlFlow::Continue(());
            }
            any = true;
            if is_cheap(hand, f) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break();
        if cheap {
            self.cheap
        } else if any {
            self.costly
        } else {
            1.0
        }
    }
}

/// Whether follow `f` takes whole rank groups of `hand` below the 2 for its main part.
fn is_cheap(hand: &Cards, f: &Play) -> bool {
    let per = match f.kind {
        Kind::Single | Kind::Chain => 1,
        Kind::Pair | Kind::PairChain => 2,
        Kind::Trio
        | Kind::TrioWithSingle
        | Kind::TrioWithPair
        | Kind::TrioChain
        | Kind::AirplaneWithSingles
        | Kind::AirplaneWithPairs => 3,
        _ => return false,
    };
    let top = f.main.index();
    if top >= Rank::TWO.index() {
        return false;
    }
    let c = hand.counts();
    (top + 1 - usize::from(f.len)..=top).all(|r| c[r] == per)
}

/// A pass that is evidence about a hidden hand.
#[derive(Clone, Copy, Debug)]
struct Evidence {
    /// Index into [`Worlds::others`].
    other: usize,
    to_beat: Play,
    /// Cards the seat played after the pass.
    played_after: Cards,
}

/// One deal of the unseen cards: the three hands (turn-order index) and its weight.
#[derive(Clone, Copy, Debug)]
pub struct World {
    /// Hands by turn-order index.
    pub hands: [Cards; 3],
    /// Relative weight under the inference model (1 for a resampled world).
    pub weight: f64,
}

/// The consistent deals of the unseen cards, from one seat's point of view.
pub struct Worlds {
    me: usize,
    hand: Cards,
    /// The two other seats (turn-order indices) and their sizes.
    others: [(usize, u8); 2],
    /// Cards that must go to a given other seat (`forced[k]` for `others[k]`).
    forced: [Cards; 2],
    /// Cards free to go either way, one entry per card.
    free: Vec<Rank>,
    evidence: Vec<Evidence>,
    model: Inference,
    rules: Rules,
}

impl Worlds {
    /// The worlds consistent with `st`, weighted by `model`.
    pub fn new(st: &GameState, model: Inference) -> Worlds {
        let me = st.seat.index();
        let o1 = (me + 1) % 3;
        let o2 = (me + 2) % 3;
        let others = [(o1, st.cards_left[o1]), (o2, st.cards_left[o2])];
        let mut forced = [Cards::EMPTY; 2];
        let mut pool = st.unseen;
        if st.seat != Seat::Landlord {
            let k = if o1 == 0 { 0 } else { 1 };
            for (r, n) in st.landlord_known.ranks() {
                let n = n.min(pool.count(r));
                pool.remove(r, n);
                let _ = forced[k].add(r, n);
            }
        }
        let free: Vec<Rank> = pool.iter().collect();
        let evidence = st
            .passes
            .iter()
            .filter(|p| p.seat != st.seat && !p.seat.same_side(p.by))
            .map(|p| Evidence {
                other: if others[0].0 == p.seat.index() { 0 } else { 1 },
                to_beat: p.to_beat,
                played_after: p.played_after,
            })
            .collect();
        Worlds {
            me,
            hand: st.hand,
            others,
            forced,
            free,
            evidence,
            model,
            rules: st.rules,
        }
    }

    /// Whether the model weighs worlds at all (there is evidence and it is not uniform).
    pub fn is_weighted(&self) -> bool {
        !self.evidence.is_empty() && self.model != Inference::UNIFORM
    }

    /// The weight of a deal under the inference model.
    pub fn weight(&self, hands: &[Cards; 3]) -> f64 {
        let mut w = 1.0;
        for e in &self.evidence {
            let now = hands[self.others[e.other].0];
            let then = now.checked_add(&e.played_after).unwrap_or(now);
            w *= self.model.pass_likelihood(&then, &e.to_beat, &self.rules);
        }
        w
    }

    /// Hands of the three seats for one split of the free cards.
    fn build(&self, to_first: &[Rank], to_second: &[Rank]) -> [Cards; 3] {
        let mut hands = [Cards::EMPTY; 3];
        hands[self.me] = self.hand;
        let mut a = self.forced[0];
        let mut b = self.forced[1];
        for &r in to_first {
            let _ = a.add(r, 1);
        }
        for &r in to_second {
            let _ = b.add(r, 1);
        }
        hands[self.others[0].0] = a;
        hands[self.others[1].0] = b;
        hands
    }

    /// Every split with its weight when there are at most [`ENUMERATE_WORLDS`] (`None`
    /// otherwise).
    pub fn enumerate(&self) -> Option<Vec<World>> {
        let need_first = usize::from(self.others[0].1).checked_sub(self.forced[0].len())?;
        // Group the free cards by rank: a split is how many of each rank go first.
        let mut per_rank: Vec<(Rank, u8)> = Vec::new();
        for &r in &self.free {
            match per_rank.last_mut() {
                Some((lr, n)) if *lr == r => *n += 1,
                _ => per_rank.push((r, 1)),
            }
        }
        // Count the splits first (ways[i][k]: splits of ranks i.. giving k cards to the
        // first seat), so that a large count costs no enumeration.
        let n = per_rank.len();
        let mut ways = vec![vec![0u64; need_first + 1]; n + 1];
        ways[n][0] = 1;
        for i in (0..n).rev() {
            for k in 0..=need_first {
                ways[i][k] = (0..=usize::from(per_rank[i].1).min(k))
                    .map(|j| ways[i + 1][k - j])
                    .fold(0u64, u64::saturating_add);
            }
        }
        if ways[0][need_first] as usize > ENUMERATE_WORLDS {
            return None;
        }
        let mut out = Vec::new();
        let mut pick = vec![0u8; n];
        self.splits(&per_rank, &ways, 0, need_first, &mut pick, &mut out);
        for w in &mut out {
            w.weight = self.weight(&w.hands);
        }
        Some(out)
    }

    fn splits(
        &self,
        per_rank: &[(Rank, u8)],
        ways: &[Vec<u64>],
        i: usize,
        left: usize,
        pick: &mut Vec<u8>,
        out: &mut Vec<World>,
    ) {
        if ways[i][left] == 0 {
            return;
        }
        if i == per_rank.len() {
            {
                let mut first = Vec::new();
                let mut second = Vec::new();
                for (j, &(r, n)) in per_rank.iter().enumerate() {
                    first.extend(std::iter::repeat_n(r, usize::from(pick[j])));
                    second.extend(std::iter::repeat_n(r, usize::from(n - pick[j])));
                }
                out.push(World {
                    hands: self.build(&first, &second),
                    weight: 1.0,
                });
            }
            return;
        }
        let (_, n) = per_rank[i];
        for k in 0..=n.min(left as u8) {
            pick[i] = k;
            self.splits(per_rank, ways, i + 1, left - usize::from(k), pick, out);
        }
    }

    /// A uniform deal under the hard constraints.
    pub fn uniform(&self, rng: &mut SmallRng) -> [Cards; 3] {
        let need_first = usize::from(self.others[0].1).saturating_sub(self.forced[0].len());
        let mut cards = self.free.clone();
        let split = need_first.min(cards.len());
        // Partial Fisher-Yates: the first `split` cards go to the first seat.
        for i in 0..split {
            let j = rng.random_range(i..cards.len());
            cards.swap(i, j);
        }
        self.build(&cards[..split], &cards[split..])
    }

    /// A world drawn by sampling-importance-resampling (see the module docs).
    pub fn sample(&self, rng: &mut SmallRng) -> [Cards; 3] {
        let first = self.uniform(rng);
        if !self.is_weighted() || self.model.draws <= 1 {
            return first;
        }
        // Weighted reservoir of one: each draw replaces the pick with probability
        // weight / total so far.
        let mut pick = first;
        let mut total = self.weight(&first);
        for _ in 1..self.model.draws {
            let hands = self.uniform(rng);
            let w = self.weight(&hands);
            total += w;
            if total > 0.0 && rng.random_bool((w / total).clamp(0.0, 1.0)) {
                pick = hands;
            }
        }
        pick
    }
}
