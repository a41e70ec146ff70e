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
pub mod movepick;
pub mod score;
pub mod threats;
pub mod tt;
pub mod vcf;
pub mod vct;

use std::time::{Duration, Instant};

use crate::gomoku::board::{Board, Cell, point_of};
use crate::gomoku::error::GomokuError;
use crate::gomoku::point::Point;
use crate::memory_budget::{MemoryBudget, Reservation};

use alphabeta::Search;
use movepick::MovePicker;
use score::{INFINITE, is_decisive, loss_in, opponent_moves_to_win, own_moves_to_win, win_in};
use threats::{defences, five_points, has_flex4_threat, legal};
use tt::TranspositionTable;
use vcf::{FailCache, Vcf};
use vct::Vct;

/// When and how far to search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop at this instant and answer with the best move so far.
    pub deadline: Option<Instant>,
    /// Do not start a new iteration after this instant (default: halfway to the
    /// deadline, since an iteration takes about as long as all before it).
    pub soft_deadline: Option<Instant>,
    /// Stop after this many nodes (all stages together, approximately).
    pub max_nodes: Option<u64>,
    /// Deepest alpha-beta iteration, in plies.
    pub max_depth: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: None,
            soft_deadline: None,
            max_nodes: None,
            max_depth: 40,
        }
    }
}

impl Limits {
    /// Search until `deadline`.
    pub fn until(deadline: Instant) -> Limits {
        Limits {
            deadline: Some(deadline),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` nodes (deterministic; no clock).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search to exactly `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            max_depth: depth,
            ..Limits::default()
        }
    }
}

/// How the move was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The first move of the game: the centre.
    Opening,
    /// The move makes a five.
    WinInOne,
    /// The move blocks the opponent's only five point.
    BlockFive,
    /// The opponent wins whatever we play (two five points, or black's only block is
    /// forbidden); the move is a legal one.
    Lost,
    /// The only legal move.
    OnlyMove,
    /// The first move of a proven VCF.
    Vcf,
    /// The first move of a proven VCT.
    Vct,
    /// The best move of the alpha-beta search.
    Search,
}

impl Reason {
    /// The reason in words.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Opening => "opening: the centre",
            Reason::WinInOne => "makes a five",
            Reason::BlockFive => "blocks the opponent's four",
            Reason::Lost => "the opponent wins whatever is played",
            Reason::OnlyMove => "the only legal move",
            Reason::Vcf => "starts a forced win by continuous fours (VCF)",
            Reason::Vct => "starts a forced win by continuous threats (VCT)",
            Reason::Search => "best move of the alpha-beta search",
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move: an empty point, legal for the side to move.
    pub best: Point,
    /// Score from the side to move's view: a heuristic within ±20,000, or
    /// ±(30,000 − plies) for a proven win or loss.
    pub score: i32,
    /// The expected continuation, starting with `best`.
    pub pv: Vec<Point>,
    /// Own moves to the five (the five included) when a win is proven.
    pub forced_win_in: Option<u32>,
    /// Opponent moves to its five when a loss is proven.
    pub forced_loss_in: Option<u32>,
    /// Nodes visited by all stages.
    pub nodes: u64,
    /// Deepest completed alpha-beta iteration (plies); 0 when no search was needed.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// How the move was found.
    pub reason: Reason,
    /// Wall-clock time spent.
    pub elapsed: Duration,
    /// Bytes of the transposition table used.
    pub hash_bytes: usize,
    /// Whether the answer is exact under the model: a forced fact or a proof, or an
    /// alpha-beta search that finished its depth limit without being stopped.
    pub exact: bool,
    /// Root moves of the last completed iteration with their scores, best first (the
    /// best's score exact, the others upper bounds from the null-window searches).
    pub root_moves: Vec<(Point, i32)>,
}

/// Bytes of the threat solvers' fail cache.
const CACHE_BYTES: usize = 1 << 20;

