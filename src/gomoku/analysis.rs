//! What a position holds: the winner and its five, black's forbidden points under
//! RENJU, and each side's fours and open threes, read from the board's patterns.
//!
//! - A **four** is a group of stones in one line that one more stone makes a win: the
//!   empty points where a stone completes a winning run are its five points. A four
//!   with five points at both ends of four stones is a **straight four**.
//! - An **open three** is a group of three stones in one line that one more stone makes
//!   a straight four; those points are its straight-four points. For black under RENJU
//!   only points black may play count (RIF's definition of a three).
//!
//! Threats are grouped by their stones: `.XXXX.` is one straight four with two points;
//! `X.XXX.X` is two fours. Stones and points are listed in point order (column, then
//! row).

use std::collections::BTreeMap;

use super::board::{Board, Cell, DIRS, point_of};
use super::patterns::LinePattern;
use super::point::{Color, Point};
use super::rules::ForbiddenKind;

/// The kind of a threat on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ThreatKind {
    /// One five point.
    Four,
    /// Two five points at the two ends of four stones.
    StraightFour,
    /// Three stones that one more makes a straight four.
    OpenThree,
}

/// One threat: its kind, its stones in order along the line, and the points that
/// complete it (five points of a four, straight-four points of a three).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat {
    /// The kind.
    pub kind: ThreatKind,
    /// The stones, in order along the line.
    pub stones: Vec<Point>,
    /// The completing points, in order along the line.
    pub points: Vec<Point>,
}

/// The analysis of a position. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The side that has won.
    pub winner: Option<Color>,
    /// The winner's winning run (empty when there is none, or when white won by black's
    /// forbidden move).
    pub winning_line: Vec<Point>,
    /// Every point taken and no winner.
    pub board_full: bool,
    /// Black's losing forbidden move under RENJU.
    pub losing_forbidden_move: Option<(Point, ForbiddenKind)>,
    /// Under RENJU with black to move: every forbidden empty point, in board order
    /// (row by row from a1).
    pub forbidden: Vec<(Point, ForbiddenKind)>,
    /// Black's threats, then white's: fours first, then open threes.
    pub threats: [Vec<Threat>; 2],
}

/// Analyses `board` (left as it was).
pub fn analyze(board: &mut Board) -> Analysis {
    let winning_line = board
        .winning_line()
        .filter(|(c, _)| Some(*c) == board.winner())
        .map(|(_, line)| line)
        .unwrap_or_default();
    let cells: Vec<Cell> = board.empty_cells().collect();
    let forbidden = if board.rule().has_forbidden(Color::Black) && board.to_move() == Color::Black {
        cells
            .iter()
            .filter_map(|&c| board.forbidden_at(c).map(|k| (point_of(c), k)))
            .collect()
    } else {
        Vec::new()
    };
    let threats = [Color::Black, Color::White].map(|color| threats_of(board, color, &cells));
    Analysis {
        winner: board.winner(),
        winning_line,
        board_full: board.is_full() && board.winner().is_none(),
        losing_forbidden_move: board.forbidden_move(),
        forbidden,
        threats,
    }
}

/// The fours and open threes of `color`.
fn threats_of(board: &mut Board, color: Color, empty: &[Cell]) -> Vec<Threat> {
    // (kind order, direction, stones) -> points
    let mut groups: BTreeMap<(u8, usize, Vec<Cell>), Vec<Cell>> = BTreeMap::new();
    for &q in empty {
        for d in 0..4 {
            match board.pattern(q, color, d) {
                LinePattern::F5 => {
                    let stones = run_without(board, q, d, color);
                    groups.entry((0, d, stones)).or_default().push(q);
                }
                LinePattern::F4 => {
                    if board.rule().has_forbidden(color) && !board.is_legal_for(q, color) {
                        continue;
                    }
                    let stones = run_without(board, q, d, color);
                    groups.entry((1, d, stones)).or_default().push(q);
                }
                _ => {}
            }
        }
    }
    let mut out: Vec<Threat> = groups
        .into_iter()
        .map(|((order, d, stones), points)| {
            let kind = if order == 1 {
                ThreatKind::OpenThree
            } else if points.len() == 2 && is_straight(&stones, &points, d) {
                ThreatKind::StraightFour
            } else {
                ThreatKind::Four
            };
            let sorted = |cells: Vec<Cell>| {
                let mut v: Vec<Point> = cells.into_iter().map(point_of).collect();
                v.sort();
                v
            };
            Threat {
                kind,
                stones: sorted(stones),
                points: sorted(points),
            }
        })
        .collect();
    out.sort_by_key(|t| (t.kind == ThreatKind::OpenThree, t.stones.first().copied()));
    out
}

/// The stones of `color` in the run through the empty `q` in direction `d`, with `q`
/// counted as `color`'s, leaving `q` out.
fn run_without(board: &Board, q: Cell, d: usize, color: Color) -> Vec<Cell> {
    let step = DIRS[d];
    let mut stones = Vec::new();
    for dir in [-step, step] {
        let mut i = q as isize + dir;
        while board.stone_at(i as usize) == Some(color) {
            stones.push(i as usize);
            i += dir;
        }
    }
    stones.sort();
    stones
}

/// Whether two five points are the two ends of the four `stones`.
fn is_straight(stones: &[Cell], points: &[Cell], d: usize) -> bool {
    let step = DIRS[d].unsigned_abs();
    let (lo, hi) = (points[0].min(points[1]), points[0].max(points[1]));
    stones.len() == 4 && stones.iter().all(|&s| s > lo && s < hi) && hi - lo == 5 * step
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::point::parse_sequence;
    use crate::gomoku::rules::Rule;

    fn names(v: &[Point]) -> String {
        v.iter().map(Point::to_string).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn fours_and_threes_are_grouped_by_their_stones() {
        let p = |s: &str| parse_sequence(s).unwrap();
        // Black: a straight four d4..g4 (row 4), an open three d8 e8 f8, a four on column
        // k closed by white at k1 (k2..k5).
        let mut board = Board::from_stones(
            15,
            Rule::Freestyle,
            &p("d4e4f4g4d8e8f8k2k3k4k5"),
            &p("k1a15b15c15o15n15m15o10o9o8a1"),
            Color::Black,
        )
        .unwrap();
        let a = analyze(&mut board);
        let black: Vec<String> = a.threats[0]
            .iter()
            .map(|t| {
                format!(
                    "{:?} [{}] -> [{}]",
                    t.kind,
                    names(&t.stones),
                    names(&t.points)
                )
            })
            .collect();
        assert_eq!(
            black,
            vec![
                "StraightFour [d4 e4 f4 g4] -> [c4 h4]",
                "Four [k2 k3 k4 k5] -> [k6]",
                "OpenThree [d8 e8 f8] -> [c8 g8]",
            ]
        );
        assert_eq!(a.winner, None);
        assert!(a.forbidden.is_empty());
    }
}
