//! Dora: the tile after each indicator, red fives, and ura dora under riichi.
//!
//! The dora is the next tile of the indicator's suit, wrapping: 9 -> 1, North -> East,
//! Red -> White. Each copy of a dora in the hand or its melds (all four tiles of a kan)
//! is one han per indicator that points at it.

use super::input::WinInput;
use crate::mahjong::tile::Tile;

/// The dora counts of a hand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DoraCounts {
    /// From the dora indicators.
    pub dora: u8,
    /// Red fives.
    pub red: u8,
    /// From the ura dora indicators, only under riichi.
    pub ura: u8,
}

/// The dora an indicator points at.
pub fn dora_of(indicator: Tile) -> Tile {
    let i = indicator.index();
    let next = match i {
        0..=26 => (i / 9) * 9 + (i % 9 + 1) % 9,
        27..=30 => 27 + (i - 27 + 1) % 4,
        _ => 31 + (i - 31 + 1) % 3,
    };
    Tile(next as u8)
}

/// Counts the dora of a hand.
pub fn count(input: &WinInput) -> DoraCounts {
    let all = input.all_tiles();
    let of =
        |indicators: &[Tile]| -> u8 { indicators.iter().map(|&ind| all.count(dora_of(ind))).sum() };
    DoraCounts {
        dora: of(&input.dora_indicators),
        red: input.red_fives.0.iter().sum(),
        ura: if input.flags.riichi {
            of(&input.ura_dora_indicators)
        } else {
            0
        },
    }
}
