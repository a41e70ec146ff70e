//! What the player's own hand is worth if it wins: a documented estimate from han,
//! not a full scoring of every winning hand (that is [`crate::mahjong::scoring`]).
//!
//! Han counted: dora from the indicators and red fives held; tanyao (every tile 2..8,
//! open or closed: kuitan); a yakuhai triplet 1, a yakuhai pair 0.3 (it may become
//! one). A closed hand adds the riichi bonus (riichi, and the expectation of ura dora,
//! ippatsu and menzen tsumo); an open hand is worth nothing without a reachable yaku
//! ([`crate::mahjong::strategy::open_yaku`]) and at least one han of yaku with one.
//! Points: the ron payment (Tenhou's table through
//! [`crate::mahjong::scoring::payment::pay`]), linear between whole han, at the fu a ron
//! most often has: 40 for a closed hand (20 base + 10 for a closed ron, and any
//! triplet, closed wait or value pair rounds it up to 40), 30 for an open one.
//!
//! A tenpai hand is not estimated: [`tenpai_value`] scores it on each of its waits with
//! the scorer ([`crate::mahjong::scoring::score`], as a ron), so pinfu (30 fu and a
//! han), iipeikou, sanshoku, a shanpon's 40 fu or a wait without a yaku are counted as
//! they are.

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::rules::Ruleset;
use crate::mahjong::scoring::dora::dora_of;
use crate::mahjong::scoring::payment::pay;
use crate::mahjong::scoring::{WinFlags, WinInput, score};
use crate::mahjong::shanten::{shanten_regular, shanten_seven_pairs, shanten_thirteen_orphans};
use crate::mahjong::strategy::open_yaku::{Yakuhai, keeps_yaku};
use crate::mahjong::tile::{KINDS, RedFives, Tile, TileCounts};

use super::state::Table;

/// Fu of a closed ron that is not pinfu, and of an open hand's win.
pub const CLOSED_FU: u8 = 40;
pub const OPEN_FU: u8 = 30;

/// The han of a hand, split as the riichi decision needs them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandHan {
    /// Dora and red fives.
    pub dora: f64,
    /// Han of yaku the hand has without riichi (tanyao, yakuhai).
    pub yaku: f64,
    /// No open meld.
    pub closed: bool,
    /// An open hand keeps a reachable yaku (true for closed hands).
    pub can_win_open: bool,
}

/// The han of the concealed tiles `after` (the discard made) with `melds` and `red`
/// red fives.
pub fn hand_han(
    after: &[u8; KINDS],
    melds: &[Meld],
    red: u8,
    indicators: &[Tile],
    yakuhai: &Yakuhai,
) -> HandHan {
    let mut all = *after;
    for m in melds {
        for t in m.tiles().tiles() {
            all[t.index()] += 1;
        }
    }
    let dora: u32 = indicators
        .iter()
        .map(|&i| u32::from(all[dora_of(i).index()]))
        .sum();
    let tanyao = all
        .iter()
        .enumerate()
        .all(|(i, &c)| c == 0 || !Tile(i as u8).is_terminal_or_honour());
    let mut yaku = if tanyao { 1.0 } else { 0.0 };
    for (i, &c) in all.iter().enumerate() {
        if yakuhai.contains(Tile(i as u8)) {
            yaku += match c {
                3.. => 1.0,
                2 => 0.3,
                _ => 0.0,
            };
        }
    }
    let closed = melds.iter().all(|m| m.kind() == MeldKind::ClosedKan);
    HandHan {
        dora: f64::from(dora) + f64::from(red),
        yaku,
        closed,
        can_win_open: closed || keeps_yaku(melds, after, yakuhai),
    }
}

/// The ron value in points of `han` (fractional: linear between whole han) at
/// [`CLOSED_FU`] for a closed hand, [`OPEN_FU`] for an open one.
pub fn points(han: f64, closed: bool, dealer: bool) -> f64 {
    points_at(han, if closed { CLOSED_FU } else { OPEN_FU }, dealer)
}

