//! The board: stones on a square grid of side 5..22, the side to move, and for every
//! empty point, colour and direction the line pattern a stone there would make, kept up
//! to date incrementally as stones are placed and removed (seed 002's pattern tables,
//! [`crate::gomoku::patterns`]).
//!
//! # Layout
//!
//! Points are stored in a padded 32x32 grid ([`Cell`] indices): five cells of wall on
//! every side of the largest board, so that every line key reads 5 cells each way
//! without bounds checks. A stone placed at a cell changes the line keys of the 40 cells
//! within 5 steps in the 4 directions; each of those that is empty gets its pattern in
//! that direction, its [`Combo`] and its point value re-read from the tables. Removing a
//! stone undoes the same. Zobrist hashing gives each position a 64-bit key
//! ([`super::zobrist`]). Black's renju forbidden points are judged in
//! [`super::forbidden`], from the patterns kept here.
//!
//! # Positions
//!
//! [`Board::from_moves`] replays a move sequence (black first) and [`Board::from_stones`]
//! sets up black and white point lists with a side to move; both name the fault of bad
//! input ([`GomokuError`]). [`Board::play`] and [`Board::undo`] are the checked moves of
//! a game; the search uses the unchecked [`Board::make`] and [`Board::unmake`].

use super::error::GomokuError;
use super::learned::{Role, point_table};
use super::patterns::{BLACK, COMBOS, Combo, EMPTY, LinePattern, PairTable, WALL, key_shift};
use super::point::{Color, MAX_SIZE, MIN_SIZE, Point};
use super::rules::{ForbiddenKind, Rule, ThreeRule};
use super::values::{PACKED, PointInfo, point_info_table};
use super::zobrist::{ZOBRIST, ZOBRIST_WHITE_TO_MOVE};

/// Wall cells on each side of the largest board.
pub const PAD: usize = 5;
/// Width of the padded grid.
pub const STRIDE: usize = 32;
/// Cells of the padded grid.
pub const CELLS: usize = STRIDE * STRIDE;
/// Index steps of the four directions: along a row (x+1), along a column (y+1), the
/// diagonal (x+1, y+1) and the anti-diagonal (x+1, y-1).
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];

/// The index of a point in the padded grid.
pub type Cell = usize;

#[derive(Clone, Copy, Debug)]
struct Record {
    cell: u16,
    winner_before: Option<Color>,
    lost_by_forbidden_before: Option<(u16, ForbiddenKind)>,
    bbox_before: [u8; 4],
}

