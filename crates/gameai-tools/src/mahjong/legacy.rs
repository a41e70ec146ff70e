//! The issue-6 policy, kept for comparison in the solitaire harness (not served): every
//! distinct discard valued by its exact advance-or-throw win probability (the first
//! discard free, then no change at all), the best first; when the search does not fit
//! the deadline or its state bound, every candidate gets the greedy-line estimate of
//! [`crate::mahjong::estimate`] instead (a ranking device, optimistic far
//! from tenpai), as the service did before issue 11.

use std::time::Instant;

use crate::mahjong::estimate::estimate;
use gameai::mahjong::hand::Hand;
use gameai::mahjong::probability::plan::{PlanConfig, Planner};
use gameai::mahjong::probability::shanten_judge::ShantenJudge;
use gameai::mahjong::tile::Tile;

/// The legacy policy's ranking of a 3n+2 `hand` with `draws` draws: `(tile, win value)`
/// best first, and whether the values are exact (advance or throw) rather than the
/// estimate. `state_limit` bounds the search (the service used about 650,000 states,
/// 256 MiB).
pub fn rank_advance_or_throw(
    hand: &Hand,
    draws: u32,
    deadline: Option<Instant>,
    state_limit: usize,
) -> (Vec<(Tile, f64)>, bool) {
    let eval =
        ShantenJudge::new(hand.called(), hand.ruleset(), hand.lackable()).with_caps(hand.caps());
    let h = hand.concealed().0;
    let pool = hand.unseen();
    let mut tiles: Vec<(usize, i8)> = (0..34)
        .filter(|&d| h[d] > 0)
        .map(|d| {
            let mut left = h;
            left[d] -= 1;
            (d, eval.shanten(&left))
        })
        .collect();
    // Cheapest and most relevant first: lowest shanten.
    tiles.sort_by_key(|&(d, s)| (s, d));
    let mut planner = Planner::new(
        eval,
        PlanConfig::ADVANCE_OR_THROW,
        &h,
        &pool,
        draws,
        deadline,
    )
    .with_state_limit(state_limit);
    let mut out = Vec::with_capacity(tiles.len());
    let mut exact = true;
    for &(d, s) in &tiles {
        match planner.root(&h, d, false) {
            Ok(Some(root)) => {
                let odds = planner.odds(root);
                out.push((d, s, odds.win, odds.tenpai));
            }
            _ => {
                exact = false;
                break;
            }
        }
    }
    if !exact {
        out.clear();
        for &(d, s) in &tiles {
            let mut left = h;
            left[d] -= 1;
            let odds = estimate(&eval, &left, &pool, draws);
            out.push((d, s, odds.win, odds.tenpai));
        }
    }
    let q = |p: f64| (p * 1e12).round() as i64;
    out.sort_by(|a, b| {
        q(b.2)
            .cmp(&q(a.2))
            .then(q(b.3).cmp(&q(a.3)))
            .then(a.1.cmp(&b.1))
            .then(a.0.cmp(&b.0))
    });
    (out.iter().map(|o| (Tile(o.0 as u8), o.2)).collect(), exact)
}
