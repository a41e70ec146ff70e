//! `pbrain-gameai`: the gomoku engine of `gameai` as a Gomocup (Piskvork) brain on
//! stdin / stdout. See `gameai::gomocup` for the protocol and the README for managers.

use std::io;
use std::process::ExitCode;

use clap::Parser;
use gameai::gomocup::{driver, engine::EnginePlayer};

/// The gameai gomoku engine as a Gomocup brain: commands on stdin, answers on stdout
/// (START, BEGIN, TURN, BOARD, INFO, END, ABOUT ...; see the README).
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Leave out the MESSAGE line (depth, score, nodes, principal variation) before
    /// each move.
    #[arg(long, env = "PBRAIN_GAMEAI_QUIET")]
    quiet: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let player = EnginePlayer::new(args.quiet);
    match driver::run(
        player,
        io::stdin(),
        io::stdout().lock(),
        Some(driver::END_GRACE),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("pbrain-gameai: {error}");
            ExitCode::FAILURE
        }
    }
}
