//! Figures of one option (a 13-tile hand left after a discard or a call): the engine's
//! three ways of computing them, shared by discard and call decisions.
//!
//! - [`optimal`]: the exact optimum of the model for short horizons.
//! - [`simulate_plan`]: the plan's value under the exact model, by simulation with the
//!   plan's control variate (exact, with no simulation, when no change can be taken on
//!   any line from the option).
//! - [`rollouts`]: Monte Carlo of the greedy continuation, for hands the plan does not
//!   fit.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::candidate::{Continuation, DiscardCandidate, Method};
use super::clock::Clock;
use crate::mahjong::probability::optimal::OptimalSolver;
use crate::mahjong::probability::plan::Planner;
use crate::mahjong::probability::rollout::Rollout;
use crate::mahjong::probability::shanten_judge::ShantenJudge;
use crate::mahjong::probability::simulate::{Estimate, Moments, Simulator};

/// Longest horizon the optimal search is tried on with a full pool; shorter pools allow
/// longer ones (see [`optimal_fits`]).
pub const OPTIMAL_DRAWS: u32 = 2;

/// Whether the optimal search of `options` 13-tile hands with `draws` draws from `pool`
/// is cheap enough to try: about `(kinds · 14)^(draws - 1)` leaves per option, at most
/// 300,000 in all.
pub fn optimal_fits(pool: &[u8; 34], draws: u32, options: usize) -> bool {
    if draws <= OPTIMAL_DRAWS {
        return true;
    }
    let kinds = pool.iter().filter(|&&c| c > 0).count() as f64;
    let leaves = (kinds * 14.0).powi(draws as i32 - 1) * options as f64;
    leaves <= 3e5
}

/// Exact optimum of the 13-tile `hand`; `None` if the search does not fit.
pub fn optimal(
    solver: &mut OptimalSolver,
    hand: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
) -> Option<(f64, f64)> {
    solver.value(hand, pool, draws).ok()
}

/// A stable seed for a decision's simulations: the same request gives the same answer.
pub fn seed_of(hand: &[u8; 34], pool: &[u8; 34], draws: u32) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(draws);
    for (&h, &p) in hand.iter().zip(pool) {
        x = (x ^ u64::from(h) ^ u64::from(p) << 8).wrapping_mul(0x0100_0000_01b3);
        x ^= x >> 29;
    }
    x
}

/// The rng of path `i` of a decision: the same walls for every candidate (common random
/// numbers).
fn path_rng(seed: u64, i: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed ^ i.wrapping_mul(0xd6e8_feb8_6659_fd93))
}

/// Simulation targets: stop a candidate's simulation at this standard error of the win
/// probability, after at least [`MIN_PATHS`] and at most `max` paths.
pub const TARGET_STDERR: f64 = 0.002;
/// Fewest paths of a simulated figure while the budget lasts.
pub const MIN_PATHS: u64 = 32;
/// Paths per batch between standard-error checks (the clock is read after every path).
pub(crate) const BATCH: u64 = 16;
/// Past this fraction of the budget [`MIN_PATHS`] gives way to the deadline: a plan
/// simulation stops at [`LAST_PATHS`] paths, greedy rollouts at what they have, even
/// none for an option but the first when the engine was starved of CPU (their standard error,
/// `sqrt(p (1 - p) / max(n, 1))` with `p = (k + 1) / (n + 2)`, says how little that is:
/// 0.5 with no rollout). The rest of the budget is for ranking and the answer.
pub const LAST_CALL: f64 = 0.97;
/// Fewest paths of a plan simulation past [`LAST_CALL`]: its standard error is the
/// sample's, which needs at least two.
pub const LAST_PATHS: u64 = 4;

