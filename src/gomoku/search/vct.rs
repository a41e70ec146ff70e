//! VCT (victory by continuous threats): the attacker plays fours and open threes; the
//! defender answers a four with its block and an open three with every defence.
//!
//! # Model
//!
//! An AND/OR search. At an attacker node (the attacker to move): a five point wins; a
//! defender's four must be blocked (the block spends an attacker move and must leave a
//! threat); a straight four or two fours wins; otherwise every four and three move is
//! tried (fours only when fewer than three attacker moves are left, since a three needs
//! three moves to become a five). At a defender node after a four, the defender's one
//! block (or none, when black's block is forbidden under RENJU); after a three, every
//! defence of [`super::threats::defences`] — the defender's own fours included, so that a
//! defender's counter-VCF is found through them — must fail for the attacker to win.
//! Depth (attacker moves) is deepened one at a time, so the proof found is a shortest
//! one within the limits; `moves` is the attacker's moves to the five against the
//! defender's most stubborn defence.
//!
//! Exact within its limits: a proof holds against every defence the model lists (the
//! defence set holds every real defence, see [`super::threats`]); "none found" means
//! none within the depth and node limits, not that none exists.

use std::sync::atomic::AtomicBool;

use crate::gomoku::board::{Board, Cell};

use super::limits::{Clock, Pace};
use super::movepick::sort_cells_by_key;
use super::threats::{
    blocks_after, defences, five_points, four_dirs, four_moves, has_flex4_threat, legal,
    threat_moves,
};
use super::vcf::FailCache;
use crate::gomoku::patterns::Combo;

/// A VCT found: the attacker's first move, the principal line of the proof, and the
/// attacker's moves to the five in the worst case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The winning first move.
    pub first: Cell,
    /// Attacker moves up to and including the five, against the best defence.
    pub moves: u32,
    /// The principal variation of the proof, attacker and defender alternating from
    /// `first`: at each defender node the defence that holds out longest (the first
    /// such in the solver's order), up to the attacker's five; it stops short where
    /// the defender has no move worth showing (its only block forbidden to black under
    /// RENJU, or no defence at all against a straight-four threat).
    pub line: Vec<Cell>,
}

/// The VCT solver's limits and counters for one call.
pub struct Vct<'c> {
    /// Nodes visited so far.
    pub nodes: u64,
    max_nodes: u64,
    cache: &'c mut FailCache,
    salt: u64,
    aborted: bool,
    deadline: Option<std::time::Instant>,
    stop: Option<&'c AtomicBool>,
    pace: Option<&'c Pace>,
    pool: Vec<Vec<Cell>>,
    /// `lines[ply]`: the principal line from the node at `ply` when it was proven.
    lines: Vec<Vec<Cell>>,
    /// Sort keys of the moves being ordered ([`sort_cells_by_key`]).
    keyed: Vec<(Cell, i32)>,
}

