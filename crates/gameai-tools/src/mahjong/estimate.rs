//! The fallback estimate used when the exact computation does not fit the work budget.
//!
//! **One greedy line of play.** From the 3n+1 hand `H_0` at shanten `s`, build the line
//! `H_0, H_1, ..., H_s`: `H_{i+1}` keeps the useful kind of `H_i` with the most unseen
//! copies (lowest index on a tie) and discards the tile, among those that lower shanten,
//! leaving the largest ukeire (lowest index on a tie). Let `u_i` be the copies left of
//! `H_i`'s useful kinds (pool counts as in the exact model: supply minus the hand). The
//! estimate is the probability that a chain needing `s + 1` successes, stage `i`
//! succeeding on a draw with chance `u_i / (pool left)`, completes within the draws —
//! a small exact DP over (stage, draw), O(`T * s`).
//!
//! It is **optimistic**: it counts every useful draw as a step along the greedy line,
//! whose later hands have the most copies and the widest ukeire, whereas most useful
//! draws lead to narrower hands (and the model allows no tegawari to repair them). The
//! error grows with shanten: for `147m258p369s12345z` discarding 4m (6-shanten) with
//! 17 draws it gives 0.50 where the exact value is 0.007; for the 2-shanten
//! `3667m23489p34688s` discarding 3m with 12 draws, 0.150 against 0.125. For a tenpai
//! hand (`s = 0`) it equals the exact value (one stage, the useful kinds being the
//! waits). It is a ranking device for hands the exact DP cannot finish in the budget,
//! in the spirit of seed 003's per-suit pattern estimate (the chance of drawing what one
//! target needs), with the draws counted sequentially.

use gameai::mahjong::probability::Odds;
use gameai::mahjong::probability::shanten_judge::ShantenJudge;

/// Estimated odds of the 3n+1 `hand` with `unseen` the pool (copies per kind, the
/// hand's own tiles excluded) and `draws` draws. Bounded: at most `s + 1` ukeire scans
/// and a `(s + 2) x draws` table.
pub fn estimate(eval: &ShantenJudge, hand: &[u8; 34], unseen: &[u8; 34], draws: u32) -> Odds {
    let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
    let draws = draws.min(pool);
    let mut h = *hand;
    let s = eval.shanten(&h);
    if s < 0 {
        return Odds {
            win: 1.0,
            tenpai: 1.0,
        };
    }
    let s = s as usize;
    let mut supply = [0u8; 34];
    for k in 0..34 {
        supply[k] = hand[k].saturating_add(unseen[k]);
    }
    // Useful copies per stage along the greedy line.
    let mut stages = Vec::with_capacity(s + 1);
    for i in 0..=s {
        let shanten = eval.shanten(&h);
        let after = eval.shanten_after_each_draw(&mut h);
        let mut total = 0u32;
        let mut best: Option<(usize, u8)> = None;
        for k in 0..34 {
            let left = supply[k].saturating_sub(h[k]);
            if after[k] < shanten && left > 0 {
                total += u32::from(left);
                if best.is_none_or(|(_, b)| left > b) {
                    best = Some((k, left));
                }
            }
        }
        stages.push(total);
        let Some((k, _)) = best else { break };
        if i == s {
            break;
        }
        h[k] += 1;
        let discards = eval.shanten_after_each_discard(&mut h);
        let mut pick: Option<(usize, u32)> = None;
        for j in 0..34 {
            if h[j] == 0 || discards[j] != shanten - 1 {
                continue;
            }
            h[j] -= 1;
            let after_j = eval.shanten_after_each_draw(&mut h);
            let ukeire: u32 = (0..34)
                .filter(|&m| after_j[m] < shanten - 1)
                .map(|m| u32::from(supply[m].saturating_sub(h[m])))
                .sum();
            h[j] += 1;
            if pick.is_none_or(|(_, u)| ukeire > u) {
                pick = Some((j, ukeire));
            }
        }
        match pick {
            Some((j, _)) => h[j] -= 1,
            None => break,
        }
    }
    // Chain DP: f[i] = probability of having made i advances.
    let mut f = vec![0.0f64; s + 2];
    f[0] = 1.0;
    for r in 0..draws {
        let left = f64::from(pool - r);
        for i in (0..=s).rev() {
            let u = stages.get(i).copied().unwrap_or(0);
            let p = (f64::from(u) / left).min(1.0);
            let moved = f[i] * p;
            f[i] -= moved;
            f[i + 1] += moved;
        }
    }
    let win = f[s + 1];
    let tenpai = if s == 0 { 1.0 } else { f[s] + f[s + 1] };
    Odds { win, tenpai }
}
