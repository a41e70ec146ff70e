//! `/metrics` after real calls: go-grpc-prometheus names, labels and code spellings,
//! every method's series from the start, and the `process_*` metrics of the Prometheus
//! client libraries. One test in this binary, so the deltas below are exact.

mod common;

use common::{fetch_metrics, health, http_get, metric_value, start_default};
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;

/// Every method the server serves, as the protos and the gRPC specs define them
/// (proto/gameai/v1/*.proto, grpc.health.v1, both reflection versions), with its
/// go-grpc-prometheus `grpc_type`.
const SERVED: [(&str, &str, &str); 12] = [
    ("unary", "gameai.v1.DouDizhuService", "SuggestDouDizhuPlay"),
    ("unary", "gameai.v1.DouDizhuService", "SuggestDouDizhuBid"),
    ("unary", "gameai.v1.DouDizhuService", "ListDouDizhuPlays"),
    ("unary", "gameai.v1.MahjongService", "SuggestMahjongDiscard"),
    ("unary", "gameai.v1.MahjongService", "SuggestMahjongCall"),
    ("unary", "gameai.v1.MahjongService", "AnalyzeMahjongHand"),
    ("unary", "gameai.v1.GomokuService", "SuggestGomokuMove"),
    ("unary", "gameai.v1.GomokuService", "AnalyzeGomokuPosition"),
    ("unary", "grpc.health.v1.Health", "Check"),
    ("server_stream", "grpc.health.v1.Health", "Watch"),
    (
        "bidi_stream",
        "grpc.reflection.v1.ServerReflection",
        "ServerReflectionInfo",
    ),
    (
        "bidi_stream",
        "grpc.reflection.v1alpha.ServerReflection",
        "ServerReflectionInfo",
    ),
];

/// grpc-go's spelling of the 17 codes (`codes.Code.String()`).
const GO_CODES: [&str; 17] = [
    "OK",
    "Canceled",
    "Unknown",
    "InvalidArgument",
    "DeadlineExceeded",
    "NotFound",
    "AlreadyExists",
    "PermissionDenied",
    "ResourceExhausted",
    "FailedPrecondition",
    "Aborted",
    "OutOfRange",
    "Unimplemented",
    "Internal",
    "Unavailable",
    "DataLoss",
    "Unauthenticated",
];

/// The number of lines of `name` whose labels are exactly `labels` (in any order).
fn series_count(text: &str, name: &str, labels: &[(&str, &str)]) -> usize {
    text.lines()
        .filter_map(|l| l.strip_prefix(name)?.strip_prefix('{'))
        .filter(|rest| {
            let Some((inside, _)) = rest.split_once('}') else {
                return false;
            };
            let mut got: Vec<String> = inside.split(',').map(str::to_string).collect();
            let mut want: Vec<String> =
                labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
            got.sort();
            want.sort();
            got == want
        })
        .count()
}

