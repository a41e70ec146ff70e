//! The engine of `src/gomoku/` behind the protocol: [`EnginePlayer`], the player of
//! `pbrain-gameai`.
//!
//! Each move builds the engine's [`Board`] from the request's stones and runs the
//! engine's [`Searcher`] until the request's deadline. The searcher (its transposition
//! table) is made when the game starts (`START` / `RESTART`, outside the turn's time),
//! kept for the whole game, cleared for the next, and rebuilt when `INFO max_memory`
//! changes its size: `max_memory` less the process's share, at most
//! [`MAX_TABLE_BYTES`](crate::gomoku::search::tt::MAX_TABLE_BYTES). Its memory is drawn from the process-wide engine budget, whose
//! limit is set to the same figure.
//!
//! Each search stops a scheduling stall ahead of its deadline ([`Stalls`]: the longest
//! of the recent searches', first measured by a probe when the game starts), so that a
//! loaded machine does not push the answer past the turn limit; and it runs on a thread
//! of its own ([`SearchThread`]), so that when that thread is stalled anyway, the
//! session's thread answers at the deadline with the best move found so far.
//!
//! Every answer carries one `MESSAGE` line with what the search found: how (the
//! engine's reason), depth, score (or the proven win / loss), nodes, time, nodes per
//! second and the principal variation in the project's notation.
//!
//! Coordinates: protocol `X,Y` has Y counted from the top, the engine's [`Point`] from
//! the bottom, so on an N x N board protocol `(x, y)` is `Point::new(x, N - 1 - y)`
//! (on 15x15, `7,7` is `h8`, `0,0` is `a15`).

use crate::gomoku::search::tt::table_bytes;
use crate::gomoku::search::{SearchResult, Searcher};
use crate::gomoku::{Board, Color, GomokuError, Point, Rule};
use crate::memory_budget::MemoryBudget;

use super::command::ProtocolPoint;
use super::player::{Choice, Player, ThinkRequest};
use super::search_thread::{Outcome, SearchThread, Tables, WATCHDOG_GRACE};
use super::stalls::{PROBE_TIME, Stalls, probe};

/// The engine as a protocol player (see the [module docs](self)).
pub struct EnginePlayer {
    search: SearchThread,
    quiet: bool,
    stalls: Stalls,
}

impl EnginePlayer {
    /// A player; `quiet` leaves out the `MESSAGE` line of each move.
    pub fn new(quiet: bool) -> EnginePlayer {
        EnginePlayer {
            search: SearchThread::start(searcher),
            quiet,
            stalls: Stalls::default(),
        }
    }
}

/// The searcher for `bytes` of memory in `tables`, made (or remade) when the size
/// changes.
fn searcher(tables: &mut Tables, bytes: usize) -> &mut Searcher {
    if tables.as_ref().is_none_or(|(size, _)| *size != bytes) {
        // Give back the old tables before reserving the new ones.
        *tables = None;
        MemoryBudget::global().set_limit(bytes);
        *tables = Some((bytes, Searcher::new(bytes)));
    }
    &mut tables.as_mut().expect("just made").1
}

impl Player for EnginePlayer {
    fn about(&self) -> Vec<(&'static str, String)> {
        vec![
            ("name", "gameai".into()),
            ("version", env!("CARGO_PKG_VERSION").into()),
            ("author", "gameai developers".into()),
            ("country", "-".into()),
        ]
    }

