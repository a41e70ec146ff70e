//! The move picker: the order in which a node's moves are searched.
//!
//! Stages, as strong classical engines hand them out: the transposition table's move;
//! then threat moves (our fours and open threes, and the points where the opponent
//! would make one), by point value; then the killer moves of the ply; then the quiet
//! rest by point value (ours plus the opponent's, the seed's "most important point")
//! and the history of cut-offs. Threat moves are never reduced by the search.

use crate::gomoku::board::{Board, CELLS, Cell};
use crate::gomoku::patterns::Combo;

/// Score tiers of the picker.
pub mod quiet_score {
    /// The table move.
    pub const TT: i32 = 1 << 30;
    /// Threat moves score at least this.
    pub const THREAT_FLOOR: i32 = 1 << 24;
    /// Killer moves.
    pub const KILLER: i32 = 1 << 20;
}

/// Whether a class is a threat for the colour that would play it: a four, a straight
/// four, or an open three.
pub fn is_threat(c: Combo) -> bool {
    c.is_four()
        || matches!(
            c,
            Combo::DoubleThreeCandidate | Combo::ThreeThree | Combo::ThreePlus | Combo::Three
        )
}

/// A node's moves with their picker scores.
pub struct MovePicker {
    scored: Vec<(Cell, i32)>,
}

impl MovePicker {
    /// Scores `moves` for the side to move of `board`.
    pub fn new(
        board: &Board,
        moves: &[Cell],
        tt_move: Option<Cell>,
        killers: [Cell; 2],
        history: &[i32; CELLS],
    ) -> MovePicker {
        let us = board.to_move();
        let them = us.opponent();
        let scored = moves
            .iter()
            .map(|&c| {
                let attack = board.value(c, us);
                let defence = board.value(c, them);
                let base = attack + defence * 7 / 8;
                let score = if Some(c) == tt_move {
                    quiet_score::TT
                } else if is_threat(board.combo(c, us)) || is_threat(board.combo(c, them)) {
                    quiet_score::THREAT_FLOOR + base * 16
                } else if killers.contains(&c) {
                    quiet_score::KILLER + base
                } else {
                    base * 16 + (history[c] >> 4).min(quiet_score::KILLER / 2)
                };
                (c, score)
            })
            .collect();
        MovePicker { scored }
    }

    /// The moves, best first.
    pub fn into_sorted(mut self) -> Vec<(Cell, i32)> {
        self.scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        self.scored
    }
}
