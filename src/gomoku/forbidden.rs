//! The renju forbidden-point judgement (RIF rules, article 9.3): a black stone is
//! forbidden at an overline, a double four or a double three, never at a five; a three
//! counts only if one of its straight-four points is itself not forbidden, judged
//! recursively with the stone in place. [`ThreeRule::Piskvork`] reads the nested case
//! as the Piskvork checker does. The board keeps each point's line patterns and combo
//! ([`crate::gomoku::patterns`]); this file only decides what they mean for black.

use super::board::{Board, Cell};
use super::patterns::{Combo, EMPTY, LinePattern, unpack};
use super::point::{Color, Point};
use super::rules::{ForbiddenKind, ThreeRule};

/// Checks a forbidden point may make (recursive three checks) before the answer is
/// taken to be "forbidden". Real games need a handful; only artificial positions packed
/// with black stones come near it.
const FORBIDDEN_CHECK_LIMIT: u32 = 20_000;

impl Board {
    /// Whether `color` may play at the empty cell `c`: always, except black at a
    /// forbidden point under RENJU.
    pub fn is_legal_for(&mut self, c: Cell, color: Color) -> bool {
        self.cells[c] == EMPTY as u8
            && !(self.forbid[color.index()] && self.forbidden_at(c).is_some())
    }

    /// Under RENJU, why a black stone at point `p` would be forbidden (`None` when it is
    /// allowed, the point is taken or off the board, or the rule is not RENJU). The
    /// judgement is the RIF rule: a five is never forbidden; an overline is; two fours
    /// are; two threes are, where a three counts only if one of its straight-four points
    /// is itself not forbidden (checked recursively with the stone in place).
    pub fn forbidden(&mut self, p: Point) -> Option<ForbiddenKind> {
        if !p.on_board(self.size()) {
            return None;
        }
        let c = self.cell(p);
        self.forbidden_at(c)
    }

    /// [`Board::forbidden`] of a cell.
    pub fn forbidden_at(&mut self, c: Cell) -> Option<ForbiddenKind> {
        self.forbidden_at_with(c, ThreeRule::Rif)
    }

    /// [`Board::forbidden_at`] with the three rule `three_rule` (RIF or the Piskvork
    /// checker's reading; see [`ThreeRule`]).
    pub fn forbidden_at_with(&mut self, c: Cell, three_rule: ThreeRule) -> Option<ForbiddenKind> {
        self.forbidden_checks = 0;
        self.three_rule = three_rule;
        self.forbidden_rec(c, false)
    }

    /// `nested`: `c` is a straight-four point being checked for a three.
    fn forbidden_rec(&mut self, c: Cell, nested: bool) -> Option<ForbiddenKind> {
        if !self.forbid[0] || self.cells[c] != EMPTY as u8 {
            return None;
        }
        match self.combo[0][c] {
            // Piskvork's checker rules such a point out like a forbidden one; the kind
            // reported is irrelevant (only "counts or not" is used).
            Combo::Five if nested && self.three_rule == ThreeRule::Piskvork => {
                Some(ForbiddenKind::DoubleThree)
            }
            Combo::Forbidden => {
                let overline = unpack(self.packed[0][c]).contains(&LinePattern::Overline);
                Some(if overline {
                    ForbiddenKind::Overline
                } else {
                    ForbiddenKind::DoubleFour
                })
            }
            Combo::DoubleThreeCandidate => self
                .is_double_three(c)
                .then_some(ForbiddenKind::DoubleThree),
            _ => None,
        }
    }

    /// Whether black at `c` (with at least two open threes by the line patterns) makes
    /// two real threes.
    fn is_double_three(&mut self, c: Cell) -> bool {
        let patterns = unpack(self.packed[0][c]);
        self.put(c, Color::Black);
        let mut threes = 0;
        for (d, p) in patterns.iter().enumerate() {
            if *p == LinePattern::F3 && self.three_is_real(c, d) {
                threes += 1;
                if threes == 2 {
                    break;
                }
            }
        }
        self.remove(c);
        threes >= 2
    }

    /// With black at `c`, whether its three in direction `d` has a straight-four point
    /// that is not forbidden.
    fn three_is_real(&mut self, c: Cell, d: usize) -> bool {
        for q in self.straight_four_points(c, d, Color::Black) {
            self.forbidden_checks += 1;
            if self.forbidden_checks > FORBIDDEN_CHECK_LIMIT
                || self.forbidden_rec(q, true).is_none()
            {
                return true;
            }
        }
        false
    }
}
