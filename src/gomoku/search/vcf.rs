//! VCF (victory by continuous fours): the attacker plays only fours, each answered by
//! the defender's one forced block, until a five, a straight four or two fours at once.
//!
//! # Model
//!
//! At an attacker node: a five point wins; a defender's four must be blocked, and only a
//! block that is itself a four keeps the VCF going; a point making a straight four or
//! two fours wins (the defender cannot take both five points and has no four to reply
//! with); otherwise every four move is tried, strongest class first (four-three before
//! four-plus before a plain four). After a four the defender's reply is the single five
//! point, unless it is forbidden for black under RENJU, which loses. Depth is counted in
//! attacker moves and deepened one at a time, so the first line found is a shortest
//! one. Positions that failed at a depth are remembered in a small lossy table.
//!
//! The solver is exact within its depth and node limits: a line it returns wins against
//! every defence (the defender's only legal replies are the blocks), and "no VCF" means
//! none within the limits.

use std::sync::atomic::AtomicBool;

use crate::gomoku::board::{Board, Cell};
use crate::gomoku::point::Color;

use super::limits::{Clock, Pace};
use super::movepick::sort_cells_by_key;
use super::threats::{blocks_after, five_points, four_dirs, four_moves, legal};

/// A lossy memory of positions (Zobrist keys) that failed at a given depth.
pub struct FailCache {
    entries: Vec<(u32, u8)>,
    mask: usize,
}

impl FailCache {
    /// A cache of `entries` (a power of two) slots, 8 bytes each.
    pub fn new(entries: usize) -> FailCache {
        let entries = entries.next_power_of_two().max(1);
        FailCache {
            entries: vec![(0, 0); entries],
            mask: entries - 1,
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.entries.capacity() * 8
    }

    /// Whether `key` failed with at least `depth` left.
    pub fn failed(&self, key: u64, depth: u32) -> bool {
        let (check, d) = self.entries[key as usize & self.mask];
        check == (key >> 32) as u32 && u32::from(d) >= depth && d > 0
    }

    /// Records that `key` failed with `depth` left.
    pub fn record(&mut self, key: u64, depth: u32) {
        self.entries[key as usize & self.mask] = ((key >> 32) as u32, depth.min(255) as u8);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill((0, 0));
    }
}

/// The VCF solver's limits and counters for one call.
pub struct Vcf<'c> {
    /// Nodes visited so far.
    pub nodes: u64,
    max_nodes: u64,
    cache: &'c mut FailCache,
    /// Per-depth move buffers (reused).
    buffers: Vec<Vec<Cell>>,
    candidates: Vec<Vec<Cell>>,
    /// Sort keys of the four moves being ordered ([`sort_cells_by_key`]).
    keyed: Vec<(Cell, i32)>,
    /// Salt mixed into cache keys so that VCF and other users of the cache differ.
    salt: u64,
    aborted: bool,
    deadline: Option<std::time::Instant>,
    stop: Option<&'c AtomicBool>,
    pace: Option<&'c Pace>,
}

/// A VCF found: the moves from the attacker's first four to its five, alternating
/// attacker and defender, and the attacker's moves to the five (`moves`, the five
/// included). The line stops early when the defender's only block is forbidden to
/// black under RENJU (black loses whatever it plays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Attacker, defender, attacker, ... ending with the five (or the unanswerable four).
    pub cells: Vec<Cell>,
    /// Attacker moves up to and including the five.
    pub moves: u32,
}

impl<'c> Vcf<'c> {
    /// A solver that stops after `max_nodes` nodes.
    pub fn new(cache: &'c mut FailCache, max_nodes: u64) -> Vcf<'c> {
        Vcf {
            nodes: 0,
            max_nodes,
            cache,
            buffers: Vec::new(),
            candidates: Vec::new(),
            keyed: Vec::new(),
            salt: 0x5BD1_E995_0000_0000,
            aborted: false,
            deadline: None,
            stop: None,
            pace: None,
        }
    }

    /// Also stop at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<std::time::Instant>) -> Vcf<'c> {
        self.deadline = deadline;
        self
    }