/// The ron value in points of `han` (fractional: linear between whole han) at `fu`.
pub fn points_at(han: f64, fu: u8, dealer: bool) -> f64 {
    let han = han.clamp(1.0, 13.0);
    let at = |h: f64| f64::from(pay(h as u8, fu, false, dealer, false).1.total());
    let low = han.floor();
    let frac = han - low;
    if frac == 0.0 {
        at(low)
    } else {
        at(low) * (1.0 - frac) + at(low + 1.0) * frac
    }
}

/// What a tenpai hand wins by ron, averaged over its waits (each weighted by its copies
/// the player cannot see).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TenpaiValue {
    /// Without riichi: the scorer's ron payment, 0 on a wait without a yaku.
    pub dama: f64,
    /// With riichi (closed hands only): the scorer's payment with riichi's han, plus
    /// `bonus_han - 1` more han (ura dora, ippatsu, self-draw) at the same fu.
    pub riichi: Option<f64>,
}

/// The value of the 3n+1 tiles `after` with `melds` and `red` as a tenpai hand at
/// `table`, or `None` when no tile with an unseen copy completes it.
pub fn tenpai_value(
    table: &Table,
    after: &[u8; KINDS],
    melds: &[Meld],
    red: RedFives,
    unseen: &[u8; KINDS],
    bonus_han: f64,
) -> Option<TenpaiValue> {
    if !is_tenpai(after, melds) {
        return None;
    }
    let closed = melds.iter().all(|m| m.kind() == MeldKind::ClosedKan);
    let dealer = table.player_deals();
    let (mut weight, mut dama, mut riichi) = (0.0, 0.0, 0.0);
    for k in 0..KINDS {
        if unseen[k] == 0 || after[k] >= 4 {
            continue;
        }
        let win = Tile(k as u8);
        let ron = |riichi: bool| {
            let mut concealed = *after;
            concealed[k] += 1;
            let flags = WinFlags {
                riichi,
                ..WinFlags::default()
            };
            let input = WinInput::new(
                TileCounts(concealed),
                melds.to_vec(),
                win,
                table.seat_wind,
                table.round_wind,
                flags,
                table.dora_indicators.clone(),
                Vec::new(),
                red,
            )
            .ok()?;
            Some(score(&input))
        };
        let Some(plain) = ron(false) else { continue };
        if plain == Err(crate::mahjong::scoring::NoWin::NotComplete) {
            continue;
        }
        let copies = f64::from(unseen[k]);
        weight += copies;
        dama += copies * plain.map_or(0.0, |s| f64::from(s.points()));
        if closed && let Some(Ok(s)) = ron(true) {
            let value = if s.yakuman() > 0 {
                f64::from(s.points())
            } else {
                points_at(f64::from(s.han) + bonus_han - 1.0, s.fu, dealer)
            };
            riichi += copies * value;
        }
    }
    (weight > 0.0).then(|| TenpaiValue {
        dama: dama / weight,
        riichi: closed.then_some(riichi / weight),
    })
}

