//! The rest of the hand as a race: what pushing is worth against folding, scaled by the
//! threats actually on the table.
//!
//! Turn after turn, until the player's `m` draws run out: the player draws and wins with
//! its per-draw chance `a`; it discards and deals in with `c`; then the others play and
//! a tenpai opponent wins (not off the player) with `b`. With
//!
//! - `W` the player's win chance within its `m` draws when nobody else takes part (the
//!   solitaire figure with the wins on discards), so `a = 1 - (1 - W)^(1/m)`;
//! - `c = sum_o T_o u_o`: each opponent's tenpai probability `T_o` times `u_o`, the
//!   chance that a tile the player cannot see wins for it (the average of the danger
//!   model over the unseen tiles: pushing throws what it draws, or a hand tile as
//!   dangerous);
//! - `b = 1 - prod_o (1 - T_o r)`, `r` a tenpai hand's chance of winning in one turn on
//!   its own draw or another's discard (`threat_win_per_turn`);
//! - `s = (1 - a)(1 - c)(1 - b)` the chance that a turn ends with the hand still on,
//!   `S = 1 + s + ... + s^(m-1) = (1 - s^m) / (1 - s)`:
//!
//! `P(win) = a S`, `P(deal in) = (1 - a) c S`, `P(another wins | push) =
//! (1 - a)(1 - c) b S`, and folding (no win, no deal-in) `P(another wins | fold) = 1 -
//! (1 - b)^m`. Pushing is worth
//!
//! `P(win) V - (1 - a) S sum_o T_o u_o L_o + (P(another | fold) - P(another | push))
//! tsumo_share L_b`
//!
//! (`V` the player's win, `L_o` what dealing into o costs, `L_b` the tenpai-weighted
//! mean of the `L_o`, `tsumo_share` the part of another's win the player pays without
//! dealing in: its self-draws, a share of the payment), and folding 0. With nobody
//! tenpai (`c = b = 0`) the figure is `W V`: the hand is played for speed and value, and
//! the danger of each discard now (charged by [`super::decision`]) only separates
//! near-equal tiles. Against a riichi (`T = 1`) the risk of the discards to come is
//! bounded by the hand's end: each turn the riichi may win, or the player.

/// The player's hand as the race sees it: its solitaire win chance within its draws
/// (self-draws only), how many steps it is from tenpai, and how often a tenpai hand wins
/// on a discard per win on its own draw.
///
/// A hand `k` steps from tenpai (its shanten) cannot win, by self-draw or on a discard,
/// before `k` of its draws have improved it; only then does it wait, and only a waiting
/// hand wins on others' discards. So the race runs in stages: each draw improves the hand
/// (or, at tenpai, wins) with the same chance `p`, fixed by the solitaire figure `W` =
/// P(k + 1 successes in `m` draws) = P(Binomial(m, p) >= k + 1); at tenpai a turn wins
/// with `1 - (1 - p)^(1 + ron_factor)`. For a tenpai hand this is the single-stage race
/// of the module docs with `W' = 1 - (1 - W)^(1 + ron_factor)`; for a hand far from
/// tenpai it gives the rons only to the turns it waits, and no win to its first `k` turns
/// while its discards still deal in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outlook {
    /// `W`: P(win within the draws by self-draw alone), at most `win_cap`.
    pub self_draw: f64,
    /// Steps from tenpai (0 at tenpai).
    pub shanten: u8,
    /// Wins on discards per win by self-draw, per turn at tenpai.
    pub ron_factor: f64,
}