impl<'c> Vct<'c> {
    /// A solver that stops after `max_nodes` nodes or at `deadline`.
    pub fn new(
        cache: &'c mut FailCache,
        max_nodes: u64,
        deadline: Option<std::time::Instant>,
    ) -> Vct<'c> {
        Vct {
            nodes: 0,
            max_nodes,
            cache,
            salt: 0x3C6E_F372_FE94_F82B,
            aborted: false,
            deadline,
            stop: None,
            pace: None,
            pool: Vec::new(),
            lines: Vec::new(),
            keyed: Vec::new(),
        }
    }

    /// Also stop when `stop` is set ([`super::Limits::stop`]).
    pub fn with_stop(mut self, stop: Option<&'c AtomicBool>) -> Vct<'c> {
        self.stop = stop;
        self
    }

    /// Also stop a stall ahead of the deadline ([`super::Limits::pace`]).
    pub fn with_pace(mut self, pace: Option<&'c Pace>) -> Vct<'c> {
        self.pace = pace;
        self
    }

    /// Whether a limit cut the last solve short.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A shortest VCT of the side to move of at most `max_moves` attacker moves.
    pub fn solve(&mut self, board: &mut Board, max_moves: u32) -> Option<Proof> {
        self.aborted = self.clock().expired();
        if self.aborted {
            return None;
        }
        for depth in 1..=max_moves {
            let mut first = None;
            if let Some(moves) = self.attack(board, depth, &mut first, 0) {
                let line = std::mem::take(&mut self.lines[0]);
                return first.map(|first| Proof { first, moves, line });
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.aborted = true;
        }
        if self.clock().expired_at(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The deadline and the stop flag.
    fn clock(&self) -> Clock<'c> {
        Clock {
            deadline: self.deadline,
            stop: self.stop,
            pace: self.pace,
        }
    }

    fn take(&mut self) -> Vec<Cell> {
        self.pool.pop().unwrap_or_default()
    }

    fn give(&mut self, mut v: Vec<Cell>) {
        v.clear();
        self.pool.push(v);
    }

    /// Records the line of the proven node at `ply`: `m`, then the child's line (`m`
    /// alone when `with_child` is false).
    fn set_line(&mut self, ply: usize, m: Cell, with_child: bool) {
        if self.lines.len() < ply + 2 {
            self.lines.resize_with(ply + 2, Vec::new);
        }
        let (here, below) = self.lines.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(m);
        if with_child {
            line.extend_from_slice(&below[0]);
        }
    }

    /// Records `cells` as the line of the proven node at `ply` (empty: the attacker's
    /// win needs no more moves shown).
    fn set_line_to(&mut self, ply: usize, cells: &[Cell]) {
        if self.lines.len() < ply + 1 {
            self.lines.resize_with(ply + 1, Vec::new);
        }
        self.lines[ply].clear();
        self.lines[ply].extend_from_slice(cells);
    }

    /// Attacker to move with `depth` moves left, `ply` plies from the root: the
    /// attacker's moves to the five, and its first move in `first` (the line in
    /// `lines[ply]`).
    fn attack(
        &mut self,
        board: &mut Board,
        depth: u32,
        first: &mut Option<Cell>,
        ply: usize,
    ) -> Option<u32> {
        if self.tick() {
            return None;
        }
        let a = board.to_move();
        let d = a.opponent();
        let mut buf = self.take();
        five_points(board, a, &mut buf);
        if let Some(&p) = buf.first() {
            *first = Some(p);
            self.set_line(ply, p, false);
            self.give(buf);
            return Some(1);
        }
        if depth < 2 {
            self.give(buf);
            return None;
        }
        five_points(board, d, &mut buf);
        let mut moves = self.take();
        match buf.len() {
            0 => {
                let mut cands = self.take();
                board.candidates(&mut cands);
                four_moves(board, a, &cands, &mut moves);
                // A straight four or two fours wins at once.
                if let Some(&m) = moves.iter().find(|&&m| board.combo(m, a) == Combo::Flex4) {
                    *first = Some(m);
                    // The defender takes one five point, the attacker the other. (Read
                    // from the lines through `m` without playing it: making and unmaking
                    // a move reorders the candidate area, and so the search after.)
                    let mut line = vec![m];
                    for d in 0..4 {
                        line.extend(board.five_points(m, d, a));
                    }
                    line.truncate(3);
                    self.set_line_to(ply, &line);
                    self.give(cands);
                    self.give(moves);
                    self.give(buf);
                    return Some(2);
                }
                if depth >= 3 {
                    threat_moves(board, a, &cands, &mut moves);
                }
                self.give(cands);
            }
            1 if legal(board, buf[0], a) => moves.push(buf[0]),
            _ => {}
        }
        self.give(buf);
        let key = board.hash() ^ self.salt;
        if moves.is_empty() || self.cache.failed(key, depth) {
            self.give(moves);
            return None;
        }
        // Fours before threes, then by point value.
        sort_cells_by_key(&mut moves, &mut self.keyed, |c| {
            let combo = board.combo(c, a) as i32;
            combo * 10_000 - board.value(c, a) - board.value(c, d) / 2
        });
        let mut result = None;
        for &m in &moves {
            let dirs = four_dirs(board, m, a);
            board.make(m);
            let r = self.defend(board, depth - 1, dirs, m, ply + 1);
            board.unmake();
            if let Some(n) = r {
                *first = Some(m);
                self.set_line(ply, m, true);
                result = Some(n + 1);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.give(moves);
        if result.is_none() && !self.aborted {
            self.cache.record(key, depth);
        }
        result
    }

    /// Defender to move after the attacker's `m` (fours in the directions `dirs`),
    /// `depth` attacker moves left, `ply` plies from the root: the attacker's moves to
    /// the five against the best defence (the line in `lines[ply]`).
    fn defend(
        &mut self,
        board: &mut Board,
        depth: u32,
        dirs: u8,
        m: Cell,
        ply: usize,
    ) -> Option<u32> {
        if self.tick() {
            return None;
        }
        let d = board.to_move();
        let a = d.opponent();
        let blocks = blocks_after(board, m, dirs, a);
        let mut fives = self.take();
        five_points(board, a, &mut fives);
        let block = match (fives.len(), blocks.as_slice().first()) {
            (n, _) if n >= 2 => {
                // The defender takes one five point, the attacker the other.
                let line = [fives[0], fives[1]];
                self.give(fives);
                self.set_line_to(ply, &line);
                return Some(1);
            }
            (1, _) => Some(fives[0]),
            (_, Some(&b)) => Some(b),
            _ => None,
        };
        self.give(fives);
        if let Some(b) = block {
            if !legal(board, b, d) {
                self.set_line_to(ply, &[]);
                return Some(1);
            }
            board.make(b);
            let mut first = None;
            let r = self.attack(board, depth, &mut first, ply + 1);
            board.unmake();
            if r.is_some() {
                self.set_line(ply, b, true);
            }
            return r;
        }
        let mut cands = self.take();
        board.candidates(&mut cands);
        if !has_flex4_threat(board, a, &cands) {
            self.give(cands);
            return None;
        }
        let mut replies = self.take();
        defences(board, d, &cands, &mut replies);
        self.give(cands);
        if replies.is_empty() {
            self.give(replies);
            self.set_line_to(ply, &[]);
            return Some(2);
        }
        // Refutations first: the defender's strongest points.
        sort_cells_by_key(&mut replies, &mut self.keyed, |c| {
            -(board.value(c, d) + board.value(c, a))
        });
        let mut worst = Some(0);
        for &r in &replies {
            board.make(r);
            let mut first = None;
            let res = self.attack(board, depth, &mut first, ply + 1);
            board.unmake();
            match res {
                Some(n) => {
                    if worst.is_some_and(|w| n > w) {
                        self.set_line(ply, r, true);
                    }
                    worst = worst.map(|w: u32| w.max(n));
                }
                None => {
                    worst = None;
                    break;
                }
            }
        }
        self.give(replies);
        worst
    }
}