/// Some form is one tile from complete (the shanten tables, microseconds): the scorer
/// is asked about the waits only then, since without it no tile completes the hand.
fn is_tenpai(after: &[u8; KINDS], melds: &[Meld]) -> bool {
    shanten_regular(after, melds.len() as u8) <= 0
        || shanten_seven_pairs(after, Ruleset::Riichi).is_some_and(|s| s <= 0)
        || shanten_thirteen_orphans(after).is_some_and(|s| s <= 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &str) -> [u8; KINDS] {
        s.parse::<TileCounts>().unwrap().0
    }

    /// East round, the player South (not the dealer), dora indicator 1z (dora 2z, held
    /// by nobody here), every other tile unseen.
    fn south_seat() -> Table {
        Table::south_seat("1z")
    }

    fn unseen_except(hand: &[u8; KINDS]) -> [u8; KINDS] {
        let mut u = [4u8; KINDS];
        for k in 0..KINDS {
            u[k] -= hand[k];
        }
        u[Tile(27).index()] -= 1; // the indicator 1z
        u
    }

    #[test]
    fn a_closed_non_pinfu_ron_is_40_fu() {
        // Tenhou's table, non-dealer ron: 1 han 40 fu 1,300; 2 han 40 fu 2,600. Fu of
        // the closed ron of 234m567p678s99s44z (shanpon 9s / 4z): 20 base + 10 closed
        // ron + 4 (the triplet completed on the discard counts open: 9s terminal or 4z
        // honour, 4) = 34, rounded up to 40. North is not a value wind for South in
        // East, so no yaku without riichi: dama 0 on both waits. Riichi: 1 han 40 fu
        // 1,300, with 0.7 more han (bonus 1.7): 1300 x 0.3 + 2600 x 0.7 = 2,210.
        let after = counts("234m567p678s99s44z");
        let v = tenpai_value(
            &south_seat(),
            &after,
            &[],
            RedFives::NONE,
            &unseen_except(&after),
            1.7,
        )
        .unwrap();
        assert_eq!(v.dama, 0.0);
        assert!((v.riichi.unwrap() - 2210.0).abs() < 1e-6, "{v:?}");
    }

    #[test]
    fn a_pinfu_ron_is_30_fu_and_a_han() {
        // The probe of docs/experiments/2026-12-06-mahjong-push-fold.md after 6p goes:
        // 23456m567p678s99s waits 1m / 4m / 7m, every reading all runs with a two-sided
        // wait on a 9s pair: pinfu, 30 fu (a closed ron with pinfu is 30, no more).
        // No tanyao (9s). Dama: pinfu 1 han 30 fu = 1,000 on each wait. Riichi: riichi
        // + pinfu 2 han 30 fu 2,000, and 0.7 more han toward 3 han 30 fu 3,900: 2000 x
        // 0.3 + 3900 x 0.7 = 3,330 (the estimate before: 1.7 han at 30 fu, 1,700).
        let after = counts("23456m567p678s99s");
        let v = tenpai_value(
            &south_seat(),
            &after,
            &[],
            RedFives::NONE,
            &unseen_except(&after),
            1.7,
        )
        .unwrap();
        assert!((v.dama - 1000.0).abs() < 1e-6, "{v:?}");
        assert!((v.riichi.unwrap() - 3330.0).abs() < 1e-6, "{v:?}");
    }

    #[test]
    fn waits_weigh_by_their_unseen_copies_and_one_shanten_is_no_tenpai() {
        // 23456m567p678s99s with 1m and 7m all seen, 4m twice unseen: the value is 4m's
        // alone (the same 3,330 / 1,000 as above). 1-shanten 2356m567p678s99s: none.
        let after = counts("23456m567p678s99s");
        let mut unseen = unseen_except(&after);
        unseen[0] = 0;
        unseen[6] = 0;
        unseen[3] = 2;
        let v = tenpai_value(&south_seat(), &after, &[], RedFives::NONE, &unseen, 1.7).unwrap();
        assert!((v.dama - 1000.0).abs() < 1e-6);
        let far = counts("2356m567p678s99s1z");
        assert!(
            tenpai_value(
                &south_seat(),
                &far,
                &[],
                RedFives::NONE,
                &unseen_except(&far),
                1.7
            )
            .is_none()
        );
    }

    #[test]
    fn the_estimate_is_at_40_fu_closed_and_30_open() {
        // Tenhou's table, non-dealer ron: 1 han 40 fu 1,300, 2 han 2,600; 30 fu 1,000 and
        // 2,000; dealer 1 han 40 fu 2,000. Halfway between whole han: the mean.
        assert_eq!(points(1.0, true, false), 1300.0);
        assert_eq!(points(1.5, true, false), 1950.0);
        assert_eq!(points(2.0, false, false), 2000.0);
        assert_eq!(points(1.0, true, true), 2000.0);
    }
}
