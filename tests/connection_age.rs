//! Connection ageing (issue 12, "Connection ageing fails calls"): with a short
//! `max_connection_age`, clients calling back to back on one channel through many age
//! cycles see no failure, because each aged connection ends with GOAWAY and its calls
//! in flight finish (`src/server/connections.rs` has the tonic defect this guards
//! against: with a grace set it cut connections with no GOAWAY). A connection that
//! outlives the age plus its grace is cut.
//!
//! The Python grpcio check is `#[ignore]`d because it needs a Python with grpcio: CI
//! runs it (`.ci/run`) with `GAMEAI_TEST_PYTHON` set to the arena's venv:
//!
//! ```sh
//! GAMEAI_TEST_PYTHON=tools/arena/.venv/bin/python cargo test --test connection_age -- --ignored
//! ```

mod common;

use std::time::{Duration, Instant};

use common::{fetch_metrics, metric_value, never_sent, start_server, wait_serving};
use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::proto::{Ruleset, SuggestMahjongDiscardRequest};
use gameai::server::{self, ServerConfig};
use tokio::task::JoinSet;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

/// Age 1 s, grace 1 s: an aged connection gets its GOAWAY after 1 s, and one still open
/// after 2 s is cut (before the fix, every connection was cut at 2 s, with no GOAWAY).
fn aged_config() -> ServerConfig {
    ServerConfig {
        max_connection_age: Some(Duration::from_secs(1)),
        shutdown_grace: Duration::from_secs(1),
        ..ServerConfig::default()
    }
}

/// A call of about 100 ms: a 5-shanten hand whose simulated figures do not reach their
/// target standard error in 100 ms, so the call spends its budget (with 3 s it would
/// end early, at about 1.8 s in a debug build).
fn hundred_ms_call() -> SuggestMahjongDiscardRequest {
    SuggestMahjongDiscardRequest {
        hand: "49m12359p359s1237z".into(),
        ruleset: Ruleset::Riichi as i32,
        budget_ms: 100,
        ..Default::default()
    }
}

async fn accepted(metrics_url: &str) -> f64 {
    let text = fetch_metrics(metrics_url).await;
    metric_value(&text, "gameai_grpc_connections_accepted_total", &[]).unwrap()
}

/// SuggestMahjongDiscard calls the server has finished: (all, OK).
async fn discards_handled(metrics_url: &str) -> (f64, f64) {
    let text = fetch_metrics(metrics_url).await;
    let method = ("grpc_method", "SuggestMahjongDiscard");
    let count = |labels: &[(&str, &str)]| {
        metric_value(&text, "grpc_server_handled_total", labels).unwrap_or(0.0)
    };
    (count(&[method]), count(&[method, ("grpc_code", "OK")]))
}

#[tokio::test]
async fn no_call_the_server_accepted_fails_across_age_cycles() {
    let server = start_server(aged_config(), server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let accepted_before = accepted(&server.metrics_url).await;
    let handled_before = discards_handled(&server.metrics_url).await;
    // Four callers share one channel, as the tasks of a backend do; each always has a
    // call in flight, so a cut connection would fail one.
    let mut workers = JoinSet::new();
    for _ in 0..4 {
        let mut client = MahjongServiceClient::new(server.channel.clone());
        workers.spawn(async move {
            let end = Instant::now() + Duration::from_secs(6);
            let (mut ok, mut unsent) = (0u32, 0u32);
            while Instant::now() < end {
                match client.suggest_mahjong_discard(hundred_ms_call()).await {
                    Ok(_) => ok += 1,
                    Err(status) if never_sent(&status) => unsent += 1,
                    Err(status) => return Err(format!("call {}: {status:?}", ok + unsent)),
                }
            }
            Ok::<_, String>((ok, unsent))
        });
    }
    let (mut ok, mut unsent) = (0, 0);
    for done in workers.join_all().await {
        let (o, u) = done.expect("no call fails but those that never left the client");
        ok += o;
        unsent += u;
    }
    // The server's view: every call it started, it answered OK; none was cut.
    let (all, all_ok) = discards_handled(&server.metrics_url).await;
    assert_eq!(
        all - handled_before.0,
        f64::from(ok),
        "calls the server finished"
    );
    assert_eq!(
        all_ok - handled_before.1,
        f64::from(ok),
        "calls the server answered OK"
    );
    let cycles = accepted(&server.metrics_url).await - accepted_before;
    assert!(cycles >= 4.0, "{cycles} connections in 6 s with a 1 s age");
    eprintln!("{ok} calls OK, {unsent} never sent (tonic), over {cycles} connections");
}

#[tokio::test]
async fn a_stream_outliving_the_age_and_its_grace_is_cut() {
    let server = start_server(aged_config(), server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let text = fetch_metrics(&server.metrics_url).await;
    let cut_before = metric_value(&text, "gameai_grpc_connections_cut_total", &[]).unwrap();
    // A health Watch never ends by itself, so its connection (a new one, made now)
    // outlives the GOAWAY.
    let channel = common::channel_to(server.grpc_addr);
    let mut stream = HealthClient::new(channel)
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let began = Instant::now();
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stream.message().await {
                Ok(Some(_)) => continue,
                other => return other.map(|_| ()),
            }
        }
    })
    .await
    .expect("the stream ends within 10 s");
    assert!(ended.is_err(), "a cut stream ends with an error: {ended:?}");
    assert!(
        began.elapsed() >= Duration::from_millis(1500),
        "{:?}",
        began.elapsed()
    );
    let text = fetch_metrics(&server.metrics_url).await;
    let cut = metric_value(&text, "gameai_grpc_connections_cut_total", &[]).unwrap();
    assert!(cut > cut_before, "{cut} <= {cut_before}");
}