/// A position with its incremental pattern state. See the [module docs](self).
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    to_move: Color,
    pub(super) cells: [u8; CELLS],
    keys: [[u32; 4]; CELLS],
    pub(super) packed: [[u16; CELLS]; 2],
    pub(super) combo: [[Combo; CELLS]; 2],
    value: [[i16; CELLS]; 2],
    combo_count: [[u16; COMBOS]; 2],
    value_sum: [i32; 2],
    /// Threat class and value by packed patterns, per colour ([`point_info_table`]).
    info: [&'static [PointInfo; PACKED]; 2],
    /// The learned evaluation's tables per colour and role, and their sums over the
    /// empty points ([`super::learned`]).
    learned: [[&'static [i16]; 2]; 2],
    learned_sum: [[i32; 2]; 2],
    /// Whether `learned_sum` is kept (only a search with the learned evaluation pays
    /// for it: the extra lookups cost some 15 % of the nodes per second).
    learned_on: bool,
    near: [u8; CELLS],
    hash: u64,
    history: Vec<Record>,
    stones: [usize; 2],
    tables: PairTable,
    /// Cells on each side whose stones the line keys hold (4 in freestyle, else 5).
    radius: isize,
    pub(super) forbid: [bool; 2],
    winner: Option<Color>,
    /// Black's losing forbidden move under RENJU: its cell and kind.
    lost_by_forbidden: Option<(u16, ForbiddenKind)>,
    /// Bounding box of the stones: min x, max x, min y, max y (board coordinates);
    /// min > max while the board is empty.
    bbox: [u8; 4],
    pub(super) forbidden_checks: u32,
    pub(super) three_rule: ThreeRule,
    /// The candidate area (empty points within two of a stone), kept incrementally.
    cand: Vec<u16>,
    /// Position of each cell in `cand` (`u16::MAX`: absent).
    cand_pos: [u16; CELLS],
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Board {}x{} {} {} to move",
            self.size, self.size, self.rule, self.to_move
        )?;
        for y in (0..self.size).rev() {
            write!(f, "{:>2} ", y + 1)?;
            for x in 0..self.size {
                let c = cell_of(x, y);
                let ch = match u32::from(self.cells[c]) {
                    BLACK => 'X',
                    EMPTY => '.',
                    _ => 'O',
                };
                write!(f, "{ch} ")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for x in 0..self.size {
            write!(f, "{} ", (b'a' + x as u8) as char)?;
        }
        Ok(())
    }
}

/// The cell of board point (x, y).
pub const fn cell_of(x: usize, y: usize) -> Cell {
    (y + PAD) * STRIDE + x + PAD
}

/// The board point of a cell (only meaningful for cells on the board).
pub const fn point_of(cell: Cell) -> Point {
    Point::new((cell % STRIDE - PAD) as u8, (cell / STRIDE - PAD) as u8)
}

const fn stone_value(color: Color) -> u8 {
    match color {
        Color::Black => BLACK as u8,
        Color::White => 2,
    }
}

impl Board {
    /// An empty board of side `size` (5..=22) under `rule`, black to move.
    pub fn new(size: usize, rule: Rule) -> Result<Board, GomokuError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GomokuError::BadSize(size));
        }
        let forbid = [rule.has_forbidden(Color::Black), false];
        let tables = PairTable::of(rule);
        let radius = tables.radius() as isize;
        let mut b = Board {
            size,
            rule,
            to_move: Color::Black,
            cells: [WALL as u8; CELLS],
            keys: [[0; 4]; CELLS],
            packed: [[0; CELLS]; 2],
            combo: [[Combo::None; CELLS]; 2],
            value: [[0; CELLS]; 2],
            combo_count: [[0; COMBOS]; 2],
            value_sum: [0; 2],
            info: forbid.map(point_info_table),
            learned: [0, 1]
                .map(|k| [Role::Attack, Role::Defence].map(|r| point_table(rule, r, forbid[k]))),
            learned_sum: [[0; 2]; 2],
            learned_on: false,
            near: [0; CELLS],
            hash: 0,
            history: Vec::with_capacity(size * size),
            stones: [0; 2],
            tables,
            radius,
            forbid,
            winner: None,
            lost_by_forbidden: None,
            bbox: [u8::MAX, 0, u8::MAX, 0],
            forbidden_checks: 0,
            three_rule: ThreeRule::Rif,
            cand: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
            cand_pos: [u16::MAX; CELLS],
        };
        for y in 0..size {
            for x in 0..size {
                b.cells[cell_of(x, y)] = EMPTY as u8;
            }
        }
        for y in 0..size {
            for x in 0..size {
                let c = cell_of(x, y);
                for (d, &step) in DIRS.iter().enumerate() {
                    let mut key = 0;
                    for i in 1..=5isize {
                        let fwd = u32::from(b.cells[(c as isize + i * step) as usize]);
                        let back = u32::from(b.cells[(c as isize - i * step) as usize]);
                        key |= fwd << key_shift(i as i32) | back << key_shift(-(i as i32));
                    }
                    b.keys[c][d] = key;
                }
                for color in 0..2 {
                    b.refresh_all(c, color);
                    b.count(c, color);
                }
            }
        }
        Ok(b)
    }

    /// The position after the moves `moves` (black first) from the empty board.
    ///
    /// Errors: a point off the board, a point taken twice, a move after the game ended
    /// (a five, or under RENJU a forbidden move by black, which loses).
    pub fn from_moves(size: usize, rule: Rule, moves: &[Point]) -> Result<Board, GomokuError> {
        let mut b = Board::new(size, rule)?;
        for (i, &p) in moves.iter().enumerate() {
            if !p.on_board(size) {
                return Err(GomokuError::OffBoard {
                    point: p.to_string(),
                    size,
                });
            }
            if let Some(winner) = b.winner() {
                return Err(GomokuError::MoveAfterEnd {
                    index: i + 1,
                    point: p.to_string(),
                    winner,
                });
            }
            b.play(p)?;
        }
        Ok(b)
    }

    /// The position with the given stones and side to move.
    ///
    /// Errors: a point off the board or given twice (in one list or both), stone counts
    /// that no game produces with `to_move` to move (black has as many stones as white
    /// when black is to move, one more when white is), fives of both colours.
    pub fn from_stones(
        size: usize,
        rule: Rule,
        black: &[Point],
        white: &[Point],
        to_move: Color,
    ) -> Result<Board, GomokuError> {
        let board = Board::from_stones_any_counts(size, rule, black, white, to_move)?;
        if board.has_winning_run(Color::Black) && board.has_winning_run(Color::White) {
            return Err(GomokuError::GameOver(
                "both black and white have a five on the board".into(),
            ));
        }
        let ok = match to_move {
            Color::Black => black.len() == white.len(),
            Color::White => black.len() == white.len() + 1,
        };
        if !ok {
            return Err(GomokuError::StoneCounts {
                black: black.len(),
                white: white.len(),
                to_move,
            });
        }
        Ok(board)
    }

    /// As [`Board::from_stones`] without the stone-count and two-fives checks: for
    /// composed positions (problems, the golden forbidden-point file) that no game need
    /// produce. With fives of both colours, black is taken as the winner.
    pub fn from_stones_any_counts(
        size: usize,
        rule: Rule,
        black: &[Point],
        white: &[Point],
        to_move: Color,
    ) -> Result<Board, GomokuError> {
        let mut b = Board::new(size, rule)?;
        for (color, list) in [(Color::Black, black), (Color::White, white)] {
            for &p in list {
                if !p.on_board(size) {
                    return Err(GomokuError::OffBoard {
                        point: p.to_string(),
                        size,
                    });
                }
                let c = cell_of(p.x.into(), p.y.into());
                if b.cells[c] != EMPTY as u8 {
                    return Err(GomokuError::Taken(p.to_string()));
                }
                b.put(c, color);
                b.history.push(Record {
                    cell: c as u16,
                    winner_before: None,
                    lost_by_forbidden_before: None,
                    bbox_before: b.bbox,
                });
                b.grow_bbox(p);
            }
        }
        b.to_move = to_move;
        b.hash ^= if to_move == Color::White {
            ZOBRIST_WHITE_TO_MOVE
        } else {
            0
        };
        // A composed position may hold fives of both colours; black's is reported.
        b.winner = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| b.has_winning_run(c));
        if b.winner.is_none()
            && rule == Rule::Renju
            && let Some(run) = b
                .winning_lines(Color::Black)
                .into_iter()
                .find(|r| r.len() > 5)
        {
            // Black cannot have made six in a row without a forbidden move.
            b.lost_by_forbidden = Some((run[0] as u16, ForbiddenKind::Overline));
            b.winner = Some(Color::White);
        }
        Ok(b)
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule the patterns are read under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The 64-bit Zobrist key of the stones and the side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones[0] + self.stones[1]
    }

    /// Stones of one colour.
    pub fn stones_of(&self, color: Color) -> usize {
        self.stones[color.index()]
    }

    /// Whether every point is taken.
    pub fn is_full(&self) -> bool {
        self.stone_count() == self.size * self.size
    }

    /// The stone at a point, `None` when it is empty or off the board.
    pub fn stone(&self, p: Point) -> Option<Color> {
        if !p.on_board(self.size) {
            return None;
        }
        self.stone_at(cell_of(p.x.into(), p.y.into()))
    }

    /// The stone at a cell.
    pub fn stone_at(&self, c: Cell) -> Option<Color> {
        match u32::from(self.cells[c]) {
            BLACK => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Whether a cell is an empty point of the board.
    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[c] == EMPTY as u8
    }

    /// The cell of a point (which must be on the board).
    pub fn cell(&self, p: Point) -> Cell {
        cell_of(p.x.into(), p.y.into())
    }

    /// The stones in the order they were put on the board (moves, or black then white
    /// for [`Board::from_stones`]).
    pub fn history(&self) -> impl Iterator<Item = Point> + '_ {
        self.history.iter().map(|r| point_of(r.cell.into()))
    }

    /// The last stone put on the board.
    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().map(|r| r.cell.into())
    }

    /// The colour that has won: a five on the board, or under RENJU white after a
    /// forbidden move by black ([`Board::lost_by_forbidden`]).
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// Under RENJU, the kind of forbidden move black made (and lost by), if any.
    pub fn lost_by_forbidden(&self) -> Option<ForbiddenKind> {
        self.lost_by_forbidden.map(|(_, k)| k)
    }

    /// Under RENJU, black's losing forbidden move: the point played (for a position set
    /// up from stone lists with an overline, the overline's first stone) and its kind.
    pub fn forbidden_move(&self) -> Option<(Point, ForbiddenKind)> {
        self.lost_by_forbidden.map(|(c, k)| (point_of(c.into()), k))
    }

    /// Whether the game is over: a winner, or a full board (a draw).
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.is_full()
    }

    /// The line pattern a stone of `color` at the empty cell `c` makes in direction `d`.
    pub fn pattern(&self, c: Cell, color: Color, d: usize) -> LinePattern {
        LinePattern::from_code(((self.packed[color.index()][c] >> (4 * d)) & 15) as u8)
    }

    /// The four line patterns, packed 4 bits each (direction 0 lowest).
    pub fn packed(&self, c: Cell, color: Color) -> u16 {
        self.packed[color.index()][c]
    }

    /// The threat class of a stone of `color` at the empty cell `c`.
    pub fn combo(&self, c: Cell, color: Color) -> Combo {
        self.combo[color.index()][c]
    }

    /// The point value ([`crate::gomoku::values`]) of `color` at the empty cell `c`.
    pub fn value(&self, c: Cell, color: Color) -> i32 {
        self.value[color.index()][c].into()
    }

    /// The sum of the point values of `color` over all empty points.
    pub fn value_sum(&self, color: Color) -> i32 {
        self.value_sum[color.index()]
    }

    /// The sum over all empty points of the learned weights of `color` in `role`
    /// ([`super::learned`], sixteenths of a score unit); 0 unless kept
    /// ([`Board::keep_learned`]).
    pub fn learned_sum(&self, color: Color, role: Role) -> i32 {
        self.learned_sum[color.index()][role as usize]
    }

    /// Whether to keep [`Board::learned_sum`] up to date from now on (summed afresh
    /// when turned on).
    pub fn keep_learned(&mut self, on: bool) {
        if on == self.learned_on {
            return;
        }
        self.learned_on = on;
        self.learned_sum = [[0; 2]; 2];
        if on {
            let empties: Vec<Cell> = self.empty_cells().collect();
            for c in empties {
                for k in 0..2 {
                    self.add_learned(c, k, 1);
                }
            }
        }
    }

    #[inline]
    fn add_learned(&mut self, c: Cell, k: usize, sign: i32) {
        let p = usize::from(self.packed[k][c]);
        for r in 0..2 {
            self.learned_sum[k][r] += sign * i32::from(self.learned[k][r][p]);
        }
    }

    /// How many empty points have threat class `combo` for `color`.
    pub fn combo_count(&self, color: Color, combo: Combo) -> usize {
        self.combo_count[color.index()][combo as usize].into()
    }

    /// Whether `color` has at least one empty point of class `combo` or stronger (lower
    /// code); `Forbidden` points are skipped.
    pub fn has_combo_at_least(&self, color: Color, combo: Combo) -> bool {
        let counts = &self.combo_count[color.index()];
        (0..=combo as usize).any(|k| k != Combo::Forbidden as usize && counts[k] > 0)
    }

    /// The line key of cell `c` in direction `d` (see [`crate::gomoku::patterns`]).
    pub fn key(&self, c: Cell, d: usize) -> u32 {
        self.keys[c][d]
    }

    /// Stones within two points (a 5x5 square) of cell `c`.
    pub fn near(&self, c: Cell) -> u8 {
        self.near[c]
    }

    /// The empty cells within two points of a stone (the candidate area), or the centre
    /// on an empty board. Kept incrementally; the order depends on the history.
    pub fn candidates(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.stone_count() == 0 {
            let m = self.size / 2;
            out.push(cell_of(m, m));
            return;
        }
        out.extend(self.cand.iter().map(|&c| usize::from(c)));
    }

    /// The candidate area as [`Board::candidates`] lists it, without copying.
    pub fn candidate_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let centre = (self.stone_count() == 0).then(|| cell_of(self.size / 2, self.size / 2));
        centre
            .into_iter()
            .chain(self.cand.iter().map(|&c| usize::from(c)))
    }

    fn cand_add(&mut self, c: Cell) {
        if self.cand_pos[c] == u16::MAX {
            self.cand_pos[c] = self.cand.len() as u16;
            self.cand.push(c as u16);
        }
    }

    fn cand_remove(&mut self, c: Cell) {
        let pos = self.cand_pos[c];
        if pos != u16::MAX {
            self.cand.swap_remove(pos.into());
            if let Some(&moved) = self.cand.get(usize::from(pos)) {
                self.cand_pos[usize::from(moved)] = pos;
            }
            self.cand_pos[c] = u16::MAX;
        }
    }

    /// Every empty cell of the board.
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.size)
            .flat_map(move |y| (0..self.size).map(move |x| cell_of(x, y)))
            .filter(|&c| self.cells[c] == EMPTY as u8)
    }

    /// Plays a move of the side to move, checked: the point must be on the board and
    /// empty, and the game not over. Under RENJU a forbidden move by black is played
    /// and loses ([`Board::lost_by_forbidden`]).
    pub fn play(&mut self, p: Point) -> Result<(), GomokuError> {
        if !p.on_board(self.size) {
            return Err(GomokuError::OffBoard {
                point: p.to_string(),
                size: self.size,
            });
        }
        let c = self.cell(p);
        if self.cells[c] != EMPTY as u8 {
            return Err(GomokuError::Taken(p.to_string()));
        }
        if let Some(winner) = self.winner {
            return Err(GomokuError::GameOver(format!("{winner} has won")));
        }
        let forbidden = if self.to_move == Color::Black {
            self.forbidden_at(c)
        } else {
            None
        };
        self.make(c);
        if let Some(kind) = forbidden {
            self.lost_by_forbidden = Some((c as u16, kind));
            self.winner = Some(Color::White);
        }
        Ok(())
    }

    /// Takes back the last stone (the inverse of [`Board::play`] or [`Board::make`]).
    pub fn undo(&mut self) -> Option<Point> {
        let c = self.history.last()?.cell;
        self.unmake();
        Some(point_of(c.into()))
    }

    /// Puts a stone of the side to move on the empty cell `c` and passes the move.
    /// Unchecked: the caller guarantees the cell is empty (the search does).
    pub fn make(&mut self, c: Cell) {
        let color = self.to_move;
        debug_assert_eq!(self.cells[c], EMPTY as u8);
        self.history.push(Record {
            cell: c as u16,
            winner_before: self.winner,
            lost_by_forbidden_before: self.lost_by_forbidden,
            bbox_before: self.bbox,
        });
        if self.winner.is_none() && self.combo[color.index()][c] == Combo::Five {
            self.winner = Some(color);
        }
        self.put(c, color);
        self.grow_bbox(point_of(c));
        self.to_move = color.opponent();
        self.hash ^= ZOBRIST_WHITE_TO_MOVE;
    }

    /// Takes back the last [`Board::make`]. Panics never; does nothing on an empty
    /// history.
    pub fn unmake(&mut self) {
        let Some(r) = self.history.pop() else {
            return;
        };
        self.remove(r.cell.into());
        self.winner = r.winner_before;
        self.lost_by_forbidden = r.lost_by_forbidden_before;
        self.bbox = r.bbox_before;
        self.to_move = self.to_move.opponent();
        self.hash ^= ZOBRIST_WHITE_TO_MOVE;
    }

    /// Passes the move without a stone (for the search's threat probes). Undo with
    /// [`Board::pass`] again.
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
        self.hash ^= ZOBRIST_WHITE_TO_MOVE;
    }

    /// The empty cells where a stone of `color` would turn the line through `c` in
    /// direction `d` into a straight four through `c` (with `c` counted as `color`'s
    /// stone whether or not it is on the board).
    pub fn straight_four_points(&self, c: Cell, d: usize, color: Color) -> Vec<Cell> {
        self.line_points(c, d, color, |p| p == LinePattern::F4)
    }

    /// The empty cells where a stone of `color` would complete a win through `c` in
    /// direction `d` (with `c` counted as `color`'s stone).
    pub fn five_points(&self, c: Cell, d: usize, color: Color) -> Vec<Cell> {
        let mut out = Vec::new();
        let step = DIRS[d];
        let own = stone_value(color) as u32;
        for off in (-4..=4).filter(|&o| o != 0) {
            let q = (c as isize + off as isize * step) as usize;
            if self.cells[q] != EMPTY as u8 {
                continue;
            }
            // The cells between c and q must all be own stones, and the run a win.
            if self.run_through(c, q, d, own) {
                out.push(q);
            }
        }
        out
    }

    /// Whether a stone of value `own` at the empty `q` makes, with `c` (taken as own),
    /// a winning run through both in direction `d`.
    fn run_through(&self, c: Cell, q: Cell, d: usize, own: u32) -> bool {
        let step = DIRS[d];
        let is_own = |i: Cell| i == c || i == q || u32::from(self.cells[i]) == own;
        let (lo, hi) = if q < c { (q, c) } else { (c, q) };
        let mut i = lo;
        while i != hi {
            if !is_own(i) {
                return false;
            }
            i = (i as isize + step.abs()) as usize;
        }
        let mut len = (hi - lo) / step.unsigned_abs() + 1;
        let mut a = lo as isize - step.abs();
        while is_own(a as usize) {
            len += 1;
            a -= step.abs();
        }
        let mut b = hi as isize + step.abs();
        while is_own(b as usize) {
            len += 1;
            b += step.abs();
        }
        self.rule
            .run_wins(Color::from_index((own - 1) as usize), len)
    }

    fn line_points(
        &self,
        c: Cell,
        d: usize,
        color: Color,
        want: impl Fn(LinePattern) -> bool,
    ) -> Vec<Cell> {
        let mut out = Vec::new();
        let step = DIRS[d];
        for off in (-4..=4i32).filter(|&o| o != 0) {
            let q = (c as isize + off as isize * step) as usize;
            if self.cells[q] != EMPTY as u8 {
                continue;
            }
            // The key with a stone of `color` at q.
            let key = self.keys[c][d] | u32::from(stone_value(color)) << key_shift(off);
            if want(LinePattern::from_code(self.tables.code(key, color))) {
                out.push(q);
            }
        }
        out
    }

    /// Whether `color` has a winning run on the board.
    fn has_winning_run(&self, color: Color) -> bool {
        self.runs(color).any(|len| self.rule.run_wins(color, len))
    }

    /// Lengths of the maximal runs of `color` of five or more.
    fn runs(&self, color: Color) -> impl Iterator<Item = usize> + '_ {
        self.winning_lines(color).into_iter().map(|l| l.len())
    }

    /// The maximal runs of five or more stones of `color`, each as its cells in order.
    pub fn winning_lines(&self, color: Color) -> Vec<Vec<Cell>> {
        let own = stone_value(color);
        let mut out = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                let c = cell_of(x, y);
                if self.cells[c] != own {
                    continue;
                }
                for &step in &DIRS {
                    // Start of a run only.
                    if self.cells[(c as isize - step) as usize] == own {
                        continue;
                    }
                    let mut run = vec![c];
                    let mut n = (c as isize + step) as usize;
                    while self.cells[n] == own {
                        run.push(n);
                        n = (n as isize + step) as usize;
                    }
                    if run.len() >= 5 {
                        out.push(run);
                    }
                }
            }
        }
        out
    }

    /// The winning run on the board (of the winner), if any: a five, or six or more
    /// where long runs win.
    pub fn winning_line(&self) -> Option<(Color, Vec<Point>)> {
        for color in [Color::Black, Color::White] {
            if let Some(line) = self
                .winning_lines(color)
                .into_iter()
                .find(|l| self.rule.run_wins(color, l.len()))
            {
                return Some((color, line.into_iter().map(point_of).collect()));
            }
        }
        None
    }

    fn grow_bbox(&mut self, p: Point) {
        self.bbox[0] = self.bbox[0].min(p.x);
        self.bbox[1] = self.bbox[1].max(p.x);
        self.bbox[2] = self.bbox[2].min(p.y);
        self.bbox[3] = self.bbox[3].max(p.y);
    }

    /// Puts a stone without touching the side to move, the history or the winner.
    pub(super) fn put(&mut self, c: Cell, color: Color) {
        let v = stone_value(color);
        for k in 0..2 {
            self.uncount(c, k);
        }
        self.cand_remove(c);
        self.cells[c] = v;
        self.hash ^= ZOBRIST[color.index()][c];
        self.stones[color.index()] += 1;
        self.update_lines(c, u32::from(v));
        self.add_near(c, 1);
    }

    /// Removes the stone at `c` (the inverse of [`Board::put`]).
    pub(super) fn remove(&mut self, c: Cell) {
        let v = self.cells[c];
        let color = if u32::from(v) == BLACK {
            Color::Black
        } else {
            Color::White
        };
        self.cells[c] = EMPTY as u8;
        self.hash ^= ZOBRIST[color.index()][c];
        self.stones[color.index()] -= 1;
        self.update_lines(c, EMPTY);
        for k in 0..2 {
            self.refresh_all(c, k);
            self.count(c, k);
        }
        self.add_near(c, -1);
    }

    /// Writes the cell value `v` (a stone, or [`EMPTY`] when one is taken away) of cell
    /// `c` into the line keys of the cells within the radius in the four directions, and
    /// re-reads the patterns of those that are empty. The radius is a constant of each
    /// instance, so that the loops unroll.
    fn update_lines(&mut self, c: Cell, v: u32) {
        if self.radius == 4 {
            self.update_lines_within::<4>(c, v);
        } else {
            self.update_lines_within::<5>(c, v);
        }
    }

    #[inline(always)]
    fn update_lines_within<const R: isize>(&mut self, c: Cell, v: u32) {
        for (d, &step) in DIRS.iter().enumerate() {
            for i in 1..=R {
                // Within the padded grid by construction (5 wall cells each side); the
                // mask only tells the compiler so.
                let f = (c as isize + i * step) as usize & (CELLS - 1);
                let shift = key_shift(-(i as i32));
                self.keys[f][d] = (self.keys[f][d] & !(3 << shift)) | v << shift;
                if self.cells[f] == EMPTY as u8 {
                    self.refresh(f, d);
                }
                let b = (c as isize - i * step) as usize & (CELLS - 1);
                let shift = key_shift(i as i32);
                self.keys[b][d] = (self.keys[b][d] & !(3 << shift)) | v << shift;
                if self.cells[b] == EMPTY as u8 {
                    self.refresh(b, d);
                }
            }
        }
    }

    /// Counts a stone put at `c` (`delta` 1) or taken from it (-1) in the 5x5 square
    /// around it, and keeps the candidate area in step.
    fn add_near(&mut self, c: Cell, delta: i8) {
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let n = (c as isize + dy * STRIDE as isize + dx) as usize;
                self.near[n] = self.near[n].wrapping_add_signed(delta);
                if self.cells[n] == EMPTY as u8 {
                    match (delta, self.near[n]) {
                        (1, 1) => self.cand_add(n),
                        (-1, 0) => self.cand_remove(n),
                        _ => {}
                    }
                }
            }
        }
        if delta < 0 && self.near[c] > 0 {
            self.cand_add(c);
        }
    }

    /// Re-reads the pattern of empty cell `c` in direction `d` for both colours.
    #[inline(always)]
    fn refresh(&mut self, c: Cell, d: usize) {
        let c = c & (CELLS - 1);
        let pair = self.tables.pair(self.keys[c][d]);
        for k in 0..2 {
            let code = u16::from((pair >> (4 * k)) & 15);
            let old = self.packed[k][c];
            let new = (old & !(15 << (4 * d))) | code << (4 * d);
            if new != old {
                self.repattern(c, k, new);
            }
        }
    }

    /// Cell `c`'s packed patterns for colour index `k` become `new`: its class and
    /// value are re-read and the counts moved from the old ones to the new.
    #[inline(always)]
    fn repattern(&mut self, c: Cell, k: usize, new: u16) {
        let c = c & (CELLS - 1);
        if self.learned_on {
            self.add_learned(c, k, -1);
        }
        let info = self.info[k][usize::from(new)];
        let old_combo = self.combo[k][c];
        self.combo_count[k][old_combo as usize] -= 1;
        self.combo_count[k][info.combo as usize] += 1;
        self.value_sum[k] += i32::from(info.value) - i32::from(self.value[k][c]);
        self.packed[k][c] = new;
        self.combo[k][c] = info.combo;
        self.value[k][c] = info.value;
        if self.learned_on {
            self.add_learned(c, k, 1);
        }
    }

    /// Re-reads all four patterns of cell `c` for colour index `k` (not counted).
    fn refresh_all(&mut self, c: Cell, k: usize) {
        let mut packed = 0u16;
        for d in 0..4 {
            let code = (self.tables.pair(self.keys[c][d]) >> (4 * k)) & 15;
            packed |= u16::from(code) << (4 * d);
        }
        let info = self.info[k][usize::from(packed)];
        self.packed[k][c] = packed;
        self.combo[k][c] = info.combo;
        self.value[k][c] = info.value;
    }

    #[inline]
    fn count(&mut self, c: Cell, k: usize) {
        self.combo_count[k][self.combo[k][c] as usize] += 1;
        self.value_sum[k] += i32::from(self.value[k][c]);
        if self.learned_on {
            self.add_learned(c, k, 1);
        }
    }

    #[inline]
    fn uncount(&mut self, c: Cell, k: usize) {
        self.combo_count[k][self.combo[k][c] as usize] -= 1;
        self.value_sum[k] -= i32::from(self.value[k][c]);
        if self.learned_on {
            self.add_learned(c, k, -1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::point::parse_sequence;

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_moves(15, rule, &parse_sequence(moves).unwrap()).unwrap()
    }

    /// Recomputes every empty cell's patterns from scratch and compares.
    fn assert_consistent(b: &Board) {
        let fresh = {
            let mut f = Board::new(b.size, b.rule).unwrap();
            for r in &b.history {
                let c: Cell = r.cell.into();
                let color = b.stone_at(c).unwrap();
                f.put(c, color);
            }
            // The learned sums afresh, against b's incremental ones.
            f.keep_learned(b.learned_on);
            f
        };
        for c in b.empty_cells() {
            for k in 0..2 {
                assert_eq!(b.packed[k][c], fresh.packed[k][c], "cell {}", point_of(c));
                assert_eq!(b.combo[k][c], fresh.combo[k][c]);
            }
        }
        assert_eq!(b.combo_count, fresh.combo_count);
        assert_eq!(b.learned_sum, fresh.learned_sum);
        let mut cands = Vec::new();
        b.candidates(&mut cands);
        cands.sort();
        let scanned: Vec<Cell> = if b.stone_count() == 0 {
            vec![cell_of(b.size / 2, b.size / 2)]
        } else {
            b.empty_cells().filter(|&c| b.near[c] > 0).collect()
        };
        let mut scanned = scanned;
        scanned.sort();
        assert_eq!(cands, scanned, "candidate area");
        assert_eq!(b.value_sum, fresh.value_sum);
        assert_eq!(
            b.hash ^ fresh.hash,
            if b.to_move == Color::White {
                ZOBRIST_WHITE_TO_MOVE
            } else {
                0
            }
        );
    }

    #[test]
    fn incremental_patterns_match_a_fresh_board_after_moves_and_undos() {
        let mut b = board(Rule::Renju, "h8i9h9h7i8g8j8k8j9j10");
        assert_consistent(&b);
        b.keep_learned(true);
        b.undo();
        b.undo();
        assert_consistent(&b);
        b.play("a1".parse().unwrap()).unwrap();
        assert_consistent(&b);
        while b.undo().is_some() {}
        assert_eq!(b.hash(), Board::new(15, Rule::Renju).unwrap().hash());
        assert_consistent(&b);
    }

    /// The board's incremental state recounted from its stones alone, by another path
    /// than the incremental one: every key read off the cells, both colours' patterns
    /// from the single-colour [`LineTable`]s (not the pair table the board uses), the
    /// class and value from [`Combo::of`] and [`point_value`] (not the merged point-info
    /// table), counts and sums by summation, the candidate area by scanning 5x5 squares.
    fn assert_matches_recount(b: &Board) {
        use crate::gomoku::patterns::{LineRule, LineTable};
        use crate::gomoku::values::point_value;
        let mut combo_count = [[0u16; COMBOS]; 2];
        let mut value_sum = [0i32; 2];
        for c in b.empty_cells() {
            for (k, color) in [Color::Black, Color::White].into_iter().enumerate() {
                let table = LineTable::of(LineRule::of(b.rule, color));
                let mut packed = 0u16;
                for (d, &step) in DIRS.iter().enumerate() {
                    let mut key = 0;
                    for i in 1..=5isize {
                        let fwd = u32::from(b.cells[(c as isize + i * step) as usize]);
                        let back = u32::from(b.cells[(c as isize - i * step) as usize]);
                        key |= fwd << key_shift(i as i32) | back << key_shift(-(i as i32));
                    }
                    packed |= (table.pattern(key, color) as u16) << (4 * d);
                }
                let combo = Combo::of(packed, b.forbid[k]);
                assert_eq!(b.packed[k][c], packed, "patterns of {}", point_of(c));
                assert_eq!(b.combo[k][c], combo, "class of {}", point_of(c));
                assert_eq!(b.value[k][c], point_value(packed, b.forbid[k]));
                combo_count[k][combo as usize] += 1;
                value_sum[k] += i32::from(point_value(packed, b.forbid[k]));
            }
        }
        assert_eq!(b.combo_count, combo_count);
        assert_eq!(b.value_sum, value_sum);
        let near = |c: Cell| {
            let (p, n) = (point_of(c), b.size as isize);
            (-2..=2isize)
                .flat_map(|dy| (-2..=2isize).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| {
                    let (x, y) = (p.x as isize + dx, p.y as isize + dy);
                    (0..n).contains(&x)
                        && (0..n).contains(&y)
                        && b.stone_at(cell_of(x as usize, y as usize)).is_some()
                })
                .count()
        };
        let mut listed: Vec<Cell> = b.candidate_cells().collect();
        listed.sort();
        let mut scanned: Vec<Cell> = b.empty_cells().filter(|&c| near(c) > 0).collect();
        if b.stone_count() == 0 {
            scanned = vec![cell_of(b.size / 2, b.size / 2)];
        }
        assert_eq!(listed, scanned, "candidate area");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]
        /// Random games on random boards, with take-backs: the incremental patterns,
        /// classes, values, counts and candidate area equal a recount after every step.
        #[test]
        fn incremental_state_equals_a_recount_after_random_moves_and_undos(
            size in 7usize..=20,
            rule in 0usize..3,
            steps in proptest::collection::vec((0u8..20, 0u8..20, 0u8..4), 1..60),
        ) {
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][rule];
            let mut b = Board::new(size, rule).unwrap();
            for (x, y, op) in steps {
                let p = Point::new(x % size as u8, y % size as u8);
                if op == 0 {
                    b.undo();
                } else if b.stone(p).is_none() && b.winner().is_none() {
                    // Unchecked, as the search plays (under RENJU also forbidden points).
                    b.make(b.cell(p));
                }
                assert_matches_recount(&b);
            }
        }
    }

    #[test]
    fn a_five_wins_and_later_moves_are_refused() {
        let b = board(Rule::Freestyle, "a1b1a2b2a3b3a4b4a5");
        assert_eq!(b.winner(), Some(Color::Black));
        let err = Board::from_moves(
            15,
            Rule::Freestyle,
            &parse_sequence("a1b1a2b2a3b3a4b4a5b5").unwrap(),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 10 (b5) comes after black already won"
        );
    }

    #[test]
    fn taken_and_off_board_points_are_named() {
        let err =
            Board::from_moves(15, Rule::Freestyle, &parse_sequence("h8h8").unwrap()).unwrap_err();
        assert_eq!(err.to_string(), "point h8 is taken twice");
        let err =
            Board::from_moves(9, Rule::Freestyle, &parse_sequence("h8j10").unwrap()).unwrap_err();
        assert_eq!(err.to_string(), "point j10 is off the 9x9 board");
        let p = |s: &str| parse_sequence(s).unwrap();
        let err =
            Board::from_stones(15, Rule::Freestyle, &p("h8"), &p("h8"), Color::White).unwrap_err();
        assert_eq!(err.to_string(), "point h8 is taken twice");
        let err =
            Board::from_stones(15, Rule::Freestyle, &p("h8i8"), &p(""), Color::White).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("2 black and 0 white stones cannot occur with white to move")
        );
        assert!(Board::new(4, Rule::Freestyle).is_err());
        assert!(Board::new(23, Rule::Freestyle).is_err());
    }
}
