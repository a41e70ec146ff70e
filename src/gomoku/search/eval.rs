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
    evaluate_with(board, DEFENCE_WEIGHT)
}

/// [`evaluate`] with the opponent's weight `defence_weight` (eighths).
pub fn evaluate_with(board: &Board, defence_weight: i32) -> i32 {
    let us = board.to_move();
    let own = board.value_sum(us);
    let theirs = board.value_sum(us.opponent());
    let raw = own - theirs * defence_weight / 8;
    (raw / 4).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The learned evaluation ([`crate::gomoku::learned`]) of `board` for its side to
/// move, within `±EVAL_MAX`: the side to move's attack weights less the opponent's
/// defence weights, summed over the empty points, in sixteenths.
pub fn evaluate_learned(board: &Board) -> i32 {
    use crate::gomoku::learned::Role;
    let us = board.to_move();
    let raw = board.learned_sum(us, Role::Attack) - board.learned_sum(us.opponent(), Role::Defence);
    (raw / 16).clamp(-EVAL_MAX, EVAL_MAX)
}

/// Bonus for the side to move holding a double-three point while the opponent has no
/// four to answer with: two open threes at once usually win (VCT), beyond the
/// quiescence search's fours.
pub const DOUBLE_THREE_BONUS: i32 = 1_200;

/// [`evaluate_with`] plus the tempo terms: [`DOUBLE_THREE_BONUS`] for a double-three
/// point of ours when the opponent has no four point; a penalty of a third of it when
/// the opponent has two or more double-three or four-three points (we can stop one).
pub fn evaluate_threats(board: &Board, defence_weight: i32) -> i32 {
    use crate::gomoku::patterns::Combo;
    let us = board.to_move();
    let them = us.opponent();
    let mut e = evaluate_with(board, defence_weight);
    let ours = board.combo_count(us, Combo::ThreeThree);
    if ours > 0 && !board.has_combo_at_least(them, Combo::Four) {
        e += DOUBLE_THREE_BONUS;
    }
    let theirs =
        board.combo_count(them, Combo::ThreeThree) + board.combo_count(them, Combo::FourThree);
    if theirs >= 2 {
        e -= DOUBLE_THREE_BONUS / 3;
    }
    e.clamp(-EVAL_MAX, EVAL_MAX)
}
