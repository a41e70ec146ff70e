//! A search's answer ([`SearchResult`]), how its move was found ([`Reason`]) and the
//! ranked root moves ([`ScoredMove`]).

use std::time::{Duration, Instant};

use crate::gomoku::board::{Cell, point_of};
use crate::gomoku::point::Point;

use super::score::{opponent_moves_to_win, own_moves_to_win};
pub use super::tt::Bound;

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
    /// The root moves with what the search knows of them, best first: `best` (always
    /// there, with `score`), then the other moves searched to the same depth by score,
    /// then moves whose latest score is from the depth before (the search ended in the
    /// middle of an iteration) by score. Moves no iteration reached are left out. When
    /// no alpha-beta search ran (a forced fact, a threat proof) it holds `best` alone,
    /// depth 0.
    pub root_moves: Vec<ScoredMove>,
}

/// A root move's score and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub point: Point,
    /// Its score, on the scale of [`SearchResult::score`].
    pub score: i32,
    /// The alpha-beta iteration (plies) the score is from; 0 for a score found without
    /// look-ahead: a forced fact, a threat proof, or the static evaluation after the move
    /// when no iteration finished a move.
    pub depth: u32,
    /// Whether the score is exact at that depth or a bound: the moves that a
    /// null-window search showed no better than the best so far have upper bounds.
    pub bound: Bound,
}

/// A search's answer being put together: what every stage adds before the move is
/// known.
pub(super) struct Answer {
    pub start: Instant,
    pub nodes: u64,
    pub depth: u32,
    pub seldepth: u32,
    pub hash_bytes: usize,
    pub root_moves: Vec<ScoredMove>,
}

impl Answer {
    pub fn new(start: Instant, hash_bytes: usize) -> Answer {
        Answer {
            start,
            nodes: 0,
            depth: 0,
            seldepth: 0,
            hash_bytes,
            root_moves: Vec::new(),
        }
    }

    /// The result with move `best` of `score`; `root_moves` is `best` alone at depth 0
    /// unless a stage ranked the root moves.
    pub fn done(
        self,
        best: Cell,
        score: i32,
        pv: Vec<Cell>,
        reason: Reason,
        exact: bool,
    ) -> SearchResult {
        let mut root_moves = self.root_moves;
        if root_moves.is_empty() {
            root_moves.push(ScoredMove {
                point: point_of(best),
                score,
                depth: 0,
                bound: Bound::Exact,
            });
        }
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
            root_moves,
        }
    }
}
