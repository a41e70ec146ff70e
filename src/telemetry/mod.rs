//! Logs and metrics: the tracing subscriber (text for people, JSON for log pipelines;
//! non-blocking, see [`logging`]), the Prometheus exporter and the tower layer that
//! records every RPC.
//!
//! The RPC metrics are those of go-grpc-prometheus, with the same names, labels and
//! code spellings, so that existing dashboards and alerts work unchanged:
//! - `grpc_server_started_total{grpc_type, grpc_service, grpc_method}`
//! - `grpc_server_handled_total{grpc_type, grpc_service, grpc_method, grpc_code}`
//! - `grpc_server_handling_seconds{grpc_type, grpc_service, grpc_method}` (histogram,
//!   buckets [`HANDLING_SECONDS_BUCKETS`])
//!
//! `grpc_type` is `unary`, `client_stream`, `server_stream` or `bidi_stream`;
//! `grpc_code` is Go's spelling of the status code (`OK`, `Canceled`,
//! `InvalidArgument`, ...; see [`go_code_name`]). A call is recorded by a drop guard
//! that lives until the response body has sent its trailers: a call that the client
//! cancels, or that is dropped for any reason, is counted as `Canceled`.
//! As in go-grpc-prometheus, only methods the server knows are recorded (an unknown
//! path must not create label values at a client's whim).

pub mod logging;

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use http_body_util::Full;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use pin_project_lite::pin_project;
use prost::Message;
use tokio::net::TcpListener;
use tonic::Code;
use tower::{Layer, Service};
use tracing::Instrument;

pub use logging::{LogFormat, RpcLogLevel, init_tracing};

/// Upper bounds of the `grpc_server_handling_seconds` buckets: 0.25 ms to 2.5 s.
pub const HANDLING_SECONDS_BUCKETS: &[f64] = &[
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// Counter of RPCs started.
pub const STARTED_TOTAL: &str = "grpc_server_started_total";
/// Counter of RPCs completed, by code.
pub const HANDLED_TOTAL: &str = "grpc_server_handled_total";
/// Histogram of RPC latency in seconds, from the request's arrival to the end of the
/// response.
pub const HANDLING_SECONDS: &str = "grpc_server_handling_seconds";
/// Gauge of requests currently holding a slot of the in-flight limit.
pub const INFLIGHT_REQUESTS: &str = "gameai_inflight_requests";
/// Counter of requests refused with `RESOURCE_EXHAUSTED` by the in-flight limit.
pub const REQUESTS_SHED_TOTAL: &str = "gameai_requests_shed_total";
/// Gauge: seconds the mahjong tables took to build at start-up.
pub const MAHJONG_TABLES_BUILD_SECONDS: &str = "gameai_mahjong_tables_build_seconds";
/// Gauge: bytes held by the mahjong tables.
pub const MAHJONG_TABLES_BYTES: &str = "gameai_mahjong_tables_bytes";
/// Gauge: engine calls computing now (at most `--engine-threads`).
pub const ENGINE_CALLS_RUNNING: &str = "gameai_engine_calls_running";
/// Gauge: admitted calls waiting for an engine thread.
pub const ENGINE_CALLS_WAITING: &str = "gameai_engine_calls_waiting";
/// Gauge: bytes of the process-wide engine memory budget reserved now.
pub const ENGINE_MEMORY_USED_BYTES: &str = "gameai_engine_memory_used_bytes";
/// Gauge: bytes of the engine memory budget held by the spare buffers finished mahjong
/// plans leave for the next ([`crate::mahjong::probability::spare`]); part of
/// [`ENGINE_MEMORY_USED_BYTES`].
pub const ENGINE_MEMORY_POOLED_BYTES: &str = "gameai_engine_memory_pooled_bytes";
/// Gauge: the process-wide engine memory budget (`--engine-memory-mb`).
pub const ENGINE_MEMORY_LIMIT_BYTES: &str = "gameai_engine_memory_limit_bytes";
/// Counter: growths of engine memory refused because the budget was spent.
pub const ENGINE_MEMORY_REFUSALS_TOTAL: &str = "gameai_engine_memory_refusals_total";
/// Gauge: gRPC connections open now.
pub const CONNECTIONS_OPEN: &str = "gameai_grpc_connections";
/// Counter: gRPC connections accepted.
pub const CONNECTIONS_ACCEPTED_TOTAL: &str = "gameai_grpc_connections_accepted_total";
/// Counter: gRPC connections cut because they outlived the max connection age plus its
/// grace (`crate::server::connections`).
pub const CONNECTIONS_CUT_TOTAL: &str = "gameai_grpc_connections_cut_total";
/// Counter: log lines dropped because the log queue was full ([`logging`]).
pub const LOG_LINES_DROPPED_TOTAL: &str = "gameai_log_lines_dropped_total";

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
            describe_metrics();
            handle
        })
        .clone()
}

