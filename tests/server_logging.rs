//! Logging never holds up a request (issue 12, "Logging can stall the server"): the
//! real binary with a stderr that nobody reads, and the level of the per-call line.

mod common;

use std::time::{Duration, Instant};

use common::{BinaryServer, fetch_metrics, metric_value, wait_serving};
use tokio::task::JoinSet;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

/// Health checks at once.
const WORKERS: usize = 16;

/// Calls per worker: 16 x 50 = 800 call lines, past the 64 KiB of the pipe (about 260
/// lines of about 250 bytes) plus the queue's 256 lines (`--log-queue-lines`), so the
/// queue must drop. (Without the queue, the server stopped answering once the pipe
/// was full.)
const CALLS_PER_WORKER: usize = 50;

#[test]
fn a_server_whose_stderr_nobody_reads_keeps_answering() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    // stderr is a pipe (common::BinaryServer) that this test reads only after the exit.
    let mut server =
        BinaryServer::start(&["--log-format", "json", "--log-queue-lines", "256"], &[]);
    let channel = server.channel.clone();
    let metrics_url = server.metrics_url.clone();
    let began = Instant::now();
    runtime.block_on(async move {
        wait_serving(&channel, "").await;
        let mut workers = JoinSet::new();
        for _ in 0..WORKERS {
            let mut client = HealthClient::new(channel.clone());
            workers.spawn(async move {
                for i in 0..CALLS_PER_WORKER {
                    let mut request = tonic::Request::new(HealthCheckRequest {
                        service: String::new(),
                    });
                    request.set_timeout(Duration::from_secs(5));
                    client
                        .check(request)
                        .await
                        .map_err(|status| format!("call {i}: {status:?}"))?;
                }
                Ok::<_, String>(())
            });
        }
        while let Some(done) = workers.join_next().await {
            if let Err(e) = done.unwrap() {
                workers.abort_all();
                panic!("a call failed while stderr was full: {e}");
            }
        }
        let text = fetch_metrics(&metrics_url).await;
        let dropped = metric_value(&text, "gameai_log_lines_dropped_total", &[]).unwrap();
        assert!(dropped > 0.0, "the queue must have overflowed: {dropped}");
        let answered = metric_value(
            &text,
            "grpc_server_handled_total",
            &[("grpc_method", "Check"), ("grpc_code", "OK")],
        )
        .unwrap();
        assert!(
            answered >= (WORKERS * CALLS_PER_WORKER) as f64,
            "{answered}"
        );
    });
    eprintln!(
        "{} calls in {:?}",
        WORKERS * CALLS_PER_WORKER,
        began.elapsed()
    );

    // The exit is not held by the full pipe either: the flush gives up after ~1.1 s.
    server.sigterm();
    let status = server.wait_exit(Duration::from_secs(10));
    assert_eq!(status.code(), Some(0));
    // What reached the pipe is whole JSON lines (the writer drops lines, not bytes).
    let logs = server.stderr();
    let first = logs.lines().next().expect("some lines reached stderr");
    serde_json::from_str::<serde_json::Value>(first).expect(first);
}

/// The per-call line's level: `--rpc-log-level debug` (or `off`) under `--log-level
/// info` hides the lines of ordinary calls, `warn` shows them at WARN (the default,
/// `info`, is `server_shutdown.rs`'s JSON test). The three servers run at once.
#[test]
fn the_rpc_line_level_is_configurable() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    let levels = ["debug", "off", "warn"];
    let mut servers: Vec<BinaryServer> = levels
        .iter()
        .map(|level| {
            BinaryServer::start(
                &["--log-format", "json"],
                &[("GAMEAI_RPC_LOG_LEVEL", level)],
            )
        })
        .collect();
    for server in &servers {
        // SERVING: a SIGTERM during start-up would wait for the tables' build.
        runtime.block_on(wait_serving(&server.channel, ""));
        server.sigterm();
    }
    for (server, level) in servers.iter_mut().zip(levels) {
        let status = server.wait_exit(Duration::from_secs(20));
        let logs = server.stderr();
        assert_eq!(status.code(), Some(0), "{logs}");
        let rpc_lines: Vec<serde_json::Value> = logs
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|l| l["fields"]["message"] == "rpc finished")
            .collect();
        if level == "warn" {
            assert!(!rpc_lines.is_empty(), "{level}: {logs}");
            assert!(rpc_lines.iter().all(|l| l["level"] == "WARN"), "{logs}");
        } else {
            assert!(rpc_lines.is_empty(), "{level}: {logs}");
        }
        // The exit flushed the queue: the last line is the one main logs last.
        let last: serde_json::Value = serde_json::from_str(logs.lines().last().unwrap()).unwrap();
        assert_eq!(last["fields"]["message"], "gameai stopped", "{logs}");
    }
}
