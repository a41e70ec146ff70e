//! The Dou Dizhu engine's error type: one variant per fault, messages that name it.

use super::card::{Cards, Rank};
use super::play::Kind;

/// Every fault the Dou Dizhu engine reports. The service layer turns these into
/// INVALID_ARGUMENT naming the request field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DouDizhuError {
    /// A character that is no card (`pos` counts characters from 1). Control
    /// characters are shown escaped (`'\u{1b}'`), so the message stays one clean line.
    #[error("character '{}' at position {pos} is not a card", ch.escape_debug())]
    UnknownCharacter {
        /// The offending character.
        ch: char,
        /// Its position, counting characters from 1.
        pos: usize,
    },
    /// Five or more cards of one rank (a deck holds four).
    #[error("more than four cards of rank '{rank}'")]
    TooManyOfRank {
        /// The rank.
        rank: Rank,
    },
    /// The same joker twice (a deck holds one small and one big joker).
    #[error("two of the same joker '{joker}' (a deck holds one of each)")]
    DuplicateJoker {
        /// `X` or `D`.
        joker: Rank,
    },
    /// More cards than a hand can hold.
    #[error("{count} cards; a hand or a play holds at most 20")]
    TooManyCards {
        /// How many cards were given.
        count: usize,
    },
    /// Text that should name exactly one rank.
    #[error("'{text}' is not exactly one rank")]
    NotOneRank {
        /// The text given.
        text: String,
    },
    /// A card set that no reading makes a legal play.
    #[error("'{cards}' is no legal play")]
    NotAPlay {
        /// The cards.
        cards: Cards,
    },
    /// A kind asked for that is no reading of the card set.
    #[error("'{cards}' cannot be read as {kind}")]
    NotAReading {
        /// The cards.
        cards: Cards,
        /// The kind asked for.
        kind: Kind,
    },
}
