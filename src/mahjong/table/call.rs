//! A call at the table: the solitaire call decision ([`strategy::suggest_call_within`],
//! the table's winds as yakuhai, within [`Effort::TABLE`]), then the call must pay for its risk in expected points.
//!
//! With the call: the race of the rest of the hand ([`super::race`], pushing against
//! folding, at least 0) with the open hand's value (0 without a reachable yaku, else
//! its yaku han, at least 1, and dora; a tenpai hand scored on its waits:
//! [`super::value`]) and its win chance, less the
//! deal-in risk of the discard that follows it; without: the same race with the closed
//! hand's value (riichi assumed, as for a discard) and passing's win chance. A call
//! worth fewer points than passing becomes a pass. A player already in riichi makes no
//! chi, pon or kan here (its hand is fixed).

use std::time::Instant;

use crate::mahjong::Hand;
use crate::mahjong::meld::Meld;
use crate::mahjong::shanten::shanten;
use crate::mahjong::strategy::{
    self, CallAction, CallAdvice, DecisionError, Effort, From, Yakuhai,
};
use crate::mahjong::tile::{RedFives, Tile};

use super::danger::{OpponentView, wait_probability};
use super::decision::{OpponentEstimate, outlook, own_value, race_at};
use super::opponents::{tenpai_probability, win_value};
use super::state::{Seat, Table};
use super::value::{hand_han, points, tenpai_value};
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
    // The 3n+1 hand's shanten is the one it keeps after its next draw and discard.
    let pass_shanten = shanten(
        &hand.concealed().0,
        hand.melds().len() as u8,
        hand.ruleset(),
    );
    let without = race
        .push_points_staged(
            outlook(pass_win, pass_shanten, w.push.ron_factor, w),
            pass_value,
            draws,
        )
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
    let after = AfterCall::of(hand, meld, offered, advice.discard);
    let value = after.value(table, &unseen, &yakuhai, dealer);
    let after_shanten = shanten(&after.tiles, after.melds.len() as u8, hand.ruleset());
    let with = race
        .push_points_staged(
            outlook(figures.win, after_shanten, w.push.ron_factor, w),
            value,
            draws,
        )
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

/// The hand right after a call and its discard: the concealed tiles, the melds and the
/// red fives left.
struct AfterCall {
    tiles: [u8; crate::mahjong::tile::KINDS],
    melds: Vec<Meld>,
    red: RedFives,
}

impl AfterCall {
    fn of(hand: &Hand, meld: Meld, offered: Tile, discard: Option<Tile>) -> AfterCall {
        let mut tiles = hand.concealed().0;
        tiles[offered.index()] += 1;
        for t in meld.tiles().tiles() {
            tiles[t.index()] = tiles[t.index()].saturating_sub(1);
        }
        if let Some(d) = discard {
            tiles[d.index()] = tiles[d.index()].saturating_sub(1);
        }
        let melds: Vec<Meld> = hand.melds().iter().copied().chain([meld]).collect();
        // The fives kept count those of the melds too: a red five may have gone into one.
        let red = discard.map_or(hand.red_fives(), |d| {
            let in_melds: usize = melds.iter().map(|m| usize::from(m.tiles().count(d))).sum();
            hand.red_fives()
                .after_throwing(d, usize::from(tiles[d.index()]) + in_melds)
        });
        AfterCall { tiles, melds, red }
    }

    /// The open hand's value: tenpai, scored as a ron on each wait as a closed hand is
    /// ([`tenpai_value`], 0 when no wait has a yaku); else its yaku han (at least 1)
    /// and dora at 30 fu, 0 without a reachable yaku.
    fn value(
        &self,
        table: &Table,
        unseen: &[u8; crate::mahjong::tile::KINDS],
        yakuhai: &Yakuhai,
        dealer: bool,
    ) -> f64 {
        if let Some(v) = tenpai_value(
            table,
            &self.tiles,
            &self.melds,
            self.red,
            unseen,
            weights().push.riichi_bonus_han,
        ) {
            return v.dama;
        }
        let red: u8 = self.red.0.iter().sum();
        let han = hand_han(
            &self.tiles,
            &self.melds,
            red,
            &table.dora_indicators,
            yakuhai,
        );
        if !han.can_win_open {
            return 0.0;
        }
        points(han.yaku.max(1.0) + han.dora, false, dealer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::TileCounts;
    use crate::mahjong::meld::MeldKind;
    use crate::mahjong::rules::Ruleset;

    /// East round, the player South (not the dealer), dora indicator 5z (dora 6z, held
    /// by nobody here).
    fn south_seat() -> Table {
        Table::south_seat("5z")
    }

    #[test]
    fn an_open_tenpai_hand_is_scored_on_its_wait() {
        // 77z111s234m567p9s9m: pon of the offered 7z (chun), discard 9m, leaves
        // 111s234m567p9s waiting on 9s alone (tanki). Ron on 9s: yakuhai (chun) 1 han;
        // fu 20 + 4 (open pon of an honour) + 8 (concealed triplet of terminals, 111s,
        // untouched by the winning tile) + 2 (tanki) = 34, rounded up to 40. Tenhou's
        // table, non-dealer ron, 1 han 40 fu: 1,300 (the 30-fu estimate gave 1,000).
        let table = south_seat();
        let concealed: TileCounts = "77z111s234m567p9s9m".parse().unwrap();
        let visible: TileCounts = "7z5z".parse().unwrap();
        let hand = Hand::new(concealed, vec![], visible, Ruleset::Riichi).unwrap();
        let chun: Tile = "7z".parse().unwrap();
        let pon = Meld::of_kind(MeldKind::Pon, chun).unwrap();
        let yakuhai = Yakuhai::with_winds(table.round_wind, table.seat_wind);
        let after = AfterCall::of(&hand, pon, chun, Some("9m".parse().unwrap()));
        let value = after.value(&table, &hand.unseen(), &yakuhai, false);
        assert_eq!(value, 1300.0);
    }
}
