//! Principal variation search (PVS) with iterative deepening, the transposition table,
//! threat-space move generation and a quiescence that follows fours.
//!
//! # Model
//!
//! Every node first settles the forced facts from the patterns: a five point of the
//! side to move wins; two opponent five points lose; one must be blocked (the only
//! move, searched without spending depth); a straight-four or double-four point of the
//! side to move wins in three plies. Against an opponent's open three (a straight-four
//! threat) only the defences and our own fours are searched ([`super::threats`]); the
//! rest of the time the candidate area (points within two of a stone) is searched in
//! the order of the move picker ([`super::movepick`]). Late quiet moves are searched
//! with a reduced depth first (late move reductions), and re-searched at full depth
//! when they surprise. At depth 0 the quiescence search stands pat on the static
//! evaluation or plays on with the side to move's fours (each answered by its forced
//! block), so that every VCF within its horizon is seen.

use std::time::Instant;

use crate::gomoku::board::{Board, CELLS, Cell};
use crate::gomoku::patterns::Combo;
use crate::gomoku::point::Color;

use super::eval::evaluate;
use super::movepick::{MovePicker, quiet_score};
use super::score::{INFINITE, loss_in, win_in};
use super::threats::{defences, five_points, four_moves, has_flex4_threat, legal};
use super::tt::{Bound, TranspositionTable};

/// Deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 96;
/// Quiescence plies beyond the horizon (fours and their blocks).
const QUIESCENCE_PLIES: i32 = 16;

