//! The search: the next move for the side to move, with its score, principal variation
//! and, when a win is proven, its length.
//!
//! # Model
//!
//! A move is chosen in stages, each exact where it answers (Rapfi's and other classical
//! Gomocup engines' public descriptions give the shape; the code is ours):
//!
//! 1. **Forced facts** from the patterns: a five point of the side to move is played
//!    (win in one); an opponent's five point is blocked (two cannot be, and black's only
//!    block may be forbidden under RENJU: the answer is then a legal move with a proven
//!    loss); a position with one legal move plays it.
//! 2. **VCF** ([`vcf`]): continuous fours, exact within its node limit.
//! 3. **VCT** ([`vct`]): continuous fours and threes against every defence, within a
//!    node limit and a slice of the time.
//! 4. **Alpha-beta** ([`alphabeta`]): PVS with iterative deepening, a Zobrist
//!    transposition table ([`tt`]), the move picker ([`movepick`]), threat-space pruning
//!    of candidates ([`threats`]) and a quiescence that follows fours; the static
//!    evaluation is [`eval`]. It stops at the deadline with the best move of the last
//!    completed depth (or of the unfinished one, when its first move was searched).
//!    The root moves are ranked by what each iteration knows of them ([`root`]).
//!
//! Every stage reads the clock and the stop flag at its entry and every few nodes
//! ([`limits`]), so that the search stops within a few milliseconds of CPU time of its
//! deadline however small its thread's share of the machine.
//!
//! Every answer is an empty point, and never a point forbidden to black under RENJU.
//! Memory: the transposition table and the threat solvers' cache are drawn from the
//! process-wide engine budget ([`crate::memory_budget`]) before they are allocated, and
//! shrink when the budget refuses ([`Searcher::new`]).
//!
//! # Use
//!
//! ```
//! use std::time::{Duration, Instant};
//! use gameai::gomoku::{Board, Rule};
//! use gameai::gomoku::search::{Limits, Searcher};
//!
//! let moves = gameai::gomoku::point::parse_sequence("h8i9h9").unwrap();
//! let mut board = Board::from_moves(15, Rule::Renju, &moves).unwrap();
//! let mut searcher = Searcher::new(16 << 20);
//! let limits = Limits::until(Instant::now() + Duration::from_millis(100));
//! let answer = searcher.search(&mut board, &limits).unwrap();
//! assert!(board.stone(answer.best).is_none());
//! ```

pub mod alphabeta;
pub mod eval;
pub mod limits;
pub mod movepick;
pub mod params;
pub mod result;
pub mod root;
pub mod score;
pub mod threats;
pub mod tt;
pub mod vcf;
pub mod vct;

use std::time::Instant;

use crate::gomoku::board::{Board, Cell};
use crate::gomoku::error::GomokuError;
use crate::gomoku::point::Point;
use crate::memory_budget::{MemoryBudget, Reservation};

pub use limits::Limits;
use limits::slice;
pub use params::Params;
use result::Answer;
pub use result::{Bound, Reason, ScoredMove, SearchResult};
use score::{is_decisive, loss_in, win_in};
use threats::{five_points, legal};
use tt::TranspositionTable;
use vcf::{FailCache, Vcf};
use vct::Vct;

/// Bytes of the threat solvers' fail cache.
const CACHE_BYTES: usize = 1 << 20;

/// A searcher: the transposition table and caches, kept between searches (a game
/// loop keeps one per game; the service makes one per request).
pub struct Searcher {
    tt: TranspositionTable,
    cache: FailCache,
    _cache_memory: Option<Reservation>,
    /// The search parameters.
    pub params: Params,
}

/// The first stage's verdict: the move, or what the search needs to go on.
enum Forced {
    /// The move is settled, with its score, why, and whether the score is exact.
    Settled(Cell, i32, Reason, bool),
    /// Nothing settles the move; `block` is the opponent's one five point when it must
    /// be blocked; `legal` every legal move.
    Open {
        block: Option<Cell>,
        legal: Vec<Cell>,
    },
}