    fn check_size(&self, size: u32) -> Result<(), String> {
        Board::new(size as usize, Rule::Freestyle)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn new_game(&mut self) {
        if let Some((_, searcher)) = self.search.tables().as_mut() {
            searcher.clear();
        }
        self.stalls.record(probe(PROBE_TIME));
    }

    fn prepare(&mut self, memory_bytes: Option<usize>) {
        searcher(&mut self.search.tables(), table_bytes(None, memory_bytes));
    }

    fn choose(&mut self, request: &ThinkRequest<'_>) -> Result<Choice, String> {
        let board = board_for(request).map_err(|e| e.to_string())?;
        let bytes = table_bytes(None, request.memory_bytes);
        let (outcome, stalls) = self.search.search(
            board,
            bytes,
            request.deadline,
            self.stalls.margin(),
            request.stop,
        );
        for stall in stalls {
            self.stalls.record(stall);
        }
        let (best, message) = match outcome {
            Outcome::Done(result) => {
                let result = result?;
                (result.best, describe(&result))
            }
            Outcome::Stalled(best) => {
                // The search's thread did not answer by the deadline and the grace:
                // the next searches keep half their budget back as well (its own
                // stall is recorded when its result comes, at the next move).
                self.stalls.record(WATCHDOG_GRACE + request.budget / 2);
                (
                    best,
                    format!(
                        "the search did not answer {} ms after its deadline: answered with its best move so far",
                        WATCHDOG_GRACE.as_millis()
                    ),
                )
            }
        };
        let point = to_protocol(best, request.size);
        let messages = if self.quiet {
            Vec::new()
        } else {
            vec![message]
        };
        Ok(Choice { point, messages })
    }
}

/// The `MESSAGE` line of a search: `reason; depth D (seldepth S) score X | win in N |
/// loss in N; nodes N time T ms nps R; pv ...`.
pub fn describe(result: &SearchResult) -> String {
    let ms = result.elapsed.as_secs_f64() * 1e3;
    let nps = if ms > 0.0 {
        result.nodes as f64 / ms * 1e3
    } else {
        0.0
    };
    let score = match (result.forced_win_in, result.forced_loss_in) {
        (Some(n), _) => format!("win in {n}"),
        (None, Some(n)) => format!("loss in {n}"),
        _ => format!("score {:+}", result.score),
    };
    let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
    format!(
        "{}; depth {} (seldepth {}) {score}; nodes {} time {:.0} ms nps {:.0}; pv {}",
        result.reason.describe(),
        result.depth,
        result.seldepth,
        result.nodes,
        ms,
        nps,
        pv.join(" ")
    )
}

/// Protocol point -> engine point on a `size` board (the caller checked it is on it).
pub fn to_engine(point: ProtocolPoint, size: u32) -> Point {
    Point::new(point.x as u8, (size - 1 - point.y) as u8)
}

/// Engine point -> protocol point on a `size` board.
pub fn to_protocol(point: Point, size: u32) -> ProtocolPoint {
    ProtocolPoint {
        x: u32::from(point.x),
        y: size - 1 - u32::from(point.y),
    }
}

/// The engine's board for a request: its stones (any order), rule and side to move.
/// Errors are the engine's (a game already over, stone counts, ...).
pub fn board_for(request: &ThinkRequest<'_>) -> Result<Board, GomokuError> {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for stone in request.stones {
        let point = to_engine(stone.point, request.size);
        match stone.colour {
            Color::Black => black.push(point),
            Color::White => white.push(point),
        }
    }
    Board::from_stones(
        request.size as usize,
        request.rule,
        &black,
        &white,
        request.to_move,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomocup::game::Stone;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn protocol_rows_count_from_the_top_engine_rows_from_the_bottom() {
        // DESIGN.md: h8 is the centre of 15x15, a1 the lower-left corner.
        assert_eq!(
            to_engine(ProtocolPoint { x: 7, y: 7 }, 15).to_string(),
            "h8"
        );
        assert_eq!(
            to_engine(ProtocolPoint { x: 0, y: 0 }, 15).to_string(),
            "a15"
        );
        assert_eq!(
            to_engine(ProtocolPoint { x: 0, y: 19 }, 20).to_string(),
            "a1"
        );
        assert_eq!(
            to_engine(ProtocolPoint { x: 21, y: 0 }, 22).to_string(),
            "v22"
        );
        for size in [5, 15, 20, 22] {
            for x in 0..size {
                for y in 0..size {
                    let p = ProtocolPoint { x, y };
                    assert_eq!(to_protocol(to_engine(p, size), size), p);
                }
            }
        }
    }

    #[test]
    fn the_board_has_the_requests_stones_rule_and_side() {
        let stones = [
            Stone {
                point: ProtocolPoint { x: 7, y: 7 },
                colour: Color::Black,
            },
            Stone {
                point: ProtocolPoint { x: 8, y: 6 },
                colour: Color::White,
            },
        ];
        let stop = AtomicBool::new(false);
        let request = ThinkRequest::immediate(15, Rule::Renju, &stones, Color::Black, &stop);
        let board = board_for(&request).unwrap();
        assert_eq!(board.rule(), Rule::Renju);
        assert_eq!(board.to_move(), Color::Black);
        assert_eq!(board.stone("h8".parse().unwrap()), Some(Color::Black));
        assert_eq!(board.stone("i9".parse().unwrap()), Some(Color::White));
        assert_eq!(board.stone_count(), 2);
    }
}
