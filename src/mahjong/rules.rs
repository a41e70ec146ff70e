//! Rulesets: which tiles, calls and winning forms exist (DESIGN.md, "Rule decisions").
//!
//! | ruleset   | tiles | honours | chi | seven pairs                   | thirteen orphans | lacks a suit |
//! |-----------|-------|---------|-----|-------------------------------|------------------|--------------|
//! | `General` | 136   | yes     | yes | four identical = two pairs    | yes              | no           |
//! | `Sichuan` | 108   | no      | no  | four identical = two pairs    | no               | yes          |
//! | `Riichi`  | 136   | yes     | yes | seven distinct pairs          | yes              | no           |
//!
//! RIICHI's set has one red five per numbered suit (`0m`, `0p`, `0s`); elsewhere `0m` is
//! read as a five and not limited apart.
//!
//! SICHUAN (四川麻将, 缺一门): a winning hand holds tiles of at most two of the three
//! suits, whatever its form (regular or seven pairs). Shanten under SICHUAN is the minimum
//! over the three choices of the missing suit; tiles of the chosen missing suit are
//! treated as tiles that must be discarded (they never help, and each costs no draw, only
//! the place it takes — exactly like any other surplus tile in the distance definition).
//! Melds already called in a suit rule that suit out as the missing one.

use std::fmt;

use super::error::MahjongError;
use super::meld::{Meld, MeldKind};
use super::tile::{RedFives, Suit, TileCounts};

/// The rules deciding which hands win and which calls exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ruleset {
    /// 136 tiles; 4 melds + pair, seven pairs (four identical tiles count as two pairs),
    /// thirteen orphans; chi, pon, kan.
    #[default]
    General,
    /// 108 tiles (no honours), no chi; a winning hand lacks at least one suit; seven pairs
    /// with quads counting as two pairs; no thirteen orphans.
    Sichuan,
    /// 136 tiles; seven pairs need seven distinct pairs (as riichi tools count them).
    Riichi,
}

/// How seven pairs treats four identical tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SevenPairsRule {
    /// Four identical tiles count as two pairs (GENERAL, SICHUAN).
    QuadsAsTwoPairs,
    /// The seven pairs must be of seven distinct kinds (RIICHI).
    DistinctPairs,
}

impl Ruleset {
    /// All rulesets.
    pub const ALL: [Ruleset; 3] = [Ruleset::General, Ruleset::Sichuan, Ruleset::Riichi];

    /// Whether honour tiles are in the set.
    pub const fn has_honours(self) -> bool {
        !matches!(self, Ruleset::Sichuan)
    }

    /// Whether chi (calling a sequence from the left player) exists.
    pub const fn allows_chi(self) -> bool {
        !matches!(self, Ruleset::Sichuan)
    }

    /// The seven-pairs rule.
    pub const fn seven_pairs(self) -> SevenPairsRule {
        match self {
            Ruleset::Riichi => SevenPairsRule::DistinctPairs,
            _ => SevenPairsRule::QuadsAsTwoPairs,
        }
    }

    /// Whether thirteen orphans is a winning form.
    pub const fn has_thirteen_orphans(self) -> bool {
        !matches!(self, Ruleset::Sichuan)
    }

    /// Whether a winning hand must lack at least one of the three numbered suits.
    pub const fn requires_missing_suit(self) -> bool {
        matches!(self, Ruleset::Sichuan)
    }

    /// Tiles in the full set (136 or 108).
    pub const fn tile_count(self) -> usize {
        if self.has_honours() { 136 } else { 108 }
    }

    /// Red fives of each numbered suit in the set: one under RIICHI (three red fives,
    /// DESIGN.md); `None` where the ruleset has no red fives and `0m` is only another
    /// way to write a five.
    pub const fn red_fives_per_suit(self) -> Option<u8> {
        match self {
            Ruleset::Riichi => Some(1),
            _ => None,
        }
    }

    /// Rejects more red fives of a suit than the set holds.
    pub fn check_red_fives(self, red: &RedFives) -> Result<(), MahjongError> {
        let Some(limit) = self.red_fives_per_suit() else {
            return Ok(());
        };
        match [Suit::Man, Suit::Pin, Suit::Sou]
            .into_iter()
            .find(|&suit| red.count(suit) > limit)
        {
            Some(suit) => Err(MahjongError::TooManyRedFives {
                suit,
                count: usize::from(red.count(suit)),
                ruleset: self,
            }),
            None => Ok(()),
        }
    }

    /// Rejects honour tiles under a ruleset without them.
    pub fn check_tiles(self, tiles: &TileCounts) -> Result<(), MahjongError> {
        if !self.has_honours()
            && let Some(tile) = tiles.kinds().find(|t| t.is_honour())
        {
            return Err(MahjongError::HonoursNotAllowed {
                tile,
                ruleset: self,
            });
        }
        Ok(())
    }

    /// Rejects a meld this ruleset does not have (chi or honours under SICHUAN).
    pub fn check_meld(self, meld: &Meld) -> Result<(), MahjongError> {
        if meld.kind() == MeldKind::Chi && !self.allows_chi() {
            return Err(MahjongError::ChiNotAllowed(self));
        }
        self.check_tiles(&meld.tiles())
    }

    /// Suits a winning hand may still lack given the called melds: under SICHUAN the
    /// numbered suits without a called meld; `None` when the ruleset has no such rule.
    pub fn missing_suit_choices(self, melds: &[Meld]) -> Option<Vec<Suit>> {
        if !self.requires_missing_suit() {
            return None;
        }
        Some(
            [Suit::Man, Suit::Pin, Suit::Sou]
                .into_iter()
                .filter(|s| melds.iter().all(|m| m.tile().suit() != *s))
                .collect(),
        )
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ruleset::General => "GENERAL",
            Ruleset::Sichuan => "SICHUAN",
            Ruleset::Riichi => "RIICHI",
        })
    }
}