/// A win proven by a threat solver: the first move, the score, the line from it.
struct Proven {
    first: Cell,
    score: i32,
    line: Vec<Cell>,
    reason: Reason,
}

impl Searcher {
    /// A searcher whose tables hold at most `max_bytes`, drawn from the process-wide
    /// engine budget ([`MemoryBudget::global`]).
    pub fn new(max_bytes: usize) -> Searcher {
        Searcher::with_budget(max_bytes, MemoryBudget::global())
    }

    /// As [`Searcher::new`] with an explicit budget. The fail cache takes
    /// min(1 MiB, max_bytes / 8) and the transposition table the rest, each halved
    /// until the budget grants it (no table at all below 64 KiB).
    pub fn with_budget(max_bytes: usize, budget: &'static MemoryBudget) -> Searcher {
        let mut cache_bytes = CACHE_BYTES.min(max_bytes / 8).max(8 * 1024);
        let mut reservation = None;
        while cache_bytes >= 8 * 1024 {
            if let Some(r) = budget.try_reserve(cache_bytes) {
                reservation = Some(r);
                break;
            }
            cache_bytes /= 2;
        }
        let cache_entries = if reservation.is_some() {
            cache_bytes / 8
        } else {
            1
        };
        let tt = TranspositionTable::new(max_bytes.saturating_sub(cache_bytes), budget);
        Searcher {
            tt,
            cache: FailCache::new(cache_entries),
            _cache_memory: reservation,
            params: Params::default(),
        }
    }

    /// Bytes held by the tables.
    pub fn bytes(&self) -> usize {
        self.tt.bytes() + self.cache.bytes()
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.cache.clear();
    }

    /// The best move for the side to move of `board` within `limits`. The board is
    /// returned as it was given.
    ///
    /// Errors: the game is over ([`GomokuError::GameOver`]); no legal move
    /// ([`GomokuError::NoMove`]: a full board, or every empty point forbidden to black).
    pub fn search(
        &mut self,
        board: &mut Board,
        limits: &Limits<'_>,
    ) -> Result<SearchResult, GomokuError> {
        let start = Instant::now();
        playable(board)?;
        board.keep_learned(self.params.learned_eval);
        self.tt.new_search();
        let mut answer = Answer::new(start, self.tt.bytes());
        let (block, legal_moves) = match forced_facts(board)? {
            Forced::Settled(best, score, reason, exact) => {
                return Ok(answer.done(best, score, vec![best], reason, exact));
            }
            Forced::Open { block, legal } => (block, legal),
        };
        let root_cells = match block {
            Some(p) => vec![p],
            None => {
                if let Some(p) = self.threat_proof(board, limits, start, &mut answer.nodes) {
                    return Ok(answer.done(p.first, p.score, p.line, p.reason, true));
                }
                let (moves, nodes) = root::candidates(
                    board,
                    &mut self.cache,
                    &self.params,
                    legal_moves,
                    start,
                    limits,
                );
                answer.nodes += nodes;
                moves
            }
        };
        let found = root::deepen(
            board,
            &mut self.tt,
            self.params,
            &root_cells,
            limits,
            start,
            answer.nodes,
        );
        answer.nodes += found.nodes;
        answer.seldepth = found.seldepth;
        answer.depth = found.depth_done;
        answer.root_moves = found.ranked;
        let reason = if block.is_some() {
            Reason::BlockFive
        } else {
            Reason::Search
        };
        let (best, score) = found.best;
        Ok(answer.done(best, score, found.pv, reason, found.exact))
    }

