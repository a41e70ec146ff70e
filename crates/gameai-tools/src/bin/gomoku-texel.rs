//! `gomoku-texel`: fits the gomoku engine's learned evaluation table of one rule to game
//! outcomes (see `gameai_tools::texel` for the method). One command, fixed seeds:
//!
//! ```text
//! gomoku-texel --rule freestyle --games 400 --seed 1 --strengths 2000,8000,30000 \
//!     [--extra target/gomocup/rapfi.jsonl] [--games-out games.txt] \
//!     --out src/gomoku/learned/freestyle.txt
//! ```
//!
//! Self-play games are generated (or read back with `--games-in`), every tenth game is
//! held out to report the fit's error on unseen positions, and the table is written
//! with a header that records the command's arguments and the errors.

use std::fs;
use std::process::ExitCode;

use clap::Parser;
use gameai::gomoku::learned::Weights;
use gameai_tools::texel::{
    self, Game, error, eval_with, fit, fit_scale, flatten, read_games, rule_of, samples, split,
};

#[derive(Parser)]
#[command(about = "Fit the gomoku learned evaluation to game outcomes")]
struct Args {
    /// freestyle, standard or renju.
    #[arg(long)]
    rule: String,
    /// Self-play games to generate.
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Seed of the self-play openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Node limits per move of the self-play, used in turn.
    #[arg(long, value_delimiter = ',', default_value = "2000,8000,30000")]
    strengths: Vec<u64>,
    /// Read the self-play games from this file instead of generating them.
    #[arg(long)]
    games_in: Option<String>,
    /// Also write the generated games here.
    #[arg(long)]
    games_out: Option<String>,
    /// More games (match-harness JSONL or `game` lines), e.g. against Rapfi.
    #[arg(long)]
    extra: Vec<String>,
    /// Stones of each game skipped before positions are taken.
    #[arg(long, default_value_t = 6)]
    skip: usize,
    /// Adam steps.
    #[arg(long, default_value_t = 1500)]
    steps: usize,
    /// Adam step size, in sixteenths.
    #[arg(long, default_value_t = 2.0)]
    rate: f64,
    /// The table file to write.
    #[arg(long)]
    out: String,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gomoku-texel: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let rule = rule_of(&args.rule).ok_or_else(|| format!("unknown rule {:?}", args.rule))?;
    let mut games: Vec<Game> = match &args.games_in {
        Some(path) => read_games(&read(path)?, rule),
        None => {
            eprintln!(
                "self-play: {} games at {:?} nodes",
                args.games, args.strengths
            );
            texel::self_play(rule, args.games, args.seed, &args.strengths)
        }
    };
    if let Some(path) = &args.games_out {
        fs::write(path, texel::write_games(&games)).map_err(|e| format!("{path}: {e}"))?;
    }
    let own = games.len();
    for path in &args.extra {
        games.extend(read_games(&read(path)?, rule));
    }
    let (train, test) = split(&games);
    let (train, test) = (samples(&train, args.skip), samples(&test, args.skip));
    eprintln!(
        "{} games ({own} self-play), {} training and {} held-out positions",
        games.len(),
        train.len(),
        test.len()
    );
    let k = fit_scale(&train);
    let fitted = fit(&train, &Weights::hand(), k, args.steps, args.rate);
    let hand = flatten(&Weights::hand());
    let new = flatten(&fitted.weights);
    let held_hand = error(&test, |s| eval_with(&hand, s), k);
    let held_new = error(&test, |s| eval_with(&new, s), k);
    let summary = format!(
        "K = {k:.1}; training error {:.5} -> {:.5}; held-out error {held_hand:.5} -> {held_new:.5}",
        fitted.start_error, fitted.end_error
    );
    eprintln!("{summary}");
    let header = format!(
        "gomoku learned evaluation, rule {}: weights in sixteenths of a score unit\n\
         fitted by: gomoku-texel --rule {} --games {} --seed {} --strengths {} --skip {} --steps {} --rate {}{}{}\n\
         {} games, {} training positions; {summary}",
        args.rule,
        args.rule,
        args.games,
        args.seed,
        args.strengths
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(","),
        args.skip,
        args.steps,
        args.rate,
        args.extra
            .iter()
            .map(|e| format!(" --extra {e}"))
            .collect::<String>(),
        match &args.games_in {
            Some(path) => format!(
                "\n(the self-play games read back from {path}, as that command writes them)"
            ),
            None => String::new(),
        },
        games.len(),
        train.len(),
    );
    fs::write(&args.out, fitted.weights.to_text(&header)).map_err(|e| format!("{}: {e}", args.out))
}

fn read(path: &str) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}