    /// Also stop when `stop` is set ([`super::Limits::stop`]).
    pub fn with_stop(mut self, stop: Option<&'c AtomicBool>) -> Vcf<'c> {
        self.stop = stop;
        self
    }

    /// Also stop a stall ahead of the deadline ([`super::Limits::pace`]).
    pub fn with_pace(mut self, pace: Option<&'c Pace>) -> Vcf<'c> {
        self.pace = pace;
        self
    }

    /// Whether the node limit cut the last solve short.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A shortest VCF of the side to move of at most `max_moves` attacker moves (the
    /// five included), or `None`.
    pub fn solve(&mut self, board: &mut Board, max_moves: u32) -> Option<Line> {
        self.aborted = self.clock().expired();
        if self.aborted {
            return None;
        }
        for depth in 1..=max_moves {
            let mut cells = Vec::new();
            if let Some(moves) = self.attack(board, depth, &mut cells) {
                return Some(Line { cells, moves });
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// The deadline and the stop flag.
    fn clock(&self) -> Clock<'c> {
        Clock {
            deadline: self.deadline,
            stop: self.stop,
            pace: self.pace,
        }
    }

    fn buffer(&mut self, depth: u32) -> (Vec<Cell>, Vec<Cell>) {
        let i = depth as usize;
        while self.buffers.len() <= i {
            self.buffers.push(Vec::new());
            self.candidates.push(Vec::new());
        }
        (
            std::mem::take(&mut self.buffers[i]),
            std::mem::take(&mut self.candidates[i]),
        )
    }

    fn give_back(&mut self, depth: u32, moves: Vec<Cell>, cands: Vec<Cell>) {
        self.buffers[depth as usize] = moves;
        self.candidates[depth as usize] = cands;
    }

    /// Attacker (the side to move) to play with `depth` moves left; on success `line`
    /// holds the winning continuation and the answer is the attacker's moves to the five.
    fn attack(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Cell>) -> Option<u32> {
        self.nodes += 1;
        if self.nodes > self.max_nodes || self.clock().expired_at(self.nodes) {
            self.aborted = true;
            return None;
        }
        let a = board.to_move();
        let d = a.opponent();
        let (mut moves, mut cands) = self.buffer(depth);
        five_points(board, a, &mut moves);
        if let Some(&p) = moves.first() {
            line.push(p);
            self.give_back(depth, moves, cands);
            return Some(1);
        }
        five_points(board, d, &mut moves);
        let forced = match moves.len() {
            0 => false,
            1 => true,
            _ => {
                self.give_back(depth, moves, cands);
                return None;
            }
        };
        if forced {
            // The block must itself be a four to keep the initiative.
            let p = moves[0];
            if depth < 2 || !(legal(board, p, a) && super::threats::has_four(board, p, a)) {
                self.give_back(depth, moves, cands);
                return None;
            }
        } else {
            if depth < 2 {
                self.give_back(depth, moves, cands);
                return None;
            }
            board.candidates(&mut cands);
            four_moves(board, a, &cands, &mut moves);
            // A straight four or two fours: wins at once.
            if let Some(&m) = moves.iter().find(|&&m| wins_outright(board, m, a)) {
                line.push(m);
                board.make(m);
                let mut fives = Vec::new();
                five_points(board, a, &mut fives);
                board.unmake();
                // The defender takes one five point, the attacker the other.
                if let (Some(&x), Some(&y)) = (fives.first(), fives.get(1)) {
                    line.push(x);
                    line.push(y);
                }
                self.give_back(depth, moves, cands);
                return Some(2);
            }
        }
        let key = board.hash() ^ self.salt;
        if moves.is_empty() || self.cache.failed(key, depth) {
            self.give_back(depth, moves, cands);
            return None;
        }
        // Four-three first, then by point value (own plus half the opponent's).
        sort_cells_by_key(&mut moves, &mut self.keyed, |c| {
            let combo = board.combo(c, a) as i32;
            -(board.value(c, a) + board.value(c, d) / 2) + combo * 10_000
        });
        let mut won = None;
        for &m in &moves {
            let dirs = four_dirs(board, m, a);
            board.make(m);
            let blocks = blocks_after(board, m, dirs, a);
            let result = match blocks.as_slice() {
                [] => None,
                [b] if !legal(board, *b, d) => {
                    // Black cannot block at a forbidden point: the five follows.
                    line.push(m);
                    Some(2)
                }
                [b] => {
                    let b = *b;
                    board.make(b);
                    let mut rest = Vec::new();
                    let r = self.attack(board, depth - 1, &mut rest);
                    board.unmake();
                    if r.is_some() {
                        line.push(m);
                        line.push(b);
                        line.extend(rest);
                    }
                    r.map(|n| n + 1)
                }
                // Two five points at once.
                [x, y, ..] => {
                    line.push(m);
                    line.push(*x);
                    line.push(*y);
                    Some(2)
                }
            };
            board.unmake();
            if result.is_some() {
                won = result;
                break;
            }
            if self.aborted {
                break;
            }
        }
        if won.is_none() && !self.aborted {
            self.cache.record(key, depth);
        }
        self.give_back(depth, moves, cands);
        won
    }
}

/// Whether `color` at `c` makes a straight four or two fours (and may play there).
fn wins_outright(board: &Board, c: Cell, color: Color) -> bool {
    use crate::gomoku::patterns::Combo;
    board.combo(c, color) == Combo::Flex4
}