fn describe_metrics() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(STARTED_TOTAL, "Total number of RPCs started on the server.");
    describe_counter!(
        HANDLED_TOTAL,
        "Total number of RPCs completed on the server, regardless of success or failure."
    );
    describe_histogram!(
        HANDLING_SECONDS,
        Unit::Seconds,
        "Histogram of response latency (seconds) of gRPC that had been application-level handled by the server."
    );
    describe_gauge!(
        INFLIGHT_REQUESTS,
        "RPCs currently holding a slot of the in-flight limit (health and reflection excluded)."
    );
    describe_counter!(
        REQUESTS_SHED_TOTAL,
        "RPCs refused with RESOURCE_EXHAUSTED because the in-flight limit was reached."
    );
    describe_gauge!(
        MAHJONG_TABLES_BUILD_SECONDS,
        Unit::Seconds,
        "Time taken to build the mahjong winning-set tables at start-up."
    );
    describe_gauge!(
        MAHJONG_TABLES_BYTES,
        Unit::Bytes,
        "Memory held by the mahjong winning-set tables."
    );
    describe_gauge!(
        ENGINE_CALLS_RUNNING,
        "Engine calls computing now (at most --engine-threads)."
    );
    describe_gauge!(
        ENGINE_CALLS_WAITING,
        "Admitted calls waiting for an engine thread (their wait counts against their work budget)."
    );
    describe_gauge!(
        ENGINE_MEMORY_USED_BYTES,
        Unit::Bytes,
        "Bytes of the process-wide engine memory budget reserved by requests in flight and by spare buffers kept for the next (gameai_engine_memory_pooled_bytes)."
    );
    describe_gauge!(
        ENGINE_MEMORY_POOLED_BYTES,
        Unit::Bytes,
        "Bytes of the engine memory budget held by spare buffers of finished mahjong plans, kept for the next call (freed when a call needs the memory)."
    );
    describe_gauge!(
        ENGINE_MEMORY_LIMIT_BYTES,
        Unit::Bytes,
        "The process-wide engine memory budget (--engine-memory-mb)."
    );
    describe_gauge!(CONNECTIONS_OPEN, "gRPC (HTTP/2) connections open now.");
    describe_counter!(
        CONNECTIONS_ACCEPTED_TOTAL,
        "gRPC (HTTP/2) connections accepted."
    );
    describe_counter!(
        CONNECTIONS_CUT_TOTAL,
        "gRPC connections closed by force because they outlived the max connection age plus its grace."
    );
    describe_counter!(
        LOG_LINES_DROPPED_TOTAL,
        "Log lines dropped because stderr did not keep up and the log queue was full."
    );
    describe_counter!(
        ENGINE_MEMORY_REFUSALS_TOTAL,
        "Engine memory growths refused because the budget was spent (the request degraded to an estimate)."
    );
}

/// Copies the figures kept outside the recorder into their metrics: the engine memory
/// budget's and the dropped log lines (called on every scrape, so they are as fresh
/// as the scrape).
pub fn record_at_scrape() {
    let budget = crate::memory_budget::MemoryBudget::global();
    metrics::gauge!(ENGINE_MEMORY_USED_BYTES).set(budget.used() as f64);
    let pooled = crate::mahjong::probability::spare::SparePool::global().bytes();
    metrics::gauge!(ENGINE_MEMORY_POOLED_BYTES).set(pooled as f64);
    metrics::gauge!(ENGINE_MEMORY_LIMIT_BYTES).set(budget.limit() as f64);
    metrics::counter!(ENGINE_MEMORY_REFUSALS_TOTAL).absolute(budget.refusals());
    metrics::counter!(LOG_LINES_DROPPED_TOTAL).absolute(logging::log_lines_dropped());
}

