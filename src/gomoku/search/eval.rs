//! The static evaluation: a heuristic score of a quiet position for the side to move,
//! from the board's incremental sums of point values ([`crate::gomoku::values`]).
//!
//! The side to move's own point values count in full and the opponent's at
//! [`DEFENCE_WEIGHT`] / 8: with the move, a threat of ours becomes real first, a threat
//! of the opponent's can still be answered. A heuristic, not a probability; the search
//! settles every forcing line (fives, fours, open threes) before it trusts this number.

use crate::gomoku::board::Board;

use super::score::EVAL_MAX;

/// Weight of the opponent's point values, in eighths.
pub const DEFENCE_WEIGHT: i32 = 6;

/// The evaluation of `board` for its side to move, within `±EVAL_MAX`.
pub fn evaluate(board: &Board) -> i32 {
    let us = board.to_move();
    let own = board.value_sum(us);
    let theirs = board.value_sum(us.opponent());
    let raw = own - theirs * DEFENCE_WEIGHT / 8;
    (raw / 4).clamp(-EVAL_MAX, EVAL_MAX)
}
