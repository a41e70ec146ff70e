//! Discard and call decisions by the probability of winning within the draws left
//! (seed 003: "discard the tile after which the chance of winning is highest; chi / pon /
//! kan when it raises that chance"), under the model of [`super::probability`].
//!
//! # Tiers
//!
//! Every candidate (every distinct discard; every call option) gets a win and a tenpai
//! probability that is exact or a Monte Carlo estimate with its standard error, each for
//! a stated [`Continuation`]: what the player does after the discard. The first tier that
//! fits the request decides ([`discard::rank_discards`]):
//!
//! 1. **No draws left**: nothing can be drawn; exact.
//! 2. **Short horizons** (2 draws, or more when the pool has few kinds): the exact optimum
//!    of the model, every discard allowed after every draw
//!    ([`super::probability::optimal`]); the suggested discard is optimal.
//! 3. **The plan** (hands up to [`discard::PLAN_MAX_SHANTEN`], a 3-shanten hand's within
//!    [`discard::PLAN_STATES_AT_3_SHANTEN`] states): the planning DP
//!    ([`super::probability::plan`], one tegawari or break-down per line, within one
//!    advance of the hand's shanten) ranks the
//!    candidates by its own values; each keeping candidate's figures are the plan's win
//!    and tenpai probability under the exact model, by simulation with a control
//!    variate ([`super::probability::simulate`]); for a tenpai hand the
//!    shanten-raising candidates are exact advance-or-throw values (the raise is the
//!    change), otherwise greedy rollouts ranked after the keeping ones.
//! 4. **Far hands**: advance or throw for the keeping candidates if it fits
//!    [`discard::FAR_STATES`] states (exact), else greedy rollouts
//!    ([`super::probability::rollout`]) ranked by shanten, ukeire, then the estimate;
//!    raising candidates get rollouts and rank after.
//!
//! A shanten-raising first discard of a hand at 1-shanten or more is never preferred to a
//! shanten-keeping one ([`discard::RAISE_EXACT_UP_TO`]): in play it gains nothing
//! (BENCHMARKS.md) and costs a search one level deeper; the plan can still break the
//! hand down later.
//!
//! # The engine's own play
//!
//! Each figure belongs to its fixed continuation; the engine itself re-decides after
//! every draw and wins more often. [`play`] maps each candidate's figure to an estimate
//! of the engine's own win rate from there (`play_win_probability`), by a calibration
//! fitted on the engine's solitaire games; the ranking does not use it.
//!
//! # Budget
//!
//! Each tier gets a share of the work deadline (the optimal search a third, the plan 60 %,
//! the simulations up to 85-95 %); a search that does not fit its share, its state bound
//! or the engine memory budget stops and the next tier answers. The simulations stop at
//! `figures::TARGET_STDERR` or when their share is spent, after at least
//! `figures::MIN_PATHS` paths. Apart from the deadline, the work itself is bounded by an
//! [`Effort`] (states per search, paths per simulation): [`Effort::FULL`] for every
//! solitaire request, the smaller [`Effort::TABLE`] for a table request that needs win
//! probabilities.

pub mod call;
pub mod candidate;
mod clock;
pub mod discard;
pub mod effort;
pub(crate) mod figures;
pub mod open_yaku;
pub mod play;
pub mod shape;

pub use call::{
    CallAction, CallAdvice, From, OptionFigures, suggest_call, suggest_call_at, suggest_call_within,
};
pub use candidate::{Continuation, DiscardCandidate, Method, compare_candidates};
pub use discard::{
    DiscardAdvice, Ranked, rank_discards, rank_discards_within, suggest_discard,
    suggest_discard_within,
};
pub use effort::Effort;
pub use open_yaku::Yakuhai;
pub use shape::{discard_by_shape, pass_by_shape};

use super::probability::default_draws_left;
use super::rules::Ruleset;
use super::tile::Tile;

/// A decision request that cannot be answered as posed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecisionError {
    /// A discard decision needs a 3n+2 hand (the drawn tile included).
    #[error("hand has {0} tiles; a discard needs 3n+2 tiles (the drawn tile included)")]
    DiscardNeedsDrawnTile(usize),
    /// A call decision needs a 3n+1 hand (waiting for a discard).
    #[error("hand has {0} tiles; a call decision needs 3n+1 tiles")]
    CallNeedsWaitingHand(usize),
    /// More draws than unseen tiles.
    #[error("{draws} draws exceed the {pool} unseen tiles")]
    DrawsBeyondPool {
        /// Draws asked for.
        draws: u32,
        /// Unseen tiles.
        pool: u32,
    },
    /// The offered tile would be a fifth copy (all four are in hand, melds or visible).
    #[error("offered tile {0} would be a fifth copy (four are in hand, melds and visible)")]
    OfferedFifthCopy(Tile),
    /// The offered tile does not exist in the ruleset (an honour under SICHUAN).
    #[error("offered tile {tile} does not exist under {ruleset}")]
    OfferedNotInSet {
        /// The tile.
        tile: Tile,
        /// The ruleset.
        ruleset: Ruleset,
    },
}

/// The draws to use: the caller's, checked against the pool, or the default estimate.
pub(crate) fn resolve_draws(
    draws_left: Option<u32>,
    unseen: &[u8; 34],
    ruleset: Ruleset,
) -> Result<u32, DecisionError> {
    let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
    match draws_left {
        Some(d) if d > pool => Err(DecisionError::DrawsBeyondPool { draws: d, pool }),
        Some(d) => Ok(d),
        None => Ok(default_draws_left(pool, ruleset)),
    }
}
