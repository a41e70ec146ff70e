//! Every line of `bench/requests/*.jsonl` (the load generator's request files) is a
//! valid request that the server answers OK, so the files stay in step with the
//! contract and the engines. The server runs with a 5 ms default work budget so the
//! searches stop early in this debug build (the lines carry no budget of their own,
//! except the SEARCH lines' 100 ms).

/// The server harness of gameai's own tests.
#[path = "../../../tests/common/mod.rs"]
mod common;

use std::time::Duration;

use futures_util::StreamExt;
use gameai::server::{ServerConfig, engine_startup_tasks};
use gameai_tools::loadgen::{client, requests};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_file_line_is_answered_ok() {
    let pool = requests::descriptor_pool().unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/requests");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "{files:?}");

    let config = ServerConfig {
        default_budget: Duration::from_millis(5),
        ..ServerConfig::default()
    };
    let server = common::start_server(config, engine_startup_tasks()).await;
    common::wait_serving(&server.channel, "").await;

    for file in files {
        let calls = requests::load_file(&pool, &file, None).unwrap();
        assert!(!calls.is_empty(), "{}", file.display());
        let failures: Vec<String> = futures_util::stream::iter(calls.iter().enumerate())
            .map(|(i, call)| {
                let channel = server.channel.clone();
                async move {
                    let result = client::unary(
                        channel,
                        &call.path,
                        call.body.clone(),
                        Duration::from_secs(30),
                    )
                    .await;
                    result
                        .err()
                        .map(|s| format!("call {i} ({}): {s:?}", call.tag))
                }
            })
            .buffer_unordered(8)
            .filter_map(|f| async move { f })
            .collect()
            .await;
        assert!(
            failures.is_empty(),
            "{}: {} of {} calls failed, e.g. {}",
            file.display(),
            failures.len(),
            calls.len(),
            failures[0]
        );
    }
}
