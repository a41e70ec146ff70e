//! The exact optimum of the model, for short horizons: every discard allowed after every
//! draw (tegawari, breaking down, anything), the pool tracked tile by tile.
//!
//! The state is the 13-tile hand, the pool as it is (so the draws made so far, kept or
//! thrown, are all accounted for) and whether the hand has been tenpai yet; its value is
//! the lexicographic optimum (win probability, then tenpai probability among the policies
//! that maximise it; ties within 1e-12, as in [`super::plan::better`]):
//!
//! ```text
//! V(H, P, r) = Σ_m P[m] / |P| · (1 if H + m wins, else max_j V(H + m - j, P - m, r - 1))
//! V(H, P, 0) = (0, tenpai reached)
//! ```
//!
//! The last draw is closed-form (the hand wins on it, or some discard leaves tenpai); a
//! hand too far to reach tenpai in the draws left is (0, reached), and one that can no
//! longer win but is already tenpai is (0, 1), without search. What remains is
//! exponential in the horizon (about `(34 · 14)^(r - 1)` children), so the search runs
//! under a node limit and the caller falls back to the plan when it is hit.

use std::collections::HashMap;
use std::time::Instant;

use super::Stopped;
use super::budgeted_growth::map_room;
use super::plan::better;
use super::shanten_judge::ShantenJudge;
use crate::memory_budget::{MemoryBudget, Reservation};

/// Default node limit of one search (memoised states), about 50 MiB of memo.
pub const DEFAULT_NODE_LIMIT: usize = 1 << 20;

/// Exact optimum of the model for one decision.
pub struct OptimalSolver {
    judge: ShantenJudge,
    memo: HashMap<(u128, u128), (f64, f64)>,
    nodes: usize,
    node_limit: usize,
    deadline: Option<Instant>,
    memory: Reservation,
}

/// Counts packed 3 bits per kind.
fn pack(c: &[u8; 34]) -> u128 {
    c.iter()
        .enumerate()
        .fold(0u128, |k, (i, &n)| k | u128::from(n.min(7)) << (3 * i))
}

impl OptimalSolver {
    /// A solver judging hands with `judge`; stops with [`Stopped::Deadline`] after
    /// `deadline` and [`Stopped::StateLimit`] beyond [`DEFAULT_NODE_LIMIT`] states.
    pub fn new(judge: ShantenJudge, deadline: Option<Instant>) -> OptimalSolver {
        OptimalSolver {
            judge,
            memo: HashMap::new(),
            nodes: 0,
            node_limit: DEFAULT_NODE_LIMIT,
            deadline,
            memory: MemoryBudget::global().reservation(),
        }
    }

    /// Sets the node limit.
    pub fn with_node_limit(mut self, limit: usize) -> OptimalSolver {
        self.node_limit = limit;
        self
    }

    /// Draws memory from `budget` instead of the process's.
    pub fn with_memory_budget(mut self, budget: &'static MemoryBudget) -> OptimalSolver {
        self.memory = budget.reservation();
        self
    }

    /// States searched so far.
    pub fn states(&self) -> u64 {
        self.nodes as u64
    }

    /// `(win, tenpai)` of the 3n+1 `hand` with the pool `pool` (copies per kind: what
    /// the player cannot see) and `draws` draws to come (at most the pool size).
    pub fn value(
        &mut self,
        hand: &[u8; 34],
        pool: &[u8; 34],
        draws: u32,
    ) -> Result<(f64, f64), Stopped> {
        let mut h = *hand;
        let mut p = *pool;
        let size: u32 = p.iter().map(|&c| u32::from(c)).sum();
        self.search(&mut h, &mut p, size, false, draws.min(size))
    }

    fn search(
        &mut self,
        h: &mut [u8; 34],
        pool: &mut [u8; 34],
        size: u32,
        reached: bool,
        r: u32,
    ) -> Result<(f64, f64), Stopped> {
        let s = self.judge.shanten(h);
        let reached = reached || s <= 0;
        let floor = (0.0, if reached { 1.0 } else { 0.0 });
        if r == 0 || size == 0 || (s > 0 && s as u32 > r) || (reached && (s + 1) as u32 > r) {
            return Ok(floor);
        }
        let after = self.judge.shanten_after_each_draw(h);
        let inv = 1.0 / f64::from(size);
        if r == 1 {
            let (mut w, mut t) = (0.0, 0.0);
            for m in 0..34 {
                if pool[m] == 0 {
                    continue;
                }
                let p = f64::from(pool[m]) * inv;
                if after[m] == -1 {
                    w += p;
                    t += p;
                } else if reached || after[m] <= 0 {
                    t += p;
                }
            }
            // Sums of fractions can exceed 1 by a rounding error; probabilities do not.
            return Ok((w.min(1.0), t.min(1.0)));
        }
        let key = (pack(h) | u128::from(reached) << 110, pack(pool));
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Stopped::StateLimit(self.node_limit));
        }
        if self.nodes % 16 == 1
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Err(Stopped::Deadline);
        }
        let (mut w, mut t) = (0.0, 0.0);
        for m in 0..34 {
            if pool[m] == 0 {
                continue;
            }
            let p = f64::from(pool[m]) * inv;
            if after[m] == -1 {
                w += p;
                t += p;
                continue;
            }
            pool[m] -= 1;
            h[m] += 1;
            let disc = self.judge.shanten_after_each_discard(h);
            let mut best = floor;
            let mut result = Ok(());
            for j in 0..34 {
                if h[j] == 0 || (disc[j] > 0 && disc[j] as u32 > r - 1) {
                    continue;
                }
                h[j] -= 1;
                let v = self.search(h, pool, size - 1, reached, r - 1);
                h[j] += 1;
                match v {
                    Ok((vw, vt)) => {
                        if better(vw, vt, best.0, best.1) {
                            best = (vw, vt);
                        }
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            h[m] -= 1;
            pool[m] += 1;
            result?;
            w += p * best.0;
            t += p * best.1;
        }
        let v = (w.min(1.0), t.min(1.0));
        map_room(&mut self.memo, &mut self.memory)?;
        self.memo.insert(key, v);
        Ok(v)
    }
}
