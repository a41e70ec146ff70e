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

use crate::gomoku::board::{Board, CELLS, Cell};
use crate::gomoku::patterns::Combo;
use crate::gomoku::point::Color;

use super::Params;
use super::eval::{evaluate_learned, evaluate_threats, evaluate_with};
use super::limits::Clock;
use super::movepick::{quiet_score, score_moves, select, sort_cells_by_key};
use super::root::RootMove;
use super::score::{INFINITE, WIN_MIN, loss_in, win_in};
use super::threats::{defences, five_points, four_moves, has_flex4_threat, legal};
use super::tt::{Bound, Hit, TranspositionTable};

/// Deepest ply the search reaches (main search plus quiescence).
pub const MAX_PLY: usize = 96;

/// The state of one search: the board, the tables and the counters.
pub struct Search<'a> {
    pub board: &'a mut Board,
    pub tt: &'a mut TranspositionTable,
    pub nodes: u64,
    pub max_nodes: u64,
    /// The deadline and stop flag, read every few nodes ([`super::limits`]).
    pub clock: Clock<'a>,
    pub stopped: bool,
    pub seldepth: usize,
    killers: [[Cell; 2]; MAX_PLY],
    history: Box<[[i32; CELLS]; 2]>,
    pv: Box<[[Cell; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    buffers: Vec<Vec<Cell>>,
    scored: Vec<Vec<(Cell, i32)>>,
    params: Params,
    /// The depth of the iteration under way (bounds the threat extension).
    root_depth: i32,
}

const NO_CELL: Cell = 0;

impl<'a> Search<'a> {
    /// A search on `board` with table `tt`.
    pub fn new(board: &'a mut Board, tt: &'a mut TranspositionTable, params: Params) -> Search<'a> {
        Search {
            board,
            tt,
            nodes: 0,
            max_nodes: u64::MAX,
            clock: Clock::none(),
            stopped: false,
            seldepth: 0,
            killers: [[NO_CELL; 2]; MAX_PLY],
            history: Box::new([[0; CELLS]; 2]),
            pv: Box::new([[NO_CELL; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            buffers: (0..MAX_PLY * 2).map(|_| Vec::with_capacity(64)).collect(),
            scored: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            params,
            root_depth: 0,
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
        if self.clock.expired_at(self.nodes) {
            self.stopped = true;
        }
    }

    fn eval(&self) -> i32 {
        if self.params.learned_eval {
            evaluate_learned(self.board)
        } else if self.params.eval_threats {
            evaluate_threats(self.board, self.params.defence_weight)
        } else {
            evaluate_with(self.board, self.params.defence_weight)
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

    fn find_flex4(&self, us: Color) -> Option<Cell> {
        self.board
            .candidate_cells()
            .find(|&c| self.board.combo(c, us) == Combo::Flex4)
    }

    /// Alpha-beta (PVS) with `depth` plies left at `ply` from the root, in stages: the
    /// node's settled facts, the table, the moves, null move, then the moves in the
    /// picker's order.
    pub fn pvs(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let forced = match self.enter(&mut alpha, &mut beta, ply) {
            Ok(forced) => forced,
            Err(score) => return score,
        };
        let key = self.board.hash();
        let hit = self.tt.probe(key, ply as i32);
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| self.board.is_empty(m));
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
            && table_cuts(&h, alpha, beta)
        {
            return h.score;
        }
        if depth <= 0 && forced.is_none() {
            return self.quiescence(alpha, beta, ply, 0);
        }
        let mut moves = self.take(2 * ply);
        let restricted = self.node_moves(forced, ply, &mut moves);
        // A forced block spends no depth; nor, with the threat extension, the answer to
        // an open three within twice the iteration's depth.
        let extended =
            self.params.threat_extension && restricted && (ply as i32) <= 2 * self.root_depth;
        let node = Node {
            depth,
            ply,
            pv_node,
            new_depth: if forced.is_some() || extended {
                depth
            } else {
                depth - 1
            },
            restricted,
            forced: forced.is_some(),
            static_eval: 0,
        };
        if moves.is_empty() {
            // Black under RENJU with every point forbidden: no move; count it a loss.
            self.put_back(2 * ply, moves);
            return loss_in(ply as i32 + 2);
        }
        let static_eval = hit.map(|h| h.eval).unwrap_or_else(|| self.eval());
        let node = Node {
            static_eval,
            ..node
        };
        if let Some(score) = self.null_move(&node, beta, static_eval) {
            self.put_back(2 * ply, moves);
            return score;
        }
        let us = self.board.to_move();
        let mut ordered = std::mem::take(&mut self.scored[ply]);
        score_moves(
            self.board,
            &moves,
            tt_move,
            self.killers[ply],
            &self.history[us.index()],
            &mut ordered,
        );
        self.put_back(2 * ply, moves);
        let best = self.search_moves(&node, &mut ordered, alpha, beta);
        self.scored[ply] = ordered;
        let (best, best_move) = match best {
            Some(best) => best,
            None => return 0,
        };
        let bound = Bound::of(best, alpha, beta);
        self.tt
            .store(key, ply as i32, best_move, best, bound, depth, static_eval);
        best
    }

    /// A node's first stage: counts it, reads the clock, narrows the window to the
    /// mate distances and settles the forced facts. `Err(score)` when that decides the
    /// node (0 when stopped); else the forced block, if any.
    fn enter(&mut self, alpha: &mut i32, beta: &mut i32, ply: usize) -> Result<Option<Cell>, i32> {
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return Err(0);
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.board.is_full() {
            return Err(0);
        }
        // Mate-distance pruning.
        *alpha = (*alpha).max(loss_in(ply as i32));
        *beta = (*beta).min(win_in(ply as i32 + 1));
        if *alpha >= *beta {
            return Err(*alpha);
        }
        let forced = self.forced(ply)?;
        if ply + 2 >= MAX_PLY {
            return Err(self.eval());
        }
        Ok(forced)
    }

    /// The node's moves into `moves`: the forced block alone; or, against the
    /// opponent's open three, the defences (then `true`: the node is restricted); or
    /// every legal point of the candidate area.
    fn node_moves(&mut self, forced: Option<Cell>, ply: usize, moves: &mut Vec<Cell>) -> bool {
        moves.clear();
        if let Some(p) = forced {
            moves.push(p);
            return false;
        }
        let us = self.board.to_move();
        let mut cands = self.take(2 * ply + 1);
        self.board.candidates(&mut cands);
        let mut restricted = false;
        if has_flex4_threat(self.board, us.opponent(), &cands) {
            defences(self.board, us, &cands, moves);
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
        self.put_back(2 * ply + 1, cands);
        restricted
    }

    /// Null move: with nothing threatened, if passing still holds beta, the node is
    /// good enough. Not when the opponent has any four or straight-four point. The
    /// node's value when it applies (0 when stopped).
    fn null_move(&mut self, node: &Node, beta: i32, static_eval: i32) -> Option<i32> {
        let them = self.board.to_move().opponent();
        let applies = self.params.null_move
            && !node.pv_node
            && !node.forced
            && !node.restricted
            && node.depth >= 3
            && static_eval >= beta
            && beta.abs() < WIN_MIN
            && self.board.stone_count() >= 6
            && !self.board.has_combo_at_least(them, Combo::Four);
        if !applies {
            return None;
        }
        let r = 2 + node.depth / 4;
        self.board.pass();
        let score = -self.pvs(-beta, -beta + 1, node.depth - 1 - r, node.ply + 1, false);
        self.board.pass();
        if self.stopped {
            Some(0)
        } else if score >= beta {
            Some(if score >= WIN_MIN { beta } else { score })
        } else {
            None
        }
    }

    /// The node's moves in the picker's order (`ordered`, selected as they are
    /// searched), with late move pruning and reductions: the best score and move, or
    /// `None` when stopped.
    fn search_moves(
        &mut self,
        node: &Node,
        ordered: &mut [(Cell, i32)],
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Option<Cell>)> {
        let us = self.board.to_move();
        let mut best = -INFINITE;
        let mut best_move = None;
        for i in 0..ordered.len() {
            select(ordered, i);
            let (m, score_hint) = ordered[i];
            let quiet = score_hint < quiet_score::THREAT_FLOOR;
            if quiet && (self.late_move_pruned(node, i, best) || self.futile(node, alpha, best)) {
                continue;
            }
            let reduction = if quiet {
                reduction(node, i, self.params.lmr_divisor)
            } else {
                0
            };
            self.board.make(m);
            let score = self.search_child(node, i, alpha, beta, reduction);
            self.board.unmake();
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.set_pv(node.ply, m);
                    if score >= beta {
                        if quiet {
                            self.reward_cutoff(node, us, m);
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// Late move pruning: a quiet move this far down the order at a shallow depth of a
    /// non-PV node is not searched.
    fn late_move_pruned(&self, node: &Node, i: usize, best: i32) -> bool {
        !node.pv_node
            && !node.restricted
            && node.depth <= self.params.lmp_depth
            && i >= self.params.lmp_base + self.params.lmp_step * node.depth as usize
            && best > -WIN_MIN
    }

    /// Futility pruning: a quiet move at a non-PV node one or two plies from the
    /// horizon, whose static evaluation is so far below alpha that a quiet move is not
    /// expected to lift it, is not searched (once some move has been).
    fn futile(&self, node: &Node, alpha: i32, best: i32) -> bool {
        let margin = self.params.futility_margin;
        margin > 0
            && !node.pv_node
            && !node.restricted
            && !node.forced
            && node.depth <= 2
            && best > -WIN_MIN
            && alpha.abs() < WIN_MIN
            && node.static_eval + margin * node.depth <= alpha
    }

    /// The `i`-th move's score (the move made): the first with the full window, the
    /// rest with a null window (reduced by `reduction`, re-searched at full depth when
    /// they surprise) and re-searched with the full window at a PV node when they fall
    /// inside it.
    fn search_child(
        &mut self,
        node: &Node,
        i: usize,
        alpha: i32,
        beta: i32,
        reduction: i32,
    ) -> i32 {
        let (depth, ply) = (node.new_depth, node.ply + 1);
        if i == 0 {
            return -self.pvs(-beta, -alpha, depth, ply, node.pv_node);
        }
        let mut score = -self.pvs(-alpha - 1, -alpha, depth - reduction, ply, false);
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.pvs(-alpha - 1, -alpha, depth, ply, false);
        }
        if score > alpha && score < beta && node.pv_node && !self.stopped {
            score = -self.pvs(-beta, -alpha, depth, ply, true);
        }
        score
    }

    /// A quiet move that cut off: a killer of its ply, and its history grows.
    fn reward_cutoff(&mut self, node: &Node, us: Color, m: Cell) {
        let killers = &mut self.killers[node.ply];
        if killers[0] != m {
            killers[1] = killers[0];
            killers[0] = m;
        }
        let h = &mut self.history[us.index()][m];
        *h = (*h + node.depth * node.depth).min(1 << 20);
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
            return self.eval();
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
        let key = self.board.hash();
        if let Some(h) = self.tt.probe(key, ply as i32)
            && table_cuts(&h, alpha, beta)
            && h.depth >= 0
        {
            return h.score;
        }
        let original_alpha = alpha;
        let us = self.board.to_move();
        let mut moves = self.take(2 * ply);
        let mut cands = self.take(2 * ply + 1);
        self.board.candidates(&mut cands);
        // Against an open three, standing pat would assume a free move: defend instead
        // (our fours are among the defences).
        let in_check = self.params.qs_defend
            && qply < self.params.qs_check_plies
            && has_flex4_threat(self.board, us.opponent(), &cands);
        let stand = if in_check { -INFINITE } else { self.eval() };
        if stand >= beta || (!in_check && qply >= self.params.qs_plies) {
            self.put_back(2 * ply, moves);
            self.put_back(2 * ply + 1, cands);
            return stand;
        }
        alpha = alpha.max(stand);
        if in_check {
            defences(self.board, us, &cands, &mut moves);
            if moves.is_empty() {
                // Nothing stops the straight four: it comes next, then the five.
                self.put_back(2 * ply, moves);
                self.put_back(2 * ply + 1, cands);
                return loss_in(ply as i32 + 4);
            }
        } else {
            four_moves(self.board, us, &cands, &mut moves);
        }
        // Strongest class first, then the higher value (the ply's picker buffer is free:
        // no main-search node shares the ply).
        let mut keyed = std::mem::take(&mut self.scored[ply]);
        let board = &*self.board;
        sort_cells_by_key(&mut moves, &mut keyed, |c| {
            (board.combo(c, us) as i32) * 10_000 - board.value(c, us)
        });
        self.scored[ply] = keyed;
        let mut best = stand;
        let mut best_move = None;
        for &m in &moves {
            self.board.make(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.board.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
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
        if !self.stopped {
            let bound = Bound::of(best, original_alpha, beta);
            self.tt
                .store(key, ply as i32, best_move, best, bound, 0, best);
        }
        best
    }

    /// Searches the root moves `moves` (in order) to `depth` with the window
    /// (`alpha`, `beta`); returns the best score and move, and updates what each move
    /// reached knows (its score, this depth, and whether the score is exact or a
    /// bound; see [`RootMove`]). `None` when stopped before the first move finished.
    pub fn root(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Cell)> {
        let mut best: Option<(i32, Cell)> = None;
        self.pv_len[0] = 0;
        self.nodes += 1;
        self.root_depth = depth;
        for (i, entry) in moves.iter_mut().enumerate() {
            let m = entry.cell;
            let window = alpha;
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
            entry.score = score;
            entry.depth = depth;
            if best.is_none_or(|(b, _)| score > b) {
                entry.bound = Bound::of(score, window, beta);
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
                entry.score = score.min(alpha);
                entry.bound = Bound::Upper;
            }
        }
        best
    }
}

/// What a node's move loop needs to know of the node.
struct Node {
    /// Plies left.
    depth: i32,
    /// Plies from the root.
    ply: usize,
    /// Whether the node is on the principal variation (searched with a full window).
    pv_node: bool,
    /// The children's depth (a forced block spends none).
    new_depth: i32,
    /// Whether only the defences against an open three are searched.
    restricted: bool,
    /// Whether the move is a forced block.
    forced: bool,
    /// The static evaluation of the node (for futility pruning).
    static_eval: i32,
}

/// Late move reduction of the `i`-th move when it is quiet: none for the first three,
/// at shallow depths, for forced or restricted nodes; more further down the order (in
/// fixed steps, or by the logarithmic rule with `divisor`, [`Params::lmr_divisor`]).
fn reduction(node: &Node, i: usize, divisor: i32) -> i32 {
    if !node.restricted && node.depth >= 3 && i >= 3 && !node.forced {
        let r = if divisor > 0 {
            let lr = (node.depth as f64).ln() * ((i + 1) as f64).ln() * 100.0;
            (lr / f64::from(divisor)) as i32
        } else {
            1 + (i >= 8) as i32 + (node.depth >= 8 && i >= 16) as i32
        };
        r.min(node.new_depth - 1).max(0)
    } else {
        0
    }
}

/// Whether a table entry decides a node searched with (`alpha`, `beta`).
fn table_cuts(h: &Hit, alpha: i32, beta: i32) -> bool {
    match h.bound {
        Bound::Exact => true,
        Bound::Lower => h.score >= beta,
        Bound::Upper => h.score <= alpha,
    }
}
