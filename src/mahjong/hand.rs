//! A validated hand: concealed tiles, called melds, the tiles visible elsewhere, ruleset.

use std::fmt;

use super::caps::Caps;
use super::error::MahjongError;
use super::meld::Meld;
use super::rules::Ruleset;
use super::shanten::{self, LackableSuits, ShantenForms};
use super::tile::{COPIES, KINDS, RedFives, Suit, Tile, TileCounts};

/// Which input a validation fault is in (the API names it in INVALID_ARGUMENT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandField {
    /// The concealed tiles.
    Hand,
    /// The called melds.
    Melds,
    /// The tiles visible outside the hand.
    Visible,
}

/// A validation fault and the input it is in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct InvalidHand {
    /// The input at fault.
    pub field: HandField,
    /// What is wrong.
    pub error: MahjongError,
}

/// The red fives (`0m`, `0p`, `0s`) each input marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MarkedRedFives {
    /// In the concealed tiles.
    pub hand: RedFives,
    /// In the listed melds, all together.
    pub melds: RedFives,
    /// Among the visible tiles.
    pub visible: RedFives,
}

/// A hand checked against its ruleset.
///
/// `concealed` holds 3n+1 or 3n+2 tiles, n <= 4. Melds are either listed (`melds`, then
/// concealed + 3 per meld = 13 or 14 tiles) or, when none is listed and the concealed hand
/// is shorter than 13, implied: `4 - n` melds whose tiles are not given (only their number
/// matters for shanten; their tiles then cannot count as seen).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    concealed: TileCounts,
    melds: Vec<Meld>,
    called: u8,
    visible: TileCounts,
    ruleset: Ruleset,
    /// Red fives among the concealed tiles (none unless given, [`Hand::with_red_fives`]).
    red_fives: RedFives,
}

impl Hand {
    /// Validates a hand.
    ///
    /// Errors, with the field at fault: honours under SICHUAN (any field); a chi under
    /// SICHUAN, more than 4 melds, or melds leaving no suit to lack under SICHUAN
    /// (`Melds`); a size that is not 3n+1 / 3n+2 or does not fit the melds (`Hand`); a
    /// fifth copy of a kind across hand + melds (`Melds`) or + visible (`Visible`).
    pub fn new(
        concealed: TileCounts,
        melds: Vec<Meld>,
        visible: TileCounts,
        ruleset: Ruleset,
    ) -> Result<Hand, InvalidHand> {
        let fault = |field, error| InvalidHand { field, error };
        concealed
            .check_copies()
            .map_err(|e| fault(HandField::Hand, e))?;
        ruleset
            .check_tiles(&concealed)
            .map_err(|e| fault(HandField::Hand, e))?;
        if melds.len() > 4 {
            return Err(fault(
                HandField::Melds,
                MahjongError::TooManyMelds(melds.len()),
            ));
        }
        for meld in &melds {
            ruleset
                .check_meld(meld)
                .map_err(|e| fault(HandField::Melds, e))?;
        }
        visible
            .check_copies()
            .map_err(|e| fault(HandField::Visible, e))?;
        ruleset
            .check_tiles(&visible)
            .map_err(|e| fault(HandField::Visible, e))?;

        let n = concealed.len();
        let size_error = fault(
            HandField::Hand,
            MahjongError::BadHandSize {
                tiles: n,
                melds: melds.len(),
            },
        );
        let called = if melds.is_empty() {
            if n == 0 || n > 14 || n.is_multiple_of(3) {
                return Err(size_error);
            }
            (4 - n / 3) as u8
        } else {
            let full = n + 3 * melds.len();
            if full != 13 && full != 14 {
                return Err(size_error);
            }
            melds.len() as u8
        };

        let mut with_melds = concealed;
        for meld in &melds {
            with_melds = with_melds.plus(&meld.tiles());
        }
        with_melds
            .check_copies()
            .map_err(|e| fault(HandField::Melds, e))?;
        with_melds
            .plus(&visible)
            .check_copies()
            .map_err(|e| fault(HandField::Visible, e))?;

        if ruleset.requires_missing_suit() && lackable_of(&melds) == 0 {
            return Err(fault(HandField::Melds, MahjongError::NoSuitToLack));
        }
        Ok(Hand {
            concealed,
            melds,
            called,
            visible,
            ruleset,
            red_fives: RedFives::NONE,
        })
    }

