//! Gomoku (五子棋) and renju: rules, patterns and search. Pure Rust, no gRPC types.
//!
//! The design is seed 002's, made exact and deep: for every point, side and direction
//! the pattern a stone there would make (five, four, open three ...), kept up to date as
//! stones come and go; combined threats read from the four directions; the most
//! valuable points first; look-ahead so as not to fall into traps; renju's forbidden
//! points for black.
//!
//! - [`point`]: [`Point`] (`h8` notation), [`Color`], move sequences;
//! - [`rules`]: [`Rule`] (FREESTYLE, STANDARD, RENJU), [`ForbiddenKind`], [`ThreeRule`];
//! - [`patterns`]: line patterns by table lookup, combined threat classes ([`Combo`]);
//! - [`values`]: point values from the patterns (the seed's "importance");
//! - [`board`]: [`Board`] — stones, side to move, incremental patterns, Zobrist key
//!   (keys in `zobrist`), win detection;
//! - [`forbidden`]: the recursive renju forbidden-point judgement on the board;
//! - [`analysis`]: winner and five, forbidden points, each side's fours and open threes;
//! - [`search`]: forced facts, VCF, VCT, alpha-beta (the next move);
//! - [`error`]: [`GomokuError`], one variant per fault.
//!
//! # Driving the engine from a game loop (the `pbrain-gameai` protocol binary)
//!
//! ```
//! use gameai::gomoku::{Board, Color, Point, Rule};
//!
//! // START 20 with INFO rule 0 (freestyle): an empty 20x20 board.
//! let mut board = Board::new(20, Rule::Freestyle).unwrap();
//! // TURN / BOARD lines: play each move for the side to move (black first).
//! board.play(Point::new(9, 9)).unwrap(); // "j10"
//! board.play("k11".parse().unwrap()).unwrap();
//! assert_eq!(board.to_move(), Color::Black);
//! assert_eq!(board.winner(), None);
//! // Take a move back (Piskvork's TAKEBACK).
//! assert_eq!(board.undo(), Some("k11".parse().unwrap()));
//! // Under RENJU, black's forbidden points: board.forbidden(point).
//! ```
//!
//! [`Board::play`] checks the point (on the board, empty, game not over); under RENJU a
//! forbidden move by black is played and loses ([`Board::lost_by_forbidden`]). A board
//! is built for one rule (the patterns depend on it): when `INFO rule` changes, rebuild
//! it with [`Board::from_moves`] from [`Board::history`].
//!
//! The search ([`search`]) takes `&mut Board` (left as it was) and [`search::Limits`] —
//! a hard deadline, an optional soft deadline (no new iteration after it), a node
//! limit, a depth limit — and answers a [`search::SearchResult`]: `best` (always an
//! empty point, never forbidden to black), `score`, `pv`, `forced_win_in` /
//! `forced_loss_in` (own / opponent moves to the five when proven), `nodes`, `depth`,
//! `seldepth`, `reason`, `elapsed`. A [`search::Searcher`] owns the transposition table
//! and is kept between moves of a game; its memory cap is drawn from
//! [`crate::memory_budget::MemoryBudget`] (a smaller table when refused):
//!
//! ```
//! use std::time::{Duration, Instant};
//! use gameai::gomoku::search::{Limits, Searcher};
//! # use gameai::gomoku::{Board, Rule};
//! # let mut board = Board::new(20, Rule::Freestyle).unwrap();
//! let mut searcher = Searcher::new(64 << 20); // INFO max_memory, say
//! let deadline = Instant::now() + Duration::from_millis(50); // timeout_turn - reserve
//! let answer = searcher.search(&mut board, &Limits::until(deadline)).unwrap();
//! board.play(answer.best).unwrap();
//! // RESTART / a new game: searcher.clear().
//! ```
//!
//! `search` errors with [`GomokuError::GameOver`] after a five (or black's forbidden
//! move), and [`GomokuError::NoMove`] on a full board or when every empty point is
//! forbidden to black.

pub mod analysis;
pub mod board;
pub mod error;
pub mod forbidden;
pub mod learned;
pub mod patterns;
pub mod point;
pub mod rules;
pub mod search;
pub mod values;
mod zobrist;

pub use board::Board;
pub use error::GomokuError;
pub use patterns::{Combo, LinePattern};
pub use point::{Color, Point};
pub use rules::{ForbiddenKind, Rule, ThreeRule};
