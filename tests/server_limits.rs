//! Request limits through a real client: message size, the in-flight limit, the
//! deadline, and SIGTERM with a call in flight.
//!
//! All but the first need an RPC that takes long on purpose: `common::slow_call`, a
//! `SuggestMahjongDiscard` with a 3000 ms budget on a hand whose exact computation runs
//! longer than that. The layers themselves are also tested against sleeping services in
//! `src/server/layer_tests.rs`.

mod common;

use std::time::{Duration, Instant};

use common::{
    BinaryServer, fetch_metrics, health, metric_value, slow_call, slow_request, start_server,
    wait_serving,
};
use gameai::proto::ListDouDizhuPlaysRequest;
use gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient;
use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::server::{self, ServerConfig};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

#[tokio::test]
async fn oversized_request_fails_and_the_next_call_succeeds() {
    let config = ServerConfig {
        max_message_bytes: 1024 * 1024,
        ..ServerConfig::default()
    };
    let server = start_server(config, server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let mut client = DouDizhuServiceClient::new(server.channel.clone());
    let status = client
        .list_dou_dizhu_plays(ListDouDizhuPlaysRequest {
            hand: "3".repeat(2 * 1024 * 1024),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
    assert!(
        status.message().contains("the limit is: 1048576 bytes"),
        "{status:?}"
    );

    // Same channel, same connection: the server keeps serving.
    assert_eq!(
        health(&server.channel, "").await.unwrap(),
        ServingStatus::Serving
    );
    let answer = client
        .list_dou_dizhu_plays(ListDouDizhuPlaysRequest {
            hand: "33".into(),
            ..Default::default()
        })
        .await
        .expect("the next call succeeds")
        .into_inner();
    // Hand "33": the single 3 and the pair 33 (the rules text: single, pair).
    let cards: Vec<&str> = answer.plays.iter().map(|p| p.cards.as_str()).collect();
    assert_eq!(cards, ["3", "33"]);
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn full_server_sheds_with_resource_exhausted_while_health_answers() {
    let config = ServerConfig {
        max_inflight: 1,
        ..ServerConfig::default()
    };
    let server = start_server(config, server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let channel = server.channel.clone();
    let first = tokio::spawn(async move { slow_call(&channel).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!first.is_finished(), "the slow call must still be running");

    let status = slow_call(&server.channel).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(
        health(&server.channel, "").await.unwrap(),
        ServingStatus::Serving
    );
    first.await.unwrap().expect("the first call completes OK");
    let text = fetch_metrics(&server.metrics_url).await;
    assert_eq!(
        metric_value(&text, "gameai_requests_shed_total", &[]),
        Some(1.0)
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn call_past_its_deadline_ends_with_deadline_exceeded_and_is_counted() {
    // A server cap of 1 ms: over before the engine can answer (parsing, ukeire and the
    // fallback estimate of 14 candidates alone take longer), so the server must end the
    // call with DEADLINE_EXCEEDED. The cap is used rather than a 1 ms caller deadline
    // because tonic's client enforces a caller deadline itself and answers CANCELLED
    // locally; the caller-deadline path of the layer is unit-tested in
    // `src/server/layer_tests.rs`.
    let config = ServerConfig {
        request_budget: Duration::from_millis(1),
        ..ServerConfig::default()
    };
    let server = start_server(config, server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let status = MahjongServiceClient::new(server.channel.clone())
        .suggest_mahjong_discard(slow_request())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    let text = fetch_metrics(&server.metrics_url).await;
    let labels = [
        ("grpc_service", "gameai.v1.MahjongService"),
        ("grpc_method", "SuggestMahjongDiscard"),
        ("grpc_code", "DeadlineExceeded"),
    ];
    assert_eq!(
        metric_value(&text, "grpc_server_handled_total", &labels),
        Some(1.0)
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn engine_is_handed_the_deadline_and_answers_in_time() {
    // Server cap 300 ms < the request's 3000 ms budget: the engine must stop by the
    // work deadline and answer (an estimate, exact = false) before the cap.
    let config = ServerConfig {
        request_budget: Duration::from_millis(300),
        ..ServerConfig::default()
    };
    let server = start_server(config, server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    let began = Instant::now();
    // OK (not DEADLINE_EXCEEDED) proves the engine answered before the server's 300 ms
    // cap, which runs from the server's receipt of the call. The client's clock also
    // counts transport on a loaded machine, so it only checks that the engine stopped
    // at the cap, long before the 3000 ms budget the request asked for.
    let response = slow_call(&server.channel).await.expect("an answer in time");
    assert!(
        began.elapsed() < Duration::from_millis(1000),
        "{:?}",
        began.elapsed()
    );
    let stats = response.into_inner().stats.expect("stats");
    assert!(!stats.exact);
    assert!(stats.budget_ms <= 300, "{}", stats.budget_ms);
    server.shutdown().await.unwrap();
}

#[test]
fn sigterm_with_a_call_in_flight_completes_it_and_exits_zero() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    let mut server = BinaryServer::start(&["--shutdown-grace-secs", "20"], &[]);
    let channel = server.channel.clone();
    runtime.block_on(wait_serving(&channel, ""));
    let call = runtime.spawn(async move { slow_call(&channel).await });
    std::thread::sleep(Duration::from_millis(300));
    assert!(!call.is_finished(), "the slow call must still be running");
    server.sigterm();
    let answer = runtime.block_on(call).unwrap();
    answer.expect("the call in flight completes OK");
    let status = server.wait_exit(Duration::from_secs(25));
    assert_eq!(status.code(), Some(0), "{}", server.stderr());
}
