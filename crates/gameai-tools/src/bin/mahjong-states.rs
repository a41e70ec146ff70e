//! `mahjong-states`: the mahjong discard engine replayed in process on recorded game
//! states, timed per decision, with the decisions written out for comparison.
//!
//! Reads a request file of `SuggestMahjongDiscard` envelopes (`bench/requests/README.md`;
//! `bench/requests/mahjong_game_states.jsonl`, recorded by `mahjong-solitaire --record`),
//! runs the engine on each state one at a time at the given budget, and prints, as
//! Markdown, the wall-clock and thread-CPU latency distribution per tag (`shanten N`) and
//! in all. `--out` writes one JSON line per state (source, chosen discard, its figures,
//! the states the searches evaluated, times); `--compare` reads such a file from an
//! earlier build and counts the states whose chosen discard differs, listing them with
//! both builds' figures.
//!
//! ```sh
//! cargo run --release --bin mahjong-states -- \
//!     --requests bench/requests/mahjong_game_states.jsonl --out /tmp/after.jsonl \
//!     --compare /tmp/before.jsonl
//! ```

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use gameai::mahjong::hand::Hand;
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::strategy::{Effort, Method, suggest_discard_within};
use gameai_tools::measure::{self, thread_cpu_time};
use serde::{Deserialize, Serialize};

