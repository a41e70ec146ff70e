//! The tower layer that records every RPC: one tracing span and `rpc finished` line
//! per call, and the go-grpc-prometheus metrics (see [the model](super)).
//!
//! Each method's series are registered when the layer is built, at 0, as
//! go-grpc-prometheus's `InitializeMetrics` does: `started`, `msg_received`,
//! `msg_sent`, the `handling_seconds` histogram, and `handled` for every one of the 17
//! codes. A dashboard then sees a method (and a rate of 0) before its first call, and
//! a call records through handles held by the layer, with no label strings built per
//! call.
//!
//! Messages are counted on the wire: a request message is counted once the request
//! body has delivered it whole (5-byte gRPC frame header and payload), a response
//! message once the response body has sent it. So a unary call that reaches its
//! handler counts 1 received, and 1 sent if it answers OK (an error is a
//! trailers-only answer with no message), as in go-grpc-prometheus.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use metrics::{Counter, Histogram, Label};
use pin_project_lite::pin_project;
use tonic::Code;
use tower::{Layer, Service};
use tracing::Instrument;

use super::catalogue::{
    HANDLED_TOTAL, HANDLING_SECONDS, MSG_RECEIVED_TOTAL, MSG_SENT_TOTAL, STARTED_TOTAL,
};
use super::logging::{self, RpcLogLevel};
use super::methods::{MethodInfo, MethodTable};

/// Every gRPC status code, in the order of their numbers (0..=16).
pub const ALL_CODES: [Code; 17] = [
    Code::Ok,
    Code::Cancelled,
    Code::Unknown,
    Code::InvalidArgument,
    Code::DeadlineExceeded,
    Code::NotFound,
    Code::AlreadyExists,
    Code::PermissionDenied,
    Code::ResourceExhausted,
    Code::FailedPrecondition,
    Code::Aborted,
    Code::OutOfRange,
    Code::Unimplemented,
    Code::Internal,
    Code::Unavailable,
    Code::DataLoss,
    Code::Unauthenticated,
];

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

/// The gRPC status code of a response, from its `grpc-status` header or trailer.
pub fn grpc_status_code(headers: &http::HeaderMap) -> Option<Code> {
    headers
        .get("grpc-status")
        .and_then(|v| v.to_str().ok())
        .and_then(|s| s.parse::<i32>().ok())
        .map(Code::from_i32)
}

/// The metric handles of one method, registered (at 0) when created.
#[derive(Debug)]
struct MethodSeries {
    started: Counter,
    msg_received: Counter,
    msg_sent: Counter,
    /// By code number ([`ALL_CODES`]).
    handled: Vec<Counter>,
    handling_seconds: Histogram,
}

impl MethodSeries {
    fn register(method: &MethodInfo) -> Self {
        let labels = vec![
            Label::new("grpc_type", method.grpc_type.as_str()),
            Label::new("grpc_service", method.service.clone()),
            Label::new("grpc_method", method.method.clone()),
        ];
        let handled = ALL_CODES
            .iter()
            .map(|&code| {
                let mut with_code = labels.clone();
                with_code.push(Label::new("grpc_code", go_code_name(code)));
                metrics::counter!(HANDLED_TOTAL, with_code)
            })
            .collect();
        Self {
            started: metrics::counter!(STARTED_TOTAL, labels.clone()),
            msg_received: metrics::counter!(MSG_RECEIVED_TOTAL, labels.clone()),
            msg_sent: metrics::counter!(MSG_SENT_TOTAL, labels.clone()),
            handled,
            handling_seconds: metrics::histogram!(HANDLING_SECONDS, labels),
        }
    }

    fn handled(&self, code: Code) -> &Counter {
        &self.handled[code as usize]
    }
}

/// Tower layer that opens one tracing span per RPC (`rpc`, fields `rpc.method` and, at
/// the end, `grpc.code` (Go spelling) and `latency_ms`), logs one `rpc finished` event
/// in it (at [`RpcLogLevel`], `WARN` for a server fault), and records the
/// go-grpc-prometheus metrics.
/// Put it outermost, so that answers of the other layers (shed, deadline) are counted.
///
/// Build it after the recorder is installed ([`super::prometheus_handle`]): its
/// series are registered with the recorder of the moment.
#[derive(Clone, Debug)]
pub struct GrpcMetricsLayer {
    series: Arc<std::collections::HashMap<String, Arc<MethodSeries>>>,
    rpc_log_level: RpcLogLevel,
}

impl GrpcMetricsLayer {
    /// A layer recording the methods of `methods` (their series registered now, at 0),
    /// logging calls at `INFO`. Calls to other paths are logged, not counted: an
    /// unknown path must not create label values at a client's whim.
    pub fn new(methods: Arc<MethodTable>) -> Self {
        let series = methods
            .iter()
            .map(|m| {
                let path = format!("/{}/{}", m.service, m.method);
                (path, Arc::new(MethodSeries::register(m)))
            })
            .collect();
        Self {
            series: Arc::new(series),
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
            layer: self.clone(),
        }
    }
}

