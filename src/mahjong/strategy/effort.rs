//! How much work one discard ranking may do: the bounds of its tiers in states and
//! simulated paths, apart from the work deadline (which bounds the time but not the
//! work: on a loaded machine the same deadline buys less).
//!
//! [`Effort::FULL`] is the engine's own (the constants of [`super::discard`], every
//! solitaire request: the plan is bounded only by the engine memory budget below
//! 3-shanten). [`Effort::TABLE`] is what a request with a table gets when its decision
//! needs the win probabilities at all (`crate::mahjong::table::effort` decides that):
//! every search bounded, so that a table request's work has a ceiling whatever the
//! deadline; its figures say how they were computed by their method, continuation and
//! standard error as always.

use super::discard::{FAR_STATES, PLAN_STATES_AT_3_SHANTEN};
use super::figures::{BATCH, MIN_PATHS};

/// The work bounds of one discard ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effort {
    /// The plan's state bound (all candidates together) by the best discard's shanten:
    /// index 0 for tenpai, 1, 2, 3 (the plan is not tried farther). `None`: only the
    /// engine memory budget.
    pub plan_states: [Option<usize>; 4],
    /// Simulated paths of the plan for the best three candidates and for the others.
    pub plan_paths: (u64, u64),
    /// State bound of the far tier's advance-or-throw search.
    pub far_states: usize,
    /// Greedy rollouts for the candidates that compete for the choice and for the others.
    pub rollouts: (u64, u64),
    /// Paths (plan simulation or rollouts) of a call decision's 3n+1 options: passing,
    /// and the hand after an open kan.
    pub option_paths: u64,
}

impl Effort {
    /// The engine's own bounds (BENCHMARKS.md chose them for solitaire play).
    pub const FULL: Effort = Effort {
        plan_states: [None, None, None, Some(PLAN_STATES_AT_3_SHANTEN)],
        plan_paths: (512, 64),
        far_states: FAR_STATES,
        rollouts: (256, MIN_PATHS),
        option_paths: 512,
    };

    /// A table decision that needs win probabilities: every search bounded in states
    /// (the plan within 60,000 at every shanten, the solitaire bound at 3-shanten; the
    /// far tier within 20,000), half the paths and rollouts of the competing
    /// candidates. Measured on 1,690 recorded table states
    /// (docs/experiments/2026-12-06-mahjong-table-latency.md): 8 decisions change
    /// against [`Effort::FULL`] (4-shanten rollout noise) and the engine's CPU time stays
    /// at most about 75 ms. A tighter bound (12,000 plan states at 2- and 3-shanten,
    /// 5,000 far, 64 rollouts) cut the CPU p99 from 63 to 15 ms but changed 6 % of the
    /// decisions (the far hands at quiet tables), each giving up a little by the full
    /// figures, and placed 0.30 worse in its one paired 100-hanchan arena run (this
    /// bound: +0.05 +- 0.07 over 200): the 3-shanten plan is the engine's cost and its
    /// strength.
    pub const TABLE: Effort = Effort {
        plan_states: [Some(60_000); 4],
        plan_paths: (256, MIN_PATHS),
        far_states: 20_000,
        rollouts: (128, MIN_PATHS),
        option_paths: 256,
    };

    /// The plan's state bound for a hand whose best discard keeps `shanten`.
    pub fn plan_state_limit(&self, shanten: i8) -> Option<usize> {
        self.plan_states[shanten.clamp(0, 3) as usize]
    }

    /// The most simulated paths and rollouts a ranking of `candidates` discards can make
    /// with these bounds, whatever the deadline. Only one tier simulates: the plan tier
    /// gives its best three candidates `plan_paths.0`, the other keeping ones
    /// `plan_paths.1` and the raising ones `rollouts.1`; the far tier gives at most
    /// `rollouts.0` each. A plan simulation never goes below [`MIN_PATHS`]; rollouts past
    /// that floor go by batches of [`BATCH`] and may pass their maximum by one batch.
    pub fn max_paths(&self, candidates: usize) -> u64 {
        let most = |want: u64| want.max(MIN_PATHS) + BATCH;
        let n = candidates as u64;
        let plan = 3 * most(self.plan_paths.0)
            + n.saturating_sub(3) * most(self.plan_paths.1.max(self.rollouts.1));
        let far = n * most(self.rollouts.0);
        plan.max(far)
    }
}
