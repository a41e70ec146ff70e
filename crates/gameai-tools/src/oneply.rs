//! Seed 002's one-ply player: the "most valuable point" algorithm without look-ahead,
//! kept as a test opponent (`pbrain-oneply`). It shares nothing with the engine in
//! `src/gomoku/`: its own board, its own patterns.
//!
//! The seed (五子棋算法探讨, "盘面分析填写棋型表" and "电脑下子"): for every empty point,
//! in each of the four directions (horizontal, vertical, both diagonals) and for each
//! side, walk left from the point over that side's stones and stop at an opponent's
//! stone, an empty point or the edge; walk right the same way; the two records together
//! are the point's pattern in that direction, numbered so that a more important pattern
//! has a larger number (the seed's examples: 20 for a four, 冲四; 15 for an open three,
//! 活三). Two 15s on one point are a double three, a 15 and a 20 a four-three. The
//! computer plays the point whose value in either side's table (its own, or the
//! opponent's — a block) is largest.
//!
//! Choices the seed leaves open, made here:
//! - Pattern numbers: five 30, open four 25, four 20, open three 15, three (one end
//!   closed) 10, open two 8, two 4, open one 2, one 1, anything closed at both ends 0.
//!   "Open" means the walk stopped at an empty point rather than a stone or the edge.
//!   Like the seed, only unbroken runs are seen (`X_XX` is not a three).
//! - A point's value for a side is tiered: a five; then an open four or two fours; then
//!   four-three; then double three; then everything else by its largest number and,
//!   between equals, the sum over the four directions.
//! - Own and opponent values compete on equal terms, tier first; at an equal tier the
//!   attack wins (the seed: attack first, defend when there is no attack: a five
//!   before blocking a five), then the larger value, then the larger total of both
//!   sides, then the point nearer the centre, then the first in reading order.
//! - Rules: a five is five or more stones in freestyle, exactly five in standard;
//!   under renju black's five is exactly five and white's five or more. Black never
//!   plays a point that is an overline, a double four or a double three by these
//!   unbroken-run patterns (and white does not spend a move blocking such a point) —
//!   the seed's "对黑棋而言'双三'、'双四'是禁手" at the seed's own precision, not the
//!   exact recursive renju rule.

use gameai::gomocup::command::ProtocolPoint;
use gameai::gomocup::game::{Colour, Rule};
use gameai::gomocup::player::{Choice, Player, ThinkRequest};

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// One direction's pattern at a point for one side, as the seed's numbered codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pattern {
    /// Closed at both ends (and short of five), or nothing.
    Dead = 0,
    /// One stone (the new one), one end open.
    One = 1,
    /// One stone, both ends open.
    OpenOne = 2,
    /// Two in a row, one end open.
    Two = 4,
    /// Two in a row, both ends open.
    OpenTwo = 8,
    /// Three in a row, one end open (眠三).
    Three = 10,
    /// Three in a row, both ends open (活三, the seed's 15).
    OpenThree = 15,
    /// Four in a row, one end open (冲四, the seed's 20).
    Four = 20,
    /// Four in a row, both ends open (活四).
    OpenFour = 25,
    /// Five (by the rule).
    Five = 30,
}

/// A point's value for one side: compared tier first, then the largest pattern number,
/// then the sum over the four directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct PointValue {
    /// 4 five, 3 open four or double four, 2 four-three, 1 double three, 0 the rest.
    pub tier: u8,
    /// The largest of the four pattern numbers.
    pub best: u8,
    /// The sum of the four pattern numbers.
    pub total: u8,
}

/// A board of the one-ply player's own: 0 empty, 1 black, 2 white.
#[derive(Clone, Debug)]
pub struct OnePlyBoard {
    size: i32,
    cells: Vec<u8>,
    rule: Rule,
}

fn colour_code(colour: Colour) -> u8 {
    match colour {
        Colour::Black => 1,
        Colour::White => 2,
    }
}

impl OnePlyBoard {
    /// The position of a request.
    pub fn from_request(request: &ThinkRequest<'_>) -> OnePlyBoard {
        let size = request.size as i32;
        let mut cells = vec![0; (size * size) as usize];
        for stone in request.stones {
            cells[(stone.point.y as i32 * size + stone.point.x as i32) as usize] =
                colour_code(stone.colour);
        }
        OnePlyBoard {
            size,
            cells,
            rule: request.rule,
        }
    }

