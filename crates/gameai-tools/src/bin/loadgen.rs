//! `loadgen`: a gRPC load generator for a running gameai server.
//!
//! Sends the calls of request files (`bench/requests/*.jsonl`, one call per line in
//! the proto3 JSON mapping; format in [`requests`] and `bench/requests/README.md`),
//! or the health check (`--health`, the floor: the cost of the RPC machinery alone),
//! over `--connections` HTTP/2 connections, either closed loop (`--concurrency`
//! workers, each sending its next call when the last answers) or open loop
//! (`--rate` calls per second, latency from the intended send time, at most
//! `--concurrency` in flight), for `--duration` or `--count` calls after a
//! `--warmup`. Reports throughput, the count per gRPC status code and latency
//! p50/p90/p99/p99.9/max from HDR histograms, per method (or per method and tag with
//! `--by-tag`) and in all; `--json` prints the same as one JSON object for scripts.
//! A progress bar is drawn on stderr when it is a terminal. At the end of the
//! duration no new call is sent and the calls in flight are awaited (each bounded by
//! `--timeout`) and counted. A call that never left the client (hyper cancels the
//! requests queued for a connection that closes after its GOAWAY) is sent again, as
//! gRPC's C core and grpc-go do, and counted as `transparent_retries`
//! ([`gameai_tools::loadgen::client::unary_retrying`]).
//!
//! Exit status: 0 when at least one measured call answered OK (the calls that failed
//! are counted per status code in the report: a run under overload expects some
//! RESOURCE_EXHAUSTED); 1 when calls were measured and not one answered OK (a server
//! that refuses everything, a wrong method or request), after printing the report;
//! 2 when the run could not start (bad flags, request files, no connection).
//!
//! Only point it at servers you run: loopback or your own test hosts.
//!
//! ```sh
//! target/release/loadgen --addr 127.0.0.1:50051 --health --concurrency 16 --duration 10s
//! target/release/loadgen --addr 127.0.0.1:50051 --requests bench/requests/doudizhu_play.jsonl \
//!     --rate 2000 --duration 30s --by-tag
//! ```

use gameai_tools::loadgen::{report, requests, run};

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use clap::Parser;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde_json::json;
use tonic::transport::Endpoint;

use requests::{Call, HEALTH_CHECK};

#[derive(Debug, Parser)]
#[command(
    name = "loadgen",
    about = "gRPC load generator for gameai: closed or open loop, HDR latency percentiles",
    after_help = "Request files: bench/requests/README.md. Example:\n  \
        loadgen --addr 127.0.0.1:50051 --requests bench/requests/mahjong_discard.jsonl --rate 100 --duration 30s\n\
        Exit status: 0 if any measured call answered OK, 1 if none did (report printed), \
        2 if the run could not start."
)]
struct Cli {
    /// Server address, host:port (your own servers only: loopback or test hosts).
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: String,

    /// Request files (JSONL, one call per line); several files make a mix.
    #[arg(long = "requests", value_name = "FILE", num_args = 1..)]
    files: Vec<PathBuf>,

    /// Send grpc.health.v1.Health/Check (service "") instead of request files: the
    /// floor that every RPC is compared with.
    #[arg(long, conflicts_with_all = ["files", "data"])]
    health: bool,

    /// Method of bare request lines and of --data; with envelope files, keep only the
    /// lines of this method. Full (gameai.v1.MahjongService/AnalyzeMahjongHand) or
    /// the method name alone.
    #[arg(long)]
    method: Option<String>,

    /// One request given inline in the JSON mapping (as `grpcurl -d`); needs --method.
    #[arg(long, requires = "method", conflicts_with = "files")]
    data: Option<String>,

    /// Keep only lines whose tag contains one of these (e.g. --tag shanten0 shanten1).
    #[arg(long, num_args = 1..)]
    tag: Vec<String>,

    /// Give every method the same share of calls, whatever its number of lines
    /// (default: cycle through all lines in order).
    #[arg(long)]
    balance_methods: bool,

    /// Shuffle the lines with this seed before cycling through them.
    #[arg(long)]
    shuffle_seed: Option<u64>,

    /// HTTP/2 connections; calls are spread over them round-robin.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    connections: u32,

    /// Closed loop: calls in flight (workers). Open loop: the most calls in flight.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    concurrency: u32,

    /// Open loop: send this many calls per second on a fixed schedule, whatever the
    /// server does; latency counts from each call's intended send time.
    #[arg(long)]
    rate: Option<f64>,

    /// How long to measure, e.g. 10s, 2m, 500ms (default 10s unless --count is given).
    #[arg(long, value_parser = humantime::parse_duration)]
    duration: Option<Duration>,

