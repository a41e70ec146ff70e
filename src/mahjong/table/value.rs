//! What the player's own hand is worth if it wins: a documented estimate from han,
//! not a full scoring of every winning hand (that is [`crate::mahjong::scoring`]).
//!
//! Han counted: dora from the indicators and red fives held; tanyao (every tile 2..8,
//! open or closed: kuitan); a yakuhai triplet 1, a yakuhai pair 0.3 (it may become
//! one). A closed hand adds the riichi bonus (riichi, and the expectation of ura dora,
//! ippatsu and menzen tsumo); an open hand is worth nothing without a reachable yaku
//! ([`crate::mahjong::strategy::open_yaku`]) and at least one han of yaku with one.
//! Points: the ron payment at 30 fu (Tenhou's table through
//! [`crate::mahjong::scoring::payment::pay`]), linear between whole han.

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::scoring::dora::dora_of;
use crate::mahjong::scoring::payment::pay;
use crate::mahjong::strategy::open_yaku::{Yakuhai, keeps_yaku};
use crate::mahjong::tile::{KINDS, Tile};

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

/// The ron value in points of `han` (fractional: linear between whole han) at 30 fu.
pub fn points(han: f64, dealer: bool) -> f64 {
    let han = han.clamp(1.0, 13.0);
    let at = |h: f64| f64::from(pay(h as u8, 30, false, dealer, false).1.total());
    let low = han.floor();
    let frac = han - low;
    if frac == 0.0 {
        at(low)
    } else {
        at(low) * (1.0 - frac) + at(low + 1.0) * frac
    }
}
