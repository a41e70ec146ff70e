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

use crate::gomoku::board::{Board, Cell};

use super::threats::{
    block_of_four, defences, five_points, four_moves, has_flex4_threat, legal, threat_moves,
};
use super::vcf::FailCache;

/// A VCT found: the attacker's first move, the principal line against the defender's
/// first listed defence, and the attacker's moves to the five in the worst case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The winning first move.
    pub first: Cell,
    /// Attacker moves up to and including the five, against the best defence.
    pub moves: u32,
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
        }
    }

    /// Whether a limit cut the last solve short.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A shortest VCT of the side to move of at most `max_moves` attacker moves.
    pub fn solve(&mut self, board: &mut Board, max_moves: u32) -> Option<Proof> {
        self.aborted = false;
        for depth in 1..=max_moves {
            let mut first = None;
            if let Some(moves) = self.attack(board, depth, &mut first) {
                return first.map(|first| Proof { first, moves });
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
        if self.nodes.is_multiple_of(512)
            && let Some(d) = self.deadline
            && std::time::Instant::now() >= d
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Attacker to move with `depth` moves left: the attacker's moves to the five, and
    /// its first move in `first`.
    fn attack(&mut self, board: &mut Board, depth: u32, first: &mut Option<Cell>) -> Option<u32> {
        if self.tick() {
            return None;
        }
        let a = board.to_move();
        let d = a.opponent();
        let mut buf = Vec::new();
        five_points(board, a, &mut buf);
        if let Some(&p) = buf.first() {
            *first = Some(p);
            return Some(1);
        }
        if depth < 2 {
            return None;
        }
        five_points(board, d, &mut buf);
        let mut cands = Vec::new();
        board.candidates(&mut cands);
        let moves: Vec<Cell> = match buf.len() {
            0 => {
                // A straight four or two fours wins at once.
                let mut fours = Vec::new();
                four_moves(board, a, &cands, &mut fours);
                if let Some(&m) = fours
                    .iter()
                    .find(|&&m| board.combo(m, a) == crate::gomoku::patterns::Combo::Flex4)
                {
                    *first = Some(m);
                    return Some(2);
                }
                if depth < 3 {
                    fours
                } else {
                    let mut t = Vec::new();
                    threat_moves(board, a, &cands, &mut t);
                    t
                }
            }
            1 if legal(board, buf[0], a) => vec![buf[0]],
            _ => return None,
        };
        if moves.is_empty() {
            return None;
        }
        let key = board.hash() ^ self.salt;
        if self.cache.failed(key, depth) {
            return None;
        }
        let mut moves = moves;
        order(board, a, &mut moves);
        for m in moves {
            let dirs: Vec<usize> = (0..4)
                .filter(|&k| board.pattern(m, a, k).fours() > 0)
                .collect();
            board.make(m);
            let r = self.defend(board, depth - 1, &dirs, m);
            board.unmake();
            if let Some(n) = r {
                *first = Some(m);
                return Some(n + 1);
            }
            if self.aborted {
                return None;
            }
        }
        self.cache.record(key, depth);
        None
    }

    /// Defender to move after the attacker's `m` (fours in `dirs`), `depth` attacker
    /// moves left: the attacker's moves to the five against the best defence.
    fn defend(&mut self, board: &mut Board, depth: u32, dirs: &[usize], m: Cell) -> Option<u32> {
        if self.tick() {
            return None;
        }
        let d = board.to_move();
        let a = d.opponent();
        let blocks: Vec<Cell> = dirs
            .iter()
            .filter_map(|&k| block_of_four(board, m, k, a))
            .collect();
        let mut fives = Vec::new();
        five_points(board, a, &mut fives);
        if fives.len() >= 2 {
            return Some(1);
        }
        if let Some(&b) = fives.first().or(blocks.first()) {
            if !legal(board, b, d) {
                return Some(1);
            }
            board.make(b);
            let mut first = None;
            let r = self.attack(board, depth, &mut first);
            board.unmake();
            return r;
        }
        let mut cands = Vec::new();
        board.candidates(&mut cands);
        if !has_flex4_threat(board, a, &cands) {
            return None;
        }
        let mut replies = Vec::new();
        defences(board, d, &cands, &mut replies);
        if replies.is_empty() {
            return Some(2);
        }
        // Refutations first: the defender's strongest points.
        replies.sort_by_key(|&c| -(board.value(c, d) + board.value(c, a)));
        let mut worst = 0;
        for r in replies {
            board.make(r);
            let mut first = None;
            let res = self.attack(board, depth, &mut first);
            board.unmake();
            match res {
                Some(n) => worst = worst.max(n),
                None => return None,
            }
        }
        Some(worst)
    }
}

/// Attacking moves: fours before threes, then by point value.
fn order(board: &Board, color: crate::gomoku::point::Color, moves: &mut [Cell]) {
    moves.sort_by_key(|&c| {
        let combo = board.combo(c, color) as i32;
        combo * 10_000 - board.value(c, color) - board.value(c, color.opponent()) / 2
    });
}
