//! The engine's own play from a discard: `play_win_probability`, an estimate of the win
//! rate of a player who discards the candidate and then follows the engine's advice at
//! every later draw.
//!
//! # Why a second figure
//!
//! A candidate's `win_probability` is the value of a stated, fixed continuation (the
//! plan's line with one change, advance or throw, the greedy line; see
//! [`super::Continuation`]). The engine does not follow that line: it decides afresh
//! after every draw, with a new change allowed each time, so it wins more often, and the
//! gap grows with the draws left and with the distance from tenpai (BENCHMARKS.md,
//! "Solitaire": realised 0.183 against first figures averaging 0.111 on 5,000 walls).
//! The continuation's figure is a lower bound of the engine's play, not a prediction
//! of it. Simulating the engine's own decisions inside the figure would cost a full
//! decision per simulated draw, far beyond the budget.
//!
//! # The map
//!
//! Instead the figure of the continuation `v` is mapped to the engine's realised win
//! rate by a logistic model fitted (maximum likelihood) on the engine's own solitaire
//! games under the same model (`mahjong-solitaire --decisions`, every decision of every
//! game with the game's outcome; `tools/mahjong/fit_play_calibration.py`), one map per
//! continuation `c`:
//!
//! ```text
//! play = σ(a_c + b_c · logit(clamp(v, 0.002, 0.998)) + d_c · draws_left / 16
//!          + e_c · max(draws_left - 16, 0) / 16
//!          + t_c · [shanten = 0] + o_c · [shanten = 1] + h_c · [shanten = 3])
//! ```
//!
//! (shanten of the hand after the discard: at equal figures, how much re-deciding adds
//! still depends on it; the offsets are fitted, and an indicator with fewer than 50
//! decisions in a continuation's data is 0). The PLAN figures of hands at 3-shanten
//! after the discard (the plan from 3-shanten) have a map of their own,
//! [`RulesetMaps::plan_three_shanten`] (`a`, `b`, `d` and the bend `e` of the draws term above
//! 16 draws left; `e` is 0 in every other map): the maps of nearer hands were fitted
//! before the plan reached 3-shanten, an offset on them missed its first decisions by
//! 0.011 on the fit games (the gain of re-deciding grows faster with the draws left
//! there), and a straight draws term over-predicted 17 to 20 draws left by 0.014-0.048
//! (BENCHMARKS.md, "The plan at 3-shanten, bounded").
//!
//! - OPTIMAL continuations are not mapped: they are the optimum of every play, and the
//!   engine's later decisions on such a short horizon are that optimum too.
//! - When no play can win (the candidate's shanten + 1 exceeds the draws left) the
//!   figure is 0, exactly.
//! - The map is fitted on concealed hands (no melds) of the rulesets in [`MAPS`], with
//!   up to 20 draws left (games of 17 and of 21 draws after the deal): outside that
//!   domain the figure is absent rather than extrapolated. A 21-draw game gives the
//!   fits only its decisions with 17 to 20 draws left: later, its hand has been shaped
//!   by the engine for more turns than a real seat's hand at the same draws left.
//!
//! [`PlayFigure::stderr`] carries the candidate's sampling error through the map (delta method:
//! `stderr · b_c · play (1 - play) / (v (1 - v))`); the map's own error, measured on
//! held-out walls, is the per-ruleset constant [`calibration_error`] (BENCHMARKS.md
//! gives the decile tables). The map says nothing new about which discard is best: the
//! ranking stays the engine's own values.

use super::candidate::{Continuation, DiscardCandidate};
use crate::mahjong::rules::Ruleset;

/// One fitted map (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayMap {
    /// Intercept.
    pub a: f64,
    /// Weight of `logit(v)`.
    pub b: f64,
    /// Weight of `draws_left / 16`.
    pub d: f64,
    /// Added to the draws weight above 16 draws left: weight of
    /// `max(draws_left - 16, 0) / 16` (0 but in [`RulesetMaps::plan_three_shanten`]).
    pub d_above_16: f64,
    /// Offset of a tenpai hand (shanten 0 after the discard).
    pub tenpai: f64,
    /// Offset of a 1-shanten hand.
    pub one: f64,
    /// Offset of a 3-shanten hand.
    pub three: f64,
}