    fn at(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < self.size && y < self.size)
            .then(|| self.cells[(y * self.size + x) as usize])
    }

    /// The pattern a stone of `side` on the empty point (x, y) makes in direction
    /// (dx, dy), and the length of its unbroken run.
    pub fn pattern(&self, x: i32, y: i32, (dx, dy): (i32, i32), side: Colour) -> (Pattern, usize) {
        let me = colour_code(side);
        let mut run = 1;
        let mut open_ends = 0;
        for sign in [-1, 1] {
            let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
            while self.at(cx, cy) == Some(me) {
                run += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
            if self.at(cx, cy) == Some(0) {
                open_ends += 1;
            }
        }
        let exact_only = match self.rule {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => side == Colour::Black,
        };
        let pattern = match (run, open_ends) {
            (5, _) => Pattern::Five,
            (r, _) if r > 5 => {
                if exact_only {
                    Pattern::Dead
                } else {
                    Pattern::Five
                }
            }
            (_, 0) => Pattern::Dead,
            (4, 2) => Pattern::OpenFour,
            (4, _) => Pattern::Four,
            (3, 2) => Pattern::OpenThree,
            (3, _) => Pattern::Three,
            (2, 2) => Pattern::OpenTwo,
            (2, _) => Pattern::Two,
            (_, 2) => Pattern::OpenOne,
            _ => Pattern::One,
        };
        (pattern, run)
    }

    /// The value of the empty point (x, y) for `side`; `None` when `side` is black under
    /// renju and the point is forbidden by the seed-precision check (module docs).
    pub fn value(&self, x: i32, y: i32, side: Colour) -> Option<PointValue> {
        let mut patterns = [Pattern::Dead; 4];
        let mut overline = false;
        for (slot, &direction) in patterns.iter_mut().zip(&DIRECTIONS) {
            let (pattern, run) = self.pattern(x, y, direction, side);
            *slot = pattern;
            overline |= run > 5;
        }
        let count = |p: Pattern| patterns.iter().filter(|&&q| q == p).count();
        let fours = count(Pattern::Four) + count(Pattern::OpenFour);
        let five = count(Pattern::Five) > 0;
        let forbidden = overline || fours >= 2 || count(Pattern::OpenThree) >= 2;
        if self.rule == Rule::Renju && side == Colour::Black && !five && forbidden {
            return None;
        }
        let tier = if five {
            4
        } else if count(Pattern::OpenFour) > 0 || fours >= 2 {
            3
        } else if fours > 0 && count(Pattern::OpenThree) > 0 {
            2
        } else if count(Pattern::OpenThree) >= 2 {
            1
        } else {
            0
        };
        Some(PointValue {
            tier,
            best: patterns.iter().map(|&p| p as u8).max().unwrap_or(0),
            total: patterns.iter().map(|&p| p as u8).sum(),
        })
    }

    /// The seed's choice for `side` to move, or `None` on a full board (or one where
    /// every empty point is forbidden for black).
    pub fn best_point(&self, side: Colour) -> Option<ProtocolPoint> {
        let centre = (self.size - 1) as f64 / 2.0;
        // (tier, attack at that tier, value, attack >= defence, total, -distance).
        type Key = (u8, bool, PointValue, bool, u16, i64);
        let mut best: Option<(Key, ProtocolPoint)> = None;
        for y in 0..self.size {
            for x in 0..self.size {
                if self.at(x, y) != Some(0) {
                    continue;
                }
                let Some(attack) = self.value(x, y, side) else {
                    continue;
                };
                let defence = self.value(x, y, side.opponent()).unwrap_or_default();
                let distance = (x as f64 - centre).abs().max((y as f64 - centre).abs())
                    + ((x as f64 - centre).powi(2) + (y as f64 - centre).powi(2)) / 1e3;
                let tier = attack.tier.max(defence.tier);
                let key = (
                    tier,
                    attack.tier == tier,
                    attack.max(defence),
                    attack >= defence,
                    u16::from(attack.total) + u16::from(defence.total),
                    -(distance * 1e6) as i64,
                );
                if best.as_ref().is_none_or(|(k, _)| key > *k) {
                    best = Some((
                        key,
                        ProtocolPoint {
                            x: x as u32,
                            y: y as u32,
                        },
                    ));
                }
            }
        }
        best.map(|(_, point)| point)
    }
}

/// Seed 002's one-ply player behind the protocol (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct OnePly;

impl Player for OnePly {
    fn about(&self) -> Vec<(&'static str, String)> {
        vec![
            ("name", "oneply".into()),
            ("version", env!("CARGO_PKG_VERSION").into()),
            (
                "author",
                "gameai (seed 002's one-ply pattern player)".into(),
            ),
            ("country", "-".into()),
        ]
    }

