//! Monte Carlo evaluation of a plan under the exact model: the plan's real win and
//! tenpai probability, with a standard error.
//!
//! A path draws from a shuffled copy of the true pool (every tile drawn, kept or
//! thrown, is gone) and follows the plan's choices ([`Planner::choose`] at every
//! decision, the change taken where the plan's values say so). Counting wins would need
//! thousands of paths for a tight error; instead each path returns the plan's value
//! plus the *model errors met along the way* (a martingale control variate, Henderson &
//! Glynn 2002):
//!
//! ```text
//! Z = V(s_0) + Σ_t ( Σ_m p_t(m) B(s_t, m) - V(s_t) )
//! ```
//!
//! where `V` is the plan's value of the state, `B(s, m)` its value after drawing `m`
//! and acting, and `p_t` the true chances of the next draw (the path's real pool). The
//! plan's value satisfies `V(s) = Σ_m q(m) B(s, m)` with its own chances `q`, so each
//! term is `Σ_m (p - q)(B - V(s, r - 1))`, nonzero only where the plan's counts are off
//! (kinds thrown earlier on the path, the split of the non-useful draws). `Z` telescopes
//! to the path's outcome plus a sum of zero-mean terms, so `E[Z]` is exactly the plan's
//! win probability under the model, whatever the plan's approximations; on a line with
//! no change `p = q` and `Z` is the (exact) plan value with no variance at all. The
//! estimate is the mean of `Z` over the paths, its standard error the sample standard
//! deviation over the square root of the number of paths; the mean is clamped to
//! `[0, 1]` (it can stray by a few standard errors near the ends).

use rand::Rng;

use super::plan::{ONE, Planner, ZERO, better};

/// Running mean and variance (Welford) of one figure.
#[derive(Debug, Clone, Copy, Default)]
pub struct Moments {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Moments {
    /// Adds one observation.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// Observations.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The mean, clamped to `[0, 1]`.
    pub fn probability(&self) -> f64 {
        self.mean.clamp(0.0, 1.0)
    }

    /// The standard error of the mean (0 with fewer than two observations).
    pub fn stderr(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        (self.m2 / (self.n - 1) as f64 / self.n as f64).sqrt()
    }
}

/// A simulation estimate of one candidate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Estimate {
    /// Win probability.
    pub win: Moments,
    /// Tenpai probability.
    pub tenpai: Moments,
}

/// Simulates paths of the plan from the 13-tile node `root` with the true pool `pool`
/// (copies per kind, the first discard and every visible tile excluded) and the plan's
/// horizon. Reuses its buffers between paths.
pub struct Simulator<'a> {
    plan: &'a Planner,
    root: u32,
    pool: [u8; 34],
    wall: Vec<u8>,
    counts: [u8; 34],
}

impl<'a> Simulator<'a> {
    /// A simulator of `plan` from `root`.
    pub fn new(plan: &'a Planner, root: u32, pool: &[u8; 34]) -> Simulator<'a> {
        Simulator {
            plan,
            root,
            pool: *pool,
            wall: Vec::with_capacity(136),
            counts: [0; 34],
        }
    }

    /// One path: its control-variate values `(Z_win, Z_tenpai)`.
    pub fn path(&mut self, rng: &mut impl Rng) -> (f64, f64) {
        let plan = self.plan;
        let t = plan.horizon() as usize;
        self.counts = self.pool;
        self.wall.clear();
        for (k, &c) in self.pool.iter().enumerate() {
            for _ in 0..c {
                self.wall.push(k as u8);
            }
        }
        let mut n = self.root;
        let mut zw = plan.draw_win(n, t);
        let mut zt = plan.draw_tenpai(n, t);
        for r in (1..=t).rev() {
            if n == ZERO || self.wall.is_empty() {
                break;
            }
            let node = plan.buf.draw_nodes[n as usize];
            let size = self.wall.len() as f64;
            let a = f64::from(node.useful_copies);
            let model = f64::from(plan.pool_at(r)).max(a).max(1.0);
            let rest = f64::from(node.all_copies) - a;
            let (sw, st) = (plan.draw_win(n, r - 1), plan.draw_tenpai(n, r - 1));
            let useful =
                &plan.buf.useful[node.u0 as usize..(node.u0 + u32::from(node.un)) as usize];
            let changes =
                &plan.buf.changes[node.c0 as usize..(node.c0 + u32::from(node.cn)) as usize];
            for e in useful {
                let p = f64::from(self.counts[e.kind as usize]) / size;
                let q = f64::from(e.copies) / model;
                if p != q {
                    let (bw, bt) = plan.discard_odds(e.child, r - 1);
                    zw += (p - q) * (bw - sw);
                    zt += (p - q) * (bt - st);
                }
            }
            if rest > 0.0 {
                for c in changes {
                    let p = f64::from(self.counts[c.kind as usize]) / size;
                    let q = (1.0 - a / model) * f64::from(c.copies) / rest;
                    let (bw, bt) = self.best_change(c.start, c.len, r - 1, (sw, st)).1;
                    zw += (p - q) * (bw - sw);
                    zt += (p - q) * (bt - st);
                }
            }
            // The draw.
            let i = rng.random_range(0..self.wall.len());
            let m = self.wall.swap_remove(i);
            self.counts[m as usize] -= 1;
            if let Some(e) = useful.iter().find(|e| e.kind == m) {
                if e.child == ONE {
                    break;
                }
                let kid = plan.buf.discard_nodes[e.child as usize];
                let options = &plan.buf.targets[kid.start as usize..(kid.start + kid.len) as usize];
                n = plan.choose(options.iter().copied(), r - 1).unwrap_or(ZERO);
            } else if let Some(c) = changes.iter().find(|c| c.kind == m) {
                let (to, _) = self.best_change(c.start, c.len, r - 1, (sw, st));
                if let Some(to) = to {
                    n = to;
                }
            }
        }
        (zw, zt)
    }

    /// The best of the change targets `targets[start..start + len]` against staying
    /// (`stay` = the state's own values) with `r` draws left: `(Some(target), values)`
    /// when a target is better, `(None, stay)` otherwise.
    fn best_change(
        &self,
        start: u32,
        len: u32,
        r: usize,
        stay: (f64, f64),
    ) -> (Option<u32>, (f64, f64)) {
        let plan = self.plan;
        let mut best = (None, stay);
        for &x in &plan.buf.targets[start as usize..(start + len) as usize] {
            let (xw, xt) = (plan.draw_win(x, r), plan.draw_tenpai(x, r));
            if better(xw, xt, best.1.0, best.1.1) {
                best = (Some(x), (xw, xt));
            }
        }
        best
    }

    /// Adds `paths` paths to `estimate`.
    pub fn run(&mut self, paths: u32, estimate: &mut Estimate, rng: &mut impl Rng) {
        for _ in 0..paths {
            let (w, t) = self.path(rng);
            estimate.win.add(w);
            estimate.tenpai.add(t);
        }
    }
}
