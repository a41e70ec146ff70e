//! `/metrics` after real calls: go-grpc-prometheus names, labels and code spellings.
//! One test in this binary, so the deltas below are exact.

mod common;

use common::{fetch_metrics, health, http_get, metric_value, start_default};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

#[tokio::test]
async fn ok_and_error_calls_are_counted_with_their_codes() {
    let server = start_default().await;
    let check = |code: &'static str| {
        vec![
            ("grpc_type", "unary"),
            ("grpc_service", "grpc.health.v1.Health"),
            ("grpc_method", "Check"),
            ("grpc_code", code),
        ]
    };
    let handled = |text: &str, code: &'static str| {
        metric_value(text, "grpc_server_handled_total", &check(code)).unwrap_or(0.0)
    };
    let started = |text: &str| {
        metric_value(text, "grpc_server_started_total", &check("")[..3]).unwrap_or(0.0)
    };
    let before = fetch_metrics(&server.metrics_url).await;

    assert_eq!(
        health(&server.channel, "").await.unwrap(),
        ServingStatus::Serving
    );
    let status = health(&server.channel, "no.such.Service")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    let status =
        gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient::new(server.channel.clone())
            .list_dou_dizhu_plays(gameai::proto::ListDouDizhuPlaysRequest {
                hand: "33".into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
    assert_eq!(status.code(), Code::Unimplemented);

    let after = fetch_metrics(&server.metrics_url).await;
    assert_eq!(handled(&after, "OK") - handled(&before, "OK"), 1.0);
    assert_eq!(
        handled(&after, "NotFound") - handled(&before, "NotFound"),
        1.0
    );
    assert_eq!(started(&after) - started(&before), 2.0);
    let list_plays = [
        ("grpc_type", "unary"),
        ("grpc_service", "gameai.v1.DouDizhuService"),
        ("grpc_method", "ListDouDizhuPlays"),
    ];
    let mut unimplemented = list_plays.to_vec();
    unimplemented.push(("grpc_code", "Unimplemented"));
    assert_eq!(
        metric_value(&after, "grpc_server_handled_total", &unimplemented),
        Some(1.0)
    );
    assert_eq!(
        metric_value(&after, "grpc_server_handling_seconds_count", &list_plays),
        Some(1.0)
    );
    // Histogram buckets from 0.25 ms to 2.5 s.
    let mut le = list_plays.to_vec();
    le.push(("le", "0.00025"));
    assert!(metric_value(&after, "grpc_server_handling_seconds_bucket", &le).is_some());
    le.pop();
    le.push(("le", "2.5"));
    assert_eq!(
        metric_value(&after, "grpc_server_handling_seconds_bucket", &le),
        Some(1.0)
    );
    // The limit's series exist from the start.
    assert_eq!(
        metric_value(&after, "gameai_requests_shed_total", &[]),
        Some(0.0)
    );
    assert_eq!(
        metric_value(&after, "gameai_inflight_requests", &[]),
        Some(0.0)
    );
    assert!(after.contains("# TYPE grpc_server_handling_seconds histogram"));

    let (code, _) = http_get(&server.metrics_url.replace("/metrics", "/nope")).await;
    assert_eq!(code, 404);
    server.shutdown().await.unwrap();
}