    /// The same hand with the red fives its inputs marked, checked against the ruleset's
    /// set (RIICHI: one per suit) across hand, then melds, then visible tiles: the field
    /// where one too many appears is at fault.
    pub fn with_red_fives(mut self, marked: MarkedRedFives) -> Result<Hand, InvalidHand> {
        let check = |field, red: RedFives| {
            self.ruleset
                .check_red_fives(&red)
                .map_err(|error| InvalidHand { field, error })
        };
        let with_melds = marked.hand.plus(&marked.melds);
        check(HandField::Hand, marked.hand)?;
        check(HandField::Melds, with_melds)?;
        check(HandField::Visible, with_melds.plus(&marked.visible))?;
        self.red_fives = marked.hand;
        Ok(self)
    }

    /// Parses and validates mpsz strings: `concealed`, `melds`, `visible` (the red fives
    /// of the two strings checked too; the melds', not given here, count none).
    pub fn parse(
        concealed: &str,
        melds: Vec<Meld>,
        visible: &str,
        ruleset: Ruleset,
    ) -> Result<Hand, InvalidHand> {
        let (concealed, hand_red) =
            TileCounts::parse_with_red_fives(concealed).map_err(|error| InvalidHand {
                field: HandField::Hand,
                error,
            })?;
        let (visible, visible_red) =
            TileCounts::parse_with_red_fives(visible).map_err(|error| InvalidHand {
                field: HandField::Visible,
                error,
            })?;
        Hand::new(concealed, melds, visible, ruleset)?.with_red_fives(MarkedRedFives {
            hand: hand_red,
            melds: RedFives::NONE,
            visible: visible_red,
        })
    }

    /// The concealed tiles.
    pub fn concealed(&self) -> &TileCounts {
        &self.concealed
    }

    /// The listed melds (empty when melds are only implied by the hand size).
    pub fn melds(&self) -> &[Meld] {
        &self.melds
    }

    /// Number of melds called (listed or implied).
    pub fn called(&self) -> u8 {
        self.called
    }

    /// The visible tiles.
    pub fn visible(&self) -> &TileCounts {
        &self.visible
    }

    /// Red fives among the concealed tiles, as given.
    pub fn red_fives(&self) -> RedFives {
        self.red_fives
    }

    /// The ruleset.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Whether the concealed hand has 3n+2 tiles (a discard is due, or it may win).
    pub fn is_draw_complete(&self) -> bool {
        self.concealed.len() % 3 == 2
    }

    /// Suits a SICHUAN hand may lack (bit 0 m, 1 p, 2 s): those without a called meld.
    pub fn lackable(&self) -> LackableSuits {
        lackable_of(&self.melds)
    }

    /// Copies of each kind the player cannot see: copies in the set (4, or 0 for honours
    /// under SICHUAN) minus those in hand, melds and visible.
    pub fn unseen(&self) -> [u8; KINDS] {
        let mut seen = self.concealed.plus(&self.visible);
        for meld in &self.melds {
            seen = seen.plus(&meld.tiles());
        }
        let mut out = [0u8; KINDS];
        for t in Tile::all() {
            if self.ruleset.has_honours() || !t.is_honour() {
                out[t.index()] = COPIES.saturating_sub(seen.count(t));
            }
        }
        out
    }

    /// Caps on the copies the concealed hand may use: 4 minus the copies in the listed
    /// melds ([`super::caps`]).
    pub fn caps(&self) -> Caps {
        Caps::from_melds(&self.melds)
    }

    /// Shanten of each form (copies in the melds counted, see [`super::caps`]).
    pub fn shanten_forms(&self) -> ShantenForms {
        shanten::shanten_forms(
            &self.concealed.0,
            self.called,
            self.ruleset,
            self.lackable(),
            &self.caps(),
        )
    }

    /// Whether the hand (3n+2 tiles) is a winning hand.
    pub fn is_winning(&self) -> bool {
        self.is_draw_complete() && self.shanten_forms().min() == -1
    }
}

/// Lackable-suit mask of the numbered suits holding no meld.
fn lackable_of(melds: &[Meld]) -> LackableSuits {
    let mut mask = shanten::ANY_SUIT;
    for m in melds {
        match m.tile().suit() {
            Suit::Man => mask &= !1,
            Suit::Pin => mask &= !2,
            Suit::Sou => mask &= !4,
            Suit::Honour => {}
        }
    }
    mask
}