/// Records the mahjong table figures (build time in seconds, size in bytes).
pub fn record_mahjong_tables(build_seconds: f64, bytes: usize) {
    metrics::gauge!(MAHJONG_TABLES_BUILD_SECONDS).set(build_seconds);
    metrics::gauge!(MAHJONG_TABLES_BYTES).set(bytes as f64);
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
        (
            http::StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            handle.render(),
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

/// Binds a TCP listener, naming the address in the error.
pub async fn bind(addr: SocketAddr, what: &str) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot bind {what} address {addr}: {e}"))
    })
}

/// Go's spelling of a gRPC status code, as go-grpc-prometheus writes it in `grpc_code`
/// (`codes.Code.String()` in grpc-go).
pub fn go_code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "Canceled",
        Code::Unknown => "Unknown",
        Code::InvalidArgument => "InvalidArgument",
        Code::DeadlineExceeded => "DeadlineExceeded",
        Code::NotFound => "NotFound",
        Code::AlreadyExists => "AlreadyExists",
        Code::PermissionDenied => "PermissionDenied",
        Code::ResourceExhausted => "ResourceExhausted",
        Code::FailedPrecondition => "FailedPrecondition",
        Code::Aborted => "Aborted",
        Code::OutOfRange => "OutOfRange",
        Code::Unimplemented => "Unimplemented",
        Code::Internal => "Internal",
        Code::Unavailable => "Unavailable",
        Code::DataLoss => "DataLoss",
        Code::Unauthenticated => "Unauthenticated",
    }
}

/// The streaming kind of a method, spelled as go-grpc-prometheus's `grpc_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrpcType {
    Unary,
    ClientStream,
    ServerStream,
    BidiStream,
}

impl GrpcType {
    /// `unary`, `client_stream`, `server_stream` or `bidi_stream`.
    pub fn as_str(self) -> &'static str {
        match self {
            GrpcType::Unary => "unary",
            GrpcType::ClientStream => "client_stream",
            GrpcType::ServerStream => "server_stream",
            GrpcType::BidiStream => "bidi_stream",
        }
    }
}

/// One RPC method the server serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodInfo {
    /// Fully qualified service name, e.g. `gameai.v1.MahjongService`.
    pub service: String,
    /// Method name, e.g. `SuggestMahjongDiscard`.
    pub method: String,
    pub grpc_type: GrpcType,
    /// Fully qualified name of the request message, e.g.
    /// `gameai.v1.SuggestMahjongDiscardRequest` (empty when unknown).
    pub input_type: String,
}

/// The methods the server serves, keyed by HTTP/2 path `/SERVICE/METHOD`.
#[derive(Clone, Debug, Default)]
pub struct MethodTable {
    by_path: HashMap<String, MethodInfo>,
}

impl MethodTable {
    /// Builds the table from encoded `FileDescriptorSet`s (as served by reflection).
    /// Errors when a set does not decode.
    pub fn from_descriptor_sets(sets: &[&[u8]]) -> Result<Self, prost::DecodeError> {
        let mut table = Self::default();
        for set in sets {
            let fds = prost_types::FileDescriptorSet::decode(*set)?;
            for file in &fds.file {
                let package = file.package();
                for service in &file.service {
                    let service_name = if package.is_empty() {
                        service.name().to_string()
                    } else {
                        format!("{package}.{}", service.name())
                    };
                    for method in &service.method {
                        let grpc_type = match (method.client_streaming(), method.server_streaming())
                        {
                            (false, false) => GrpcType::Unary,
                            (true, false) => GrpcType::ClientStream,
                            (false, true) => GrpcType::ServerStream,
                            (true, true) => GrpcType::BidiStream,
                        };
                        table.add(MethodInfo {
                            service: service_name.clone(),
                            method: method.name().to_string(),
                            grpc_type,
                            input_type: method.input_type().trim_start_matches('.').to_string(),
                        });
                    }
                }
            }
        }
        Ok(table)
    }

    /// Adds one method whose request type is not known.
    pub fn insert(&mut self, service: &str, method: &str, grpc_type: GrpcType) {
        self.add(MethodInfo {
            service: service.to_string(),
            method: method.to_string(),
            grpc_type,
            input_type: String::new(),
        });
    }

