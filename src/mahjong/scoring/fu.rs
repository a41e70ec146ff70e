//! Fu (符): the minipoints of one reading, rounded up to 10.
//!
//! Base 20; a closed hand winning on a discard +10; a self-draw +2 (not with pinfu);
//! a kanchan, penchan or single-tile wait +2; a pair of a dragon, the seat wind or the
//! round wind +2 each (a double-wind pair +4); per set: an open triplet of simples 2,
//! of terminals or honours 4, doubled when concealed, quadrupled for a quad. Seven pairs
//! are 25 fu flat; a closed pinfu self-draw is 20 and an open hand with no fu at all is
//! 30 (the "open pinfu" 2 fu); thirteen orphans have no fu (0). Source: Tenhou's rules (as in `mod.rs`).

use super::input::{WinInput, is_dragon};
use super::split::{Reading, Set, SetKind, Wait};
use super::yaku::pinfu_shape;
use crate::mahjong::tile::Tile;

/// The fu of a reading (a pinfu shape changes the self-draw fu).
pub fn fu(input: &WinInput, reading: &Reading) -> u8 {
    let (sets, pair, wait) = match reading {
        Reading::Regular { sets, pair, wait } => (sets, pair, wait),
        Reading::SevenPairs { .. } => return 25,
        Reading::ThirteenOrphans { .. } => return 0,
    };
    // Pinfu's shape, whether or not pinfu is scored (a yakuman hides it): a yakuman's
    // fu has no value, and the shape's 20 fu self-draw keeps the reading the oracle
    // keeps (PyPI `mahjong` 2.1.0 counts it from the shape too).
    let pinfu = pinfu_shape(input, sets, *pair, *wait);
    if pinfu && input.flags.self_draw {
        return 20;
    }
    let mut total = 20u32;
    if input.is_closed() && !input.flags.self_draw {
        total += 10;
    }
    if input.flags.self_draw && !pinfu {
        total += 2;
    }
    if matches!(wait, Wait::Kanchan | Wait::Penchan | Wait::Tanki) {
        total += 2;
    }
    total += pair_fu(input, *pair);
    total += sets.iter().map(set_fu).sum::<u32>();
    if total == 20 {
        // An open hand with nothing but its base: 30 by the open pinfu rule.
        return 30;
    }
    (total.div_ceil(10) * 10) as u8
}

/// 2 fu for a dragon pair, 2 for the seat wind, 2 for the round wind (both: 4).
fn pair_fu(input: &WinInput, pair: Tile) -> u32 {
    let mut fu = 0;
    if is_dragon(pair) {
        fu += 2;
    }
    if pair == input.seat_wind {
        fu += 2;
    }
    if pair == input.round_wind {
        fu += 2;
    }
    fu
}

/// A set's fu: 0 for a sequence; 2 for an open triplet of simples, doubled for
/// terminals or honours, doubled when concealed, quadrupled for a quad.
fn set_fu(set: &Set) -> u32 {
    if set.kind == SetKind::Sequence {
        return 0;
    }
    let mut fu = 2;
    if set.tile.is_terminal_or_honour() {
        fu *= 2;
    }
    if set.concealed {
        fu *= 2;
    }
    if set.kind == SetKind::Quad {
        fu *= 4;
    }
    fu
}
