//! A call at the table: the solitaire call decision ([`strategy::suggest_call_within`],
//! the table's winds as yakuhai, within [`Effort::TABLE`]), then the call must pay for its risk in expected points.
//!
//! With the call: the race of the rest of the hand ([`super::race`], pushing against
//! folding, at least 0) with the open hand's value (0 without a reachable yaku, else
//! its yaku han, at least 1, and dora: [`super::value`]) and its win chance, less the
//! deal-in risk of the discard that follows it; without: the same race with the closed
//! hand's value (riichi assumed, as for a discard) and passing's win chance. A call
//! worth fewer points than passing becomes a pass. A player already in riichi makes no
//! chi, pon or kan here (its hand is fixed).

use std::time::Instant;

use crate::mahjong::Hand;
use crate::mahjong::meld::Meld;
use crate::mahjong::strategy::{
    self, CallAction, CallAdvice, DecisionError, Effort, From, Yakuhai,
};
use crate::mahjong::tile::Tile;

use super::danger::{OpponentView, wait_probability};
use super::decision::{OpponentEstimate, own_value, race_at, total_win};
use super::opponents::{tenpai_probability, win_value};
use super::state::{Seat, Table};
use super::value::{hand_han, points};
use super::weights::weights;

/// The call advice at `table`, with the expected points with the call made (when the
/// engine found one worth considering) and without.
pub fn suggest_call_at_table(
    hand: &Hand,
    table: &Table,
    offered: Tile,
    from: From,
    deadline: Option<Instant>,
) -> Result<(CallAdvice, Option<f64>, f64), DecisionError> {
    let yakuhai = Yakuhai::with_winds(table.round_wind, table.seat_wind);
    let draws = table.draws_left_after_offer(from);
    let mut advice = strategy::suggest_call_within(
        hand,
        offered,
        from,
        Some(draws),
        deadline,
        &yakuhai,
        &Effort::TABLE,
    )?;
    let w = weights();
    let tenpai = Seat::ALL.map(|s| tenpai_probability(table, s, w));
    let cost = Seat::ALL.map(|s| win_value(table, s, w));
    let views = Seat::ALL.map(|s| OpponentView::new(table, s, w));
    let unseen = hand.unseen();
    let estimates = [0, 1, 2].map(|i| OpponentEstimate {
        tenpai: tenpai[i],
        win_value: cost[i],
    });
    let race = race_at(&estimates, &views, &unseen, w);
    let dealer = table.player_deals();

    // Passing: the closed (or already open) hand as it is, its best discard unknown
    // here: valued as a discard of nothing, i.e. the hand's own value.
    let pass_win = advice.without_call.win;
    let pass_value = hand_value_now(table, hand, &yakuhai, dealer);
    let without = race
        .push_points(total_win(pass_win, w), pass_value, draws)
        .max(0.0);

    let (Some(meld), Some(figures)) = (advice.meld, advice.with_call) else {
        return Ok((advice, None, without));
    };
    if matches!(advice.action, CallAction::Pass | CallAction::Win) {
        return Ok((advice, None, without));
    }
    if table.player_in_riichi() {
        advice = pass_instead(advice, "the player is in riichi: no call changes the hand");
        return Ok((advice, None, without));
    }
    let loss = advice.discard.map_or(0.0, |d| {
        (0..3)
            .map(|i| tenpai[i] * wait_probability(d, &views[i], &unseen, w) * cost[i])
            .sum()
    });
    let value = open_value(table, hand, meld, offered, advice.discard, &yakuhai, dealer);
    let with = race
        .push_points(total_win(figures.win, w), value, draws)
        .max(0.0)
        - loss;
    if with < without {
        let why = format!(
            "the call does not pay for its risk: {with:.0} expected points against {without:.0} passing"
        );
        advice = pass_instead(advice, &why);
    }
    Ok((advice, Some(with), without))
}

fn pass_instead(mut advice: CallAdvice, why: &str) -> CallAdvice {
    advice.action = CallAction::Pass;
    advice.meld = None;
    advice.discard = None;
    advice.reason = why.to_string();
    advice
}

/// The value of the 3n+1 hand as it stands (a discard's value without the discard).
fn hand_value_now(table: &Table, hand: &Hand, yakuhai: &Yakuhai, dealer: bool) -> f64 {
    let mut counts = hand.concealed().0;
    let unseen = hand.unseen();
    // A tile of the hand stands in for the draw to come and the discard that goes:
    // one more copy of it added, then discarded (no change to the hand).
    let Some(tile) = (0..34)
        .find(|&i| counts[i] > 0 && unseen[i] > 0)
        .map(|i| Tile(i as u8))
    else {
        return 0.0;
    };
    counts[tile.index()] += 1;
    let padded = Hand::new(
        crate::mahjong::TileCounts(counts),
        hand.melds().to_vec(),
        hand.visible().to_owned(),
        hand.ruleset(),
    );
    match padded {
        Ok(h) => own_value(table, &h, tile, yakuhai, dealer, true, weights()),
        Err(_) => 0.0,
    }
}

/// The value of the open hand after the call and its discard.
fn open_value(
    table: &Table,
    hand: &Hand,
    meld: Meld,
    offered: Tile,
    discard: Option<Tile>,
    yakuhai: &Yakuhai,
    dealer: bool,
) -> f64 {
    let mut after = hand.concealed().0;
    after[offered.index()] += 1;
    for t in meld.tiles().tiles() {
        after[t.index()] = after[t.index()].saturating_sub(1);
    }
    if let Some(d) = discard {
        after[d.index()] = after[d.index()].saturating_sub(1);
    }
    let melds: Vec<Meld> = hand.melds().iter().copied().chain([meld]).collect();
    let red: u8 = hand.red_fives().0.iter().sum();
    let han = hand_han(&after, &melds, red, &table.dora_indicators, yakuhai);
    if !han.can_win_open {
        return 0.0;
    }
    points(han.yaku.max(1.0) + han.dora, false, dealer)
}
