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

/// Scores `moves` for the side to move of `board` into `out` (cleared first).
pub fn score_moves(
    board: &Board,
    moves: &[Cell],
    tt_move: Option<Cell>,
    killers: [Cell; 2],
    history: &[i32; CELLS],
    out: &mut Vec<(Cell, i32)>,
) {
    let us = board.to_move();
    let them = us.opponent();
    out.clear();
    out.extend(moves.iter().map(|&c| {
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
    }));
}

/// Moves the best of `list[i..]` to `list[i]`: the picker hands moves out one at a
/// time (most nodes cut off after a few), and sorts what is left once it has handed out
/// [`SELECT_FIRST`] this way.
pub fn select(list: &mut [(Cell, i32)], i: usize) {
    if i < SELECT_FIRST {
        let best = (i..list.len()).max_by_key(|&j| (list[j].1, std::cmp::Reverse(j)));
        if let Some(b) = best {
            list.swap(i, b);
        }
    } else if i == SELECT_FIRST {
        list[i..].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }
}

/// Sorts `cells` by `key`, ascending and stable (as `sort_by_key` would), reading each
/// key once into `scratch` rather than twice per comparison: the keys are board lookups.
pub fn sort_cells_by_key(
    cells: &mut Vec<Cell>,
    scratch: &mut Vec<(Cell, i32)>,
    key: impl Fn(Cell) -> i32,
) {
    scratch.clear();
    scratch.extend(cells.iter().map(|&c| (c, key(c))));
    scratch.sort_by_key(|&(_, k)| k);
    cells.clear();
    cells.extend(scratch.iter().map(|&(c, _)| c));
}

/// Moves handed out by selection before the rest is sorted.
pub const SELECT_FIRST: usize = 6;

/// All of `moves`, scored and sorted best first (for the root).
pub fn sorted(board: &Board, moves: &[Cell]) -> Vec<(Cell, i32)> {
    let mut out = Vec::new();
    score_moves(board, moves, None, [0, 0], &[0; CELLS], &mut out);
    out.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    out
}
