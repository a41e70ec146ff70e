//! Moves by threat class, read from the board's incremental patterns rather than found
//! by trying moves: five points, the forced block of an opponent's four, four moves,
//! three moves, and the defences against an opponent's open three.
//!
//! Soundness of the defence set: when the opponent has a point where it would make a
//! straight four or two fours (an open three or a double-four threat on the board), a
//! reply that does not make our own four must occupy a cell of the threatening line
//! where the opponent's own stone would make a four — the straight-four point itself, or
//! one of its five points (the three plus that point are four stones of the five). So
//! "the opponent's four points, and our own fours" holds every defence; it may hold a
//! few more, which the search then refutes.

use crate::gomoku::board::{Board, Cell, DIRS};
use crate::gomoku::patterns::{Combo, LinePattern};
use crate::gomoku::point::Color;

/// The empty cells where `color` completes a win. Uses the count the board keeps, looks
/// along the lines of the last move first and scans the candidate area only when that
/// does not account for all of them.
pub fn five_points(board: &Board, color: Color, out: &mut Vec<Cell>) {
    out.clear();
    let want = board.combo_count(color, Combo::Five);
    if want == 0 {
        return;
    }
    if let Some(last) = board.last_move() {
        for &step in &DIRS {
            for i in -4..=4isize {
                let q = (last as isize + i * step) as usize;
                if i != 0
                    && board.is_empty(q)
                    && board.combo(q, color) == Combo::Five
                    && !out.contains(&q)
                {
                    out.push(q);
                }
            }
        }
        if out.len() == want {
            return;
        }
    }
    out.clear();
    for c in board.empty_cells() {
        if board.combo(c, color) == Combo::Five {
            out.push(c);
        }
    }
}

/// The single five point `color` has in direction `d` through its stone at `c` (the
/// block of the four just made at `c`), if there is exactly one.
pub fn block_of_four(board: &Board, c: Cell, d: usize, color: Color) -> Option<Cell> {
    let step = DIRS[d];
    let mut found = None;
    for i in (-4..=4isize).filter(|&i| i != 0) {
        let q = (c as isize + i * step) as usize;
        if board.is_empty(q) && board.pattern(q, color, d) == LinePattern::F5 {
            if found.is_some() {
                return None;
            }
            found = Some(q);
        }
    }
    found
}

/// Up to four cells, without allocating (the five points a move makes: one per line).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cells4 {
    cells: [Cell; 4],
    len: usize,
}

impl Cells4 {
    /// The cells held.
    pub fn as_slice(&self) -> &[Cell] {
        &self.cells[..self.len]
    }

    fn push(&mut self, c: Cell) {
        if self.len < 4 && !self.as_slice().contains(&c) {
            self.cells[self.len] = c;
            self.len += 1;
        }
    }
}

/// The directions (bit `d` for direction `d`) in which `color` at the empty `c` makes a
/// four or two.
pub fn four_dirs(board: &Board, c: Cell, color: Color) -> u8 {
    (0..4)
        .filter(|&d| board.pattern(c, color, d).fours() > 0)
        .fold(0, |m, d| m | 1 << d)
}

/// After `color` played `c` with fours in the directions `dirs` ([`four_dirs`]), the
/// five points of those fours (the blocks the defender needs).
pub fn blocks_after(board: &Board, c: Cell, dirs: u8, color: Color) -> Cells4 {
    let mut out = Cells4::default();
    for d in (0..4).filter(|&d| dirs & (1 << d) != 0) {
        let step = DIRS[d];
        for i in (-4..=4isize).filter(|&i| i != 0) {
            let q = (c as isize + i * step) as usize;
            if board.is_empty(q) && board.pattern(q, color, d) == LinePattern::F5 {
                out.push(q);
            }
        }
    }
    out
}

/// Whether `color` may play the empty cell `c` (black's forbidden points under RENJU
/// excluded). Cheap unless the point is a double-three candidate.
pub fn legal(board: &mut Board, c: Cell, color: Color) -> bool {
    match board.combo(c, color) {
        Combo::Forbidden => false,
        Combo::DoubleThreeCandidate => board.is_legal_for(c, color),
        _ => true,
    }
}