/// `examples/python/steady_calls.py` through about eight age cycles, once with the
/// shipped `examples/service_config.json` (retries on: the client must see no failure
/// at all) and once with retries turned off (`grpc.enable_retries` 0), which tests the
/// server: every call it processed succeeded, and the client lost none of them.
///
/// With retries off, gRPC's transparent retry (gRFC A6) is off too, and a call the
/// client had queued on the connection as the server's first GOAWAY arrived fails on
/// the client with `UNAVAILABLE: ... GOAWAY received` without ever reaching the
/// server: a race between choosing a transport and its GOAWAY that the server cannot
/// close (grpc-go #2767, grpc-java #8310; seen here once in a CI run, 1 of 81 calls).
/// So the check is that such are the only failures, and that the server handled
/// exactly the calls the clients saw succeed, all of them OK.
#[tokio::test]
#[ignore = "needs a Python with grpcio: set GAMEAI_TEST_PYTHON (CI does)"]
async fn python_grpcio_clients_lose_no_processed_call_across_age_cycles() {
    let python = std::env::var("GAMEAI_TEST_PYTHON")
        .expect("GAMEAI_TEST_PYTHON names a Python with grpcio and grpcio-tools");
    let server = start_server(aged_config(), server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let accepted_before = accepted(&server.metrics_url).await;
    let handled_before = discards_handled(&server.metrics_url).await;
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/python/steady_calls.py"
    );
    let addr = server.grpc_addr.to_string();
    let runs: Vec<_> = [true, false]
        .into_iter()
        .map(|retries| {
            let mut command = tokio::process::Command::new(&python);
            command.args([script, "--addr", &addr, "--seconds", "8", "--json"]);
            if !retries {
                command.arg("--no-retries");
            }
            command.kill_on_drop(true).output()
        })
        .collect();
    let mut client_ok = 0;
    for (output, retries) in futures_util::future::join_all(runs)
        .await
        .into_iter()
        .zip([true, false])
    {
        let output = output.expect("run Python");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let report: serde_json::Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|e| panic!("retries {retries}: {e}: {stdout}\n{stderr}"));
        let codes = report["codes"].as_object().unwrap();
        let ok = codes
            .get("OK")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        client_ok += ok;
        assert!(report["calls"].as_u64().unwrap() >= 20, "{report}");
        if retries {
            assert!(output.status.success(), "retries on: {stdout}\n{stderr}");
            assert_eq!(
                codes.keys().collect::<Vec<_>>(),
                ["OK"],
                "retries on: {report}"
            );
            continue;
        }
        // Retries off: only calls refused unprocessed by a GOAWAY may fail.
        let unavailable = codes
            .get("UNAVAILABLE")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        assert_eq!(
            ok + unavailable,
            report["calls"].as_u64().unwrap(),
            "retries off: a failure other than UNAVAILABLE: {report}"
        );
        for failure in report["failures"].as_array().unwrap() {
            assert!(
                failure.as_str().unwrap().contains("GOAWAY received"),
                "retries off: a failure other than a GOAWAY's refusal: {report}"
            );
        }
        // One call at a time on the channel: a GOAWAY refuses the calls that pick its
        // closing connection, back to back (a refusal returns at once; a CI run of
        // session 29 saw 176 in a row), until the channel moves to a new connection;
        // so at most one run of refusals per GOAWAY, and the client sees about eight
        // in 8 s. (The server-side checks below show none of them was processed.)
        let bursts = report["bursts"].as_u64().expect("bursts");
        assert!(
            bursts <= 10 && (bursts == 0) == (unavailable == 0),
            "retries off: more runs of GOAWAY refusals than the age cycles explain: {report}"
        );
    }
    let handled_after = discards_handled(&server.metrics_url).await;
    let handled = handled_after.0 - handled_before.0;
    let handled_ok = handled_after.1 - handled_before.1;
    assert_eq!(handled, handled_ok, "the server failed a call it processed");
    assert_eq!(
        handled, client_ok as f64,
        "server-handled calls vs client-side OK calls"
    );
    let cycles = accepted(&server.metrics_url).await - accepted_before;
    assert!(
        cycles >= 10.0,
        "{cycles} connections for two clients over 8 s"
    );
}
