//! The protocol's state machine: one input line in, the answer lines out.
//!
//! [`Session::handle`] takes each line with the instant it was read (the turn's clock
//! starts then) and returns what to write. It is synchronous: when a command asks for a
//! move it calls the [`Player`] and returns when the player has chosen. The
//! [driver](super::driver) feeds it from a reader thread, so lines that arrive while the
//! player thinks wait in a queue and are handled in order afterwards.
//!
//! Answers, per the protocol: `OK` to `START` / `RECTSTART` / `RESTART` / `TAKEBACK`, a
//! move `X,Y` to `BEGIN` / `TURN` / `BOARD`..`DONE` / `PLAY`, the `ABOUT` line, nothing
//! to `INFO` and `END`; `ERROR message` to a known command the brain cannot carry out
//! (a size it does not play, a point off the board or taken, a command before `START`);
//! `UNKNOWN message` to anything else (including the optional `SWAP2BOARD`, whose
//! block is read to its `DONE` first). Problems with `INFO` values are held back and
//! written as `MESSAGE` lines before the next answer, as the protocol asks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::command::{Command, Info, ProtocolPoint, is_done, parse_board_line, parse_command};
use super::game::{Game, GameError, MAX_SIZE, MIN_SIZE, Owner, Rule, rule_from_bitmask, rule_name};
use super::player::{Player, ThinkRequest};
use super::reply::Reply;
use super::time_manager::{Lateness, TimeControl};

/// Bytes of `INFO max_memory` kept for the process itself (code, stacks, buffers); the
/// rest is offered to the player's search.
pub const PROCESS_MEMORY_BYTES: u64 = 24 << 20;

/// A block of lines being read up to its `DONE`.
#[derive(Debug)]
enum Block {
    Board {
        stones: Vec<(ProtocolPoint, u8)>,
        error: Option<String>,
    },
    Swap2,
}

/// One brain's protocol state. See the [module docs](self).
pub struct Session<P> {
    player: P,
    game: Option<Game>,
    rule: Rule,
    time: TimeControl,
    lateness: Lateness,
    max_memory: Option<u64>,
    block: Option<Block>,
    notes: Vec<String>,
    stop: Arc<AtomicBool>,
    ended: bool,
}

impl<P: Player> Session<P> {
    /// A session before `START`, with its own stop flag.
    pub fn new(player: P) -> Session<P> {
        Session {
            player,
            game: None,
            rule: Rule::default(),
            time: TimeControl::default(),
            lateness: Lateness::default(),
            max_memory: None,
            block: None,
            notes: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            ended: false,
        }
    }

    /// The flag the player polls while it thinks. The driver's reader thread sets it
    /// when `END` arrives or the input closes.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether `END` has been handled: the brain must exit without further output.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The rule from the last `INFO rule`.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The time limits announced so far.
    pub fn time_control(&self) -> TimeControl {
        self.time
    }