/// The candidate cells (empty, within two points of a stone) of class at least `combo`
/// for `color` — the lower the code, the stronger — that `color` may play.
pub fn cells_at_least(
    board: &mut Board,
    color: Color,
    combo: Combo,
    candidates: &[Cell],
    out: &mut Vec<Cell>,
) {
    out.clear();
    for &c in candidates {
        let k = board.combo(c, color);
        if k <= combo && k != Combo::Forbidden && legal(board, c, color) {
            out.push(c);
        }
    }
}

/// Whether `color` has an empty point of some class from `strongest` to `weakest`
/// (codes in between included), by the counts the board keeps.
fn any_of_classes(board: &Board, color: Color, strongest: Combo, weakest: Combo) -> bool {
    (strongest as u8..=weakest as u8).any(|k| board.combo_count(color, Combo::from_code(k)) > 0)
}

/// Cells where `color` makes a four (one five point or more, not a five itself).
pub fn four_moves(board: &mut Board, color: Color, candidates: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    // Only the classes Flex4 ..= Four (DoubleThreeCandidate among them) make a four:
    // with none on the board, there is nothing to scan for.
    if !any_of_classes(board, color, Combo::Flex4, Combo::Four) {
        return;
    }
    for &c in candidates {
        let k = board.combo(c, color);
        let four = k.is_four() && k != Combo::Five
            || (k == Combo::DoubleThreeCandidate && has_four(board, c, color));
        if four && legal(board, c, color) {
            out.push(c);
        }
    }
}

/// Whether a stone of `color` at `c` makes a four in some direction.
pub fn has_four(board: &Board, c: Cell, color: Color) -> bool {
    (0..4).any(|d| board.pattern(c, color, d).fours() > 0)
}

/// Whether a stone of `color` at `c` makes an open three in some direction.
pub fn has_open_three(board: &Board, c: Cell, color: Color) -> bool {
    (0..4).any(|d| board.pattern(c, color, d) == LinePattern::F3)
}

/// Cells where `color` makes a four or an open three (VCT's attacking moves).
pub fn threat_moves(board: &mut Board, color: Color, candidates: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    // The threat classes are Flex4 ..= Three.
    if !any_of_classes(board, color, Combo::Flex4, Combo::Three) {
        return;
    }
    for &c in candidates {
        let k = board.combo(c, color);
        let threat = match k {
            Combo::Five | Combo::Forbidden | Combo::None => false,
            k if k.is_four() => true,
            Combo::DoubleThreeCandidate | Combo::ThreeThree | Combo::ThreePlus | Combo::Three => {
                true
            }
            _ => false,
        };
        if threat && legal(board, c, color) {
            out.push(c);
        }
    }
}

/// Whether `color` threatens to make a straight four or two fours with its next move
/// (it has an open three, or a double-four point), counting only points it may play.
pub fn has_flex4_threat(board: &mut Board, color: Color, candidates: &[Cell]) -> bool {
    if board.combo_count(color, Combo::Flex4) > 0 {
        return true;
    }
    if board.combo_count(color, Combo::DoubleThreeCandidate) == 0 {
        return false;
    }
    // Black under RENJU: a straight four made together with two threes is forbidden.
    candidates.iter().any(|&c| {
        board.combo(c, color) == Combo::DoubleThreeCandidate
            && (0..4).any(|d| {
                matches!(
                    board.pattern(c, color, d),
                    LinePattern::F4 | LinePattern::DF4
                )
            })
            && board.is_legal_for(c, color)
    })
}

/// The replies of `defender` to `attacker`'s open three (or double-four threat): the
/// defender's own four moves, and the cells where the attacker would make a four or
/// better, that the defender may play. See the module docs for why this holds every
/// defence.
pub fn defences(board: &mut Board, defender: Color, candidates: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    let attacker = defender.opponent();
    for &c in candidates {
        let a = board.combo(c, attacker);
        let d = board.combo(c, defender);
        let attacker_four = (a.is_four() && a != Combo::Five)
            || a == Combo::Forbidden
            || (a == Combo::DoubleThreeCandidate && has_four(board, c, attacker));
        let own_four = (d.is_four() && d != Combo::Five)
            || (d == Combo::DoubleThreeCandidate && has_four(board, c, defender));
        if (attacker_four || own_four) && legal(board, c, defender) {
            out.push(c);
        }
    }
}