    /// How many calls to measure.
    #[arg(long)]
    count: Option<u64>,

    /// Calls during this first stretch are made but not recorded.
    #[arg(long, value_parser = humantime::parse_duration, default_value = "0s")]
    warmup: Duration,

    /// gRPC deadline of each call.
    #[arg(long, value_parser = humantime::parse_duration, default_value = "10s")]
    timeout: Duration,

    /// Break the report down by method and tag (default: by method).
    #[arg(long)]
    by_tag: bool,

    /// Probe grpc.health.v1.Health/Check this often on a connection of its own during
    /// the run (e.g. 250ms) and report what it answered.
    #[arg(long, value_parser = humantime::parse_duration)]
    probe_health: Option<Duration>,

    /// Print one JSON object (the whole report) on stdout instead of text.
    #[arg(long)]
    json: bool,

    /// Never draw the progress bar.
    #[arg(long)]
    no_progress: bool,

    /// Send nothing: write each request's protobuf bytes to DIR/METHOD/INDEX.pb
    /// (METHOD in snake_case; seed corpora for the fuzz targets) and exit.
    #[arg(long, value_name = "DIR")]
    dump_corpus: Option<PathBuf>,
}

/// `SuggestMahjongDiscard` -> `suggest_mahjong_discard` (the fuzz targets' names).
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn dump_corpus(calls: &[Call], dir: &std::path::Path) -> Result<(), String> {
    for (i, call) in calls.iter().enumerate() {
        let sub = dir.join(snake_case(&call.method));
        std::fs::create_dir_all(&sub).map_err(|e| format!("{}: {e}", sub.display()))?;
        let file = sub.join(format!("{i:05}.pb"));
        std::fs::write(&file, &call.body).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    eprintln!("wrote {} requests under {}", calls.len(), dir.display());
    Ok(())
}

fn load_calls(cli: &Cli) -> Result<Vec<Call>, String> {
    let pool = requests::descriptor_pool()?;
    let method = match (&cli.method, cli.health) {
        (Some(name), _) => Some(requests::find_method(&pool, name)?),
        (None, true) => Some(requests::find_method(&pool, HEALTH_CHECK)?),
        (None, false) => None,
    };
    let mut calls = Vec::new();
    if cli.health || cli.data.is_some() {
        let text = cli.data.as_deref().unwrap_or("{}");
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("--data: not JSON: {e}"))?;
        calls.push(requests::encode_json(method.as_ref().unwrap(), &json)?);
    }
    for file in &cli.files {
        let mut lines = requests::load_file(&pool, file, method.as_ref())?;
        if let Some(m) = &method {
            lines.retain(|c| c.method == m.name());
        }
        calls.extend(lines);
    }
    if !cli.tag.is_empty() {
        calls.retain(|c| cli.tag.iter().any(|t| c.tag.contains(t.as_str())));
    }
    if calls.is_empty() {
        return Err("no calls to make: give --requests FILE..., --health or --method with --data (and check --method / --tag filters)".into());
    }
    if let Some(seed) = cli.shuffle_seed {
        calls.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    }
    Ok(calls)
}

/// Report groups: names and the group of each call.
fn groups(calls: &[Call], by_tag: bool) -> (Vec<String>, Vec<usize>) {
    let mut names: Vec<String> = Vec::new();
    let mut group_of = Vec::with_capacity(calls.len());
    for c in calls {
        let name = if by_tag && !c.tag.is_empty() {
            format!("{} [{}]", c.method, c.tag)
        } else {
            c.method.clone()
        };
        let g = names.iter().position(|n| *n == name).unwrap_or_else(|| {
            names.push(name);
            names.len() - 1
        });
        group_of.push(g);
    }
    (names, group_of)
}

fn picker(calls: &[Call], balance: bool) -> run::Picker {
    if !balance {
        return run::Picker {
            lists: vec![(0..calls.len()).collect()],
        };
    }
    let mut methods: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, c) in calls.iter().enumerate() {
        match methods.iter_mut().find(|(m, _)| *m == c.method) {
            Some((_, list)) => list.push(i),
            None => methods.push((&c.method, vec![i])),
        }
    }
    run::Picker {
        lists: methods.into_iter().map(|(_, l)| l).collect(),
    }
}

fn progress_bar(cli: &Cli, duration: Option<Duration>) -> Option<indicatif::ProgressBar> {
    if cli.no_progress || !std::io::stderr().is_terminal() {
        return None;
    }
    let (len, template) = match (cli.count, duration) {
        (Some(n), _) => (n, "{bar:40} {pos}/{len} calls {msg}"),
        (None, d) => (
            (d.unwrap_or_default() + cli.warmup).as_secs().max(1),
            "{bar:40} {pos}/{len} s {msg}",
        ),
    };
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("valid template"));
    Some(bar)
}

