//! `mahjong-solitaire`: decision quality of the mahjong engine, measured by play.
//!
//! Plays the same fixed-seed walls (deal 13, up to 17 draws, self-draw wins, no other
//! players; `gameai_tools::mahjong::solitaire`) with each policy and prints, as Markdown:
//! win rates with 95 % intervals, paired differences between the policies with 95 %
//! intervals (the same walls, so the games pair up), time per decision, and the
//! calibration of the engine's reported win probability at the first decision against
//! the realised win rate, per decile of the reported figure.
//!
//! Policies: `engine` (SuggestMahjongDiscard's engine), `advance-or-throw` (the issue-6
//! policy, `gameai_tools::mahjong::legacy`) and `baseline` (lowest shanten, then most ukeire).
//!
//! ```sh
//! cargo run --release --bin mahjong-solitaire -- --games 5000
//! cargo run --release --bin mahjong-solitaire -- --games 200 --policies engine \
//!     --record bench/requests/mahjong_game_states.jsonl
//! ```
//!
//! `--decisions` writes every engine decision with its figures and the game's outcome,
//! the input of `tools/mahjong/fit_play_calibration.py` (BENCHMARKS.md, "The engine's
//! own play"); `--draws` sets the draws after the deal (17 by default).
//!
//! `--outcomes` writes one line per game of every policy (seed, won, draws), so that
//! runs of different builds or settings on the same walls can be paired
//! (`tools/mahjong/paired.py`).
//!
//! `--record` writes every decision point of the engine's games as one envelope per
//! line (`bench/requests/README.md`: method, tag `shanten N`, source wall and decision,
//! the `SuggestMahjongDiscardRequest` in the proto's JSON mapping); the game-state
//! benchmark (`loadgen --requests bench/requests/mahjong_game_states.jsonl`) and
//! `tests/bench_requests.rs` read it.

use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::strategy::candidate::DiscardCandidate;
use gameai::mahjong::strategy::suggest_discard;
use gameai_tools::mahjong::solitaire::{Choice, DecisionPoint, Game, SOLITAIRE_DRAWS, play_draws};
use gameai_tools::mahjong::{baseline::baseline_discard, legacy};
use gameai_tools::measure::{self, thread_cpu_time};

