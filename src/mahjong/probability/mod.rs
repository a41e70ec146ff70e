//! Win and tenpai probability of a mahjong hand within the draws left, computed exactly
//! under a stated single-player model (the question of seed 003: "discard the tile after
//! which the chance of winning is highest").
//!
//! # The model
//!
//! - The player holds a concealed hand of 3n+1 tiles (after a discard) and has called
//!   `4 - n` melds. The *unseen pool* is every tile of the set (136, or 108 under
//!   SICHUAN) that is not in the hand, not in a meld and not in `visible`; `N` is its
//!   size.
//! - The player makes `T = draws_left` draws. Each draw is uniform over the unseen pool
//!   *as it is at that moment*: a drawn tile leaves the pool for good, whether it is kept
//!   or discarded (a discard is visible). So the k-th draw is from `N - k + 1` tiles. No
//!   one else's draws or discards are modelled, and no calls are made inside the horizon.
//! - After each draw the player declares a win if the 3n+2 hand is a winning hand under
//!   the ruleset (any form: four melds and a pair, seven pairs, thirteen orphans where
//!   the ruleset has them; [`shanten`](mod@crate::mahjong::shanten) is the judge); otherwise it
//!   discards one tile.
//! - **The policy class ("advance or throw").** Let `s` be the shanten of the 3n+1 hand
//!   and call a drawn kind *useful* when the 3n+2 hand it makes has shanten below `s`
//!   (the ukeire). A useful draw is kept and the player discards one of the tiles whose
//!   discard leaves shanten `s - 1`, choosing the one that maximises the objective; any
//!   other draw is discarded at once (tsumogiri). The choice is free at every step and
//!   may depend on the hand and the draws left. The player does not break a hand down
//!   (a discard that raises shanten) and does not change tiles at equal shanten
//!   (tegawari). At the *first* discard — the decision this module is asked about —
//!   every distinct tile is a candidate, including ones that raise shanten.
//! - `win_probability` is the maximum over that policy class of the probability that the
//!   hand wins within the `T` draws; `tenpai_probability` is, separately, the maximum
//!   probability that the hand is tenpai (shanten 0 after a discard) at some point within
//!   them (1 for a hand that is tenpai already). Each figure is the optimum of its own
//!   objective, so both are well defined even where the two optimal policies differ.
//!
//! # Why the numbers are exact with a shrinking pool, and why the policy is restricted
//!
//! In general the chance of the next draw depends on every tile drawn so far, and the
//! tiles drawn are not determined by the hand: a tile drawn and thrown away is gone from
//! the pool although it never shows in the hand. Keeping the hand *and* the multiset of
//! tiles drawn as the state makes the state space hopeless (17 draws from 34 kinds).
//! The advance-or-throw class avoids that, by a nesting property of shanten:
//!
//! *Lemma.* If `H' = H + k - j` has shanten one below `H`, every kind useful to `H'` is
//! useful to `H`. (Shanten is the exchange distance to the set of complete hands minus
//! one, so one exchange changes it by at most one. If `H' + m - j2` has shanten
//! `s - 2`, then `j2` is not `k` — else `H + m - j` would gain two steps in one exchange
//! — and `H + m - j2` is one exchange (`k` for `j`) away from it, so its shanten is at
//! most `s - 1`: `m` is useful to `H`.)
//!
//! Along any line of play in the class the useful sets therefore shrink. A kind useful
//! to the current hand was useful to every earlier hand, so every copy of it ever drawn
//! was kept; and it was never discarded afterwards (a kind `j` discarded on an advance
//! `H + k - j` is not useful to the hand that results — adding it back gives `H + k`,
//! whose shanten is no lower — nor, by the lemma, to any later hand). Hence for each kind `k` useful to the current hand `H`, the copies
//! drawn so far are exactly `H[k] - H0[k]`, and the copies still in the pool are
//! `pool0[k] + H0[k] - H[k]` — a function of the hand alone — while the pool's size is
//! `N - (draws made)`. The chance of every draw that matters is thus known exactly from
//! `(hand, draws left)`, and the value of a hand state can be memoised on that pair.
//! The kinds that are not useful are lumped together as "no change", with probability
//! one minus the useful ones'. (The first discard `d` is the one exception to "never
//! discarded": when it raises shanten, `d` may be useful later, so its copies are
//! counted one lower until it is no longer useful; see [`plan`].)
//!
//! Larger policy classes (tegawari, breaking down) lose this property: their exact
//! value needs the drawn multiset in the state. [`optimal`] searches that state for
//! short horizons; [`plan`] chooses a wider policy (one change per line, taken within
//! one advance of the hand's shanten) with counts that ignore tiles drawn and thrown
//! after the change, and [`simulate`] measures that policy's true value under this
//! model, with its standard error. (On the class both compute, mahjong-cpp's calculator
//! agrees with the advance-or-throw values to 1e-7 on 300 random 1-3-shanten hands,
//! issue 11: it counts the shrinking pool exactly there too.)
//!
//! # Algorithm
//!
//! [`plan::Planner`] with [`plan::PlanConfig::ADVANCE_OR_THROW`]: dynamic programming over
//! the draw/discard graph of the class with memoisation on hand states. Each state stores
//! its values for every number of draws left at once (one array per state, computed once),
//! so one state costs one ukeire scan plus one scan of the advancing discards per useful
//! kind; states are shared between the candidate first discards. A hand at shanten `s`
//! needs `s + 1` useful draws to win (`s` to reach tenpai): its values for fewer draws come
//! out 0, and a hand with `s` beyond the horizon is not expanded at all. (Along a line of
//! play of the class, shanten and draws left fall together, so no deeper pruning exists.)
//! Useful kinds are only looked for among those of the hand a state advanced from (a
//! superset, by the lemma).
//! Independently checked in `tests/mahjong_probability.rs` against a brute force that
//! enumerates every draw sequence with the real shrinking pool, and against a Monte
//! Carlo simulation of shuffled walls.
//!
//! When the work budget or the deadline runs out, the strategy estimates instead by
//! simulation ([`simulate`], [`rollout`]) and reports `exact: false`. (The greedy-line
//! estimate the service used before issue 11 lives with the solitaire harness that
//! still compares it: `crates/gameai-tools`, `mahjong::estimate`.)

pub mod budgeted_growth;
pub mod buffer_pool;
pub mod draws;
pub mod optimal;
pub mod plan;
pub mod rollout;
pub mod shanten_judge;
pub mod simulate;

pub use draws::default_draws_left;

/// Why a computation stopped before finishing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The deadline passed.
    #[error("the work deadline passed")]
    Deadline,
    /// The state limit (memory bound) was reached.
    #[error("the state limit ({0}) was reached")]
    StateLimit(usize),
    /// The process-wide engine memory budget refused more memory
    /// ([`crate::memory_budget`]).
    #[error("the engine memory budget is spent")]
    MemoryBudget,
}

/// Win and tenpai probability of one decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Odds {
    /// Probability of winning within the draws (0..=1).
    pub win: f64,
    /// Probability of being tenpai at some point within the draws (0..=1).
    pub tenpai: f64,
}
