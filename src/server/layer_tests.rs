//! The server's tower layers (in-flight limit, deadline, drain of streams, metrics)
//! against `tower::service_fn` services that sleep: real timers, real
//! bodies, the process-wide Prometheus recorder. Each test uses its own method
//! names so that their metric series do not mix.

use std::convert::Infallible;

use futures_util::{StreamExt, stream};
use http_body_util::{BodyExt, StreamBody};
use tower::{ServiceBuilder, ServiceExt, service_fn};

use super::deadline::*;
use super::drain_streams::*;
use super::inflight::*;
use crate::service::RequestDeadline;
use crate::telemetry::grpc::CountedBody;
use crate::telemetry::{GrpcMetricsLayer, prometheus_handle};
use crate::telemetry::{GrpcType, MethodTable, REQUESTS_SHED_TOTAL};
use bytes::Bytes;
use http_body::Frame;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tonic::Status;
use tower::Service;

const SERVICE: &str = "test.v1.Slow";

fn table(methods: &[(&str, GrpcType)]) -> Arc<MethodTable> {
    // Install the process-wide recorder before anything is recorded.
    prometheus_handle();
    let mut table = MethodTable::default();
    for (method, kind) in methods {
        table.insert(SERVICE, method, *kind);
    }
    Arc::new(table)
}

fn request(path: &str) -> http::Request<()> {
    http::Request::builder().uri(path).body(()).unwrap()
}

/// A unary-style response: one data frame, then `grpc-status` in the trailers.
fn ok_response(code: u8) -> http::Response<tonic::body::Body> {
    let mut trailers = http::HeaderMap::new();
    trailers.insert("grpc-status", code.to_string().parse().unwrap());
    let frames = vec![
        Ok::<_, Infallible>(Frame::data(Bytes::from_static(b"\0\0\0\0\0"))),
        Ok(Frame::trailers(trailers)),
    ];
    http::Response::new(tonic::body::Body::new(StreamBody::new(stream::iter(
        frames,
    ))))
}

/// A service that sleeps `delay` before answering OK (behind the metrics layer, its
/// requests' bodies are `CountedBody<()>`).
fn sleeper<B: Send + 'static>(
    delay: Duration,
) -> impl Service<
    http::Request<B>,
    Response = http::Response<tonic::body::Body>,
    Error = Infallible,
    Future = impl Send + 'static,
> + Clone {
    service_fn(move |_req: http::Request<B>| async move {
        tokio::time::sleep(delay).await;
        Ok::<_, Infallible>(ok_response(0))
    })
}

/// The value of the series `name{labels...}` in the exporter's text, 0 if absent.
fn metric(name: &str, labels: &[(&str, &str)]) -> f64 {
    let text = prometheus_handle().render();
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) || l.starts_with(&format!("{name} ")))
        .filter(|l| {
            labels
                .iter()
                .all(|(k, v)| l.contains(&format!("{k}=\"{v}\"")))
        })
        .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .fold(0.0, |a, b| a + b)
}

fn handled(method: &str, code: &str) -> f64 {
    metric(
        crate::telemetry::HANDLED_TOTAL,
        &[
            ("grpc_type", "unary"),
            ("grpc_service", SERVICE),
            ("grpc_method", method),
            ("grpc_code", code),
        ],
    )
}

fn status_of(response: &http::Response<tonic::body::Body>) -> Option<tonic::Code> {
    crate::telemetry::grpc_status_code(response.headers())
}

/// The decoded `grpc-message` of a trailers-only response.
fn message_of(response: &http::Response<tonic::body::Body>) -> String {
    Status::from_header_map(response.headers())
        .unwrap()
        .message()
        .to_string()
}

