//! Push or fold by expected points: each discard's figure is the expected change of
//! the player's score over the rest of the hand.
//!
//! `EV(t) = - sum_o P(tenpai_o) P(t wins for o) L_o + max(0, R(t))`:
//! - the first term is dealing in now with `t` (`L_o` what o's win costs,
//!   [`super::opponents`]);
//! - `R` is pushing's worth against folding over the rest of the hand, the race of
//!   [`super::race`]: the player's win against the tenpai opponents' wins and the
//!   player's deal-ins while it pushes, each opponent weighted by its tenpai
//!   probability (so with nobody tenpai `R` is the win chance times `V`);
//! - the player's hand enters the race in stages ([`super::race::Outlook`]): the
//!   solitaire engine's win probability `W` of the discard (self-draws only, at most
//!   `win_cap`) and its shanten `k`. It cannot win in its first `k` turns; once tenpai,
//!   each turn's self-draw chance comes with `ron_factor` times that chance of a win on
//!   a discard. A tenpai hand's chance is so `1 - (1 - W)^(1 + ron_factor)`; a far
//!   hand's much less than that, since it waits only at the end;
//! - `V(t)` the hand's value ([`super::value`]) plus the riichi sticks on the table and
//!   the honba (a win takes them);
//! - when pushing is worth less than folding (`R < 0`) the player folds: later discards
//!   are safe tiles, so the figure is the deal-in term alone and the safest discard
//!   ranks first.
//!
//! Riichi or dama, for the discard chosen when it leaves a closed tenpai hand (RIICHI
//! only, 1000 points to pay, at least 4 tiles in the wall, not yet in riichi): riichi
//! adds the riichi bonus han, pays the stick unless the hand wins and gives up folding
//! (the race without its `max(0, ..)`); dama keeps its yaku only (a hand without one
//! wins only on a self-draw: menzen tsumo, the solitaire figure alone) and may fold.

use crate::mahjong::Hand;
use crate::mahjong::rules::Ruleset;
use crate::mahjong::strategy;
use crate::mahjong::strategy::open_yaku::Yakuhai;
use crate::mahjong::tile::{RedFives, Tile};

use super::danger::{OpponentView, mean_wait_probability, wait_probability};
use super::opponents::{tenpai_probability, win_value};
use super::race::{Outlook, Race, Threat};
use super::state::{Seat, Table};
use super::value::{HandHan, TenpaiValue, hand_han, points, points_at, tenpai_value};
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

impl From<&strategy::DiscardCandidate> for Candidate {
    /// A discard as the solitaire engine rated it.
    fn from(c: &strategy::DiscardCandidate) -> Candidate {
        Candidate {
            tile: c.tile,
            win: c.win_probability,
            shanten: c.shanten,
            computed: c.method != strategy::Method::NotComputed,
        }
    }
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
    let race = race_at(&opponents, &views, &unseen, w);
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
            let hand_outlook = outlook(c.win, c.shanten, w.push.ron_factor, w);
            let push = race.push_points_staged(hand_outlook, value, draws_left);
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
                &race,
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

/// The race of the rest of the hand ([`super::race`]) against these opponents: each
/// one's tenpai probability, what dealing into it costs, and the mean danger of a tile
/// the player cannot see (`unseen`).
pub(super) fn race_at(
    opponents: &[OpponentEstimate; 3],
    views: &[OpponentView; 3],
    unseen: &[u8; crate::mahjong::tile::KINDS],
    w: &DangerWeights,
) -> Race {
    let threats = [0, 1, 2].map(|i| Threat {
        tenpai: opponents[i].tenpai,
        loss: opponents[i].win_value,
        danger: mean_wait_probability(&views[i], unseen, w),
    });
    Race::new(&threats, w.push.threat_win_per_turn, w.push.tsumo_share)
}

/// The hand as the race sees it ([`Outlook`]): the solitaire engine's self-draw chance
/// `win` (at most `win_cap`), its shanten, and `ron_factor` wins on discards per
/// self-draw win while it waits (0 for a hand that can win only by self-draw).
pub(super) fn outlook(win: f64, shanten: i8, ron_factor: f64, w: &DangerWeights) -> Outlook {
    Outlook {
        self_draw: win.clamp(0.0, w.push.win_cap),
        shanten: shanten.max(0) as u8,
        ron_factor,
    }
}

/// The hand's value after discarding `tile`: riichi assumed for a closed hand under
/// RIICHI; under other rulesets a flat value (the closed-hand figure), their scoring
/// not being modelled. A tenpai hand is scored on its waits ([`tenpai_value`]); any
/// other from its han ([`hand_han`]).
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
    let after = After::of(table, hand, tile, yakuhai);
    if let Some(v) = after.tenpai(table, hand, w) {
        return v.riichi.unwrap_or(v.dama);
    }
    let han = after.han;
    if !han.can_win_open {
        return 0.0;
    }
    let total = if han.closed {
        han.yaku + han.dora + w.push.riichi_bonus_han
    } else {
        han.yaku.max(1.0) + han.dora
    };
    points(total, han.closed, dealer)
}

