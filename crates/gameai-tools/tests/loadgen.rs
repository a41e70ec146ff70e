//! The load generator (`src/bin/loadgen.rs`) against a real server: what it counts at the
//! end of a run and across connection-age cycles. A soak (tools/load/soak.py) reads
//! "no error" off these counts, so a call loadgen itself failed would be charged to
//! the server.

/// The server harness of gameai's own tests.
#[path = "../../../tests/common/mod.rs"]
mod common;

use std::process::Command;
use std::time::Duration;

use common::{fetch_metrics, metric_value, start_server, wait_serving};
use gameai::server::{self, ServerConfig};
use serde_json::Value;

/// Runs loadgen against `server` in the open loop: SuggestMahjongDiscard on a
/// 5-shanten opening hand whose simulated figures do not reach their target standard
/// error within these budgets (each call runs to its `budget_ms` and answers the
/// estimates it has; measured ~300 ms at 300), `rate` calls/s for `duration`, over
/// `connections`. Returns loadgen's JSON report and how many of those calls the
/// server handled.
async fn discards(
    server: &common::TestServer,
    budget_ms: u64,
    rate: &str,
    duration: &str,
    connections: &str,
) -> (Value, f64) {
    let before = discards_handled(&server.metrics_url).await;
    let data = format!(
        r#"{{"hand":"49m12359p359s1237z","ruleset":"RULESET_RIICHI","budget_ms":{budget_ms}}}"#
    );
    let args: Vec<String> = [
        "--addr",
        &server.grpc_addr.to_string(),
        "--json",
        "--no-progress",
        "--method",
        "SuggestMahjongDiscard",
        "--data",
        &data,
        "--rate",
        rate,
        "--duration",
        duration,
        "--connections",
        connections,
        "--timeout",
        "10s",
    ]
    .map(String::from)
    .into();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_loadgen"))
            .args(args)
            .output()
            .expect("run loadgen")
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "loadgen: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = serde_json::from_slice(&out.stdout).expect("loadgen --json");
    (report, discards_handled(&server.metrics_url).await - before)
}

/// The server's counters are the process's (one metrics recorder): the tests that
/// read them take turns.
static METRICS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn discards_handled(metrics_url: &str) -> f64 {
    let text = fetch_metrics(metrics_url).await;
    metric_value(
        &text,
        "grpc_server_handled_total",
        &[("grpc_method", "SuggestMahjongDiscard")],
    )
    .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_in_flight_when_the_duration_ends_finish_and_are_counted() {
    let _turn = METRICS.lock().await;
    let server = start_server(ServerConfig::default(), server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    // 20 calls/s for 1 s: calls are due at 0, 50, ..., 950 ms, each takes about
    // 300 ms, so the last five are in flight when the second ends. loadgen sends no
    // more, waits for those (each bounded by its deadline) and counts them.
    let (report, handled) = discards(&server, 300, "20", "1s", "1").await;
    let total = &report["total"];
    assert_eq!(total["codes"], serde_json::json!({"OK": 20}), "{total}");
    // Measured to the last completion: past the 1 s window by the last call's ~300 ms.
    let elapsed = report["elapsed_s"].as_f64().unwrap();
    assert!(elapsed > 1.2, "elapsed {elapsed} s");
    assert_eq!(handled, 20.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_call_fails_across_connection_age_cycles() {
    let _turn = METRICS.lock().await;
    // Age 1 s, grace 1 s: each connection gets its GOAWAY every second. hyper cancels
    // the requests still queued for a closing connection (CANCELLED "operation was
    // canceled", never written); loadgen sends those again, as gRPC's own clients do.
    // Before it did, the 10-minute soak lost two calls this way with the default age
    // of 300 s, and a 45 s mix at 30 calls/s with a 3 s age lost 25 of 1,350.
    let config = ServerConfig {
        max_connection_age: Some(Duration::from_secs(1)),
        shutdown_grace: Duration::from_secs(1),
        ..ServerConfig::default()
    };
    let server = start_server(config, server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let (report, handled) = discards(&server, 100, "40", "5s", "2").await;
    let total = &report["total"];
    assert_eq!(total["codes"], serde_json::json!({"OK": 200}), "{total}");
    // The server saw each call once: a retried attempt had never reached it.
    assert_eq!(handled, 200.0);
    eprintln!(
        "200 calls OK over about ten connections, {} transparent retries",
        total["transparent_retries"]
    );
}

/// Runs loadgen with `args` (and `--json --no-progress`) against `server`: its exit
/// code and its JSON report.
async fn loadgen(server: &common::TestServer, args: &[&str]) -> (Option<i32>, Value) {
    let mut all: Vec<String> = vec![
        "--addr".into(),
        server.grpc_addr.to_string(),
        "--json".into(),
        "--no-progress".into(),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_loadgen"))
            .args(all)
            .output()
            .expect("run loadgen")
    })
    .await
    .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "loadgen --json ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exit_status_is_a_failure_only_when_no_call_answered_ok() {
    let server = start_server(ServerConfig::default(), server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    // "9z" is no tile: every AnalyzeMahjongHand call is INVALID_ARGUMENT. The report is
    // still printed, then loadgen exits 1.
    let (code, report) = loadgen(
        &server,
        &[
            "--method",
            "AnalyzeMahjongHand",
            "--data",
            r#"{"hand":"123m456p789s1129z"}"#,
            "--count",
            "6",
        ],
    )
    .await;
    let codes = &report["total"]["codes"];
    assert_eq!(
        *codes,
        serde_json::json!({"INVALID_ARGUMENT": 6}),
        "{report}"
    );
    assert_eq!(code, Some(1), "{report}");

    // Half the lines of a file are that bad hand, half a good one: the calls that
    // failed are counted by code and the run exits 0.
    let file = std::env::temp_dir().join(format!("loadgen-mixed-{}.jsonl", std::process::id()));
    std::fs::write(
        &file,
        "{\"hand\":\"123m456p789s1122z\"}\n{\"hand\":\"123m456p789s1129z\"}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap().to_string();
    let (code, report) = loadgen(
        &server,
        &[
            "--method",
            "AnalyzeMahjongHand",
            "--requests",
            &path,
            "--count",
            "6",
            "--concurrency",
            "1",
        ],
    )
    .await;
    std::fs::remove_file(&file).unwrap();
    let codes = &report["total"]["codes"];
    assert_eq!(
        *codes,
        serde_json::json!({"OK": 3, "INVALID_ARGUMENT": 3}),
        "{report}"
    );
    assert_eq!(code, Some(0), "{report}");
}
