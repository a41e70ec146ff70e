//! What a brain behind the protocol must provide: the [`Player`] trait, the position it
//! is asked about ([`ThinkRequest`]) and its answer ([`Choice`]).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::command::ProtocolPoint;
use super::game::{Color, Rule, Stone};

/// A position to choose a move in, with the limits to choose it within.
#[derive(Debug)]
pub struct ThinkRequest<'a> {
    /// Board size (square).
    pub size: u32,
    /// The winning rule.
    pub rule: Rule,
    /// Every stone, in the order the manager gave them (move order for `TURN` games and,
    /// under renju, for `BOARD` too).
    pub stones: &'a [Stone],
    /// The colour to move: the brain's.
    pub to_move: Color,
    /// When the answer is due (already less the reserve); may be now or past, in which
    /// case the player answers at once with its best immediate choice.
    pub deadline: Instant,
    /// The thinking time this deadline came from (for reports).
    pub budget: Duration,
    /// Memory the player may use for its search, in bytes (`INFO max_memory` less the
    /// process's own needs), or `None` when the manager set no limit.
    pub memory_bytes: Option<usize>,
    /// Set when the manager sent `END` (or closed the input), possibly before this
    /// request was made (commands queued ahead of `END`): stop at once and answer with
    /// the best choice so far; the answer is still written.
    pub stop: &'a AtomicBool,
}

impl<'a> ThinkRequest<'a> {
    /// A request to answer at once (no thinking time, no memory limit), for tools and
    /// tests that only want a player's immediate choice.
    pub fn immediate(
        size: u32,
        rule: Rule,
        stones: &'a [Stone],
        to_move: Color,
        stop: &'a AtomicBool,
    ) -> ThinkRequest<'a> {
        ThinkRequest {
            size,
            rule,
            stones,
            to_move,
            deadline: Instant::now(),
            budget: Duration::ZERO,
            memory_bytes: None,
            stop,
        }
    }
}

/// A player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move: an empty point on the board.
    pub point: ProtocolPoint,
    /// Lines for the user (depth, score, principal variation ...), written as `MESSAGE`
    /// before the move.
    pub messages: Vec<String>,
}

/// A gomoku player that the protocol session can drive.
pub trait Player {
    /// The `ABOUT` fields: `name`, `version`, `author`, `country` and any others.
    fn about(&self) -> Vec<(&'static str, String)>;

    /// Whether the player can play on a `size` x `size` board; `Err` names the reason.
    fn check_size(&self, size: u32) -> Result<(), String>;

    /// A new game starts (`START`, `RESTART`): drop what belongs to the last one.
    fn new_game(&mut self) {}

    /// Make ready for searches within `memory_bytes` (`None`: no limit given) before the
    /// first move is asked for: called after `START` / `RESTART` and when `INFO
    /// max_memory` changes. The protocol does not count initialization in the time of
    /// a turn, so allocating tables here keeps them out of the first move's time.
    fn prepare(&mut self, _memory_bytes: Option<usize>) {}

    /// Chooses a move. `Err` (no empty point, a position the player cannot read) is
    /// answered with `ERROR` and the message.
    fn choose(&mut self, request: &ThinkRequest<'_>) -> Result<Choice, String>;
}