    /// Adds one method, served at `/SERVICE/METHOD`.
    pub fn add(&mut self, info: MethodInfo) {
        self.by_path
            .insert(format!("/{}/{}", info.service, info.method), info);
    }

    /// The method served at `path`, if any.
    pub fn get(&self, path: &str) -> Option<&MethodInfo> {
        self.by_path.get(path)
    }

    /// Number of methods.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    /// True when there are no methods.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }
}

/// The gRPC status code of a response, from its `grpc-status` header or trailer.
pub fn grpc_status_code(headers: &http::HeaderMap) -> Option<Code> {
    headers
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .and_then(|s| s.parse::<i32>().ok())
        .map(Code::from_i32)
}

/// Tower layer that opens one tracing span per RPC (`rpc`, fields `rpc.method` and, at
/// the end, `grpc.code` (Go spelling) and `latency_ms`), logs one `rpc finished` event
/// in it (at [`RpcLogLevel`], `WARN` for a server fault), and records the
/// go-grpc-prometheus metrics.
/// Put it outermost, so that answers of the other layers (shed, deadline) are counted.
#[derive(Clone, Debug)]
pub struct GrpcMetricsLayer {
    methods: Arc<MethodTable>,
    rpc_log_level: RpcLogLevel,
}

impl GrpcMetricsLayer {
    /// A layer recording the methods of `methods`, logging calls at `INFO`.
    pub fn new(methods: Arc<MethodTable>) -> Self {
        Self {
            methods,
            rpc_log_level: RpcLogLevel::default(),
        }
    }

    /// Logs the line of each call at `level` instead.
    pub fn with_rpc_log_level(mut self, level: RpcLogLevel) -> Self {
        self.rpc_log_level = level;
        self
    }
}

impl<S> Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics {
            inner,
            methods: self.methods.clone(),
            rpc_log_level: self.rpc_log_level,
        }
    }
}

/// The service of [`GrpcMetricsLayer`].
#[derive(Clone, Debug)]
pub struct GrpcMetrics<S> {
    inner: S,
    methods: Arc<MethodTable>,
    rpc_log_level: RpcLogLevel,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for GrpcMetrics<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    ResBody: HttpBody<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = BoxFuture<Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<ReqBody>) -> Self::Future {
        let path = req.uri().path().to_string();
        let span = tracing::info_span!(
            "rpc",
            rpc.method = %path,
            grpc.code = tracing::field::Empty,
            latency_ms = tracing::field::Empty,
        );
        let guard = CallGuard::start(
            self.methods.get(&path).cloned(),
            span.clone(),
            self.rpc_log_level,
        );
        let future = {
            let _entered = span.enter();
            self.inner.call(req)
        };
        Box::pin(
            async move {
                let response = future.await?;
                let (parts, body) = response.into_parts();
                let body = match grpc_status_code(&parts.headers) {
                    // Trailers-only response: the code is in the headers.
                    Some(code) => {
                        guard.finish(code);
                        tonic::body::Body::new(body)
                    }
                    None => tonic::body::Body::new(ObservedBody {
                        inner: body,
                        guard: Some(guard),
                    }),
                };
                Ok(http::Response::from_parts(parts, body))
            }
            .instrument(span),
        )
    }
}

/// Records one RPC: `started` on creation; `handled` and `handling_seconds` (and the
/// log line) once, on [`CallGuard::finish`] or, if never finished, on drop as
/// `Canceled`.
struct CallGuard {
    method: Option<MethodInfo>,
    span: tracing::Span,
    log_level: RpcLogLevel,
    start: Instant,
    finished: bool,
}

impl CallGuard {
    fn start(method: Option<MethodInfo>, span: tracing::Span, log_level: RpcLogLevel) -> Self {
        if let Some(m) = &method {
            metrics::counter!(
                STARTED_TOTAL,
                "grpc_type" => m.grpc_type.as_str(),
                "grpc_service" => m.service.clone(),
                "grpc_method" => m.method.clone(),
            )
            .increment(1);
        }
        Self {
            method,
            span,
            log_level,
            start: Instant::now(),
            finished: false,
        }
    }