    /// The board as the session knows it (`None` before `START`).
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Handles one input line read at `received`; returns the lines to write.
    pub fn handle(&mut self, line: &str, received: Instant) -> Vec<Reply> {
        if self.ended {
            return Vec::new();
        }
        if self.block.is_some() {
            return self.block_line(line, received);
        }
        let command = match parse_command(line) {
            None => return Vec::new(),
            Some(Err(error)) => return self.answer(Reply::Error(error.to_string())),
            Some(Ok(command)) => command,
        };
        match command {
            Command::Start(size) => self.start(size),
            Command::RectStart(width, height) if width == height => self.start(width),
            Command::RectStart(width, height) => self.answer(Reply::Error(format!(
                "RECTSTART {width},{height}: rectangular boards are not supported, only \
                 square ones ({MIN_SIZE}..{MAX_SIZE})"
            ))),
            Command::Restart => match &mut self.game {
                Some(game) => {
                    game.clear();
                    self.player.new_game();
                    self.player.prepare(self.memory_bytes());
                    self.answer(Reply::Ok)
                }
                None => self.answer(no_board("RESTART")),
            },
            Command::Begin => match &self.game {
                None => self.answer(no_board("BEGIN")),
                Some(game) if game.stones_placed() > 0 => self.answer(Reply::Error(format!(
                    "BEGIN: the board already has {} stones; BEGIN opens an empty board",
                    game.stones_placed()
                ))),
                Some(_) => self.think(received),
            },
            Command::Turn(point) => match &mut self.game {
                None => self.answer(no_board("TURN")),
                Some(game) => match game.place(point, Owner::Opponent) {
                    Ok(()) => self.think(received),
                    Err(error) => self.answer(Reply::Error(format!("TURN {point}: {error}"))),
                },
            },
            Command::Board => {
                let error = self
                    .game
                    .is_none()
                    .then(|| "BOARD before START: no board size yet".to_string());
                self.block = Some(Block::Board {
                    stones: Vec::new(),
                    error,
                });
                Vec::new()
            }
            Command::Swap2Board => {
                self.block = Some(Block::Swap2);
                Vec::new()
            }
            Command::Info(info) => {
                self.info(info);
                Vec::new()
            }
            Command::End => {
                self.ended = true;
                self.stop.store(true, Ordering::Relaxed);
                Vec::new()
            }
            Command::About => {
                let about = self.player.about();
                self.answer(Reply::About(about))
            }
            Command::Takeback(point) => match &mut self.game {
                None => self.answer(no_board("TAKEBACK")),
                Some(game) => match game.remove(point) {
                    Ok(_) => self.answer(Reply::Ok),
                    Err(error) => self.answer(Reply::Error(format!("TAKEBACK {point}: {error}"))),
                },
            },
            Command::Play(point) => match &mut self.game {
                None => self.answer(no_board("PLAY")),
                Some(game) => match game.place(point, Owner::Own) {
                    Ok(()) => self.answer(Reply::Move(point)),
                    Err(error) => self.answer(Reply::Error(format!("PLAY {point}: {error}"))),
                },
            },
            Command::Unknown(word) => self.answer(Reply::Unknown(format!(
                "'{word}' is not a command this brain knows"
            ))),
        }
    }

