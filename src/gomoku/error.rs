//! The gomoku engine's error type: one variant per fault, each message naming it.

use super::point::{Color, MAX_SIZE, MIN_SIZE};

/// Everything that can be wrong with gomoku input: notation, board size, stones, the
/// side to move, or a position in which no move can be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GomokuError {
    /// A character where a column letter should be.
    #[error("'{}' is not a column letter", .0.escape_debug())]
    BadColumn(char),
    /// A column letter past `v`, the last column of the largest board.
    #[error("column '{0}' is beyond the largest board (a..v)")]
    ColumnTooFar(char),
    /// A column letter not followed by a row number.
    #[error("column '{0}' has no row number after it")]
    MissingRow(char),
    /// A row number of 0 or above 22.
    #[error("'{0}' has no such row (rows are 1..22)")]
    BadRow(String),
    /// Text that must be exactly one point holds zero or several.
    #[error("'{0}' is not exactly one point")]
    NotOnePoint(String),
    /// A board side outside 5..22.
    #[error("board size {0} is not in {min}..{max}", min = MIN_SIZE, max = MAX_SIZE)]
    BadSize(usize),
    /// A point outside the board.
    #[error("point {point} is off the {size}x{size} board")]
    OffBoard {
        /// The point as written.
        point: String,
        /// The board side.
        size: usize,
    },
    /// A point given twice (in a move sequence, or in the black and white lists).
    #[error("point {0} is taken twice")]
    Taken(String),
    /// Stone counts that no game produces with that side to move: black moves first, so
    /// black has as many stones as white (black to move) or one more (white to move).
    #[error(
        "{black} black and {white} white stones cannot occur with {to_move} to move (black \
         has as many stones as white when black is to move, one more when white is)"
    )]
    StoneCounts {
        /// Black stones.
        black: usize,
        /// White stones.
        white: usize,
        /// The side to move that was given or implied.
        to_move: Color,
    },
    /// A move made after the game had ended (a five was already on the board).
    #[error("move {index} ({point}) comes after {winner} already won")]
    MoveAfterEnd {
        /// 1-based index of the move in the sequence.
        index: usize,
        /// The move.
        point: String,
        /// Who had already won.
        winner: Color,
    },
    /// A question that needs a game in progress asked about a finished one.
    #[error("the game is already over: {0}")]
    GameOver(String),
    /// No legal move is left for the side to move.
    #[error("no move: {0}")]
    NoMove(String),
}