/// How a run that started ended.
enum Ended {
    /// At least one measured call answered OK (or nothing was to be sent).
    Answered,
    /// This many calls were measured and not one answered OK.
    NoneOk(u64),
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match run_cli(cli).await {
        Ok(Ended::Answered) => std::process::ExitCode::SUCCESS,
        Ok(Ended::NoneOk(calls)) => {
            eprintln!("loadgen: not one of the {calls} calls answered OK (codes in the report)");
            std::process::ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("loadgen: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

async fn run_cli(cli: Cli) -> Result<Ended, String> {
    if let Some(rate) = cli.rate
        && !(rate.is_finite() && rate > 0.0)
    {
        return Err("--rate must be a positive number of calls per second".into());
    }
    let calls = load_calls(&cli)?;
    if let Some(dir) = &cli.dump_corpus {
        return dump_corpus(&calls, dir).map(|()| Ended::Answered);
    }
    let (group_names, group_of) = groups(&calls, cli.by_tag);
    let duration = match (cli.duration, cli.count) {
        (None, None) => Some(Duration::from_secs(10)),
        (d, _) => d,
    };
    let endpoint = Endpoint::from_shared(format!("http://{}", cli.addr))
        .map_err(|e| format!("--addr {}: {e}", cli.addr))?
        .connect_timeout(Duration::from_secs(5))
        .tcp_nodelay(true);
    let mut channels = Vec::new();
    for _ in 0..cli.connections {
        channels.push(
            endpoint
                .connect()
                .await
                .map_err(|e| format!("cannot connect to {}: {e}", cli.addr))?,
        );
    }
    let probe = match cli.probe_health {
        Some(every) => Some((
            endpoint
                .connect()
                .await
                .map_err(|e| format!("cannot connect the health probe: {e}"))?,
            every,
        )),
        None => None,
    };
    let plan = run::Plan {
        picker: Arc::new(picker(&calls, cli.balance_methods)),
        calls: Arc::new(calls),
        group_of: Arc::new(group_of),
        group_names,
        channels,
        concurrency: cli.concurrency as usize,
        rate: cli.rate,
        warmup: cli.warmup,
        duration,
        count: cli.count,
        timeout: cli.timeout,
        probe,
    };

    let progress = Arc::new(run::Progress::default());
    let bar = progress_bar(&cli, duration);
    let ticker = bar.clone().map(|bar| {
        let progress = progress.clone();
        let by_count = cli.count.is_some();
        tokio::spawn(async move {
            let began = std::time::Instant::now();
            loop {
                tokio::time::sleep(Duration::from_millis(200)).await;
                let done = progress.done.load(Ordering::Relaxed);
                let errors = progress.errors.load(Ordering::Relaxed);
                let secs = began.elapsed().as_secs_f64();
                bar.set_position(if by_count { done } else { secs as u64 });
                bar.set_message(format!(
                    "{done} done, {:.0} calls/s, {errors} not OK",
                    done as f64 / secs
                ));
            }
        })
    });
    let outcome = run::run(plan, progress).await;
    if let Some(t) = ticker {
        t.abort();
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    let total = outcome.recorded.total();
    let summary = json!({
        "target": cli.addr,
        "mode": if cli.rate.is_some() { "open" } else { "closed" },
        "rate": cli.rate,
        "connections": cli.connections,
        "concurrency": cli.concurrency,
        "warmup_s": cli.warmup.as_secs_f64(),
        "elapsed_s": outcome.elapsed.as_secs_f64(),
        "groups": outcome.recorded.groups.iter()
            .filter(|g| g.calls() > 0)
            .map(|g| report::group_json(g, outcome.elapsed))
            .collect::<Vec<_>>(),
        "total": report::group_json(&total, outcome.elapsed),
        "send_lag_ms": if cli.rate.is_some() {
            report::percentiles_ms(&outcome.recorded.send_lag)
        } else {
            serde_json::Value::Null
        },
        "health_probe": outcome.probe.as_ref().map(|p| json!({
            "probes": p.probes,
            "serving": p.serving,
            "not_serving": p.not_serving,
            "errors": p.errors,
            "latency_ms": report::percentiles_ms(&p.latency),
        })),
    });
    if cli.json {
        println!("{summary}");
    } else {
        print!("{}", report::text(&summary));
    }
    if total.calls() > 0 && total.count("OK") == 0 {
        return Ok(Ended::NoneOk(total.calls()));
    }
    Ok(Ended::Answered)
}