#[derive(Debug, Parser)]
#[command(
    name = "mahjong-states",
    about = "Time the mahjong discard engine on recorded game states"
)]
struct Cli {
    /// Request file (JSON lines of SuggestMahjongDiscard envelopes).
    #[arg(long, default_value = "bench/requests/mahjong_game_states.jsonl")]
    requests: PathBuf,
    /// Work budget per decision in milliseconds (the server's default is 1000).
    #[arg(long, default_value_t = 1000)]
    budget_ms: u64,
    /// Only the first N states.
    #[arg(long)]
    limit: Option<usize>,
    /// Write every decision here (JSON lines).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Compare the decisions with an earlier `--out` file.
    #[arg(long)]
    compare: Option<PathBuf>,
    /// Sleep this long between states (0: none), as a server idles between calls one at
    /// a time: the thread then starts each decision on caches other work has used.
    #[arg(long, default_value_t = 0.0)]
    pause_ms: f64,
    /// The engine's work bounds: `full` (a solitaire request's) or `table` (what a table
    /// request gets when it needs win probabilities, `Effort::TABLE`).
    #[arg(long, value_enum, default_value_t = EffortArg::Full)]
    effort: EffortArg,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum EffortArg {
    Full,
    Table,
}

#[derive(Debug, Deserialize)]
struct Envelope {
    request: Request,
    #[serde(default)]
    source: String,
    #[serde(default)]
    tag: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Request {
    hand: String,
    #[serde(default)]
    visible: String,
    draws_left: Option<u32>,
    #[serde(default)]
    ruleset: String,
}

/// One decision as written by `--out`.
#[derive(Debug, Serialize, Deserialize)]
struct Decision {
    source: String,
    tag: String,
    discard: String,
    win: f64,
    win_stderr: f64,
    /// Tenpai probability of the discard (absent from files of older builds).
    #[serde(default)]
    tenpai: f64,
    simulated: bool,
    /// States the engine's searches evaluated (absent from files of older builds).
    #[serde(default)]
    states: u64,
    wall_ms: f64,
    cpu_ms: f64,
}

fn ruleset(name: &str) -> Ruleset {
    match name {
        "RULESET_GENERAL" => Ruleset::General,
        "RULESET_SICHUAN" => Ruleset::Sichuan,
        _ => Ruleset::Riichi,
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    measure::percentile(sorted, q).unwrap_or(f64::NAN)
}

fn load_average() -> String {
    measure::load_average().unwrap_or_default()
}

fn main() {
    let cli = Cli::parse();
    let file = std::fs::File::open(&cli.requests).expect("request file");
    let budget = Duration::from_millis(cli.budget_ms);
    println!(
        "# mahjong-states: {}, budget {} ms\n\nLoad average at start: {}\n",
        cli.requests.display(),
        cli.budget_ms,
        load_average()
    );
    let mut decisions = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.expect("read");
        if line.trim().is_empty() {
            continue;
        }
        if cli.limit.is_some_and(|n| decisions.len() >= n) {
            break;
        }
        if cli.pause_ms > 0.0 && !decisions.is_empty() {
            std::thread::sleep(Duration::from_secs_f64(cli.pause_ms / 1e3));
        }
        let e: Envelope = serde_json::from_str(&line).expect("an envelope");
        let r = &e.request;
        let hand = Hand::parse(&r.hand, Vec::new(), &r.visible, ruleset(&r.ruleset))
            .expect("a legal hand");
        let (t0, c0) = (Instant::now(), thread_cpu_time());
        let effort = match cli.effort {
            EffortArg::Full => Effort::FULL,
            EffortArg::Table => Effort::TABLE,
        };
        let advice =
            suggest_discard_within(&hand, r.draws_left, Some(Instant::now() + budget), &effort)
                .expect("a legal request");
        let (wall, cpu) = (t0.elapsed(), thread_cpu_time() - c0);
        let first = &advice.candidates[0];
        decisions.push(Decision {
            source: e.source,
            tag: e.tag,
            discard: first.tile.to_string(),
            win: first.win_probability,
            win_stderr: first.win_stderr,
            tenpai: first.tenpai_probability,
            simulated: first.method == Method::Simulated,
            states: advice.states,
            wall_ms: wall.as_secs_f64() * 1e3,
            cpu_ms: cpu.as_secs_f64() * 1e3,
        });
    }
    println!("Load average at end: {}\n", load_average());
    let mut groups: BTreeMap<String, Vec<&Decision>> = BTreeMap::new();
    for d in &decisions {
        groups.entry(d.tag.clone()).or_default().push(d);
    }
    groups.insert("all".into(), decisions.iter().collect());
    println!(
        "| tag | states | wall p50 | p90 | p99 | max | CPU p50 | p90 | p99 | max | CPU total s |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (tag, ds) in &groups {
        let mut w: Vec<f64> = ds.iter().map(|d| d.wall_ms).collect();
        let mut c: Vec<f64> = ds.iter().map(|d| d.cpu_ms).collect();
        w.sort_by(f64::total_cmp);
        c.sort_by(f64::total_cmp);
        let q = |v: &[f64], x| format!("{:.1}", percentile(v, x));
        println!(
            "| {tag} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            ds.len(),
            q(&w, 0.5),
            q(&w, 0.9),
            q(&w, 0.99),
            q(&w, 1.0),
            q(&c, 0.5),
            q(&c, 0.9),
            q(&c, 0.99),
            q(&c, 1.0),
            c.iter().sum::<f64>() / 1e3
        );
    }
    if let Some(path) = &cli.out {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("out file"));
        for d in &decisions {
            writeln!(f, "{}", serde_json::to_string(d).expect("json")).expect("write");
        }
    }
    if let Some(path) = &cli.compare {
        let text = std::fs::read_to_string(path).expect("compare file");
        let before: HashMap<String, Decision> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<Decision>(l).expect("a decision"))
            .map(|d| (d.source.clone(), d))
            .collect();
        let mut paired = 0;
        let mut changed = Vec::new();
        for d in &decisions {
            if let Some(b) = before.get(&d.source) {
                paired += 1;
                if b.discard != d.discard {
                    changed.push((b, d));
                }
            }
        }
        println!(
            "\nChosen discard changed on {} of {paired} states ({:.1} %).\n",
            changed.len(),
            100.0 * changed.len() as f64 / paired.max(1) as f64
        );
        if !changed.is_empty() {
            println!("| source | tag | before | win ± se | after | win ± se |");
            println!("| --- | --- | --- | ---: | --- | ---: |");
            for (b, a) in &changed {
                println!(
                    "| {} | {} | {} | {:.4} ± {:.4} | {} | {:.4} ± {:.4} |",
                    a.source, a.tag, b.discard, b.win, b.win_stderr, a.discard, a.win, a.win_stderr
                );
            }
        }
    }
}