#[tokio::test]
async fn full_limit_sheds_with_resource_exhausted_but_never_health() {
    prometheus_handle();
    let shed_before = metric(REQUESTS_SHED_TOTAL, &[]);
    let svc = ServiceBuilder::new()
        .layer(InflightLimitLayer::new(1))
        .service(sleeper(Duration::from_millis(300)));

    let first = tokio::spawn(svc.clone().oneshot(request("/test.v1.Slow/Shed")));
    tokio::time::sleep(Duration::from_millis(50)).await;

    let second = svc
        .clone()
        .oneshot(request("/test.v1.Slow/Shed"))
        .await
        .unwrap();
    assert_eq!(status_of(&second), Some(tonic::Code::ResourceExhausted));
    let message = message_of(&second);
    assert!(message.contains("in-flight limit of 1"), "{message}");
    assert_eq!(metric(REQUESTS_SHED_TOTAL, &[]) - shed_before, 1.0);

    // Health and reflection pass although the only slot is taken: the inner
    // (slow) service answers them.
    for path in [
        "/grpc.health.v1.Health/Check",
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    ] {
        let response = svc.clone().oneshot(request(path)).await.unwrap();
        assert_eq!(status_of(&response), None, "{path} was shed");
    }

    // The first call completes; once its body has ended the slot is free again.
    let first = first.await.unwrap().unwrap();
    first.into_body().collect().await.unwrap();
    let third = svc
        .clone()
        .oneshot(request("/test.v1.Slow/Shed"))
        .await
        .unwrap();
    assert_eq!(status_of(&third), None);
}