/// The state of one search: the board, the tables and the counters.
pub struct Search<'a> {
    pub board: &'a mut Board,
    pub tt: &'a mut TranspositionTable,
    pub nodes: u64,
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub stopped: bool,
    pub seldepth: usize,
    killers: [[Cell; 2]; MAX_PLY],
    history: Box<[[i32; CELLS]; 2]>,
    pv: Box<[[Cell; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    buffers: Vec<Vec<Cell>>,
}

const NO_CELL: Cell = 0;

impl<'a> Search<'a> {
    /// A search on `board` with table `tt`.
    pub fn new(board: &'a mut Board, tt: &'a mut TranspositionTable) -> Search<'a> {
        Search {
            board,
            tt,
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            stopped: false,
            seldepth: 0,
            killers: [[NO_CELL; 2]; MAX_PLY],
            history: Box::new([[0; CELLS]; 2]),
            pv: Box::new([[NO_CELL; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            buffers: (0..MAX_PLY * 2).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> &[Cell] {
        &self.pv[0][..self.pv_len[0]]
    }

    fn check_limits(&mut self) {
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
    }

    fn take(&mut self, i: usize) -> Vec<Cell> {
        std::mem::take(&mut self.buffers[i])
    }

    fn put_back(&mut self, i: usize, v: Vec<Cell>) {
        self.buffers[i] = v;
    }

    fn set_pv(&mut self, ply: usize, m: Cell) {
        self.pv[ply][ply] = m;
        let child_len = if ply + 1 < MAX_PLY {
            self.pv_len[ply + 1].max(ply + 1)
        } else {
            ply + 1
        };
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn set_pv_single(&mut self, ply: usize, m: Cell) {
        self.pv[ply][ply] = m;
        self.pv_len[ply] = ply + 1;
    }

    /// The forced facts of a node. `Ok(Some(cell))`: the only move (a block);
    /// `Ok(None)`: nothing forced; `Err(score)`: the node's value is known.
    fn forced(&mut self, ply: usize) -> Result<Option<Cell>, i32> {
        let us = self.board.to_move();
        let them = us.opponent();
        let mut fives = self.take(2 * ply);
        five_points(self.board, us, &mut fives);
        if let Some(&p) = fives.first() {
            self.set_pv_single(ply, p);
            self.put_back(2 * ply, fives);
            return Err(win_in(ply as i32 + 1));
        }
        five_points(self.board, them, &mut fives);
        let result = match fives.as_slice() {
            [] => {
                if self.board.combo_count(us, Combo::Flex4) > 0 {
                    let c = self.find_flex4(us);
                    match c {
                        Some(c) => {
                            self.set_pv_single(ply, c);
                            Err(win_in(ply as i32 + 3))
                        }
                        None => Ok(None),
                    }
                } else {
                    Ok(None)
                }
            }
            [p] => {
                let p = *p;
                if legal(self.board, p, us) {
                    Ok(Some(p))
                } else {
                    self.pv_len[ply] = ply;
                    Err(loss_in(ply as i32 + 2))
                }
            }
            [p, ..] => {
                self.set_pv_single(ply, *p);
                Err(loss_in(ply as i32 + 2))
            }
        };
        self.put_back(2 * ply, fives);
        result
    }

    fn find_flex4(&mut self, us: Color) -> Option<Cell> {
        let mut cands = Vec::new();
        self.board.candidates(&mut cands);
        cands
            .into_iter()
            .find(|&c| self.board.combo(c, us) == Combo::Flex4)
    }

    /// Alpha-beta (PVS) with `depth` plies left at `ply` from the root.
    pub fn pvs(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.board.is_full() {
            return 0;
        }
        // Mate-distance pruning.
        alpha = alpha.max(loss_in(ply as i32));
        beta = beta.min(win_in(ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        let forced = match self.forced(ply) {
            Err(score) => return score,
            Ok(f) => f,
        };
        if ply + 2 >= MAX_PLY {
            return evaluate(self.board);
        }
        let key = self.board.hash();
        let hit = self.tt.probe(key, ply as i32);
        let mut tt_move = None;
        if let Some(h) = hit {
            tt_move = h.mv.filter(|&m| self.board.is_empty(m));
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }
        if depth <= 0 && forced.is_none() {
            return self.quiescence(alpha, beta, ply, 0);
        }
        let us = self.board.to_move();
        let them = us.opponent();
        let mut moves = self.take(2 * ply);
        let mut cands = self.take(2 * ply + 1);
        let mut new_depth = depth - 1;
        let mut restricted = false;
        if let Some(p) = forced {
            moves.clear();
            moves.push(p);
            // A forced block spends no depth.
            new_depth = depth;
        } else {
            self.board.candidates(&mut cands);
            if has_flex4_threat(self.board, them, &cands) {
                defences(self.board, us, &cands, &mut moves);
                restricted = true;
            }
            if moves.is_empty() {
                restricted = false;
                moves.clear();
                for &c in &cands {
                    if legal(self.board, c, us) {
                        moves.push(c);
                    }
                }
            }
        }
        if moves.is_empty() {
            // Black under RENJU with every point forbidden: no move; count it a loss.
            self.put_back(2 * ply, moves);
            self.put_back(2 * ply + 1, cands);
            return loss_in(ply as i32 + 2);
        }
        let static_eval = hit.map(|h| h.eval).unwrap_or_else(|| evaluate(self.board));
        let picker = MovePicker::new(
            self.board,
            &moves,
            tt_move,
            self.killers[ply],
            &self.history[us.index()],
        );
        let ordered = picker.into_sorted();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        for (i, &(m, score_hint)) in ordered.iter().enumerate() {
            let quiet = score_hint < quiet_score::THREAT_FLOOR;
            self.board.make(m);
            let mut score;
            if i == 0 {
                score = -self.pvs(-beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                let reduction = if !restricted && quiet && depth >= 3 && i >= 3 && forced.is_none()
                {
                    let r = 1 + (i >= 8) as i32 + (depth >= 8 && i >= 16) as i32;
                    r.min(new_depth - 1).max(0)
                } else {
                    0
                };
                score = -self.pvs(-alpha - 1, -alpha, new_depth - reduction, ply + 1, false);
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.pvs(-alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.pvs(-beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.board.unmake();
            if self.stopped {
                self.put_back(2 * ply, moves);
                self.put_back(2 * ply + 1, cands);
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let h = &mut self.history[us.index()][m];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        self.put_back(2 * ply, moves);
        self.put_back(2 * ply + 1, cands);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, ply as i32, best_move, best, bound, depth, static_eval);
        best
    }

    /// Quiescence: stand pat, or play on with fours.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.board.is_full() {
            return 0;
        }
        let forced = match self.forced(ply) {
            Err(score) => return score,
            Ok(f) => f,
        };
        if ply + 2 >= MAX_PLY {
            return evaluate(self.board);
        }
        if let Some(p) = forced {
            self.board.make(p);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.board.unmake();
            if !self.stopped && score > alpha {
                self.set_pv(ply, p);
            }
            return score;
        }
        let stand = evaluate(self.board);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        if qply >= QUIESCENCE_PLIES {
            return stand;
        }
        let us = self.board.to_move();
        let mut moves = self.take(2 * ply);
        let mut cands = self.take(2 * ply + 1);
        self.board.candidates(&mut cands);
        four_moves(self.board, us, &cands, &mut moves);
        moves.sort_by_key(|&c| (self.board.combo(c, us) as i32) * 10_000 - self.board.value(c, us));
        let mut best = stand;
        for &m in &moves {
            self.board.make(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.board.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.put_back(2 * ply, moves);
        self.put_back(2 * ply + 1, cands);
        best
    }

    /// Searches the root moves `moves` (in order) to `depth` with the window
    /// (`alpha`, `beta`); returns the best score and move, and updates the scores in
    /// `scores` (exact for the best, bounds for the rest). `None` when stopped before
    /// the first move finished.
    pub fn root(
        &mut self,
        moves: &mut [(Cell, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Cell)> {
        let mut best: Option<(i32, Cell)> = None;
        self.pv_len[0] = 0;
        self.nodes += 1;
        for (i, entry) in moves.iter_mut().enumerate() {
            let m = entry.0;
            self.board.make(m);
            let mut score;
            if i == 0 {
                score = -self.pvs(-beta, -alpha, depth - 1, 1, true);
            } else {
                score = -self.pvs(-alpha - 1, -alpha, depth - 1, 1, false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.pvs(-beta, -alpha, depth - 1, 1, true);
                }
            }
            self.board.unmake();
            if self.stopped {
                break;
            }
            entry.1 = score;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, m));
                if score > alpha {
                    alpha = score;
                }
                self.set_pv(0, m);
                if score >= beta {
                    break;
                }
            } else {
                // Keep the order stable below the best: a fail-low bound.
                entry.1 = score.min(alpha);
            }
        }
        best
    }
}
