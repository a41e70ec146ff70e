//! The root: its candidate moves, iterative deepening over them, and their ranking.
//!
//! Each iteration searches every root move to one ply more ([`Search::root`]), in the
//! order the last one left them (its best first, the rest by their scores). What the
//! search knows of each move is kept with it ([`RootMove`]): the score, the iteration
//! it is from and whether it is exact or a bound. When the time ends inside an
//! iteration, the moves it reached carry its depth and the rest the depth before, so
//! the ranking ([`rank`]) lists the chosen move first, then the others of its depth by
//! score, then those of the depth before by score: scores of two depths are never
//! compared.

use std::cmp::Reverse;
use std::time::Instant;

use crate::gomoku::board::{Board, Cell, point_of};

use super::alphabeta::Search;
use super::limits::{Limits, slice};
use super::result::{Bound, ScoredMove};
use super::score::{INFINITE, is_decisive};
use super::threats::{defences, has_flex4_threat, legal};
use super::tt::TranspositionTable;
use super::vcf::{FailCache, Vcf};
use super::{Params, movepick, quick_score};

/// A root move and what the search knows of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub cell: Cell,
    /// Its score at `depth` (exact or a bound, `bound`); also the order of the next
    /// iteration.
    pub score: i32,
    /// The iteration the score is from (0: not searched yet).
    pub depth: i32,
    /// What the score says.
    pub bound: Bound,
}

impl RootMove {
    /// A move no iteration has reached.
    pub fn unsearched(cell: Cell) -> RootMove {
        RootMove {
            cell,
            score: -INFINITE,
            depth: 0,
            bound: Bound::Upper,
        }
    }
}

/// What the iterations found.
pub(super) struct Deepened {
    /// The move and its score (from the deepest iteration that finished a move).
    pub best: (Cell, i32),
    /// The principal variation, from `best`.
    pub pv: Vec<Cell>,
    /// The deepest iteration finished.
    pub depth_done: u32,
    /// Whether the depth limit was reached or a win or loss proven.
    pub exact: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// The root moves ranked (see [`rank`]).
    pub ranked: Vec<ScoredMove>,
}

/// The root's candidate moves when nothing is forced: the defences against an
/// opponent's open three, else the candidate area, else any legal move
/// (`legal_moves`); with [`Params::root_vcf_defence`], only those that stop the
/// opponent's VCF (when some do). Also the nodes spent.
pub(super) fn candidates(
    board: &mut Board,
    cache: &mut FailCache,
    params: &Params,
    legal_moves: Vec<Cell>,
    start: Instant,
    limits: &Limits<'_>,
) -> (Vec<Cell>, u64) {
    let us = board.to_move();
    let mut cands = Vec::new();
    board.candidates(&mut cands);
    let mut moves = Vec::new();
    if has_flex4_threat(board, us.opponent(), &cands) {
        defences(board, us, &cands, &mut moves);
    }
    if moves.is_empty() {
        moves = cands.into_iter().filter(|&c| legal(board, c, us)).collect();
    }
    if moves.is_empty() {
        moves = legal_moves;
    }
    let mut nodes = 0;
    if params.root_vcf_defence {
        let (kept, spent) = stop_vcf(board, cache, &moves, start, limits);
        nodes = spent;
        if !kept.is_empty() {
            moves = kept;
        }
    }
    (moves, nodes)
}