/// A searcher: the transposition table and caches, kept between searches (a game
/// loop keeps one per game; the service makes one per request).
pub struct Searcher {
    tt: TranspositionTable,
    cache: FailCache,
    _cache_memory: Option<Reservation>,
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
        limits: &Limits,
    ) -> Result<SearchResult, GomokuError> {
        let start = Instant::now();
        if let Some(w) = board.winner() {
            return Err(GomokuError::GameOver(match board.lost_by_forbidden() {
                Some(kind) => format!("black made a forbidden move ({kind}); white has won"),
                None => format!("{w} has a five"),
            }));
        }
        if board.is_full() {
            return Err(GomokuError::NoMove("the board is full (a draw)".into()));
        }
        let us = board.to_move();
        let them = us.opponent();
        self.tt.new_search();
        let mut answer = Answer::new(start, self.tt.bytes());

        if board.stone_count() == 0 {
            let m = board.size() / 2;
            let c = board.cell(Point::new(m as u8, m as u8));
            return Ok(answer.done(c, 0, vec![c], Reason::Opening, true));
        }
        let empties: Vec<Cell> = board.empty_cells().collect();
        let legal_moves: Vec<Cell> = empties
            .iter()
            .copied()
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
                return Ok(answer.done(
                    only,
                    score,
                    vec![only],
                    Reason::OnlyMove,
                    is_decisive(score),
                ));
            }
            _ => {}
        }
        let mut fives = Vec::new();
        five_points(board, us, &mut fives);
        if let Some(&p) = fives.first() {
            return Ok(answer.done(p, win_in(1), vec![p], Reason::WinInOne, true));
        }
        five_points(board, them, &mut fives);
        if fives.len() >= 2 || fives.first().is_some_and(|&p| !legal(board, p, us)) {
            // Lost whatever we play: block one five point if we may, else anything.
            let m = fives
                .iter()
                .copied()
                .find(|&p| legal(board, p, us))
                .unwrap_or(legal_moves[0]);
            return Ok(answer.done(m, loss_in(2), vec![m], Reason::Lost, true));
        }
        let forced_block = fives.first().copied();

        let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        if forced_block.is_none() {
            // VCF: cheap and exact.
            let vcf_nodes = (max_nodes / 10).clamp(1_000, 200_000);
            let mut vcf = Vcf::new(&mut self.cache, vcf_nodes).with_deadline(slice(
                start,
                limits.deadline,
                10,
            ));
            let line = vcf.solve(board, 40);
            answer.nodes += vcf.nodes;
            if let Some(line) = line {
                let score = win_in(2 * line.moves as i32 - 1);
                return Ok(answer.done(line.cells[0], score, line.cells, Reason::Vcf, true));
            }
            // VCT: a slice of the time.
            let vct_deadline = slice(start, limits.deadline, 5);
            let vct_nodes = (max_nodes / 5).clamp(2_000, 2_000_000);
            let mut vct = Vct::new(&mut self.cache, vct_nodes, vct_deadline);
            let proof = vct.solve(board, 12);
            answer.nodes += vct.nodes;
            if let Some(proof) = proof {
                let score = win_in(2 * proof.moves as i32 - 1);
                return Ok(answer.done(proof.first, score, vec![proof.first], Reason::Vct, true));
            }
        }

        // Root moves.
        let root_cells: Vec<Cell> = if let Some(p) = forced_block {
            vec![p]
        } else {
            let mut cands = Vec::new();
            board.candidates(&mut cands);
            let mut moves = Vec::new();
            if has_flex4_threat(board, them, &cands) {
                defences(board, us, &cands, &mut moves);
            }
            if moves.is_empty() {
                moves = cands.into_iter().filter(|&c| legal(board, c, us)).collect();
            }
            if moves.is_empty() {
                moves = legal_moves.clone();
            }
            moves
        };
        let history = [0i32; crate::gomoku::board::CELLS];
        let mut root: Vec<(Cell, i32)> =
            MovePicker::new(board, &root_cells, None, [0, 0], &history)
                .into_sorted()
                .into_iter()
                .map(|(c, _)| (c, -INFINITE))
                .collect();

        let soft = limits
            .soft_deadline
            .or_else(|| slice(start, limits.deadline, 2));
        let mut search = Search::new(board, &mut self.tt);
        search.deadline = limits.deadline;
        search.max_nodes = max_nodes.saturating_sub(answer.nodes);
        let mut best = (root[0].0, -INFINITE);
        let mut pv = vec![root[0].0];
        let mut depth_done = 0;
        let mut exact = false;
        for depth in 1..=limits.max_depth.max(1) as i32 {
            let result = search.root(&mut root, depth, -INFINITE, INFINITE);
            if let Some((score, m)) = result {
                best = (m, score);
                pv = search.pv().to_vec();
                if !search.stopped {
                    depth_done = depth as u32;
                }
            }
            if search.stopped {
                break;
            }
            // Best first, the rest by their bounds (stable).
            root.sort_by_key(|&(c, s)| std::cmp::Reverse(if c == best.0 { INFINITE } else { s }));
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
        answer.nodes += search.nodes;
        answer.seldepth = search.seldepth as u32;
        answer.depth = depth_done;
        answer.root_moves = root.iter().map(|&(c, s)| (point_of(c), s)).collect();
        let reason = if forced_block.is_some() {
            Reason::BlockFive
        } else {
            Reason::Search
        };
        if pv.first() != Some(&best.0) {
            pv = vec![best.0];
        }
        Ok(answer.done(best.0, best.1, pv, reason, exact))
    }
}

/// The instant `1/parts` of the way from `start` to `deadline`.
fn slice(start: Instant, deadline: Option<Instant>, parts: u32) -> Option<Instant> {
    deadline.map(|d| start + d.saturating_duration_since(start) / parts)
}

/// A cheap score of the only move: win in one, or a quiescence-free evaluation.
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

struct Answer {
    start: Instant,
    nodes: u64,
    depth: u32,
    seldepth: u32,
    hash_bytes: usize,
    root_moves: Vec<(Point, i32)>,
}

impl Answer {
    fn new(start: Instant, hash_bytes: usize) -> Answer {
        Answer {
            start,
            nodes: 0,
            depth: 0,
            seldepth: 0,
            hash_bytes,
            root_moves: Vec::new(),
        }
    }

    fn done(
        self,
        best: Cell,
        score: i32,
        pv: Vec<Cell>,
        reason: Reason,
        exact: bool,
    ) -> SearchResult {
        SearchResult {
            best: point_of(best),
            score,
            pv: pv.into_iter().map(point_of).collect(),
            forced_win_in: own_moves_to_win(score),
            forced_loss_in: opponent_moves_to_win(score),
            nodes: self.nodes,
            depth: self.depth,
            seldepth: self.seldepth,
            reason,
            elapsed: self.start.elapsed(),
            hash_bytes: self.hash_bytes,
            exact,
            root_moves: self.root_moves,
        }
    }
}