impl Outlook {
    /// The hand's per-draw chance `p` of a step (or, at tenpai, of a self-draw win):
    /// P(Binomial(draws, p) >= shanten + 1) = `self_draw`, by bisection. 0 when the hand
    /// cannot win; a hand with more steps than draws is taken as one that needs them all.
    fn step_chance(&self, draws: u32) -> f64 {
        let w = self.self_draw.clamp(0.0, 1.0);
        if w <= 0.0 || draws == 0 {
            return 0.0;
        }
        let need = (u32::from(self.shanten) + 1).min(draws);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            if at_least(draws, need, mid) < w {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }
}

/// P(Binomial(n, p) >= k).
fn at_least(n: u32, k: u32, p: f64) -> f64 {
    let mut term = (1.0 - p).powi(n as i32); // P(X = 0)
    let mut below = 0.0;
    for i in 0..k {
        below += term;
        // P(X = i + 1) from P(X = i).
        term *= f64::from(n - i) / f64::from(i + 1) * p / (1.0 - p).max(1e-300);
    }
    (1.0 - below).clamp(0.0, 1.0)
}

/// One opponent as a threat.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threat {
    /// P(tenpai now).
    pub tenpai: f64,
    /// What dealing into it costs, points.
    pub loss: f64,
    /// P(a tile the player cannot see wins for it | it is tenpai): the mean danger.
    pub danger: f64,
}

/// The race's per-turn figures, from the threats.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Race {
    /// `c`: P(one discard of the player deals in).
    pub deal_in: f64,
    /// `sum_o T_o u_o L_o`: that deal-in's expected loss, points per discard.
    pub deal_in_loss: f64,
    /// `b`: P(a tenpai opponent wins in one turn, not off the player).
    pub other_win: f64,
    /// `tsumo_share L_b`: what such a win costs the player, points.
    pub other_win_loss: f64,
}

impl Race {
    pub fn new(threats: &[Threat], threat_win_per_turn: f64, tsumo_share: f64) -> Race {
        let deal_in = threats.iter().map(|t| t.tenpai * t.danger).sum();
        let deal_in_loss = threats.iter().map(|t| t.tenpai * t.danger * t.loss).sum();
        let other_win = 1.0
            - threats
                .iter()
                .map(|t| 1.0 - t.tenpai * threat_win_per_turn)
                .product::<f64>();
        let weight: f64 = threats.iter().map(|t| t.tenpai).sum();
        let mean_loss = if weight > 0.0 {
            threats.iter().map(|t| t.tenpai * t.loss).sum::<f64>() / weight
        } else {
            0.0
        };
        Race {
            deal_in,
            deal_in_loss,
            other_win,
            other_win_loss: tsumo_share * mean_loss,
        }
    }

    /// The expected points of pushing a hand that wins with `win` within its `draws`
    /// alone and is worth `value`, against folding (0). Negative when folding is
    /// better; a player that can still fold takes `max(0, ..)`, one in riichi cannot.
    ///
    /// The closed form of a single-stage hand: the tests' oracle for
    /// [`Race::push_points_staged`] at tenpai, which the engine uses.
    #[cfg(test)]
    pub fn push_points(&self, win: f64, value: f64, draws: u32) -> f64 {
        if draws == 0 {
            return 0.0;
        }
        let m = f64::from(draws);
        let win = win.clamp(0.0, 1.0);
        let a = 1.0 - (1.0 - win).powf(1.0 / m);
        let (c, b) = (self.deal_in, self.other_win);
        let s = (1.0 - a) * (1.0 - c) * (1.0 - b);
        let turns = if 1.0 - s < 1e-12 {
            m
        } else {
            (1.0 - s.powf(m)) / (1.0 - s)
        };
        let wins = a * turns;
        let deal_in_loss = (1.0 - a) * turns * self.deal_in_loss;
        let others_push = (1.0 - a) * (1.0 - c) * b * turns;
        let others_fold = 1.0 - (1.0 - b).powf(m);
        wins * value - deal_in_loss + (others_fold - others_push) * self.other_win_loss
    }