/// The maps of one ruleset, for the PLAN, ADVANCE_OR_THROW and GREEDY continuations, and
/// the largest |realised − estimate| over the deciles holding at least 200 first
/// decisions on held-out walls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RulesetMaps {
    /// The ruleset fitted.
    pub ruleset: Ruleset,
    /// PLAN, hands at 2-shanten or nearer after the discard.
    pub plan: PlayMap,
    /// PLAN, hands at 3-shanten after the discard (the plan from 3-shanten,
    /// [`super::discard::PLAN_MAX_SHANTEN`]): intercept, logit and draws only.
    pub plan_three_shanten: PlayMap,
    /// ADVANCE_OR_THROW.
    pub advance_or_throw: PlayMap,
    /// GREEDY.
    pub greedy: PlayMap,
    /// Held-out calibration error.
    pub calibration_error: f64,
}

/// The fitted maps (BENCHMARKS.md, "The engine's own play": the commands, walls and
/// tables).
pub const MAPS: &[RulesetMaps] = &[
    RulesetMaps {
        ruleset: Ruleset::General,
        plan: PlayMap {
            a: -0.4913,
            b: 0.8976,
            d: 0.6095,
            d_above_16: 0.0000,
            tenpai: 0.1683,
            one: 0.0226,
            three: 0.0000,
        },
        plan_three_shanten: PlayMap {
            a: -1.3764,
            b: 0.7474,
            d: 1.3962,
            d_above_16: -0.9485,
            tenpai: 0.0000,
            one: 0.0000,
            three: 0.0000,
        },
        advance_or_throw: PlayMap {
            a: -1.4848,
            b: 0.7177,
            d: 1.6154,
            d_above_16: 0.0000,
            tenpai: 0.0000,
            one: 0.0532,
            three: -0.0248,
        },
        greedy: PlayMap {
            a: -2.3296,
            b: 0.4646,
            d: 1.7368,
            d_above_16: 0.0000,
            tenpai: 0.0000,
            one: 0.0000,
            three: 0.0000,
        },
        // Refitted in session 27 on every game of the engine that ships (22,500 walls:
        // 1,000,000.., 2,000,000.. with 21 draws, 10000..24999), held out on fresh seeds
        // 25000..29999, where its log loss over every decision beat the session-21 map's
        // (0.35751 / 0.35761): that map read low on 20,000 walls (mean first-decision
        // estimate 0.1767 against 0.1863 won, chi-square p = 0.001). The error is the
        // refit's first-decision deciles on those 5,000 held-out walls: BENCHMARKS.md,
        // "GENERAL refitted again on 20,000 walls". plan_three_shanten (session 30): the 3-shanten
        // plan's 5,000 games of 40000..44999 and 2,000 of 21 draws; the error is the
        // engine that ships on 5,000 fresh walls 60000..64999 (chi-square p = 0.311):
        // "The plan at 3-shanten, bounded".
        calibration_error: 0.0214,
    },
    RulesetMaps {
        ruleset: Ruleset::Sichuan,
        plan: PlayMap {
            a: -0.4968,
            b: 0.8321,
            d: 0.7953,
            d_above_16: 0.0000,
            tenpai: 0.1465,
            one: -0.0145,
            three: 0.0000,
        },
        plan_three_shanten: PlayMap {
            a: -1.9704,
            b: 0.5217,
            d: 2.1101,
            d_above_16: -0.4082,
            tenpai: 0.0000,
            one: 0.0000,
            three: 0.0000,
        },
        advance_or_throw: PlayMap {
            a: -2.7769,
            b: 0.3880,
            d: 2.6781,
            d_above_16: 0.0000,
            tenpai: 0.0000,
            one: 1.1162,
            three: 0.2106,
        },
        greedy: PlayMap {
            a: -4.0466,
            b: 0.2109,
            d: 3.7134,
            d_above_16: 0.0000,
            tenpai: 0.0000,
            one: 0.0000,
            three: 0.0000,
        },
        // Refitted in session 30 for the engine with the plan at 3-shanten (bounded), on
        // 17,000 games: the unbounded plan's 5,000 of 40000..44999, the bounded engine's
        // 10,000 of 60000..69999 and 2,000 of 21 draws (seeds 2100000..); held out on
        // 5,000 fresh walls 70000..74999 (chi-square p = 0.468, mean estimate 0.3808
        // against 0.3770 won). The previous map, an older engine's, read 0.016 low on the
        // 10,000 walls of 60000..69999 for the shipped engine too: BENCHMARKS.md, "The
        // plan at 3-shanten, bounded".
        calibration_error: 0.0219,
    },
    RulesetMaps {
        ruleset: Ruleset::Riichi,
        plan: PlayMap {
            a: -0.2944,
            b: 0.9087,
            d: 0.4089,
            d_above_16: 0.0000,
            tenpai: 0.0837,
            one: -0.0148,
            three: 0.0000,
        },
        plan_three_shanten: PlayMap {
            a: -1.7150,
            b: 0.7552,
            d: 1.7980,
            d_above_16: -1.6623,
            tenpai: 0.0000,
            one: 0.0000,
            three: 0.0000,
        },
        advance_or_throw: PlayMap {
            a: -1.3774,
            b: 0.7252,
            d: 1.5425,
            d_above_16: 0.0000,
            tenpai: 0.0000,
            one: 0.4253,
            three: -0.0442,
        },
        greedy: PlayMap {
            a: -1.9573,
            b: 0.5074,
            d: 1.4679,
            d_above_16: 0.0000,
            tenpai: 0.0000,
            one: 0.0000,
            three: 0.0000,
        },
        // plan, advance_or_throw, greedy: refitted on every game of the engine of session
        // 21 (20,000 walls, 21-draw games only above 16 draws left): BENCHMARKS.md, "The
        // maps pooled and held out on fresh walls". plan_three_shanten (session 30): fitted on the
        // unbounded 3-shanten plan's 20,000 games of 40000..59999 and 2,000 games of 21
        // draws. The error is the engine that ships (the plan at 3-shanten, bounded) on
        // the 50,000 walls never used to fit the maps or choose their form (80000..89999,
        // 100000..139999): its decile of 655 games at 0.4-0.5, −0.0286 (sampling error
        // ±0.037), every other decile of >= 200 games within 0.013; on 60000..79999, used
        // to choose the form, that decile read +0.042. BENCHMARKS.md, "Tegawari at
        // 3-shanten screened" (session 32).
        calibration_error: 0.0286,
    },
];