    fn start(&mut self, size: u32) -> Vec<Reply> {
        let supported = if (MIN_SIZE..=MAX_SIZE).contains(&size) {
            self.player.check_size(size)
        } else {
            Err(format!("the brain plays boards of {MIN_SIZE}..{MAX_SIZE}"))
        };
        match supported {
            Ok(()) => {
                self.game = Some(Game::new(size));
                self.player.new_game();
                self.player.prepare(self.memory_bytes());
                self.answer(Reply::Ok)
            }
            Err(reason) => self.answer(Reply::Error(format!("unsupported size {size}: {reason}"))),
        }
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => self.time.turn_ms = Some(ms),
            Info::TimeoutMatch(ms) => self.time.match_ms = Some(ms),
            Info::TimeLeft(ms) => self.time.time_left_ms = Some(ms),
            Info::MaxMemory(bytes) => {
                let before = self.max_memory;
                self.max_memory = (bytes > 0).then_some(bytes);
                if self.game.is_some() && before != self.max_memory {
                    self.player.prepare(self.memory_bytes());
                }
                if bytes > 0 && bytes <= PROCESS_MEMORY_BYTES {
                    self.notes.push(format!(
                        "max_memory {bytes} bytes leaves nothing for the search beyond the \
                         process's own {PROCESS_MEMORY_BYTES} bytes; searching with the least memory"
                    ));
                }
            }
            Info::Rule(mask) => {
                let (rule, ignored) = rule_from_bitmask(mask);
                self.rule = rule;
                if ignored != 0 {
                    self.notes.push(format!(
                        "rule {mask}: bits {ignored} (2 continuous game, 8 caro) are not \
                         supported and ignored; playing {}",
                        rule_name(rule)
                    ));
                }
            }
            Info::Other {
                key,
                value,
                problem: Some(problem),
            } => {
                self.notes
                    .push(format!("INFO {key} {value} ignored: {problem}"));
            }
            Info::GameType(_) | Info::Folder(_) | Info::Evaluate(_) | Info::Other { .. } => {}
        }
    }

    fn block_line(&mut self, line: &str, received: Instant) -> Vec<Reply> {
        if !is_done(line) {
            if let Some(Block::Board { stones, error }) = &mut self.block
                && !line.trim().is_empty()
            {
                match parse_board_line(line) {
                    Ok(stone) => stones.push(stone),
                    Err(e) => {
                        error.get_or_insert(e.to_string());
                    }
                }
            }
            return Vec::new();
        }
        match self.block.take() {
            Some(Block::Board { stones, error }) => match error {
                Some(error) => self.answer(Reply::Error(error)),
                None => match self.set_board(&stones) {
                    Ok(()) => self.think(received),
                    Err(error) => self.answer(Reply::Error(format!("BOARD: {error}"))),
                },
            },
            Some(Block::Swap2) | None => self.answer(Reply::Unknown(
                "SWAP2BOARD is not supported (the swap2 opening rule); use BOARD openings".into(),
            )),
        }
    }

    /// Replaces the board with the `BOARD` block's stones, or leaves it unchanged and
    /// says why not.
    fn set_board(&mut self, stones: &[(ProtocolPoint, u8)]) -> Result<(), String> {
        let game = self.game.as_ref().expect("checked when BOARD arrived");
        let mut fresh = Game::new(game.size());
        for &(point, field) in stones {
            let owner = match field {
                1 => Owner::Own,
                2 => Owner::Opponent,
                _ => {
                    return Err(format!(
                        "{point},3: field 3 (continuous game) is not supported"
                    ));
                }
            };
            fresh.place(point, owner).map_err(|e| e.to_string())?;
        }
        self.game = Some(fresh);
        Ok(())
    }

    /// The search memory from `INFO max_memory`: the limit less the process's own share.
    fn memory_bytes(&self) -> Option<usize> {
        self.max_memory.map(|bytes| {
            bytes
                .saturating_sub(PROCESS_MEMORY_BYTES)
                .try_into()
                .unwrap_or(usize::MAX)
        })
    }

    /// Asks the player for a move in the current position and plays it.
    fn think(&mut self, received: Instant) -> Vec<Reply> {
        let game = self
            .game
            .as_ref()
            .expect("callers checked the board exists");
        if game.empty_points() == 0 {
            return self.answer(Reply::Error(format!("no move: {}", GameError::Full)));
        }
        let own = match game.own_colour() {
            Ok(colour) => colour,
            Err(error) => return self.answer(Reply::Error(format!("no move: {error}"))),
        };
        let stones = game.stones(own);
        let budget = self.time.budget(
            game.count(Owner::Own),
            game.empty_points(),
            self.lateness.margin(),
        );
        let deadline = received + budget;
        let memory_bytes = self.memory_bytes();
        let request = ThinkRequest {
            size: game.size(),
            rule: self.rule,
            stones: &stones,
            to_move: own,
            deadline,
            budget,
            memory_bytes,
            stop: &self.stop,
        };
        let choice = self.player.choose(&request);
        self.lateness
            .record(Instant::now().saturating_duration_since(deadline));
        let choice = match choice {
            Ok(choice) => choice,
            Err(reason) => return self.answer(Reply::Error(format!("no move: {reason}"))),
        };
        let game = self.game.as_mut().expect("still there");
        if let Err(error) = game.place(choice.point, Owner::Own) {
            // A player bug; an ERROR is better than an illegal move.
            return self.answer(Reply::Error(format!(
                "internal error: the player chose {error}"
            )));
        }
        let mut replies: Vec<Reply> = self.notes.drain(..).map(Reply::Message).collect();
        replies.extend(choice.messages.into_iter().map(Reply::Message));
        replies.push(Reply::Move(choice.point));
        replies
    }

    /// `reply`, preceded by the held-back notes.
    fn answer(&mut self, reply: Reply) -> Vec<Reply> {
        let mut replies: Vec<Reply> = self.notes.drain(..).map(Reply::Message).collect();
        replies.push(reply);
        replies
    }
}

fn no_board(command: &str) -> Reply {
    Reply::Error(format!("{command} before START: no board size yet"))
}
