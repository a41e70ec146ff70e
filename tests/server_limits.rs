//! Request limits through a real client: message size, the in-flight limit, the
//! deadline, and SIGTERM with a call in flight.
//!
//! All but the first need an RPC that takes long on purpose: `common::slow_call`, a
//! `SuggestMahjongDiscard` with a 3000 ms budget. They are ignored until the mahjong
//! engine is wired into the server; run them with
//! `cargo test --test server_limits -- --include-ignored`. The layers themselves are
//! tested against sleeping services in `src/server/limits.rs`.

mod common;

use std::time::{Duration, Instant};

use common::{
    BinaryServer, fetch_metrics, health, metric_value, slow_call, slow_request, start_server,
    wait_serving,
};
use gameai::proto::ListDouDizhuPlaysRequest;
use gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient;
use gameai::proto::mahjong_service_client::MahjongServiceClient;
use gameai::server::ServerConfig;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

#[tokio::test]
async fn oversized_request_fails_and_the_next_call_succeeds() {
    let config = ServerConfig {
        max_message_bytes: 1024 * 1024,
        ..ServerConfig::default()
    };
    let server = start_server(config, Vec::new()).await;
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
        .await;
    if let Err(status) = answer {
        // Until the engine lands the method is UNIMPLEMENTED; never a size error.
        assert_eq!(status.code(), Code::Unimplemented, "{status:?}");
    }
    server.shutdown().await.unwrap();
}

#[tokio::test]
#[ignore = "needs a slow engine RPC; enabled at integration"]
async fn full_server_sheds_with_resource_exhausted_while_health_answers() {
    let config = ServerConfig {
        max_inflight: 1,
        ..ServerConfig::default()
    };
    let server = start_server(config, Vec::new()).await;
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
#[ignore = "needs a slow engine RPC; enabled at integration"]
async fn call_past_its_deadline_ends_with_deadline_exceeded_and_is_counted() {
    let server = start_server(ServerConfig::default(), Vec::new()).await;
    wait_serving(&server.channel, "").await;
    // A caller deadline of 1 ms: over before any engine could answer.
    let mut request = tonic::Request::new(slow_request());
    request.set_timeout(Duration::from_millis(1));
    let status = MahjongServiceClient::new(server.channel.clone())
        .suggest_mahjong_discard(request)
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
#[ignore = "needs a slow engine RPC; enabled at integration"]
async fn engine_is_handed_the_deadline_and_answers_in_time() {
    // Server cap 300 ms < the request's 3000 ms budget: the engine must stop by the
    // work deadline and answer (an estimate, exact = false) before the cap.
    let config = ServerConfig {
        request_budget: Duration::from_millis(300),
        ..ServerConfig::default()
    };
    let server = start_server(config, Vec::new()).await;
    wait_serving(&server.channel, "").await;
    let began = Instant::now();
    let response = slow_call(&server.channel).await.expect("an answer in time");
    assert!(
        began.elapsed() < Duration::from_millis(300),
        "{:?}",
        began.elapsed()
    );
    let stats = response.into_inner().stats.expect("stats");
    assert!(!stats.exact);
    assert!(stats.budget_ms <= 300, "{}", stats.budget_ms);
    server.shutdown().await.unwrap();
}

#[test]
#[ignore = "needs a slow engine RPC; enabled at integration"]
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