/// The service of [`GrpcMetricsLayer`].
#[derive(Clone, Debug)]
pub struct GrpcMetrics<S> {
    inner: S,
    layer: GrpcMetricsLayer,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for GrpcMetrics<S>
where
    S: Service<http::Request<CountedBody<ReqBody>>, Response = http::Response<ResBody>>,
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
        let path = req.uri().path();
        let span = tracing::info_span!(
            "rpc",
            rpc.method = %path,
            grpc.code = tracing::field::Empty,
            latency_ms = tracing::field::Empty,
        );
        let series = self.layer.series.get(path).cloned();
        let received = series.as_ref().map(|s| s.msg_received.clone());
        let req = req.map(|body| CountedBody::new(body, received));
        let guard = CallGuard::start(series, span.clone(), self.layer.rpc_log_level);
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
                    None => {
                        let sent = guard.series.as_ref().map(|s| s.msg_sent.clone());
                        tonic::body::Body::new(ObservedBody {
                            inner: CountedBody::new(body, sent),
                            guard: Some(guard),
                        })
                    }
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
    series: Option<Arc<MethodSeries>>,
    span: tracing::Span,
    log_level: RpcLogLevel,
    start: Instant,
    finished: bool,
}

impl CallGuard {
    fn start(
        series: Option<Arc<MethodSeries>>,
        span: tracing::Span,
        log_level: RpcLogLevel,
    ) -> Self {
        if let Some(s) = &series {
            s.started.increment(1);
        }
        Self {
            series,
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
        if let Some(s) = &self.series {
            s.handled(code).increment(1);
            s.handling_seconds.record(elapsed.as_secs_f64());
        }
        let name = go_code_name(code);
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

/// Counts the gRPC messages that pass in a body: each is a 5-byte header (compressed
/// flag, big-endian length) and that many payload bytes, split across data frames
/// however the transport likes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MessageCounter {
    /// Header bytes seen of the message under way (0..5).
    header_seen: usize,
    header: [u8; 5],
    /// Payload bytes still to come once the header is whole.
    payload_left: u64,
}

impl MessageCounter {
    /// Feeds the next bytes of the body; returns the number of messages they ended.
    fn feed(&mut self, mut data: &[u8]) -> u64 {
        let mut ended = 0;
        while !data.is_empty() {
            if self.header_seen < 5 {
                let take = (5 - self.header_seen).min(data.len());
                self.header[self.header_seen..self.header_seen + take]
                    .copy_from_slice(&data[..take]);
                self.header_seen += take;
                data = &data[take..];
                if self.header_seen < 5 {
                    break;
                }
                let length = u32::from_be_bytes([
                    self.header[1],
                    self.header[2],
                    self.header[3],
                    self.header[4],
                ]);
                self.payload_left = u64::from(length);
            } else {
                let take = self.payload_left.min(data.len() as u64);
                self.payload_left -= take;
                data = &data[take as usize..];
            }
            if self.payload_left == 0 {
                ended += 1;
                self.header_seen = 0;
            }
        }
        ended
    }
}

pin_project! {
    /// A body that adds the gRPC messages passing through it to a counter
    /// (`grpc_server_msg_received_total` on requests, `grpc_server_msg_sent_total` on
    /// responses); `None` counts nothing.
    pub struct CountedBody<B> {
        #[pin]
        inner: B,
        messages: MessageCounter,
        counter: Option<Counter>,
    }
}

impl<B> CountedBody<B> {
    fn new(inner: B, counter: Option<Counter>) -> Self {
        Self {
            inner,
            messages: MessageCounter::default(),
            counter,
        }
    }
}

impl<B> HttpBody for CountedBody<B>
where
    B: HttpBody<Data = Bytes>,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.project();
        let polled = this.inner.poll_frame(cx);
        if let (Some(counter), Poll::Ready(Some(Ok(frame)))) = (this.counter.as_ref(), &polled)
            && let Some(data) = frame.data_ref()
        {
            let ended = this.messages.feed(data);
            if ended > 0 {
                counter.increment(ended);
            }
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
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
        let code = match &polled {
            Poll::Ready(Some(Ok(frame))) if frame.is_trailers() => Some(
                frame
                    .trailers_ref()
                    .and_then(grpc_status_code)
                    .unwrap_or(Code::Unknown),
            ),
            Poll::Ready(Some(Ok(_))) | Poll::Pending => None,
            Poll::Ready(Some(Err(_))) => Some(Code::Internal),
            Poll::Ready(None) => Some(Code::Unknown),
        };
        if let Some(code) = code
            && let Some(guard) = this.guard.take()
        {
            guard.finish(code);
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
        // ALL_CODES is indexed by the code's number.
        for (number, code) in ALL_CODES.iter().enumerate() {
            assert_eq!(*code as usize, number);
        }
    }

    #[test]
    fn messages_are_counted_whatever_the_frame_split() {
        // Three messages written by hand: payloads of 3, 0 and 300 bytes.
        let mut body = vec![
            0, 0, 0, 0, 3, b'a', b'b', b'c', 0, 0, 0, 0, 0, 0, 0, 0, 1, 44,
        ];
        body.extend(std::iter::repeat_n(7u8, 300));
        // Whole, then cut into chunks of every size from 1 byte up.
        for chunk in 1..=body.len() {
            let mut counter = MessageCounter::default();
            let ended: u64 = body.chunks(chunk).map(|c| counter.feed(c)).sum();
            assert_eq!(ended, 3, "chunks of {chunk}");
            assert_eq!(
                counter,
                MessageCounter {
                    header: counter.header,
                    ..Default::default()
                }
            );
        }
        // A message cut short is not counted.
        let mut counter = MessageCounter::default();
        assert_eq!(counter.feed(&body[..body.len() - 1]), 2);
    }
}