#[derive(Debug, Parser)]
#[command(
    name = "mahjong-solitaire",
    about = "Mahjong decision quality by solitaire play"
)]
struct Cli {
    /// Walls to play (seeds `seed .. seed + games`).
    #[arg(long, default_value_t = 5000)]
    games: u64,
    /// First wall seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Policies to play, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "engine,advance-or-throw,baseline"
    )]
    policies: Vec<Policy>,
    /// Ruleset of the walls and hands.
    #[arg(long, value_enum, default_value = "riichi")]
    ruleset: RulesetArg,
    /// Draws after the deal (the issue-11 setting is 17; longer games give decisions
    /// with more draws left, for the play calibration's fit).
    #[arg(long, default_value_t = SOLITAIRE_DRAWS)]
    draws: u32,
    /// Work budget per decision in milliseconds (the server's default is 1000).
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// State bound of the advance-or-throw policy's search (the service used about
    /// 650,000; smaller bounds make long runs tractable and fall back sooner).
    #[arg(long, default_value_t = 100_000)]
    legacy_states: usize,
    /// Worker threads (games are independent).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Write the engine's decision points here (JSON lines).
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Write one JSON line per engine decision here: the wall's seed, the decision's
    /// turn (0-based), draws left, and the chosen candidate's shanten, continuation,
    /// method, win and tenpai figures with the win figure's standard error, its
    /// `play_win_probability` (null where absent), and whether the game was won.
    /// `tools/mahjong/fit_play_calibration.py` fits the calibration of
    /// `play_win_probability` on such files.
    #[arg(long)]
    decisions: Option<std::path::PathBuf>,
    /// Write one JSON line per game of every policy here: the policy, the wall's seed,
    /// whether the game was won and the draws made. Runs of different builds or
    /// settings on the same seeds pair up by seed (`tools/mahjong/paired.py`).
    #[arg(long)]
    outcomes: Option<std::path::PathBuf>,
    /// Print a progress line to stderr every N walls of each policy (0: only when a
    /// policy finishes). Long runs (5,000 walls of three policies) take about an hour.
    #[arg(long, default_value_t = 250)]
    progress: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Policy {
    Engine,
    AdvanceOrThrow,
    Baseline,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RulesetArg {
    General,
    Sichuan,
    Riichi,
}

impl From<RulesetArg> for Ruleset {
    fn from(r: RulesetArg) -> Ruleset {
        match r {
            RulesetArg::General => Ruleset::General,
            RulesetArg::Sichuan => Ruleset::Sichuan,
            RulesetArg::Riichi => Ruleset::Riichi,
        }
    }
}

/// One game's result with its decision times (wall clock, thread CPU).
struct Played {
    game: Game,
    times: Vec<(Duration, Duration)>,
    /// The chosen candidate's figures at each decision (engine only).
    figures: Vec<Option<DiscardCandidate>>,
}

fn decide(
    policy: Policy,
    p: &DecisionPoint,
    budget: Duration,
    legacy_states: usize,
) -> (Choice, Option<DiscardCandidate>) {
    let choice = match policy {
        Policy::Engine => {
            let advice =
                suggest_discard(&p.hand, Some(p.draws_left), Some(Instant::now() + budget))
                    .expect("a solitaire hand is a legal request");
            let first = advice.candidates[0].clone();
            let choice = Choice {
                discard: first.tile,
                reported_win: Some(first.win_probability),
            };
            return (choice, Some(first));
        }
        Policy::AdvanceOrThrow => {
            let (ranked, _) = legacy::rank_advance_or_throw(
                &p.hand,
                p.draws_left,
                Some(Instant::now() + budget),
                legacy_states,
            );
            Choice {
                discard: ranked[0].0,
                reported_win: Some(ranked[0].1),
            }
        }
        Policy::Baseline => Choice {
            discard: baseline_discard(&p.hand).expect("a hand has tiles"),
            reported_win: None,
        },
    };
    (choice, None)
}

fn play_all(cli: &Cli, policy: Policy) -> Vec<Played> {
    let ruleset: Ruleset = cli.ruleset.into();
    let budget = Duration::from_millis(cli.budget_ms);
    let next = Mutex::new(cli.seed);
    let results = Mutex::new(Vec::new());
    let began = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..cli.threads.max(1) {
            s.spawn(|| {
                loop {
                    let seed = {
                        let mut n = next.lock().unwrap();
                        if *n >= cli.seed + cli.games {
                            break;
                        }
                        *n += 1;
                        *n - 1
                    };
                    let mut times = Vec::new();
                    let mut figures = Vec::new();
                    let game = play_draws(seed, ruleset, cli.draws, |p| {
                        let (t0, c0) = (Instant::now(), thread_cpu_time());
                        let (c, f) = decide(policy, p, budget, cli.legacy_states);
                        times.push((t0.elapsed(), thread_cpu_time() - c0));
                        figures.push(f);
                        c
                    });
                    let mut results = results.lock().unwrap();
                    results.push(Played {
                        game,
                        times,
                        figures,
                    });
                    let done = results.len() as u64;
                    if cli.progress > 0 && done.is_multiple_of(cli.progress) {
                        eprintln!(
                            "{policy:?}: {done}/{} walls, {:.0} s",
                            cli.games,
                            began.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let mut out = results.into_inner().unwrap();
    out.sort_by_key(|p| p.game.seed);
    out
}

/// The JSON mapping of one decision point as a SuggestMahjongDiscardRequest.
/// One `--record` line: a `bench/requests` envelope (`bench/requests/README.md`) of the
/// `SuggestMahjongDiscardRequest` at decision `turn` (0-based) of wall `seed`, tagged by
/// the hand's shanten before the discard (`shanten N`, `-1` for a winning hand).
fn request_json(p: &DecisionPoint, ruleset: Ruleset, seed: u64, turn: usize) -> String {
    let shanten = p.hand.shanten_forms().min();
    let name = match ruleset {
        Ruleset::General => "RULESET_GENERAL",
        Ruleset::Sichuan => "RULESET_SICHUAN",
        Ruleset::Riichi => "RULESET_RIICHI",
    };
    serde_json::json!({
        "method": "gameai.v1.MahjongService/SuggestMahjongDiscard",
        "tag": format!("shanten {shanten}"),
        "source": format!("mahjong-solitaire wall {seed} decision {turn}"),
        "request": {
            "hand": p.hand.concealed().to_string(),
            "visible": p.hand.visible().to_string(),
            "drawsLeft": p.draws_left,
            "ruleset": name,
        },
    })
    .to_string()
}

/// Wilson-free normal interval half-width for a proportion.
fn half_width(p: f64, n: f64) -> f64 {
    1.96 * (p * (1.0 - p) / n).sqrt()
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    measure::percentile(sorted, q).unwrap_or(0.0)
}

fn load_average() -> String {
    measure::load_average().unwrap_or_else(|| "unknown".into())
}

/// Prints the calibration table of `(reported, won)` pairs per decile of the figure.
fn calibration_table(title: &str, pairs: &[(f64, bool)]) {
    println!("\n## Calibration: {title}\n");
    println!(
        "| reported | games | mean reported | realised | realised − reported | 95 % interval |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let mut bins = vec![(0usize, 0.0f64, 0usize); 10];
    for &(r, won) in pairs {
        let b = ((r * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += r;
        bins[b].2 += usize::from(won);
    }
    for (i, &(n, sum, wins)) in bins.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let nf = n as f64;
        let (rep, real) = (sum / nf, wins as f64 / nf);
        println!(
            "| {:.1}–{:.1} | {n} | {rep:.4} | {real:.4} | {:+.4} | ±{:.4} |",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0,
            real - rep,
            half_width(real, nf)
        );
    }
}

fn main() {
    let cli = Cli::parse();
    let ruleset: Ruleset = cli.ruleset.into();
    println!(
        "# mahjong-solitaire: {} walls from seed {}, {ruleset}, {} draws, budget {} ms, {} thread(s)\n",
        cli.games, cli.seed, cli.draws, cli.budget_ms, cli.threads
    );
    println!("Load average at start: {}\n", load_average());
    let began = Instant::now();
    let mut runs: Vec<(Policy, Vec<Played>)> = Vec::new();
    for &policy in &cli.policies {
        let t0 = Instant::now();
        let played = play_all(&cli, policy);
        eprintln!("{policy:?}: {:.0} s", t0.elapsed().as_secs_f64());
        runs.push((policy, played));
    }
    if let Some(path) = &cli.record
        && let Some((_, played)) = runs.iter().find(|(p, _)| *p == Policy::Engine)
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("record file"));
        let mut lines = 0;
        for p in played {
            for (turn, (point, _)) in p.game.decisions.iter().enumerate() {
                writeln!(f, "{}", request_json(point, ruleset, p.game.seed, turn)).expect("write");
                lines += 1;
            }
        }
        eprintln!("recorded {lines} decision points into {}", path.display());
    }

    if let Some(path) = &cli.outcomes {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("outcomes file"));
        for (policy, played) in &runs {
            for p in played {
                let row = serde_json::json!({
                    "policy": format!("{policy:?}"),
                    "seed": p.game.seed,
                    "won": p.game.won,
                    "draws": p.game.draws,
                });
                writeln!(f, "{row}").expect("write");
            }
        }
        eprintln!("wrote every game's outcome into {}", path.display());
    }

    if let Some(path) = &cli.decisions
        && let Some((_, played)) = runs.iter().find(|(p, _)| *p == Policy::Engine)
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("decisions file"));
        for p in played {
            for (turn, ((point, _), c)) in p.game.decisions.iter().zip(&p.figures).enumerate() {
                let Some(c) = c else { continue };
                let row = serde_json::json!({
                    "seed": p.game.seed,
                    "turn": turn,
                    "draws_left": point.draws_left,
                    "shanten": c.shanten,
                    "continuation": format!("{:?}", c.continuation),
                    "method": format!("{:?}", c.method),
                    "win": c.win_probability,
                    "win_stderr": c.win_stderr,
                    "tenpai": c.tenpai_probability,
                    "play": c.play.map(|f| f.win),
                    "won": p.game.won,
                });
                writeln!(f, "{row}").expect("write");
            }
        }
        eprintln!("wrote the engine's decisions into {}", path.display());
    }

    println!("## Win rates\n");
    println!("| policy | games | wins | win rate | 95 % interval |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (policy, played) in &runs {
        let n = played.len() as f64;
        let wins = played.iter().filter(|p| p.game.won).count() as f64;
        let rate = wins / n;
        println!(
            "| {policy:?} | {n} | {wins} | {rate:.4} | ±{:.4} |",
            half_width(rate, n)
        );
    }
    println!("\n## Paired differences (same walls)\n");
    println!("| a − b | difference | 95 % interval | walls where they differ |");
    println!("| --- | ---: | ---: | ---: |");
    for (i, (pa, a)) in runs.iter().enumerate() {
        for (pb, b) in runs.iter().skip(i + 1) {
            let d: Vec<f64> = a
                .iter()
                .zip(b)
                .map(|(x, y)| f64::from(u8::from(x.game.won)) - f64::from(u8::from(y.game.won)))
                .collect();
            let n = d.len() as f64;
            let mean = d.iter().sum::<f64>() / n;
            let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
            let half = 1.96 * (var / n).sqrt();
            let differ = d.iter().filter(|&&x| x != 0.0).count();
            println!(
                "| {pa:?} − {pb:?} | {mean:+.4} | {:+.4} to {:+.4} | {differ} |",
                mean - half,
                mean + half
            );
        }
    }
    println!("\n## Time per decision (ms; wall clock, and the deciding thread's CPU time)\n");
    println!("| policy | clock | decisions | median | p90 | p99 | max | mean |");
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (policy, played) in &runs {
        for (clock, pick) in [("wall", 0), ("CPU", 1)] {
            let mut t: Vec<f64> = played
                .iter()
                .flat_map(|p| {
                    p.times
                        .iter()
                        .map(move |d| if pick == 0 { d.0 } else { d.1 }.as_secs_f64() * 1e3)
                })
                .collect();
            t.sort_by(f64::total_cmp);
            let mean = t.iter().sum::<f64>() / t.len().max(1) as f64;
            println!(
                "| {policy:?} | {clock} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {mean:.2} |",
                t.len(),
                percentile(&t, 0.5),
                percentile(&t, 0.9),
                percentile(&t, 0.99),
                t.last().copied().unwrap_or(0.0)
            );
        }
    }
    for (policy, played) in &runs {
        if *policy == Policy::Baseline {
            continue;
        }
        let reported: Vec<(f64, bool)> = played
            .iter()
            .filter_map(|p| {
                let (_, choice) = p.game.decisions.first()?;
                Some((choice.reported_win?, p.game.won))
            })
            .collect();
        calibration_table(
            &format!("{policy:?}'s reported win probability at the first decision"),
            &reported,
        );
        if *policy == Policy::Engine {
            let play: Vec<(f64, bool)> = played
                .iter()
                .filter_map(|p| {
                    let c = p.figures.first()?.as_ref()?;
                    Some((c.play?.win, p.game.won))
                })
                .collect();
            if !play.is_empty() {
                calibration_table("Engine's play_win_probability at the first decision", &play);
            }
        }
    }
    println!(
        "\nLoad average at end: {}; {:.0} s in all.",
        load_average(),
        began.elapsed().as_secs_f64()
    );
}
