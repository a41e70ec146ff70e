//! One discard of a 3n+2 hand with its figures, and how they were computed.

use std::cmp::Ordering;

use crate::mahjong::probability::shanten_judge::ShantenJudge;
use crate::mahjong::tile::Tile;
use crate::mahjong::ukeire::{self, Ukeire};

/// How a candidate's probabilities were computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Exact under the model (standard error 0).
    Exact,
    /// A Monte Carlo estimate over shuffled walls under the model, with its standard
    /// error.
    Simulated,
    /// Not computed: the shape-only answer ([`super::shape`]), ranked by shanten and
    /// ukeire; its probabilities are 0 and mean nothing.
    NotComputed,
    /// Not computed because no win probability could change the decision (a table's
    /// fold: `crate::mahjong::table::effort`); ranked by shanten and ukeire, its
    /// probabilities are 0 and mean nothing.
    NotNeeded,
}

/// What the player is assumed to do after the discard: the policy whose probabilities
/// are reported (see `crate::mahjong::probability` for the definitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Continuation {
    /// The best play of all: every discard allowed after every draw.
    Optimal,
    /// The engine's plan: advance or throw with one change (a tegawari or a break-down,
    /// taken before the line has advanced twice).
    Plan,
    /// Advance or throw: keep the draws that lower shanten (with the best discard), throw
    /// the others.
    AdvanceOrThrow,
    /// Greedy advance or throw: keep the draws that lower shanten, discarding the tile that
    /// leaves the most useful copies still unseen (ties to the lowest tile in kind
    /// order); throw the others. Stated exactly in
    /// [`crate::mahjong::probability::rollout`].
    Greedy,
}

/// One discard of a 3n+2 hand with its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardCandidate {
    /// The tile discarded.
    pub tile: Tile,
    /// Shanten of the 3n+1 hand left.
    pub shanten: i8,
    /// Its ukeire (kinds lowering shanten with their unseen copies).
    pub ukeire: Ukeire,
    /// Probability of winning within the draws (0..=1) with `continuation`.
    pub win_probability: f64,
    /// Its standard error (0 when `method` is exact).
    pub win_stderr: f64,
    /// Probability of being tenpai at some point within the draws (0..=1), same policy.
    pub tenpai_probability: f64,
    /// Its standard error.
    pub tenpai_stderr: f64,
    /// How the probabilities were computed.
    pub method: Method,
    /// The policy they belong to.
    pub continuation: Continuation,
    /// Estimated win probability of the engine's own play after this discard (every
    /// later decision the engine's), with its standard error: [`super::play`]. `None`
    /// outside the domain its map was fitted on.
    pub play: Option<super::play::PlayFigure>,
    /// The engine's preference: the order of the candidates (see
    /// [`compare_candidates`]).
    pub(crate) rank: Rank,
}

/// The engine's ranking key of a candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rank {
    /// Candidates of a lower class come first (a shanten-raising discard of a hand at
    /// 1-shanten or more comes after every shanten-keeping one).
    pub class: u8,
    /// Within a class, the engine's value (the plan's own value, an exact value, or for
    /// greedy candidates `-shanten`-and-ukeire first, see `by_shape`).
    pub win: f64,
    /// Tenpai value, the second key.
    pub tenpai: f64,
    /// Rank by shanten and ukeire before the values (greedy candidates).
    pub by_shape: bool,
}

impl DiscardCandidate {
    /// A candidate with no figures yet.
    pub fn shell(tile: Tile, shanten: i8, ukeire: Ukeire) -> DiscardCandidate {
        DiscardCandidate {
            tile,
            shanten,
            ukeire,
            win_probability: 0.0,
            win_stderr: 0.0,
            tenpai_probability: 0.0,
            tenpai_stderr: 0.0,
            method: Method::Exact,
            continuation: Continuation::Optimal,
            play: None,
            rank: Rank {
                class: 0,
                win: 0.0,
                tenpai: 0.0,
                by_shape: false,
            },
        }
    }

    /// Sets exact figures (also the ranking values).
    pub(crate) fn set_exact(&mut self, win: f64, tenpai: f64, continuation: Continuation) {
        self.win_probability = win;
        self.tenpai_probability = tenpai;
        self.win_stderr = 0.0;
        self.tenpai_stderr = 0.0;
        self.method = Method::Exact;
        self.continuation = continuation;
        self.rank.win = win;
        self.rank.tenpai = tenpai;
    }
}

/// Every distinct discard of the 3n+2 `h` with its shanten and ukeire (`pool`: the
/// copies the player cannot see), in tile order.
pub(crate) fn shells(judge: &ShantenJudge, h: &[u8; 34], pool: &[u8; 34]) -> Vec<DiscardCandidate> {
    let mut out = Vec::new();
    let mut left = *h;
    for d in 0..34 {
        if h[d] == 0 {
            continue;
        }
        left[d] -= 1;
        let (shanten, uk) = ukeire::ukeire(
            &left,
            judge.melds(),
            judge.ruleset(),
            judge.lackable(),
            judge.caps(),
            pool,
        );
        left[d] += 1;
        out.push(DiscardCandidate::shell(Tile(d as u8), shanten, uk));
    }
    out
}

/// The engine's order of preference, best first (the order of
/// [`super::DiscardAdvice::candidates`], documented in `mahjong.proto`): the class
/// (shanten-keeping discards before shanten-raising ones when the hand is 1-shanten or
/// more), then the engine's value of the candidate — win, then tenpai, both to 12 decimal
/// places — then lower shanten, larger ukeire total, tile order. Candidates ranked by
/// shape (far hands, simulated figures) compare shanten and ukeire before the values.
pub fn compare_candidates(a: &DiscardCandidate, b: &DiscardCandidate) -> Ordering {
    let q = |p: f64| (p * 1e12).round() as i64;
    let values = q(b.rank.win)
        .cmp(&q(a.rank.win))
        .then(q(b.rank.tenpai).cmp(&q(a.rank.tenpai)));
    let shape = a
        .shanten
        .cmp(&b.shanten)
        .then(b.ukeire.total.cmp(&a.ukeire.total));
    let by_shape = a.rank.by_shape || b.rank.by_shape;
    a.rank
        .class
        .cmp(&b.rank.class)
        .then(if by_shape {
            shape.then(values)
        } else {
            values.then(shape)
        })
        .then(a.tile.cmp(&b.tile))
}