impl fmt::Display for HandField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandField::Hand => "hand",
            HandField::Melds => "melds",
            HandField::Visible => "visible",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::meld::MeldKind;

    fn hand(
        s: &str,
        melds: &[(MeldKind, &str)],
        visible: &str,
        r: Ruleset,
    ) -> Result<Hand, InvalidHand> {
        let melds = melds
            .iter()
            .map(|(k, t)| Meld::parse(*k, t).unwrap())
            .collect();
        Hand::parse(s, melds, visible, r)
    }

    #[test]
    fn sizes_and_implied_melds() {
        assert_eq!(
            hand("123m456p789s1122z", &[], "", Ruleset::General)
                .unwrap()
                .called(),
            0
        );
        assert_eq!(hand("1s", &[], "", Ruleset::General).unwrap().called(), 4);
        assert_eq!(hand("11s", &[], "", Ruleset::General).unwrap().called(), 4);
        assert_eq!(
            hand("1234m", &[], "", Ruleset::General).unwrap().called(),
            3
        );
        let e = hand("123m", &[], "", Ruleset::General).unwrap_err();
        assert_eq!(e.field, HandField::Hand);
        let e = hand(
            "123m456p789s",
            &[(MeldKind::Pon, "222z")],
            "",
            Ruleset::General,
        )
        .unwrap_err();
        assert_eq!(e.error, MahjongError::BadHandSize { tiles: 9, melds: 1 });
        assert_eq!(
            hand(
                "123m456p789s1z",
                &[(MeldKind::Pon, "222z")],
                "",
                Ruleset::General
            )
            .unwrap()
            .called(),
            1
        );
    }

    #[test]
    fn copies_across_fields() {
        let e = hand("1111m23456p789s1z", &[], "1m", Ruleset::General).unwrap_err();
        assert_eq!(e.field, HandField::Visible);
        assert_eq!(
            e.error,
            MahjongError::TooManyCopies {
                tile: Tile(0),
                count: 5
            }
        );
        let e = hand(
            "11m456p789s12z",
            &[(MeldKind::Pon, "111m")],
            "",
            Ruleset::General,
        )
        .unwrap_err();
        assert_eq!(e.field, HandField::Melds);
    }

    /// RIICHI's set has one red five per suit (DESIGN.md, "three red fives"): a second
    /// `0m` anywhere is a fault of the field where it appears; other rulesets read `0m`
    /// as a five only.
    #[test]
    fn riichi_holds_one_red_five_per_suit() {
        let h = hand("0m234p", &[], "0p0s", Ruleset::Riichi).unwrap();
        assert_eq!(h.red_fives(), RedFives([1, 0, 0]));
        let two_in_hand = hand("00m234p", &[], "", Ruleset::Riichi).unwrap_err();
        assert_eq!(two_in_hand.field, HandField::Hand);
        assert_eq!(
            two_in_hand.error,
            MahjongError::TooManyRedFives {
                suit: Suit::Man,
                count: 2,
                ruleset: Ruleset::Riichi
            }
        );
        let one_more_seen = hand("0m234p", &[], "0m", Ruleset::Riichi).unwrap_err();
        assert_eq!(one_more_seen.field, HandField::Visible);
        let one_in_a_meld = Hand::new(
            "0m234p123456s".parse().unwrap(),
            vec![Meld::parse(MeldKind::Pon, "055m").unwrap()],
            TileCounts::EMPTY,
            Ruleset::Riichi,
        )
        .unwrap()
        .with_red_fives(MarkedRedFives {
            hand: RedFives([1, 0, 0]),
            melds: RedFives([1, 0, 0]),
            visible: RedFives::NONE,
        })
        .unwrap_err();
        assert_eq!(one_in_a_meld.field, HandField::Melds);
        for r in [Ruleset::General, Ruleset::Sichuan] {
            assert!(hand("00m234p", &[], "0m", r).is_ok(), "{r}");
        }
    }

    #[test]
    fn sichuan_restrictions() {
        let e = hand("123m456p789s1122z", &[], "", Ruleset::Sichuan).unwrap_err();
        assert_eq!(e.field, HandField::Hand);
        assert!(matches!(e.error, MahjongError::HonoursNotAllowed { .. }));
        let e = hand(
            "123m456p789s1m",
            &[(MeldKind::Chi, "123s")],
            "",
            Ruleset::Sichuan,
        )
        .unwrap_err();
        assert_eq!(e.error, MahjongError::ChiNotAllowed(Ruleset::Sichuan));
        let e = hand(
            "11m",
            &[
                (MeldKind::Pon, "222m"),
                (MeldKind::Pon, "333p"),
                (MeldKind::Pon, "444s"),
                (MeldKind::Pon, "555s"),
            ],
            "",
            Ruleset::Sichuan,
        );
        assert_eq!(e.unwrap_err().error, MahjongError::NoSuitToLack);
        let h = hand(
            "123m456p789m1p",
            &[(MeldKind::Pon, "222s")],
            "",
            Ruleset::Sichuan,
        )
        .unwrap();
        assert_eq!(h.lackable(), 0b011);
        assert_eq!(h.unseen()[27], 0);
    }
}