/// Iterative deepening over `root_cells` until the limits (`nodes_used` already spent
/// by the earlier stages).
pub(super) fn deepen(
    board: &mut Board,
    tt: &mut TranspositionTable,
    params: Params,
    root_cells: &[Cell],
    limits: &Limits<'_>,
    start: Instant,
    nodes_used: u64,
) -> Deepened {
    let mut root: Vec<RootMove> = movepick::sorted(board, root_cells)
        .into_iter()
        .map(|(c, _)| RootMove::unsearched(c))
        .collect();
    let soft = limits.soft_deadline.or_else(|| {
        limits
            .deadline
            .map(|d| start + d.saturating_duration_since(start) * params.soft_percent / 100)
    });
    let mut search = Search::new(board, tt, params);
    search.clock = limits.clock(limits.deadline);
    search.max_nodes = limits
        .max_nodes
        .unwrap_or(u64::MAX)
        .saturating_sub(nodes_used);
    let mut best = (root[0].cell, -INFINITE);
    limits.publish(best.0);
    let mut pv = vec![root[0].cell];
    let mut depth_done = 0;
    let mut exact = false;
    for depth in 1..=limits.max_depth.max(1) as i32 {
        if let Some((score, m)) = search.root(&mut root, depth, -INFINITE, INFINITE) {
            best = (m, score);
            limits.publish(m);
            pv = search.pv().to_vec();
            if !search.stopped {
                depth_done = depth as u32;
            }
        }
        if search.stopped {
            break;
        }
        // Best first, the rest by their bounds (stable).
        root.sort_by_key(|r| Reverse(if r.cell == best.0 { INFINITE } else { r.score }));
        if is_decisive(best.1) {
            exact = true;
            break;
        }
        if depth as u32 == limits.max_depth {
            exact = true;
        }
        if soft.is_some_and(|s| Instant::now() >= s) {
            break;
        }
        if root.len() == 1 && depth >= 8 {
            // A forced move: its score is all that is left to learn.
            break;
        }
    }
    let (nodes, seldepth) = (search.nodes, search.seldepth as u32);
    if best.1 == -INFINITE {
        // No iteration finished a move: the move picker's first, scored statically.
        best.1 = quick_score(board, best.0);
    }
    if pv.first() != Some(&best.0) {
        pv = vec![best.0];
    }
    Deepened {
        best,
        pv,
        depth_done,
        exact,
        nodes,
        seldepth,
        ranked: rank(&root, best),
    }
}

/// The root moves best first: `best` (with its score), then the others of its depth by
/// score, then the others of shallower depths by depth and score; moves no iteration
/// reached are left out.
pub fn rank(root: &[RootMove], best: (Cell, i32)) -> Vec<ScoredMove> {
    let scored = |r: &RootMove| ScoredMove {
        point: point_of(r.cell),
        score: r.score,
        depth: r.depth.max(0) as u32,
        bound: r.bound,
    };
    let chosen = match root.iter().find(|r| r.cell == best.0) {
        Some(r) if r.depth > 0 => ScoredMove {
            score: best.1,
            ..scored(r)
        },
        _ => ScoredMove {
            point: point_of(best.0),
            score: best.1,
            depth: 0,
            bound: Bound::Exact,
        },
    };
    let mut others: Vec<&RootMove> = root
        .iter()
        .filter(|r| r.depth > 0 && r.cell != best.0)
        .collect();
    others.sort_by_key(|r| Reverse((r.depth, r.score)));
    std::iter::once(chosen)
        .chain(others.into_iter().map(scored))
        .collect()
}

/// When the opponent has a VCF (found by passing the move), the moves of `moves` after
/// which it has none (within the limits); empty when it has none to begin with, or when
/// no move stops it. Also the nodes spent.
fn stop_vcf(
    board: &mut Board,
    cache: &mut FailCache,
    moves: &[Cell],
    start: Instant,
    limits: &Limits<'_>,
) -> (Vec<Cell>, u64) {
    let deadline = limits.deadline;
    let mut nodes = 0;
    board.pass();
    let threat = {
        let mut vcf = Vcf::new(cache, 20_000)
            .with_deadline(slice(start, deadline, 8))
            .with_stop(limits.stop)
            .with_pace(limits.pace);
        let line = vcf.solve(board, 30);
        nodes += vcf.nodes;
        line
    };
    board.pass();
    if threat.is_none() {
        return (Vec::new(), nodes);
    }
    let until = slice(start, deadline, 4);
    let clock = limits.clock(until);
    let mut kept = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        if clock.expired() {
            // Out of time for the check: keep the rest unchecked.
            kept.extend_from_slice(&moves[i..]);
            break;
        }
        board.make(m);
        let mut vcf = Vcf::new(cache, 4_000)
            .with_deadline(until)
            .with_stop(limits.stop)
            .with_pace(limits.pace);
        let refuted = vcf.solve(board, 30).is_some();
        nodes += vcf.nodes;
        board.unmake();
        if !refuted {
            kept.push(m);
        }
    }
    (kept, nodes)
}
