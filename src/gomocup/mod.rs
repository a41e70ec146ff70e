//! The Gomocup (Piskvork) brain protocol: how `pbrain-gameai` and the test opponent
//! `pbrain-oneply` (crates/gameai-tools) talk to gomoku managers (piskvork, GomocupJudge, our referee in
//! `tools/gomocup/`).
//!
//! # The protocol
//!
//! Source: "Gomoku AI protocol" (the "new protocol") by Petr Laštovička, the author of
//! piskvork, as of its 2023-03-20 revision. The manager writes one command per line to
//! the brain's standard input; the brain answers on standard output. Mandatory commands
//! `START`, `BEGIN`, `TURN`, `BOARD` .. `DONE`, `INFO`, `END`, `ABOUT`; optional ones
//! implemented here `RECTSTART` (square only), `RESTART`, `TAKEBACK`, `PLAY`; the
//! brain's own lines `OK`, `X,Y`, `ERROR`, `UNKNOWN`, `MESSAGE`, `DEBUG`.
//! [`session`] states every answer; [`command`] parses, [`reply`] prints.
//!
//! # Coordinates
//!
//! Protocol points are `X,Y` from 0: X the column from the left, Y the row from the
//! *top* (piskvork draws row 0 at the top). The project's notation (DESIGN.md) counts
//! rows from the *bottom*, `a1` the lower-left corner, so protocol `X,Y` on an N x N
//! board is the point with column letter X (`a` = 0) and row number `N - Y`:
//! on 15 x 15, `7,7` is `h8` and `0,0` is `a15`; on 20 x 20, `0,19` is `a1`.
//!
//! # Threads and time
//!
//! [`driver::run`] reads input on its own thread, so commands that arrive while the
//! brain thinks are queued, never dropped, and `END` stops a search at once (the stop
//! flag in [`player::ThinkRequest`]). [`time_manager`] turns `INFO timeout_turn`,
//! `timeout_match` and `time_left` into a deadline for each move.
//!
//! # Players
//!
//! The session drives any [`player::Player`]: `pbrain-gameai` plugs in the engine of
//! `src/gomoku/`; `gameai_tools::oneply::OnePly` (crates/gameai-tools) is seed 002's
//! one-ply pattern player, the test opponent of the match harness.

pub mod command;
pub mod driver;
pub mod engine;
pub mod game;
pub mod player;
pub mod reply;
pub mod search_thread;
pub mod session;
pub mod stalls;
pub mod time_manager;
