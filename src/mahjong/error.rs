//! The mahjong engine's error type: one variant per fault, each message naming it.

use super::rules::Ruleset;
use super::tile::{Suit, Tile};

/// Everything that can be wrong with mahjong input (tiles, melds, hand shape, ruleset).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MahjongError {
    /// A character that is neither a digit, a suit letter (`m p s z`) nor white space.
    /// Control characters are shown escaped (`'\0'`), so the message stays one clean line.
    #[error("'{}' is not a suit letter (m, p, s, z) or a digit", .0.escape_debug())]
    UnknownSuit(char),
    /// Digits at the end of the text without their suit letter, e.g. `"123"`.
    #[error("digits '{0}' have no suit letter after them")]
    MissingSuit(String),
    /// A suit letter with no digits before it, e.g. `"m"` or `"123mp"`.
    #[error("suit letter '{0}' has no digits before it")]
    SuitWithoutDigits(char),
    /// An honour outside `1z..7z` (`0z`, `8z`, `9z`).
    #[error("'{0}z' is not a tile: honours are 1z..7z")]
    NoSuchHonour(u8),
    /// Text that must be exactly one tile holds zero or several.
    #[error("'{0}' is not exactly one tile")]
    NotOneTile(String),
    /// More than four copies of one tile kind (in one string, or across hand, melds and
    /// visible tiles).
    #[error("tile {tile} appears {count} times (a set has 4 copies)")]
    TooManyCopies {
        /// The tile kind.
        tile: Tile,
        /// How many copies were given.
        count: usize,
    },
    /// A chi that is not three consecutive tiles of one suit.
    #[error("chi '{0}' is not three consecutive tiles of one suit")]
    BadChi(String),
    /// A pon that is not three identical tiles.
    #[error("pon '{0}' is not three identical tiles")]
    BadPon(String),
    /// A kan (open, closed or added) that is not four identical tiles.
    #[error("kan '{0}' is not four identical tiles")]
    BadKan(String),
    /// The meld kind was not given.
    #[error("meld kind is unspecified")]
    UnspecifiedMeldKind,
    /// Honour tiles under a ruleset without them (SICHUAN).
    #[error("tile {tile} is an honour; {ruleset} has no honour tiles")]
    HonoursNotAllowed {
        /// The offending honour tile.
        tile: Tile,
        /// The ruleset.
        ruleset: Ruleset,
    },
    /// A chi under a ruleset without chi (SICHUAN).
    #[error("{0} has no chi")]
    ChiNotAllowed(Ruleset),
    /// A hand whose size is not 3n+1 or 3n+2 with n <= 4, or that does not fit the melds
    /// listed. The message lists the sizes accepted (see [`super::hand::Hand`]).
    #[error("{}", hand_size_message(*.tiles, *.melds))]
    BadHandSize {
        /// Tiles in the concealed hand.
        tiles: usize,
        /// Melds called.
        melds: usize,
    },
    /// SICHUAN melds in all three suits: no suit is left for the hand to lack.
    #[error("melds cover all three suits; a SICHUAN hand must lack one")]
    NoSuitToLack,
    /// More red fives of a suit than the ruleset's set holds (RIICHI: one per suit),
    /// across hand, melds and visible tiles.
    #[error(
        "red five 0{} appears {count} times; {ruleset} has one red five per suit",
        .suit.letter()
    )]
    TooManyRedFives {
        /// The suit.
        suit: Suit,
        /// How many red fives of it were given.
        count: usize,
        /// The ruleset.
        ruleset: Ruleset,
    },
    /// More than four melds.
    #[error("{0} melds given; a hand has at most 4")]
    TooManyMelds(usize),
}

/// What [`MahjongError::BadHandSize`] says: the sizes accepted beside the melds listed.
/// Without melds a short hand is accepted, its melds implied (13 or 14 tiles less 3 per
/// meld called); with melds, the hand and 3 tiles per meld make 13 or 14.
fn hand_size_message(tiles: usize, melds: usize) -> String {
    if melds == 0 {
        return format!(
            "hand has {tiles} tiles; expected 1, 2, 4, 5, 7, 8, 10, 11, 13 or 14 \
             (13 or 14 less 3 per meld called)"
        );
    }
    let room = 13usize.saturating_sub(3 * melds);
    let noun = if melds == 1 { "meld" } else { "melds" };
    format!(
        "hand has {tiles} tiles beside {melds} {noun}; expected {room} or {} \
         (13 or 14 counting 3 per meld)",
        room + 1
    )
}