/// The hand after a discard: its tiles, red fives and han estimate.
struct After {
    tiles: [u8; crate::mahjong::tile::KINDS],
    red: RedFives,
    han: HandHan,
}

impl After {
    fn of(table: &Table, hand: &Hand, tile: Tile, yakuhai: &Yakuhai) -> After {
        let mut tiles = hand.concealed().0;
        tiles[tile.index()] -= 1;
        let red = hand
            .red_fives()
            .after_throwing(tile, usize::from(tiles[tile.index()]));
        let red_total: u8 = red.0.iter().sum();
        let han = hand_han(
            &tiles,
            hand.melds(),
            red_total,
            &table.dora_indicators,
            yakuhai,
        );
        After { tiles, red, han }
    }

    fn tenpai(&self, table: &Table, hand: &Hand, w: &DangerWeights) -> Option<TenpaiValue> {
        tenpai_value(
            table,
            &self.tiles,
            hand.melds(),
            self.red,
            &hand.unseen(),
            w.push.riichi_bonus_han,
        )
    }
}

fn declares_riichi(
    table: &Table,
    hand: &Hand,
    best: &Candidate,
    draws_left: u32,
    race: &Race,
    yakuhai: &Yakuhai,
    w: &DangerWeights,
) -> bool {
    let after = After::of(table, hand, best.tile, yakuhai);
    let han = after.han;
    let allowed = han.closed
        && best.shanten == 0
        && !table.player_in_riichi()
        && table.score >= 1000
        && table.live_wall >= 4;
    if !allowed {
        return false;
    }
    let dealer = table.player_deals();
    let deposits =
        1000.0 * f64::from(table.riichi_sticks) + w.value.per_honba * f64::from(table.honba);
    let rons = outlook(best.win, 0, w.push.ron_factor, w);
    // The values by ron: scored on the waits, or the estimate when the scorer finds no
    // live wait (0 for dama without a yaku).
    let exact = after.tenpai(table, hand, w);
    let dama_ron = exact.map_or(
        if han.yaku >= 1.0 {
            points(han.yaku + han.dora, true, dealer)
        } else {
            0.0
        },
        |v| v.dama,
    );
    // Dama: ron and tsumo with a yaku, tsumo alone (menzen tsumo, 1 han, 30 fu) without
    // one; the player may still fold later.
    let dama = if dama_ron > 0.0 {
        race.push_points_staged(rons, dama_ron + deposits, draws_left)
    } else {
        race.push_points_staged(
            outlook(best.win, 0, 0.0, w),
            points_at(1.0 + han.dora, 30, dealer) + deposits,
            draws_left,
        )
    }
    .max(0.0);
    // Riichi: the stick comes back with a win (it is in the value), is lost otherwise,
    // and the hand pushes to the end.
    let riichi_value = exact
        .and_then(|v| v.riichi)
        .unwrap_or_else(|| points(han.yaku + han.dora + w.push.riichi_bonus_han, true, dealer))
        + deposits;
    let riichi = race.push_points_staged(rons, riichi_value + 1000.0, draws_left) - 1000.0;
    riichi > dama
}
