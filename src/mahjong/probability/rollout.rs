//! Monte Carlo rollouts of the greedy advance-or-throw continuation, for hands too far
//! from tenpai (or horizons too long) for the plan to fit the budget.
//!
//! The continuation (*greedy*), exactly, so that it can be simulated independently
//! (`tests/mahjong_probability.rs` does):
//!
//! - Shanten is [`ShantenJudge::shanten`] (every form of the ruleset, copies in melds counted);
//!   the hand starts at shanten `s` and `tenpai` is reached if `s <= 0` at the start.
//! - After each draw `m`: if the 3n+2 hand wins, the rollout wins. If its shanten `s'`
//!   is below `s`, the draw is kept and the player discards, among the tiles `j` of
//!   the 3n+2 hand whose discard leaves shanten `s'`, the one whose 3n+1 hand has the
//!   most *useful copies*: the sum, over the kinds `k` whose draw would bring it below
//!   `s'`, of the copies of `k` still on the rollout's wall (the unseen pool minus every
//!   tile drawn so far, `m` included). Ties go to the lowest tile in kind order (1m..9m,
//!   1p..9p, 1s..9s, 1z..7z). Then `s = s'`, and tenpai is reached if `s' <= 0`.
//! - Any other draw is thrown at once (tsumogiri).
//! - The rollout ends after the draws (or when the wall is empty); a hand whose shanten
//!   exceeds the draws left stops early (it can no longer reach tenpai, so neither
//!   figure can change).
//!
//! Every rollout
//! draws from a shuffled copy of the true pool (tiles drawn and thrown are gone), so the
//! win rate over the rollouts is an unbiased estimate of this continuation's win
//! probability under the model, with the binomial standard error. The same walls serve
//! every candidate of a request (common random numbers), so their differences are
//! estimated more tightly than their levels.

use rand::Rng;

use super::shanten_judge::ShantenJudge;
use super::simulate::Moments;

/// Rollouts of the greedy continuation from the 13-tile `hand` with the true pool
/// `pool` and `draws` draws. Reuses its buffers between rollouts.
pub struct Rollout<'a> {
    judge: &'a ShantenJudge,
    hand: [u8; 34],
    pool: [u8; 34],
    draws: u32,
    wall: Vec<u8>,
}

impl<'a> Rollout<'a> {
    /// Rollouts of `hand` (3n+1 tiles) with `pool` (copies per kind the player cannot
    /// see) and `draws` draws (clamped to the pool).
    pub fn new(
        judge: &'a ShantenJudge,
        hand: &[u8; 34],
        pool: &[u8; 34],
        draws: u32,
    ) -> Rollout<'a> {
        let size: u32 = pool.iter().map(|&c| u32::from(c)).sum();
        Rollout {
            judge,
            hand: *hand,
            pool: *pool,
            draws: draws.min(size),
            wall: Vec::with_capacity(136),
        }
    }

    /// One rollout on the wall order drawn from `rng`: `(won, tenpai reached)`.
    pub fn run(&mut self, rng: &mut impl Rng) -> (bool, bool) {
        let judge = self.judge;
        self.wall.clear();
        for (k, &c) in self.pool.iter().enumerate() {
            for _ in 0..c {
                self.wall.push(k as u8);
            }
        }
        let mut h = self.hand;
        let mut counts = self.pool;
        let mut s = judge.shanten(&h);
        // Shanten after each draw (`after_draw[m]` = shanten of `h + m`; every kind on
        // the wall has fewer than 4 copies in hand): the scan of the discard chosen at
        // the last advance, so a draw is judged without a shanten computation.
        let mut after_draw = judge.shanten_after_each_draw(&mut h);
        let mut tenpai = s <= 0;
        for r in (1..=self.draws).rev() {
            // A hand that cannot reach tenpai in the draws left cannot win either.
            if s > 0 && s as u32 > r {
                break;
            }
            let i = rng.random_range(0..self.wall.len());
            let m = self.wall.swap_remove(i) as usize;
            counts[m] -= 1;
            let after = after_draw[m];
            if after == -1 {
                return (true, true);
            }
            if after >= s {
                continue;
            }
            h[m] += 1;
            let disc = judge.shanten_after_each_discard(&mut h);
            let mut best: Option<(usize, u32, [i8; 34])> = None;
            for j in 0..34 {
                if h[j] == 0 || disc[j] != after {
                    continue;
                }
                h[j] -= 1;
                let draws = judge.shanten_after_each_draw(&mut h);
                let useful: u32 = (0..34)
                    .filter(|&k| draws[k] < after)
                    .map(|k| u32::from(counts[k]))
                    .sum();
                h[j] += 1;
                if best.is_none_or(|(_, u, _)| useful > u) {
                    best = Some((j, useful, draws));
                }
            }
            if let Some((j, _, draws)) = best {
                h[j] -= 1;
                after_draw = draws;
            }
            s = after;
            tenpai |= s <= 0;
        }
        (false, tenpai)
    }

    /// Adds `n` rollouts to `win` and `tenpai` (1 for a success, 0 otherwise).
    pub fn add(&mut self, n: u32, win: &mut Moments, tenpai: &mut Moments, rng: &mut impl Rng) {
        for _ in 0..n {
            let (w, t) = self.run(rng);
            win.add(f64::from(u8::from(w)));
            tenpai.add(f64::from(u8::from(t)));
        }
    }
}