    /// The threat solvers' stage: a VCF (cheap and exact), else a VCT within a slice of
    /// the time; the win when either proves one. Adds the nodes spent to `nodes`.
    fn threat_proof(
        &mut self,
        board: &mut Board,
        limits: &Limits<'_>,
        start: Instant,
        nodes: &mut u64,
    ) -> Option<Proven> {
        let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        let vcf_nodes = (max_nodes / 10).clamp(1_000, 200_000);
        let mut vcf = Vcf::new(&mut self.cache, vcf_nodes)
            .with_deadline(slice(start, limits.deadline, 10))
            .with_stop(limits.stop)
            .with_pace(limits.pace);
        let line = vcf.solve(board, 40);
        *nodes += vcf.nodes;
        if let Some(line) = line {
            return Some(Proven {
                first: line.cells[0],
                score: win_in(2 * line.moves as i32 - 1),
                line: line.cells,
                reason: Reason::Vcf,
            });
        }
        let vct_deadline = slice(start, limits.deadline, self.params.vct_share.max(1));
        let vct_nodes = (max_nodes / 5).clamp(2_000, 2_000_000);
        let mut vct = Vct::new(&mut self.cache, vct_nodes, vct_deadline)
            .with_stop(limits.stop)
            .with_pace(limits.pace);
        let proof = vct.solve(board, 12);
        *nodes += vct.nodes;
        let proof = proof?;
        Some(Proven {
            first: proof.first,
            score: win_in(2 * proof.moves as i32 - 1),
            line: proof.line,
            reason: Reason::Vct,
        })
    }
}

/// Whether a move can be asked for: the game is not over and the board not full.
fn playable(board: &Board) -> Result<(), GomokuError> {
    if let Some(w) = board.winner() {
        return Err(GomokuError::GameOver(match board.lost_by_forbidden() {
            Some(kind) => format!("black made a forbidden move ({kind}); white has won"),
            None => format!("{w} has a five"),
        }));
    }
    if board.is_full() {
        return Err(GomokuError::NoMove("the board is full (a draw)".into()));
    }
    Ok(())
}

/// The first stage, the facts that settle a move: the opening centre, no legal move, an
/// only move, a five to make, an opponent's five that cannot be stopped, or one to
/// block (then the search goes on with that move alone).
fn forced_facts(board: &mut Board) -> Result<Forced, GomokuError> {
    let us = board.to_move();
    let them = us.opponent();
    if board.stone_count() == 0 {
        let m = board.size() / 2;
        let c = board.cell(Point::new(m as u8, m as u8));
        return Ok(Forced::Settled(c, 0, Reason::Opening, true));
    }
    // Every point is judged, not only until two legal ones are found: the renju
    // judgement plays stones on the board and back, which reorders its candidate area,
    // and the search after depends on that order.
    let empties: Vec<Cell> = board.empty_cells().collect();
    let legal_moves: Vec<Cell> = empties
        .into_iter()
        .filter(|&c| legal(board, c, us))
        .collect();
    match legal_moves.as_slice() {
        [] => {
            return Err(GomokuError::NoMove(
                "every empty point is forbidden to black".into(),
            ));
        }
        [only] => {
            let only = *only;
            let score = quick_score(board, only);
            return Ok(Forced::Settled(
                only,
                score,
                Reason::OnlyMove,
                is_decisive(score),
            ));
        }
        _ => {}
    }
    let mut fives = Vec::new();
    five_points(board, us, &mut fives);
    if let Some(&p) = fives.first() {
        return Ok(Forced::Settled(p, win_in(1), Reason::WinInOne, true));
    }
    five_points(board, them, &mut fives);
    if fives.len() >= 2 || fives.first().is_some_and(|&p| !legal(board, p, us)) {
        // Lost whatever we play: block one five point if we may, else anything.
        let m = fives
            .iter()
            .copied()
            .find(|&p| legal(board, p, us))
            .unwrap_or(legal_moves[0]);
        return Ok(Forced::Settled(m, loss_in(2), Reason::Lost, true));
    }
    Ok(Forced::Open {
        block: fives.first().copied(),
        legal: legal_moves,
    })
}

/// A cheap score of a move: win in one, or a quiescence-free evaluation.
fn quick_score(board: &mut Board, m: Cell) -> i32 {
    let us = board.to_move();
    if board.combo(m, us) == crate::gomoku::patterns::Combo::Five {
        return win_in(1);
    }
    board.make(m);
    let score = -eval::evaluate(board);
    board.unmake();
    score
}
