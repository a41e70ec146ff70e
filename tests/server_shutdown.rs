//! The real binary: configuration from flags and `GAMEAI_*`, JSON logs with one line
//! per RPC, and exit code 0 after SIGTERM.

mod common;

use std::time::Duration;

use common::{BinaryServer, fetch_metrics, health, metric_value, wait_serving};
use tonic_health::pb::health_check_response::ServingStatus;

#[test]
fn sigterm_exits_zero() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    let mut server = BinaryServer::start(&[], &[]);
    let channel = server.channel.clone();
    runtime.block_on(wait_serving(&channel, ""));
    server.sigterm();
    let status = server.wait_exit(Duration::from_secs(20));
    let logs = server.stderr();
    assert_eq!(status.code(), Some(0), "{logs}");
    assert!(logs.contains("SIGTERM received"), "{logs}");
}

#[test]
fn env_config_and_json_logs_with_one_line_per_rpc() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    let mut server = BinaryServer::start(
        &[],
        &[
            ("GAMEAI_LOG_FORMAT", "json"),
            ("GAMEAI_LOG_LEVEL", "info"),
            ("GAMEAI_MAX_INFLIGHT", "7"),
        ],
    );
    let channel = server.channel.clone();
    let metrics_url = server.metrics_url.clone();
    runtime.block_on(async {
        wait_serving(&channel, "").await;
        assert_eq!(
            health(&channel, "gameai.v1.GomokuService").await.unwrap(),
            ServingStatus::Serving
        );
        let text = fetch_metrics(&metrics_url).await;
        assert!(metric_value(&text, "grpc_server_started_total", &[]).is_some());
    });
    server.sigterm();
    let status = server.wait_exit(Duration::from_secs(20));
    let logs = server.stderr();
    assert_eq!(status.code(), Some(0), "{logs}");

    let lines: Vec<serde_json::Value> = logs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    // The start-up line shows the configuration taken from GAMEAI_MAX_INFLIGHT.
    assert!(
        lines.iter().any(|l| l["fields"]["config"]
            .as_str()
            .is_some_and(|c| c.contains("max_inflight: Some(7)"))),
        "{logs}"
    );
    // One line per RPC, in its span, with method, code and latency.
    let rpc = lines
        .iter()
        .find(|l| {
            l["fields"]["message"] == "rpc finished"
                && l["span"]["rpc.method"] == "/grpc.health.v1.Health/Check"
        })
        .unwrap_or_else(|| panic!("no rpc line in {logs}"));
    assert_eq!(rpc["span"]["grpc.code"], "OK");
    assert!(rpc["span"]["latency_ms"].as_f64().unwrap() >= 0.0);
}

#[test]
fn help_documents_every_flag_and_its_environment_variable() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_gameai"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for (flag, env) in [
        ("--grpc-addr", "GAMEAI_GRPC_ADDR"),
        ("--metrics-addr", "GAMEAI_METRICS_ADDR"),
        ("--log-format", "GAMEAI_LOG_FORMAT"),
        ("--log-level", "GAMEAI_LOG_LEVEL"),
        ("--rpc-log-level", "GAMEAI_RPC_LOG_LEVEL"),
        ("--log-queue-lines", "GAMEAI_LOG_QUEUE_LINES"),
        ("--max-inflight", "GAMEAI_MAX_INFLIGHT"),
        ("--engine-threads", "GAMEAI_ENGINE_THREADS"),
        ("--max-message-bytes", "GAMEAI_MAX_MESSAGE_BYTES"),
        ("--request-budget-ms", "GAMEAI_REQUEST_BUDGET_MS"),
        ("--default-budget-ms", "GAMEAI_DEFAULT_BUDGET_MS"),
        ("--shutdown-grace-secs", "GAMEAI_SHUTDOWN_GRACE_SECS"),
        (
            "--max-connection-age-secs",
            "GAMEAI_MAX_CONNECTION_AGE_SECS",
        ),
        ("--engine-memory-mb", "GAMEAI_ENGINE_MEMORY_MB"),
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
        assert!(
            help.contains(&format!("[env: {env}=")),
            "{env} missing from --help"
        );
    }
}