/// Before any call of theirs, every method has go-grpc-prometheus's series, at 0:
/// started, both message counters, the histogram, and handled for all 17 codes. (Health
/// `Check` has been called by then: the harness waits for SERVING.)
fn assert_every_method_has_its_series(text: &str) {
    for (grpc_type, service, method) in SERVED {
        let labels = [
            ("grpc_type", grpc_type),
            ("grpc_service", service),
            ("grpc_method", method),
        ];
        let called = method == "Check";
        for name in [
            "grpc_server_started_total",
            "grpc_server_msg_received_total",
            "grpc_server_msg_sent_total",
            "grpc_server_handling_seconds_count",
            "grpc_server_handling_seconds_sum",
        ] {
            assert_eq!(series_count(text, name, &labels), 1, "{name} {labels:?}");
            if !called {
                assert_eq!(
                    metric_value(text, name, &labels),
                    Some(0.0),
                    "{name} {labels:?}"
                );
            }
        }
        for code in GO_CODES {
            let mut with_code = labels.to_vec();
            with_code.push(("grpc_code", code));
            assert_eq!(
                series_count(text, "grpc_server_handled_total", &with_code),
                1,
                "{with_code:?}"
            );
        }
    }
}

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
    assert_every_method_has_its_series(&before);
    let messages = |text: &str, name: &str, method: &str| {
        let service = if method == "Check" {
            "grpc.health.v1.Health"
        } else {
            "gameai.v1.DouDizhuService"
        };
        let labels = [
            ("grpc_type", "unary"),
            ("grpc_service", service),
            ("grpc_method", method),
        ];
        metric_value(text, name, &labels).unwrap()
    };

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
                hand: "331".into(),
                ..Default::default()
            })
            .await
            .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);

    // A unary call answered OK: 1 message received, 1 sent.
    gameai::proto::mahjong_service_client::MahjongServiceClient::new(server.channel.clone())
        .analyze_mahjong_hand(gameai::proto::AnalyzeMahjongHandRequest {
            hand: "123m456p789s1122z".into(),
            ..Default::default()
        })
        .await
        .unwrap();

    let after = fetch_metrics(&server.metrics_url).await;
    let analyze = [
        ("grpc_type", "unary"),
        ("grpc_service", "gameai.v1.MahjongService"),
        ("grpc_method", "AnalyzeMahjongHand"),
    ];
    assert_eq!(
        metric_value(&after, "grpc_server_msg_received_total", &analyze),
        Some(1.0)
    );
    assert_eq!(
        metric_value(&after, "grpc_server_msg_sent_total", &analyze),
        Some(1.0)
    );
    // Messages: each unary call received its 1 request; the OK Check answered 1
    // message, the NotFound Check and the InvalidArgument call none (an error is a
    // trailers-only answer).
    let received = "grpc_server_msg_received_total";
    let sent = "grpc_server_msg_sent_total";
    assert_eq!(
        messages(&after, received, "Check") - messages(&before, received, "Check"),
        2.0
    );
    assert_eq!(
        messages(&after, sent, "Check") - messages(&before, sent, "Check"),
        1.0
    );
    assert_eq!(messages(&after, received, "ListDouDizhuPlays"), 1.0);
    assert_eq!(messages(&after, sent, "ListDouDizhuPlays"), 0.0);
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
    let mut invalid = list_plays.to_vec();
    invalid.push(("grpc_code", "InvalidArgument"));
    assert_eq!(
        metric_value(&after, "grpc_server_handled_total", &invalid),
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
    // The handlers' wake-up delay, which the deadlines keep as extra margin: a gauge
    // in seconds from the start, never above its 40 ms cap.
    assert!(after.contains("# TYPE gameai_handler_wake_delay_seconds gauge\n"));
    let delay = metric_value(&after, "gameai_handler_wake_delay_seconds", &[]).unwrap();
    assert!((0.0..=0.040).contains(&delay), "{delay}");
    assert!(after.contains("# TYPE grpc_server_handling_seconds histogram"));
    // The start-up task built the mahjong tables before SERVING and reported them.
    let bytes = metric_value(&after, "gameai_mahjong_tables_bytes", &[]).unwrap();
    assert!(bytes > 1_000_000.0, "{bytes}");
    let seconds = metric_value(&after, "gameai_mahjong_tables_build_seconds", &[]).unwrap();
    assert!(seconds > 0.0, "{seconds}");

    // The process metrics, with the client libraries' names and types.
    for (name, kind) in [
        ("process_cpu_seconds_total", "counter"),
        ("process_resident_memory_bytes", "gauge"),
        ("process_virtual_memory_bytes", "gauge"),
        ("process_start_time_seconds", "gauge"),
        ("process_open_fds", "gauge"),
        ("process_max_fds", "gauge"),
    ] {
        assert!(after.contains(&format!("# TYPE {name} {kind}\n")), "{name}");
    }
    let rss = metric_value(&after, "process_resident_memory_bytes", &[]).unwrap();
    // The mahjong tables alone are resident.
    assert!(rss > bytes, "{rss} <= {bytes}");
    let cpu = metric_value(&after, "process_cpu_seconds_total", &[]).unwrap();
    assert!(cpu > 0.0, "{cpu}");
    let fds = metric_value(&after, "process_open_fds", &[]).unwrap();
    assert!(fds >= 3.0, "{fds}");

    let (code, _) = http_get(&server.metrics_url.replace("/metrics", "/nope")).await;
    assert_eq!(code, 404);
    server.shutdown().await.unwrap();
}