    fn finish(mut self, code: Code) {
        self.record(code);
    }

    fn record(&mut self, code: Code) {
        if self.finished {
            return;
        }
        self.finished = true;
        let elapsed = self.start.elapsed();
        let name = go_code_name(code);
        if let Some(m) = &self.method {
            metrics::counter!(
                HANDLED_TOTAL,
                "grpc_type" => m.grpc_type.as_str(),
                "grpc_service" => m.service.clone(),
                "grpc_method" => m.method.clone(),
                "grpc_code" => name,
            )
            .increment(1);
            metrics::histogram!(
                HANDLING_SECONDS,
                "grpc_type" => m.grpc_type.as_str(),
                "grpc_service" => m.service.clone(),
                "grpc_method" => m.method.clone(),
            )
            .record(elapsed.as_secs_f64());
        }
        self.span.record("grpc.code", name);
        // Milliseconds with microsecond resolution.
        self.span
            .record("latency_ms", elapsed.as_micros() as f64 / 1e3);
        let level = match code {
            Code::Internal | Code::Unknown | Code::DataLoss => Some(tracing::Level::WARN),
            _ => self.log_level.level(),
        };
        logging::rpc_finished(&self.span, level);
    }
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        self.record(Code::Cancelled);
    }
}

pin_project! {
    /// A response body that finishes its [`CallGuard`] with the code of the
    /// `grpc-status` trailer (or `Unknown` if the body ends without one). Dropped
    /// before its end (client gone), the guard records `Canceled`.
    struct ObservedBody<B> {
        #[pin]
        inner: B,
        guard: Option<CallGuard>,
    }
}

impl<B> HttpBody for ObservedBody<B>
where
    B: HttpBody<Data = Bytes>,
    B::Error: Into<tonic::codegen::StdError>,
{
    type Data = Bytes;
    type Error = tonic::codegen::StdError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        let polled = this.inner.poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) if frame.is_trailers() => {
                let code = frame.trailers_ref().and_then(grpc_status_code);
                if let Some(guard) = this.guard.take() {
                    guard.finish(code.unwrap_or(Code::Unknown));
                }
            }
            Poll::Ready(Some(Ok(_))) => {}
            Poll::Ready(Some(Err(_))) => {
                if let Some(guard) = this.guard.take() {
                    guard.finish(Code::Internal);
                }
            }
            Poll::Ready(None) => {
                if let Some(guard) = this.guard.take() {
                    guard.finish(Code::Unknown);
                }
            }
            Poll::Pending => {}
        }
        polled.map(|o| o.map(|r| r.map_err(Into::into)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_are_go_spellings() {
        assert_eq!(go_code_name(Code::Ok), "OK");
        assert_eq!(go_code_name(Code::Cancelled), "Canceled");
        assert_eq!(go_code_name(Code::InvalidArgument), "InvalidArgument");
        assert_eq!(go_code_name(Code::DeadlineExceeded), "DeadlineExceeded");
        assert_eq!(go_code_name(Code::ResourceExhausted), "ResourceExhausted");
        assert_eq!(go_code_name(Code::Unimplemented), "Unimplemented");
    }

    #[test]
    fn method_table_reads_streaming_kinds_from_descriptors() {
        let table = MethodTable::from_descriptor_sets(&[
            crate::proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
        ])
        .unwrap();
        // 3 + 3 + 2 game methods, Check + Watch (+ List in newer health protos), one
        // reflection method.
        let discard = table
            .get("/gameai.v1.MahjongService/SuggestMahjongDiscard")
            .unwrap();
        assert_eq!(discard.service, "gameai.v1.MahjongService");
        assert_eq!(discard.method, "SuggestMahjongDiscard");
        assert_eq!(discard.grpc_type, GrpcType::Unary);
        assert_eq!(discard.input_type, "gameai.v1.SuggestMahjongDiscardRequest");
        assert_eq!(
            table.get("/grpc.health.v1.Health/Watch").unwrap().grpc_type,
            GrpcType::ServerStream
        );
        assert_eq!(
            table
                .get("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo")
                .unwrap()
                .grpc_type,
            GrpcType::BidiStream
        );
        assert!(table.get("/gameai.v1.MahjongService/Nope").is_none());
    }
}