    fn check_size(&self, _size: u32) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, request: &ThinkRequest<'_>) -> Result<Choice, String> {
        let board = OnePlyBoard::from_request(request);
        let point = board.best_point(request.to_move).ok_or_else(|| {
            "every empty point is forbidden for black (one-ply check)".to_string()
        })?;
        Ok(Choice {
            point,
            messages: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gameai::gomocup::game::Stone;
    use std::sync::atomic::AtomicBool;

    /// A board from rows as drawn, top row first: `X` black, `O` white, `.` empty.
    fn board(rule: Rule, rows: &[&str]) -> OnePlyBoard {
        let size = rows.len() as u32;
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let colour = match c {
                    'X' => Colour::Black,
                    'O' => Colour::White,
                    _ => continue,
                };
                stones.push(Stone {
                    point: ProtocolPoint {
                        x: x as u32,
                        y: y as u32,
                    },
                    colour,
                });
            }
        }
        let stop = AtomicBool::new(false);
        let request = ThinkRequest::immediate(size, rule, &stones, Colour::Black, &stop);
        OnePlyBoard::from_request(&request)
    }

    fn pt(x: u32, y: u32) -> Option<ProtocolPoint> {
        Some(ProtocolPoint { x, y })
    }

    #[test]
    fn patterns_are_the_seeds_unbroken_runs() {
        let b = board(
            Rule::Freestyle,
            &[
                ".......", //
                ".XXX...", ".......", "..OO...", ".......", ".......", ".......",
            ],
        );
        // (4,1): run XXX+new = 4, ends (0,1) empty and (5,1) empty -> open four.
        assert_eq!(
            b.pattern(4, 1, (1, 0), Colour::Black),
            (Pattern::OpenFour, 4)
        );
        // (0,1): run 4, left end is the edge, right end (4,1) empty -> four.
        assert_eq!(b.pattern(0, 1, (1, 0), Colour::Black), (Pattern::Four, 4));
        // (4,3) for white: OO+new = 3, both ends empty -> open three.
        assert_eq!(
            b.pattern(4, 3, (1, 0), Colour::White),
            (Pattern::OpenThree, 3)
        );
        // A gap breaks the run, as in the seed: (5,3) next to nothing white.
        assert_eq!(
            b.pattern(5, 3, (1, 0), Colour::White),
            (Pattern::OpenOne, 1)
        );
    }

    #[test]
    fn takes_a_five_before_blocking_one() {
        let b = board(
            Rule::Freestyle,
            &[
                ".........",
                ".XXXX....",
                ".........",
                ".OOOO....",
                ".........",
                ".........",
                ".........",
                ".........",
                ".........",
            ],
        );
        // Black's five at (0,1) or (5,1): the same tier and number; (5,1) has the larger
        // total (open ends in the other directions, not the edge). White, to move,
        // makes its own five rather than block black's.
        assert_eq!(b.best_point(Colour::Black), pt(5, 1));
        assert_eq!(b.best_point(Colour::White), pt(5, 3));
    }

    #[test]
    fn blocks_an_open_three_it_cannot_outdo() {
        let b = board(
            Rule::Freestyle,
            &[
                ".........",
                ".........",
                ".........",
                "...OOO...",
                ".........",
                "....X....",
                ".........",
                ".........",
                ".........",
            ],
        );
        // White's (2,3) and (6,3) make open fours (tier 3); black has nothing better.
        // The position is symmetric about x = 4, so the two tie on every count and
        // reading order decides: (2,3).
        assert_eq!(b.best_point(Colour::Black), pt(2, 3));
    }

    #[test]
    fn empty_board_opens_in_the_centre() {
        let b = board(Rule::Freestyle, &["..............."; 15]);
        assert_eq!(b.best_point(Colour::Black), pt(7, 7));
    }

    #[test]
    fn standard_overline_is_no_five_but_freestyle_one_is() {
        let rows = [
            ".......", "XXX.XX.", ".......", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(
            board(Rule::Freestyle, &rows)
                .pattern(3, 1, (1, 0), Colour::Black)
                .0,
            Pattern::Five
        );
        assert_eq!(
            board(Rule::Standard, &rows)
                .pattern(3, 1, (1, 0), Colour::Black)
                .0,
            Pattern::Dead
        );
    }

    #[test]
    fn renju_black_avoids_its_double_three_white_does_not() {
        let rows = [
            ".........",
            ".........",
            "....X....",
            "....X....",
            "..XX.....",
            ".........",
            ".........",
            ".........",
            ".........",
        ];
        // (4,4) gives black an open three across (2..4,4) and down (4,2..4): forbidden.
        let b = board(Rule::Renju, &rows);
        assert_eq!(b.value(4, 4, Colour::Black), None);
        assert_ne!(b.best_point(Colour::Black), pt(4, 4));
        let b = board(Rule::Freestyle, &rows);
        assert_eq!(b.value(4, 4, Colour::Black).map(|v| v.tier), Some(1));
        assert_eq!(b.best_point(Colour::Black), pt(4, 4));
    }
}
