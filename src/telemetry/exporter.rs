//! The Prometheus exporter: the process-wide recorder of the `metrics` facade and the
//! HTTP/1.1 endpoint that serves its text at `GET /metrics`, followed by the process
//! metrics ([`super::process`]) read at the same scrape.

use std::convert::Infallible;
use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

use super::catalogue::{HANDLING_SECONDS, HANDLING_SECONDS_BUCKETS, record_at_scrape};

/// The process-wide Prometheus recorder, installed on first use.
///
/// The `metrics` facade has one global recorder per process, so every server started
/// in the process (tests start several) shares it. If some other recorder was
/// installed first, a detached recorder is returned and a warning logged: the
/// exporter then serves only the metrics' descriptions.
pub fn prometheus_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(HANDLING_SECONDS.to_string()),
                    HANDLING_SECONDS_BUCKETS,
                )
                .expect("bucket list is not empty");
            let handle = match builder.install_recorder() {
                Ok(handle) => handle,
                Err(e) => {
                    tracing::warn!(error = %e, "a metrics recorder was already installed; /metrics will be empty");
                    PrometheusBuilder::new().build_recorder().handle()
                }
            };
            super::catalogue::describe_metrics();
            handle
        })
        .clone()
}

/// Serves the Prometheus text format at `GET /metrics` on `listener` until `shutdown`
/// completes (HTTP/1.1; any other path is 404). Also runs the recorder's upkeep every
/// 5 s.
pub async fn serve_metrics(
    listener: TcpListener,
    handle: PrometheusHandle,
    shutdown: impl Future<Output = ()> + Send,
) {
    let upkeep = {
        let handle = handle.clone();
        async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            loop {
                tick.tick().await;
                handle.run_upkeep();
            }
        }
    };
    let accept = async {
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "metrics listener: accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let handle = handle.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let handle = handle.clone();
                    async move { Ok::<_, Infallible>(metrics_response(&req, &handle)) }
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                if let Err(e) = conn.await {
                    tracing::debug!(error = %e, "metrics connection ended with an error");
                }
            });
        }
    };
    tokio::select! {
        _ = shutdown => {}
        _ = upkeep => {}
        _ = accept => {}
    }
}

fn metrics_response<B>(
    req: &http::Request<B>,
    handle: &PrometheusHandle,
) -> http::Response<Full<Bytes>> {
    let (status, content_type, body) = if req.uri().path() == "/metrics" {
        record_at_scrape();
        let mut text = handle.render();
        super::process::render(&mut text);
        (
            http::StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            text,
        )
    } else {
        (
            http::StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            "not found: metrics are at /metrics\n".to_string(),
        )
    };
    http::Response::builder()
        .status(status)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(Full::new(Bytes::from(body)))
        .expect("static response parts are valid")
}