/// Clamp of the continuation's figure before its logit.
const CLAMP: f64 = 0.002;

/// Highest draws left the maps were fitted on.
pub const MAX_DRAWS: u32 = 20;

/// The engine's-own-play figure of one candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayFigure {
    /// Estimated win probability of the engine's play after the discard (0..=1).
    pub win: f64,
    /// Its standard error from the candidate's sampling (0 when its figure is exact);
    /// the map's own error is [`calibration_error`].
    pub stderr: f64,
}

/// The play figure of candidate `c` of a hand with `melds` called under `ruleset`, with
/// `draws_left` draws; `None` outside the fitted domain (see the module docs).
pub fn play_figure(
    c: &DiscardCandidate,
    ruleset: Ruleset,
    melds: u8,
    draws_left: u32,
) -> Option<PlayFigure> {
    if melds > 0 || draws_left > MAX_DRAWS {
        return None;
    }
    let maps = maps_of(ruleset)?;
    if i64::from(c.shanten) + 1 > i64::from(draws_left) {
        return Some(PlayFigure {
            win: 0.0,
            stderr: 0.0,
        });
    }
    let map = match c.continuation {
        Continuation::Optimal => {
            return Some(PlayFigure {
                win: c.win_probability,
                stderr: c.win_stderr,
            });
        }
        Continuation::Plan if c.shanten >= 3 => maps.plan_three_shanten,
        Continuation::Plan => maps.plan,
        Continuation::AdvanceOrThrow => maps.advance_or_throw,
        Continuation::Greedy => maps.greedy,
    };
    let v = c.win_probability.clamp(CLAMP, 1.0 - CLAMP);
    let offset = match c.shanten {
        0 => map.tenpai,
        1 => map.one,
        3 => map.three,
        _ => 0.0,
    };
    let z = map.a
        + map.b * (v / (1.0 - v)).ln()
        + map.d * f64::from(draws_left) / 16.0
        + map.d_above_16 * f64::from(draws_left.saturating_sub(16)) / 16.0
        + offset;
    let win = 1.0 / (1.0 + (-z).exp());
    let inside = c.win_probability > CLAMP && c.win_probability < 1.0 - CLAMP;
    let slope = if inside {
        map.b * win * (1.0 - win) / (v * (1.0 - v))
    } else {
        0.0
    };
    Some(PlayFigure {
        win,
        stderr: (slope * c.win_stderr).abs(),
    })
}

/// The held-out calibration error of the maps of `ruleset` (`None`: not fitted).
pub fn calibration_error(ruleset: Ruleset) -> Option<f64> {
    maps_of(ruleset).map(|m| m.calibration_error)
}