    /// The same figure for a hand in stages ([`Outlook`]): turn by turn over the `draws`,
    /// the chance the hand is still on at each distance from tenpai. Each turn the
    /// player draws (a step with `p`, or at tenpai a win with `1 - (1 - p)^(1 +
    /// ron_factor)`), discards (a deal-in with `c`), and the others play (one of them
    /// wins with `b`). At tenpai it equals the single-stage closed form (`push_points`,
    /// the tests' oracle) with the wins on discards folded into `W'`.
    pub fn push_points_staged(&self, hand: Outlook, value: f64, draws: u32) -> f64 {
        if draws == 0 {
            return 0.0;
        }
        let m = f64::from(draws);
        let p = hand.step_chance(draws);
        let win_turn = 1.0 - (1.0 - p).powf(1.0 + hand.ron_factor);
        let stages = usize::from(hand.shanten).min(draws as usize - 1);
        // on[j]: P(the hand is still on, j steps from tenpai).
        let mut on = vec![0.0; stages + 1];
        on[stages] = 1.0;
        let (c, b) = (self.deal_in, self.other_win);
        let (mut wins, mut discards, mut others_push) = (0.0, 0.0, 0.0);
        for _ in 0..draws {
            wins += on[0] * win_turn;
            on[0] *= 1.0 - win_turn;
            for j in 1..=stages {
                let step = on[j] * p;
                on[j] -= step;
                on[j - 1] += step;
            }
            let alive: f64 = on.iter().sum();
            discards += alive;
            others_push += alive * (1.0 - c) * b;
            for x in on.iter_mut() {
                *x *= (1.0 - c) * (1.0 - b);
            }
        }
        let others_fold = 1.0 - (1.0 - b).powf(m);
        wins * value - discards * self.deal_in_loss
            + (others_fold - others_push) * self.other_win_loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An opponent that is not tenpai and costs nothing.
    const NOBODY: Threat = Threat {
        tenpai: 0.0,
        loss: 0.0,
        danger: 0.0,
    };

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn with_nobody_tenpai_pushing_is_worth_the_win_times_the_value() {
        // W = 0.36 in m = 4 draws: a = 1 - 0.64^(1/4) = 1 - 0.8944.. = 0.1056..; with
        // c = b = 0, s = 1 - a and S = (1 - 0.64) / a, so P(win) = a S = 0.36 and the
        // figure 0.36 x 1000 = 360 (no deal-in, nobody else wins).
        let race = Race::new(
            &[Threat {
                tenpai: 0.0,
                loss: 8000.0,
                danger: 0.1,
            }; 3],
            0.1,
            0.2,
        );
        assert_eq!(race.deal_in, 0.0);
        assert_eq!(race.other_win, 0.0);
        close(race.push_points(0.36, 1000.0, 4), 360.0);
    }

    #[test]
    fn a_hand_that_cannot_win_pays_for_its_deal_ins() {
        // One riichi (T = 1, loss 8000, mean danger 0.1), r = 0.1, tsumo share 0.25;
        // W = 0, m = 2: a = 0, c = 0.1, b = 0.1, s = 0.9 x 0.9 = 0.81, S = 1 + 0.81 =
        // 1.81. Deal-in 0.1 x 1.81 = 0.181, x 8000 = 1448. The riichi wins not off the
        // player: pushing 0.9 x 0.1 x 1.81 = 0.1629, folding 1 - 0.9^2 = 0.19; the
        // difference 0.0271 x 0.25 x 8000 = 54.2. Pushing: -1448 + 54.2 = -1393.8.
        let riichi = Threat {
            tenpai: 1.0,
            loss: 8000.0,
            danger: 0.1,
        };
        let quiet = Threat {
            tenpai: 0.0,
            loss: 5000.0,
            danger: 0.2,
        };
        let race = Race::new(&[riichi, quiet, quiet], 0.1, 0.25);
        close(race.push_points(0.0, 3000.0, 2), -1393.8);
    }

    #[test]
    fn one_draw_left_is_one_turn_of_the_race() {
        // m = 1: a = W = 0.5, S = 1. Win 0.5 x 4000 = 2000; deal-in 0.5 x 0.1 x 6000 =
        // 300; another wins: pushing 0.5 x 0.9 x 0.2 = 0.09, folding 0.2, the
        // difference 0.11 x (0.2 x 6000 = 1200) = 132. 2000 - 300 + 132 = 1832.
        let t = Threat {
            tenpai: 1.0,
            loss: 6000.0,
            danger: 0.1,
        };
        let race = Race::new(&[t, NOBODY, NOBODY], 0.2, 0.2);
        close(race.push_points(0.5, 4000.0, 1), 1832.0);
    }

    #[test]
    fn threats_add_up() {
        // A riichi (T 1, loss 6400, danger 0.09) and a quiet hand (T 0.1, loss 5000,
        // danger 0.05), r = 0.1, share 0.2: c = 0.09 + 0.005 = 0.095; deal-in loss
        // 576 + 25 = 601 per discard; b = 1 - 0.9 x 0.99 = 0.109; L_b = (6400 + 500) /
        // 1.1 = 6272.7..; x 0.2 = 1254.5...
        let race = Race::new(
            &[
                Threat {
                    tenpai: 1.0,
                    loss: 6400.0,
                    danger: 0.09,
                },
                Threat {
                    tenpai: 0.1,
                    loss: 5000.0,
                    danger: 0.05,
                },
                Threat {
                    tenpai: 0.0,
                    loss: 9000.0,
                    danger: 0.3,
                },
            ],
            0.1,
            0.2,
        );
        close(race.deal_in, 0.095);
        close(race.deal_in_loss, 601.0);
        close(race.other_win, 0.109);
        close(race.other_win_loss, 0.2 * 6900.0 / 1.1);
    }

    #[test]
    fn the_push_fold_table_against_a_riichi() {
        // The figures the push-or-fold statistics give against a non-dealer riichi in
        // mid-game (10 draws left; its win 6400 points; an unseen tile deals in 9 %; a
        // tenpai hand wins 10 % of turns; the player pays 15 % of the others' wins):
        // a good tenpai (W 0.9) worth 3300 pushes, a cheap 1-shanten (W 0.45) folds, the
        // same 1-shanten worth a mangan (8000) pushes.
        let riichi = Threat {
            tenpai: 1.0,
            loss: 6400.0,
            danger: 0.09,
        };
        let quiet = Threat {
            tenpai: 0.0,
            loss: 5000.0,
            danger: 0.05,
        };
        let race = Race::new(&[riichi, quiet, quiet], 0.1, 0.15);
        // Good tenpai: a = 1 - 0.1^0.1 = 0.2057; s = 0.7943 x 0.91 x 0.9 = 0.6505;
        // S = (1 - 0.6505^10) / 0.3495 = 2.823; win 0.2057 x 2.823 = 0.581, x 3300 =
        // 1916; deal-in 0.7943 x 2.823 x 576 = 1292; others: folding 1 - 0.9^10 =
        // 0.651, pushing 0.7943 x 0.91 x 0.1 x 2.823 = 0.204, 0.447 x 960 = 429: +1054.
        let good = race.push_points(0.9, 3300.0, 10);
        assert!((good - 1054.0).abs() < 5.0, "{good}");
        // Cheap 1-shanten: a = 1 - 0.55^0.1 = 0.0580; s = 0.9420 x 0.91 x 0.9 =
        // 0.7715; S = (1 - 0.0747) / 0.2285 = 4.050; win 0.235 x 3300 = 775; deal-in
        // 0.9420 x 4.050 x 576 = 2197; others 0.651 - 0.9420 x 0.91 x 0.1 x 4.050 =
        // 0.304, x 960 = 292: about -1130, so fold.
        let cheap = race.push_points(0.45, 3300.0, 10);
        assert!((cheap + 1130.0).abs() < 5.0, "{cheap}");
        // The mangan: the same terms with the win worth 0.235 x 8000 = 1880: 1880 -
        // 2197 + 292 = -25, close to even; a haneman (12000) pushes: 2820 - 2197 + 292.
        let mangan = race.push_points(0.45, 8000.0, 10);
        assert!((mangan + 25.0).abs() < 5.0, "{mangan}");
        assert!(race.push_points(0.45, 12000.0, 10) > 0.0);
    }

    fn tenpai(self_draw: f64, ron_factor: f64) -> Outlook {
        Outlook {
            self_draw,
            shanten: 0,
            ron_factor,
        }
    }

    #[test]
    fn at_tenpai_the_stages_are_the_closed_form() {
        // The turn-by-turn sum and the geometric series of push_points agree on a tenpai
        // hand, with W' = 1 - (1 - W)^(1 + ron_factor), whatever the threats.
        let riichi = Threat {
            tenpai: 1.0,
            loss: 6400.0,
            danger: 0.09,
        };
        let quiet = Threat {
            tenpai: 0.2,
            loss: 5000.0,
            danger: 0.05,
        };
        for race in [
            Race::new(&[riichi, quiet, quiet], 0.15, 0.18),
            Race::new(&[quiet; 3], 0.1, 0.2),
        ] {
            for (w, rf, m) in [
                (0.9, 2.4, 10),
                (0.45, 0.8, 7),
                (0.05, 2.0, 1),
                (0.3, 0.0, 18),
            ] {
                let closed = race.push_points(1.0 - (1.0f64 - w).powf(1.0 + rf), 3300.0, m);
                let staged = race.push_points_staged(tenpai(w, rf), 3300.0, m);
                assert!(
                    (closed - staged).abs() < 1e-6,
                    "{w} {rf} {m}: {closed} {staged}"
                );
            }
        }
    }

    #[test]
    fn a_hand_one_step_away_waits_before_it_wins() {
        // W = 0.25 in m = 2 draws one step from tenpai: P(2 successes in 2) = p^2, so p =
        // 0.5. Without rons (ron_factor 0) and nobody else in the race the staged chance
        // is W itself: half the time a step on the first draw, then half of those win
        // on the second: 0.25 x 1000 = 250.
        let calm = Race::new(&[NOBODY; 3], 0.1, 0.2);
        let one_step = |rf| Outlook {
            self_draw: 0.25,
            shanten: 1,
            ron_factor: rf,
        };
        close(calm.push_points_staged(one_step(0.0), 1000.0, 2), 250.0);
        // With ron_factor 1 the waiting turn wins with 1 - 0.5^2 = 0.75: 0.5 x 0.75 =
        // 0.375, where the single-stage figure gives every turn the rons: 1 - 0.75^2 =
        // 0.4375.
        close(calm.push_points_staged(one_step(1.0), 1000.0, 2), 375.0);
        // A riichi (T 1, loss 1000, mean danger 0.1; r 0, so nobody else wins): turn 1
        // no win, a step with 0.5, one discard (1 x 100 expected loss), on at 0.45 /
        // 0.45 (one step / tenpai); turn 2 wins 0.45 x 0.75 = 0.3375, the rest steps
        // (0.1125 + 0.225 on, 0.225 still a step away): 0.5625 on to discard. Value
        // 1000: 337.5 - (1 + 0.5625) x 100 = 181.25.
        let threat = Threat {
            tenpai: 1.0,
            loss: 1000.0,
            danger: 0.1,
        };
        let riichi = Race::new(&[threat, NOBODY, NOBODY], 0.0, 0.0);
        close(riichi.push_points_staged(one_step(1.0), 1000.0, 2), 181.25);
    }

    #[test]
    fn the_step_chance_matches_the_solitaire_figure() {
        // P(Binomial(8, p) >= 3) for the p found from W = 0.3, checked by the sum of the
        // binomial terms written out: 1 - (q^8 + 8 p q^7 + 28 p^2 q^6).
        let hand = Outlook {
            self_draw: 0.3,
            shanten: 2,
            ron_factor: 2.0,
        };
        let p = hand.step_chance(8);
        let q = 1.0 - p;
        let w = 1.0 - (q.powi(8) + 8.0 * p * q.powi(7) + 28.0 * p * p * q.powi(6));
        assert!((w - 0.3).abs() < 1e-9, "{p} {w}");
        assert_eq!(
            Outlook {
                self_draw: 0.0,
                ..hand
            }
            .step_chance(8),
            0.0
        );
    }
}