/// The plan's figures for 13-tile node `root` into `c`: exact when no change can be taken
/// from it, else simulated (at least [`MIN_PATHS`] paths, then until [`TARGET_STDERR`],
/// `max_paths` or the clock's fraction `until`). Returns the paths simulated.
#[allow(clippy::too_many_arguments)]
pub fn simulate_plan(
    planner: &Planner,
    root: u32,
    pool: &[u8; 34],
    seed: u64,
    max_paths: u64,
    clock: &Clock,
    until: f64,
    c: &mut DiscardCandidate,
) -> u64 {
    let odds = planner.odds(root);
    c.rank.win = odds.win;
    c.rank.tenpai = odds.tenpai;
    if planner.is_exact(root) {
        c.set_exact(odds.win, odds.tenpai, Continuation::Plan);
        c.rank.win = odds.win;
        return 0;
    }
    let mut sim = Simulator::new(planner, root, pool);
    let mut est = Estimate::default();
    let mut i = 0;
    while i < max_paths.max(MIN_PATHS) {
        let (w, t) = sim.path(&mut path_rng(seed, i));
        est.win.add(w);
        est.tenpai.add(t);
        i += 1;
        let settled = i % BATCH == 0 && est.win.stderr() <= TARGET_STDERR;
        if (i >= MIN_PATHS && (settled || clock.past(until)))
            || (i >= LAST_PATHS && clock.past(LAST_CALL))
        {
            break;
        }
    }
    c.win_probability = est.win.probability();
    c.win_stderr = est.win.stderr();
    c.tenpai_probability = est.tenpai.probability();
    c.tenpai_stderr = est.tenpai.stderr();
    c.method = Method::Simulated;
    c.continuation = Continuation::Plan;
    i
}

/// Rollouts of the greedy continuation: `(win, tenpai)` moments.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rolled {
    /// Win outcomes.
    pub win: Moments,
    /// Tenpai outcomes.
    pub tenpai: Moments,
}

impl Rolled {
    /// Adds `n` rollouts of `hand`, paths numbered from the current count.
    pub fn add(&mut self, roll: &mut Rollout, n: u64, seed: u64) {
        for _ in 0..n {
            let i = self.win.count();
            let (w, t) = roll.run(&mut path_rng(seed, i));
            self.win.add(f64::from(u8::from(w)));
            self.tenpai.add(f64::from(u8::from(t)));
        }
    }

    /// Writes the figures into `c` (simulated, greedy continuation). The standard
    /// error of a rate `k / n` is taken as `sqrt(p (1 - p) / n)` with
    /// `p = (k + 1) / (n + 2)`, so that a rate of 0 or 1 still shows its uncertainty.
    pub fn write(&self, c: &mut DiscardCandidate) {
        let se = |m: &Moments| {
            let n = m.count().max(1) as f64;
            let p = (m.probability() * n + 1.0) / (n + 2.0);
            (p * (1.0 - p) / n).sqrt()
        };
        c.win_probability = self.win.probability();
        c.win_stderr = se(&self.win);
        c.tenpai_probability = self.tenpai.probability();
        c.tenpai_stderr = se(&self.tenpai);
        c.method = Method::Simulated;
        c.continuation = Continuation::Greedy;
        c.rank.win = c.win_probability;
        c.rank.tenpai = c.tenpai_probability;
    }
}

/// Rollouts for every option in `hands` (13-tile hands, `judge`, `pool`, `draws`): one
/// each, then round robin up to [`MIN_PATHS`] each (cut short at [`LAST_CALL`]), then up
/// to `paths[i]` each until the clock's fraction `until`. The clock is read after every
/// rollout. Returns the moments per option and the rollouts made.
#[allow(clippy::too_many_arguments)]
pub fn rollouts(
    judge: &ShantenJudge,
    hands: &[[u8; 34]],
    pool: &[u8; 34],
    draws: u32,
    paths: &[u64],
    seed: u64,
    clock: &Clock,
    until: f64,
) -> (Vec<Rolled>, u64) {
    let mut rolls: Vec<Rollout> = hands
        .iter()
        .map(|h| Rollout::new(judge, h, pool, draws))
        .collect();
    let mut out = vec![Rolled::default(); hands.len()];
    let mut total = 0;
    for (r, o) in rolls.iter_mut().zip(out.iter_mut()) {
        if total > 0 && clock.past(LAST_CALL) {
            // A starved engine: the options left have no rollout, and say so.
            return (out, total);
        }
        o.add(r, 1, seed);
        total += 1;
    }
    // Rounds of one rollout per option up to the floor, then of `BATCH`.
    'rounds: loop {
        let mut more = false;
        for ((r, o), &want) in rolls.iter_mut().zip(out.iter_mut()).zip(paths) {
            let n = o.win.count();
            let floor = n < MIN_PATHS;
            if !floor && n >= want {
                continue;
            }
            more = true;
            for _ in 0..if floor { 1 } else { BATCH } {
                o.add(r, 1, seed);
                total += 1;
                if clock.past(LAST_CALL) || (!floor && clock.past(until)) {
                    break 'rounds;
                }
            }
        }
        let floor_done = out.iter().all(|o| o.win.count() >= MIN_PATHS);
        if !more || (floor_done && clock.past(until)) {
            break;
        }
    }
    (out, total)
}