/// The maps fitted for `ruleset`, if any.
fn maps_of(ruleset: Ruleset) -> Option<&'static RulesetMaps> {
    MAPS.iter().find(|m| m.ruleset == ruleset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::strategy::candidate::Method;
    use crate::mahjong::tile::Tile;
    use crate::mahjong::ukeire::Ukeire;

    fn candidate(
        shanten: i8,
        continuation: Continuation,
        win: f64,
        stderr: f64,
    ) -> DiscardCandidate {
        let mut c = DiscardCandidate::shell(Tile(0), shanten, Ukeire::default());
        c.win_probability = win;
        c.win_stderr = stderr;
        c.method = if stderr > 0.0 {
            Method::Simulated
        } else {
            Method::Exact
        };
        c.continuation = continuation;
        c
    }

    #[test]
    fn every_ruleset_is_fitted_and_its_maps_rise_with_the_figure() {
        for r in Ruleset::ALL {
            let m = MAPS
                .iter()
                .find(|m| m.ruleset == r)
                .expect("a map per ruleset");
            for map in [m.plan, m.plan_three_shanten, m.advance_or_throw, m.greedy] {
                assert!(map.b > 0.0, "{r:?}: {map:?}");
            }
            assert!(m.calibration_error > 0.0, "{r:?}");
            // Whether the served error holds is judged on held-out games, not here:
            // tests/mahjong_play_calibration.rs (RIICHI, 4,000 fresh walls).
        }
    }

    #[test]
    fn optimal_figures_pass_through_and_impossible_wins_are_zero() {
        let c = candidate(0, Continuation::Optimal, 0.31, 0.0);
        let f = play_figure(&c, Ruleset::Riichi, 0, 2).unwrap();
        assert_eq!((f.win, f.stderr), (0.31, 0.0));
        // 2-shanten needs 3 useful draws to win: with 2 draws no play can.
        let c = candidate(2, Continuation::Plan, 0.0, 0.0);
        let f = play_figure(&c, Ruleset::Riichi, 0, 2).unwrap();
        assert_eq!((f.win, f.stderr), (0.0, 0.0));
    }

    #[test]
    fn outside_the_fitted_domain_there_is_no_figure() {
        let c = candidate(1, Continuation::Plan, 0.2, 0.01);
        assert!(play_figure(&c, Ruleset::Riichi, 1, 10).is_none());
        assert!(play_figure(&c, Ruleset::Riichi, 0, MAX_DRAWS + 1).is_none());
        assert!(play_figure(&c, Ruleset::Riichi, 0, MAX_DRAWS).is_some());
    }

    #[test]
    fn plan_figures_of_3_shanten_hands_go_through_their_own_map_bent_above_16_draws() {
        // RIICHI's plan_three_shanten written out by hand: v = 0.1 (logit -ln 9), 20 draws left,
        // 4 of them above 16.
        let m = maps_of(Ruleset::Riichi).unwrap().plan_three_shanten;
        let z = m.a - m.b * 9f64.ln() + m.d * 20.0 / 16.0 + m.d_above_16 * 4.0 / 16.0;
        let c = candidate(3, Continuation::Plan, 0.1, 0.0);
        let f = play_figure(&c, Ruleset::Riichi, 0, 20).unwrap();
        assert!((f.win - 1.0 / (1.0 + (-z).exp())).abs() < 1e-12, "{f:?}");
        // At 16 draws or fewer the bend is 0; a 2-shanten hand's plan uses the plan map.
        let z16 = m.a - m.b * 9f64.ln() + m.d;
        let f = play_figure(&c, Ruleset::Riichi, 0, 16).unwrap();
        assert!((f.win - 1.0 / (1.0 + (-z16).exp())).abs() < 1e-12, "{f:?}");
        let p = maps_of(Ruleset::Riichi).unwrap().plan;
        let z2 = p.a - p.b * 9f64.ln() + p.d;
        let f = play_figure(
            &candidate(2, Continuation::Plan, 0.1, 0.0),
            Ruleset::Riichi,
            0,
            16,
        );
        assert!((f.unwrap().win - 1.0 / (1.0 + (-z2).exp())).abs() < 1e-12);
    }

    #[test]
    fn the_standard_error_is_the_map_slope_times_the_figure_error() {
        // Delta method against a central difference of the map itself.
        for cont in [
            Continuation::Plan,
            Continuation::AdvanceOrThrow,
            Continuation::Greedy,
        ] {
            for shanten in [2, 3] {
                let (v, se, h) = (0.15, 0.01, 1e-6);
                let at = |x: f64| {
                    play_figure(&candidate(shanten, cont, x, se), Ruleset::General, 0, 18)
                        .unwrap()
                        .win
                };
                let slope = (at(v + h) - at(v - h)) / (2.0 * h);
                let c = candidate(shanten, cont, v, se);
                let f = play_figure(&c, Ruleset::General, 0, 18).unwrap();
                assert!(
                    (f.stderr - slope * se).abs() < 1e-8,
                    "{cont:?} at {shanten}: {f:?} vs {slope}"
                );
            }
        }
    }
}