#[tokio::test]
async fn request_budget_ends_a_slow_call_with_deadline_exceeded_and_counts_it() {
    let svc = ServiceBuilder::new()
        .layer(GrpcMetricsLayer::new(table(&[("Budget", GrpcType::Unary)])))
        .layer(DeadlineLayer::new(
            Duration::from_millis(50),
            Duration::from_millis(20),
        ))
        .service(sleeper(Duration::from_secs(5)));
    let began = Instant::now();
    let response = svc.oneshot(request("/test.v1.Slow/Budget")).await.unwrap();
    let elapsed = began.elapsed();
    assert_eq!(status_of(&response), Some(tonic::Code::DeadlineExceeded));
    let message = message_of(&response);
    assert!(message.contains("request budget of 50 ms"), "{message}");
    assert!(elapsed >= Duration::from_millis(50), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    assert_eq!(handled("Budget", "DeadlineExceeded"), 1.0);
    assert_eq!(handled("Budget", "Canceled"), 0.0);
}

#[tokio::test]
async fn caller_deadline_is_honoured_when_shorter_than_the_budget() {
    let svc = ServiceBuilder::new()
        .layer(GrpcMetricsLayer::new(table(&[("Caller", GrpcType::Unary)])))
        .layer(DeadlineLayer::new(
            Duration::from_secs(10),
            Duration::from_millis(20),
        ))
        .service(sleeper(Duration::from_secs(5)));
    let mut req = request("/test.v1.Slow/Caller");
    req.headers_mut()
        .insert("grpc-timeout", http::HeaderValue::from_static("80m"));
    let began = Instant::now();
    let response = svc.oneshot(req).await.unwrap();
    assert_eq!(status_of(&response), Some(tonic::Code::DeadlineExceeded));
    let message = message_of(&response);
    assert!(message.contains("caller's deadline of 80 ms"), "{message}");
    assert!(began.elapsed() >= Duration::from_millis(79));
    assert_eq!(handled("Caller", "DeadlineExceeded"), 1.0);
}

#[tokio::test]
async fn handlers_see_the_deadline_in_the_extensions() {
    let svc = ServiceBuilder::new()
        .layer(DeadlineLayer::new(
            Duration::from_millis(500),
            Duration::from_millis(120),
        ))
        .service(service_fn(|req: http::Request<()>| async move {
            let limits = *req.extensions().get::<RequestDeadline>().unwrap();
            let left = limits.at.saturating_duration_since(Instant::now());
            let mut response = ok_response(0);
            response
                .headers_mut()
                .insert("x-left-ms", left.as_millis().to_string().parse().unwrap());
            response.headers_mut().insert(
                "x-default-ms",
                limits
                    .default_budget
                    .as_millis()
                    .to_string()
                    .parse()
                    .unwrap(),
            );
            Ok::<_, Infallible>(response)
        }));
    let response = svc.oneshot(request("/test.v1.Slow/Ext")).await.unwrap();
    let left: u64 = response.headers()["x-left-ms"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((400..=500).contains(&left), "{left}");
    assert_eq!(response.headers()["x-default-ms"], "120");
}

/// A gomoku handler that answers with the work deadline it computed, in ms from
/// now, so the test sees what a real engine handler would see through tonic.
struct DeadlineEcho;

#[tonic::async_trait]
impl crate::proto::gomoku_service_server::GomokuService for DeadlineEcho {
    async fn suggest_gomoku_move(
        &self,
        request: tonic::Request<crate::proto::SuggestGomokuMoveRequest>,
    ) -> Result<tonic::Response<crate::proto::SuggestGomokuMoveResponse>, Status> {
        let budget_ms = request.get_ref().budget_ms;
        let at = crate::service::work_deadline(&request, budget_ms);
        let left = at.saturating_duration_since(Instant::now()).as_millis();
        Err(Status::aborted(left.to_string()))
    }

    async fn analyze_gomoku_position(
        &self,
        _request: tonic::Request<crate::proto::AnalyzeGomokuPositionRequest>,
    ) -> Result<tonic::Response<crate::proto::AnalyzeGomokuPositionResponse>, Status> {
        Err(Status::unimplemented("not in this test"))
    }
}

/// Calls SuggestGomokuMove (budget_ms = `budget_ms`) through the deadline layer
/// and tonic's generated server; returns the handler's work deadline in ms.
async fn work_deadline_seen(
    request_budget_ms: u64,
    budget_ms: u32,
    grpc_timeout: Option<&'static str>,
) -> u128 {
    use prost::Message as _;
    let svc = ServiceBuilder::new()
        .layer(DeadlineLayer::new(
            Duration::from_millis(request_budget_ms),
            Duration::from_millis(700),
        ))
        .service(crate::proto::gomoku_service_server::GomokuServiceServer::new(DeadlineEcho));
    let message = crate::proto::SuggestGomokuMoveRequest {
        budget_ms,
        ..Default::default()
    }
    .encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
    frame.extend_from_slice(&message);
    let mut req = http::Request::builder()
        .method("POST")
        .uri("/gameai.v1.GomokuService/SuggestGomokuMove")
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(tonic::body::Body::new(http_body_util::Full::new(
            Bytes::from(frame),
        )))
        .unwrap();
    if let Some(t) = grpc_timeout {
        req.headers_mut()
            .insert("grpc-timeout", http::HeaderValue::from_static(t));
    }
    let response = svc.oneshot(req).await.unwrap();
    assert_eq!(status_of(&response), Some(tonic::Code::Aborted));
    message_of(&response).parse().unwrap()
}

#[tokio::test]
async fn engine_handlers_get_the_work_deadline_through_tonic() {
    // The request's own budget when it is the earliest.
    let left = work_deadline_seen(10_000, 300, None).await;
    assert!((250..=300).contains(&left), "{left}");
    // budget_ms = 0: the server's default work budget (700 ms here).
    let left = work_deadline_seen(10_000, 0, None).await;
    assert!((650..=700).contains(&left), "{left}");
    // The server's cap, less the margin min(400/20, 20) = 20 ms.
    let left = work_deadline_seen(400, 5_000, None).await;
    assert!((330..=380).contains(&left), "{left}");
    // The caller's deadline (1 ms lead, then 199/20 = 10 ms margin). The lower
    // bounds leave 50 ms for a loaded machine; the rules' values stay apart.
    let left = work_deadline_seen(10_000, 5_000, Some("200m")).await;
    assert!((140..=190).contains(&left), "{left}");
}

#[tokio::test]
async fn a_dropped_call_is_counted_as_canceled() {
    let svc = ServiceBuilder::new()
        .layer(GrpcMetricsLayer::new(table(&[("Cancel", GrpcType::Unary)])))
        .service(sleeper(Duration::from_secs(5)));
    let call = svc.oneshot(request("/test.v1.Slow/Cancel"));
    // The client goes away after 30 ms: the server drops the call's future.
    assert!(
        tokio::time::timeout(Duration::from_millis(30), call)
            .await
            .is_err()
    );
    assert_eq!(handled("Cancel", "Canceled"), 1.0);
    assert_eq!(
        metric(
            crate::telemetry::STARTED_TOTAL,
            &[("grpc_service", SERVICE), ("grpc_method", "Cancel")]
        ),
        1.0
    );
}

#[tokio::test]
async fn codes_are_read_from_trailers_and_latency_is_observed() {
    let svc = ServiceBuilder::new()
        .layer(GrpcMetricsLayer::new(table(&[(
            "Trailers",
            GrpcType::Unary,
        )])))
        .service(service_fn(|_req: http::Request<CountedBody<()>>| async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            // 3 = INVALID_ARGUMENT, sent after a data frame.
            Ok::<_, Infallible>(ok_response(3))
        }));
    let started = std::time::Instant::now();
    let response = svc
        .oneshot(request("/test.v1.Slow/Trailers"))
        .await
        .unwrap();
    // Nothing is recorded until the body has sent its trailers.
    assert_eq!(handled("Trailers", "InvalidArgument"), 0.0);
    response.into_body().collect().await.unwrap();
    let took = started.elapsed().as_secs_f64();
    assert_eq!(handled("Trailers", "InvalidArgument"), 1.0);
    let labels = [("grpc_service", SERVICE), ("grpc_method", "Trailers")];
    let count = metric("grpc_server_handling_seconds_count", &labels);
    assert_eq!(count, 1.0);
    // The observed latency is the call's: at least the handler's 30 ms sleep, at most
    // what this test's own clock measured around the call (on a loaded machine the
    // sleep overruns, so the bucket it lands in is not fixed: only 0.025 s is excluded).
    let le = |b: &str| {
        metric(
            "grpc_server_handling_seconds_bucket",
            &[labels[0], labels[1], ("le", b)],
        )
    };
    assert_eq!(le("0.025"), 0.0);
    assert_eq!(le("2.5"), 1.0);
    let observed = metric("grpc_server_handling_seconds_sum", &labels);
    assert!(
        (0.030..=took).contains(&observed),
        "observed {observed} s, the call took {took} s"
    );
    // The answer held one (empty) message; the request body was never read.
    assert_eq!(metric(crate::telemetry::MSG_SENT_TOTAL, &labels), 1.0);
    assert_eq!(metric(crate::telemetry::MSG_RECEIVED_TOTAL, &labels), 0.0);
}

#[tokio::test]
async fn every_series_of_a_method_exists_before_its_first_call() {
    let _layer = GrpcMetricsLayer::new(table(&[("Fresh", GrpcType::ServerStream)]));
    let text = prometheus_handle().render();
    let series = |name: &str| {
        text.lines()
            .filter(|l| l.starts_with(&format!("{name}{{")))
            .filter(|l| l.contains("grpc_method=\"Fresh\""))
            .map(|l| {
                assert!(l.contains("grpc_type=\"server_stream\""), "{l}");
                assert!(l.ends_with(" 0"), "{l}");
            })
            .count()
    };
    assert_eq!(series(crate::telemetry::STARTED_TOTAL), 1);
    assert_eq!(series(crate::telemetry::MSG_RECEIVED_TOTAL), 1);
    assert_eq!(series(crate::telemetry::MSG_SENT_TOTAL), 1);
    // One per gRPC code (17), as go-grpc-prometheus's InitializeMetrics does.
    assert_eq!(series(crate::telemetry::HANDLED_TOTAL), 17);
    assert_eq!(series("grpc_server_handling_seconds_count"), 1);
}

#[tokio::test]
async fn drain_ends_streams_with_unavailable_after_what_they_had() {
    let (draining_tx, draining_rx) = watch::channel(false);
    let svc = ServiceBuilder::new()
        .layer(DrainStreamsLayer::new(
            table(&[("Watch", GrpcType::ServerStream)]),
            draining_rx,
        ))
        .service(service_fn(|_req: http::Request<()>| async {
            // One message, then a stream that never ends by itself.
            let frames = stream::iter(vec![Ok::<_, Infallible>(Frame::data(Bytes::from_static(
                b"first",
            )))])
            .chain(stream::pending());
            Ok::<_, Infallible>(http::Response::new(tonic::body::Body::new(
                StreamBody::new(frames),
            )))
        }));
    let response = svc.oneshot(request("/test.v1.Slow/Watch")).await.unwrap();
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap();
    assert_eq!(first.into_data().unwrap(), Bytes::from_static(b"first"));
    // Still open: nothing more within 50 ms.
    assert!(
        tokio::time::timeout(Duration::from_millis(50), body.frame())
            .await
            .is_err()
    );
    draining_tx.send(true).unwrap();
    let last = tokio::time::timeout(Duration::from_secs(1), body.frame())
        .await
        .expect("the stream ends at drain")
        .unwrap()
        .unwrap();
    let trailers = last.into_trailers().unwrap();
    assert_eq!(trailers["grpc-status"], "14");
    assert!(body.frame().await.is_none());
}
