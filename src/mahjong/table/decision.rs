//! Push or fold by expected points: each discard's figure is the expected change of
//! the player's score over the rest of the hand.
//!
//! `EV(t) = - sum_o P(tenpai_o) P(t wins for o) L_o + max(0, W' V(t) - F(t))`:
//! - the first term is dealing in now with `t` (`L_o` what o's win costs,
//!   [`super::opponents`]);
//! - `W'` is the solitaire engine's win probability of the discard (self-draws only),
//!   times `1 + ron_factor` for the wins on others' discards (at most `win_cap`), times
//!   `prod_o (1 - race P(tenpai_o))` (a tenpai opponent may end the hand first);
//! - `V(t)` the hand's value ([`super::value`]) plus the riichi sticks on the table and
//!   the honba (a win takes them);
//! - `F(t)` the risk of the discards still to come while pushing: `n` more discards
//!   (base + per shanten, at most the draws left) each dealing in with the average
//!   unsafe rate against every opponent's tenpai chance;
//! - when pushing is worth less than nothing the player folds: later discards are
//!   safe tiles (counted 0), so the figure is the deal-in term alone and the safest
//!   discard ranks first.
//!
//! Riichi or dama, for the discard chosen when it leaves a closed tenpai hand (RIICHI
//! only, 1000 points to pay, at least 4 tiles in the wall, not yet in riichi): riichi
//! adds the riichi bonus han but costs the stick when the hand does not win and cannot
//! fold afterwards (every draw left is a forced discard); dama keeps its yaku only (a
//! hand without one wins only on a self-draw: menzen tsumo, the solitaire figure alone).

use crate::mahjong::Hand;
use crate::mahjong::rules::Ruleset;
use crate::mahjong::strategy::open_yaku::Yakuhai;
use crate::mahjong::tile::Tile;

use super::danger::{OpponentView, wait_probability};
use super::opponents::{tenpai_probability, win_value};
use super::state::{Seat, Table};
use super::value::{hand_han, points};
use super::weights::{DangerWeights, weights};

/// One discard as the solitaire engine saw it.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub tile: Tile,
    /// Its win probability within the draws left.
    pub win: f64,
    /// Shanten after it.
    pub shanten: i8,
    /// Its win probability was computed (false for the late shape-only answer).
    pub computed: bool,
}

/// The table's figures of one discard.
#[derive(Debug, Clone, PartialEq)]
pub struct TableFigures {
    /// P(dealing in now), summed over the opponents.
    pub deal_in: f64,
    /// Per opponent (right, across, left).
    pub by_opponent: [f64; 3],
    /// Expected change of the player's score, points.
    pub expected_points: f64,
}

/// An opponent as the model sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpponentEstimate {
    pub tenpai: f64,
    pub win_value: f64,
}

/// The advice at a table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableAdvice {
    /// Figures in the candidates' order.
    pub figures: Vec<TableFigures>,
    /// Candidate indices, best first (expected points, then the solitaire order).
    pub order: Vec<usize>,
    /// Declare riichi with the first discard of `order`.
    pub riichi: bool,
    /// The expected points are meaningful: every candidate's win probability was
    /// computed. When not (the engine answered late with its shape-only ranking), the
    /// order is the given one, or the safest first when an opponent is more likely
    /// tenpai than not; riichi is not declared.
    pub expected_points_valid: bool,
    pub opponents: [OpponentEstimate; 3],
}

/// Rates every candidate of the 3n+2 `hand` at `table`.
pub fn advise(
    table: &Table,
    hand: &Hand,
    candidates: &[Candidate],
    draws_left: u32,
) -> TableAdvice {
    let w = weights();
    let opponents = Seat::ALL.map(|s| OpponentEstimate {
        tenpai: tenpai_probability(table, s, w),
        win_value: win_value(table, s, w),
    });
    let views = Seat::ALL.map(|s| OpponentView::new(table, s, w));
    let unseen = hand.unseen();
    let yakuhai = Yakuhai::with_winds(table.round_wind, table.seat_wind);
    let race: f64 = opponents
        .iter()
        .map(|o| 1.0 - w.push.race * o.tenpai)
        .product();
    let threat: f64 = opponents.iter().map(|o| o.tenpai * o.win_value).sum();
    let dealer = table.player_deals();
    let riichi_rules = hand.ruleset() == Ruleset::Riichi;
    let deposits =
        1000.0 * f64::from(table.riichi_sticks) + w.value.per_honba * f64::from(table.honba);

    let figures: Vec<TableFigures> = candidates
        .iter()
        .map(|c| {
            let by_opponent = [0, 1, 2]
                .map(|i| opponents[i].tenpai * wait_probability(c.tile, &views[i], &unseen, w));
            let loss: f64 = (0..3)
                .map(|i| by_opponent[i] * opponents[i].win_value)
                .sum();
            let value = own_value(table, hand, c.tile, &yakuhai, dealer, riichi_rules, w);
            // A win also takes the riichi sticks on the table and the honba.
            let value = if value > 0.0 { value + deposits } else { 0.0 };
            let win = (c.win * (1.0 + w.push.ron_factor)).min(w.push.win_cap) * race;
            let push = win * value - future_risk(c.shanten, draws_left, threat, w);
            TableFigures {
                deal_in: by_opponent.iter().sum(),
                by_opponent,
                expected_points: push.max(0.0) - loss,
            }
        })
        .collect();
    let valid = candidates.iter().all(|c| c.computed);
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    if valid {
        order.sort_by(|&a, &b| {
            figures[b]
                .expected_points
                .total_cmp(&figures[a].expected_points)
        });
    } else if opponents.iter().any(|o| o.tenpai > 0.5) {
        order.sort_by(|&a, &b| figures[a].deal_in.total_cmp(&figures[b].deal_in));
    }
    // Kuikae: the forbidden discards go last (a stable sort keeps the rest's order).
    let forbidden = super::kuikae::forbidden(table, hand.melds());
    order.sort_by_key(|&i| forbidden.contains(&candidates[i].tile));
    let riichi = valid
        && riichi_rules
        && order.first().is_some_and(|&best| {
            declares_riichi(
                table,
                hand,
                &candidates[best],
                draws_left,
                race,
                threat,
                &yakuhai,
                w,
            )
        });
    TableAdvice {
        figures,
        order,
        riichi,
        expected_points_valid: valid,
        opponents,
    }
}

pub(super) fn future_risk(shanten: i8, draws_left: u32, threat: f64, w: &DangerWeights) -> f64 {
    let p = &w.push;
    let n = (p.future_discards_base + p.future_discards_per_shanten * f64::from(shanten.max(0)))
        .min(f64::from(draws_left));
    n * p.unsafe_wait_rate * threat
}

/// The hand's value after discarding `tile`: riichi assumed for a closed hand under
/// RIICHI; under other rulesets a flat value (the closed-hand figure), their scoring
/// not being modelled.
pub(super) fn own_value(
    table: &Table,
    hand: &Hand,
    tile: Tile,
    yakuhai: &Yakuhai,
    dealer: bool,
    riichi_rules: bool,
    w: &DangerWeights,
) -> f64 {
    if !riichi_rules {
        return w.value.closed;
    }
    let han = han_after(table, hand, tile, yakuhai);
    if !han.can_win_open {
        return 0.0;
    }
    let total = if han.closed {
        han.yaku + han.dora + w.push.riichi_bonus_han
    } else {
        han.yaku.max(1.0) + han.dora
    };
    points(total, dealer)
}

fn han_after(table: &Table, hand: &Hand, tile: Tile, yakuhai: &Yakuhai) -> super::value::HandHan {
    let mut after = hand.concealed().0;
    after[tile.index()] -= 1;
    let held_red = hand.red_fives();
    let red_total: u8 = [
        crate::mahjong::Suit::Man,
        crate::mahjong::Suit::Pin,
        crate::mahjong::Suit::Sou,
    ]
    .iter()
    .map(|&s| held_red.count(s))
    .sum();
    // The red five goes only when every five of its suit held is red.
    let loses_red = !tile.is_honour()
        && tile.rank() == 5
        && held_red.count(tile.suit()) > 0
        && held_red.count(tile.suit()) >= hand.concealed().count(tile);
    let red = red_total - u8::from(loses_red);
    hand_han(&after, hand.melds(), red, &table.dora_indicators, yakuhai)
}

#[allow(clippy::too_many_arguments)]
fn declares_riichi(
    table: &Table,
    hand: &Hand,
    best: &Candidate,
    draws_left: u32,
    race: f64,
    threat: f64,
    yakuhai: &Yakuhai,
    w: &DangerWeights,
) -> bool {
    let han = han_after(table, hand, best.tile, yakuhai);
    let allowed = han.closed
        && best.shanten == 0
        && !table.player_in_riichi()
        && table.score >= 1000
        && table.live_wall >= 4;
    if !allowed {
        return false;
    }
    let dealer = table.player_deals();
    let p = &w.push;
    let win = (best.win * (1.0 + p.ron_factor)).min(p.win_cap) * race;
    let riichi_value = points(han.yaku + han.dora + p.riichi_bonus_han, dealer);
    let dama = if han.yaku >= 1.0 {
        win * points(han.yaku + han.dora, dealer)
    } else {
        best.win * race * points(1.0 + han.dora, dealer)
    } - future_risk(0, draws_left, threat, w);
    let forced = f64::from(draws_left) * p.unsafe_wait_rate * threat;
    let riichi = win * riichi_value - (1.0 - win) * 1000.0 - forced;
    riichi > dama
}
