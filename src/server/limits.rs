//! The server's tower layers that bound requests: the in-flight limit (load shedding),
//! the deadline, and the end of long-lived streams at drain.
//!
//! Every short-circuit answer is a trailers-only gRPC response built with
//! `tonic::Status::into_http`, so clients see the intended code and message.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tonic::Status;
use tower::{Layer, Service};

use crate::service::{RequestDeadline, parse_grpc_timeout};
use crate::telemetry::{GrpcType, INFLIGHT_REQUESTS, MethodTable, REQUESTS_SHED_TOTAL};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
type HttpResponse = http::Response<tonic::body::Body>;

/// True for the paths that are never shed: gRPC health checking and both versions of
/// server reflection. Orchestrators must see health even when the server is full.
pub fn is_exempt_from_shedding(path: &str) -> bool {
    path.starts_with("/grpc.health.v1.Health/")
        || path.starts_with("/grpc.reflection.v1.ServerReflection/")
        || path.starts_with("/grpc.reflection.v1alpha.ServerReflection/")
}

// ---------------------------------------------------------------------------------
// In-flight limit
// ---------------------------------------------------------------------------------

/// Global in-flight limit: at most `max` requests at once (health and reflection
/// excluded, see [`is_exempt_from_shedding`]); a request beyond it is answered at once
/// with `RESOURCE_EXHAUSTED` and counted in `gameai_requests_shed_total`. A slot is
/// held until the response body has ended. `max = 0` means no limit (slots are still
/// counted in `gameai_inflight_requests`).
#[derive(Clone, Debug)]
pub struct InflightLimitLayer {
    slots: Option<Arc<Semaphore>>,
    max: usize,
}

impl InflightLimitLayer {
    /// A limit of `max` concurrent requests; 0 = unlimited.
    pub fn new(max: usize) -> Self {
        let slots = (max > 0).then(|| Arc::new(Semaphore::new(max)));
        Self { slots, max }
    }
}

impl<S> Layer<S> for InflightLimitLayer {
    type Service = InflightLimit<S>;

    fn layer(&self, inner: S) -> Self::Service {
        InflightLimit {
            inner,
            slots: self.slots.clone(),
            max: self.max,
        }
    }
}

/// The service of [`InflightLimitLayer`].
#[derive(Clone, Debug)]
pub struct InflightLimit<S> {
    inner: S,
    slots: Option<Arc<Semaphore>>,
    max: usize,
}

/// One slot of the in-flight limit; keeps `gameai_inflight_requests` up to date.
struct Slot {
    _permit: Option<OwnedSemaphorePermit>,
}

impl Slot {
    fn new(permit: Option<OwnedSemaphorePermit>) -> Self {
        metrics::gauge!(INFLIGHT_REQUESTS).increment(1.0);
        Self { _permit: permit }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        metrics::gauge!(INFLIGHT_REQUESTS).decrement(1.0);
    }
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for InflightLimit<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    ResBody: HttpBody<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Response = HttpResponse;
    type Error = S::Error;
    type Future = BoxFuture<Result<HttpResponse, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<ReqBody>) -> Self::Future {
        if is_exempt_from_shedding(req.uri().path()) {
            let future = self.inner.call(req);
            return Box::pin(async move { Ok(future.await?.map(tonic::body::Body::new)) });
        }
        let permit = match &self.slots {
            None => None,
            Some(slots) => match slots.clone().try_acquire_owned() {
                Ok(permit) => Some(permit),
                Err(_) => {
                    metrics::counter!(REQUESTS_SHED_TOTAL).increment(1);
                    let status = Status::resource_exhausted(format!(
                        "server is at its in-flight limit of {} requests (--max-inflight); retry with backoff",
                        self.max
                    ));
                    return Box::pin(async move { Ok(status.into_http()) });
                }
            },
        };
        let slot = Slot::new(permit);
        let future = self.inner.call(req);
        Box::pin(async move {
            let response = future.await?;
            Ok(response.map(|body| {
                tonic::body::Body::new(GuardedBody {
                    inner: body,
                    guard: Some(slot),
                })
            }))
        })
    }
}

pin_project! {
    /// A body that holds `guard` until the body has ended (or is dropped).
    struct GuardedBody<B, G> {
        #[pin]
        inner: B,
        guard: Option<G>,
    }
}

impl<B, G> HttpBody for GuardedBody<B, G>
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
        let ended = match &polled {
            Poll::Ready(None) | Poll::Ready(Some(Err(_))) => true,
            Poll::Ready(Some(Ok(frame))) => frame.is_trailers(),
            Poll::Pending => false,
        };
        if ended {
            this.guard.take();
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

// ---------------------------------------------------------------------------------
// Deadline
// ---------------------------------------------------------------------------------

/// Bounds every request by the earliest of the caller's gRPC deadline (`grpc-timeout`)
/// and the server's `--request-budget-ms`: at that instant the call is dropped and
/// answered `DEADLINE_EXCEEDED`. The deadline and the server's default work budget go
/// into the request extensions as [`RequestDeadline`] for the handlers
/// (`crate::service::work_deadline`).
///
/// tonic's own `Server::timeout` answers `CANCELLED`, and tonic also enforces
/// `grpc-timeout` in a layer outside ours that answers `CANCELLED`. Ours fires 1 ms
/// before the caller's deadline so that the caller gets the right code: both timers
/// are then due in the same or an earlier millisecond tick, and tonic's layer polls
/// ours first.
#[derive(Clone, Debug)]
pub struct DeadlineLayer {
    request_budget: Duration,
    default_budget: Duration,
}

impl DeadlineLayer {
    /// `request_budget`: the server's cap per request; `default_budget`: the work budget
    /// for requests that give none.
    pub fn new(request_budget: Duration, default_budget: Duration) -> Self {
        Self {
            request_budget,
            default_budget,
        }
    }
}

impl<S> Layer<S> for DeadlineLayer {
    type Service = Deadline<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Deadline {
            inner,
            request_budget: self.request_budget,
            default_budget: self.default_budget,
        }
    }
}

/// The service of [`DeadlineLayer`].
#[derive(Clone, Debug)]
pub struct Deadline<S> {
    inner: S,
    request_budget: Duration,
    default_budget: Duration,
}

/// How early our deadline fires before the caller's (see [`DeadlineLayer`]).
const CALLER_DEADLINE_LEAD: Duration = Duration::from_millis(1);

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for Deadline<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    ResBody: HttpBody<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Response = HttpResponse;
    type Error = S::Error;
    type Future = BoxFuture<Result<HttpResponse, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<ReqBody>) -> Self::Future {
        let now = Instant::now();
        let caller = req
            .headers()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_grpc_timeout)
            .map(|t| t.saturating_sub(CALLER_DEADLINE_LEAD));
        let (limit, by_caller) = match caller {
            Some(t) if t < self.request_budget => (t, true),
            _ => (self.request_budget, false),
        };
        let at = now + limit;
        req.extensions_mut().insert(RequestDeadline {
            at,
            default_budget: self.default_budget,
        });
        let future = self.inner.call(req);
        Box::pin(async move {
            match tokio::time::timeout_at(at.into(), future).await {
                Ok(response) => Ok(response?.map(tonic::body::Body::new)),
                Err(_) => {
                    let message = if by_caller {
                        format!(
                            "deadline exceeded: the caller's deadline of {} ms passed",
                            (limit + CALLER_DEADLINE_LEAD).as_millis()
                        )
                    } else {
                        format!(
                            "deadline exceeded: the server's request budget of {} ms (--request-budget-ms) passed",
                            limit.as_millis()
                        )
                    };
                    Ok(Status::deadline_exceeded(message).into_http())
                }
            }
        })
    }
}

// ---------------------------------------------------------------------------------
// Ending streams at drain
// ---------------------------------------------------------------------------------

/// Ends long-lived streaming responses (health `Watch`, reflection) when the server
/// starts draining: after the stream has sent what it had (the `NOT_SERVING` update
/// among it), it ends with `UNAVAILABLE` "server is shutting down". Without this, one
/// `Watch` (grpc-go's client-side health checking keeps one per connection) holds
/// every drain for the whole grace period. Unary calls are left to finish.
#[derive(Clone, Debug)]
pub struct DrainStreamsLayer {
    methods: Arc<MethodTable>,
    draining: watch::Receiver<bool>,
}

impl DrainStreamsLayer {
    /// `draining` turns true when the drain starts.
    pub fn new(methods: Arc<MethodTable>, draining: watch::Receiver<bool>) -> Self {
        Self { methods, draining }
    }
}

impl<S> Layer<S> for DrainStreamsLayer {
    type Service = DrainStreams<S>;

    fn layer(&self, inner: S) -> Self::Service {
        DrainStreams {
            inner,
            methods: self.methods.clone(),
            draining: self.draining.clone(),
        }
    }
}

/// The service of [`DrainStreamsLayer`].
#[derive(Clone, Debug)]
pub struct DrainStreams<S> {
    inner: S,
    methods: Arc<MethodTable>,
    draining: watch::Receiver<bool>,
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for DrainStreams<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    ResBody: HttpBody<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<tonic::codegen::StdError>,
{
    type Response = HttpResponse;
    type Error = S::Error;
    type Future = BoxFuture<Result<HttpResponse, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<ReqBody>) -> Self::Future {
        let streaming = self
            .methods
            .get(req.uri().path())
            .is_some_and(|m| m.grpc_type != GrpcType::Unary);
        let future = self.inner.call(req);
        if !streaming {
            return Box::pin(async move { Ok(future.await?.map(tonic::body::Body::new)) });
        }
        let mut draining = self.draining.clone();
        Box::pin(async move {
            let response = future.await?;
            let drained: BoxFuture<()> = Box::pin(async move {
                // An error means the server is gone: end the stream too.
                let _ = draining.wait_for(|d| *d).await;
            });
            Ok(response.map(|body| {
                tonic::body::Body::new(DrainBody {
                    inner: body,
                    drained: Some(drained),
                    done: false,
                })
            }))
        })
    }
}

pin_project! {
    /// A streaming body that ends with `UNAVAILABLE` trailers once `drained` completes
    /// and the inner body has nothing ready.
    struct DrainBody<B> {
        #[pin]
        inner: B,
        drained: Option<BoxFuture<()>>,
        done: bool,
    }
}

impl<B> HttpBody for DrainBody<B>
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
        if *this.done {
            return Poll::Ready(None);
        }
        match this.inner.poll_frame(cx) {
            Poll::Ready(frame) => {
                if frame
                    .as_ref()
                    .is_none_or(|f| f.as_ref().map_or(true, Frame::is_trailers))
                {
                    *this.done = true;
                }
                Poll::Ready(frame)
            }
            Poll::Pending => match this.drained.as_mut().map(|d| d.as_mut().poll(cx)) {
                Some(Poll::Ready(())) => {
                    *this.done = true;
                    *this.drained = None;
                    let mut trailers = http::HeaderMap::new();
                    trailers.insert("grpc-status", http::HeaderValue::from_static("14"));
                    trailers.insert(
                        "grpc-message",
                        http::HeaderValue::from_static("server is shutting down"),
                    );
                    Poll::Ready(Some(Ok(Frame::trailers(trailers))))
                }
                _ => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        if self.done {
            SizeHint::with_exact(0)
        } else {
            self.inner.size_hint()
        }
    }
}

#[cfg(test)]
mod tests {
    //! The layers against `tower::service_fn` services that sleep: real timers, real
    //! bodies, the process-wide Prometheus recorder. Each test uses its own method
    //! names so that their metric series do not mix.

    use std::convert::Infallible;

    use futures_util::{StreamExt, stream};
    use http_body_util::{BodyExt, StreamBody};
    use tower::{ServiceBuilder, ServiceExt, service_fn};

    use super::*;
    use crate::telemetry::{GrpcMetricsLayer, prometheus_handle};

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

    /// A service that sleeps `delay` before answering OK.
    fn sleeper(
        delay: Duration,
    ) -> impl Service<
        http::Request<()>,
        Response = http::Response<tonic::body::Body>,
        Error = Infallible,
        Future = impl Send + 'static,
    > + Clone {
        service_fn(move |_req: http::Request<()>| async move {
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
            .service(service_fn(|_req: http::Request<()>| async {
                tokio::time::sleep(Duration::from_millis(30)).await;
                // 3 = INVALID_ARGUMENT, sent after a data frame.
                Ok::<_, Infallible>(ok_response(3))
            }));
        let response = svc
            .oneshot(request("/test.v1.Slow/Trailers"))
            .await
            .unwrap();
        // Nothing is recorded until the body has sent its trailers.
        assert_eq!(handled("Trailers", "InvalidArgument"), 0.0);
        response.into_body().collect().await.unwrap();
        assert_eq!(handled("Trailers", "InvalidArgument"), 1.0);
        let labels = [("grpc_service", SERVICE), ("grpc_method", "Trailers")];
        let count = metric("grpc_server_handling_seconds_count", &labels);
        assert_eq!(count, 1.0);
        // 30 ms falls in the 0.05 s bucket, not in the 0.025 s one.
        let le = |b: &str| {
            metric(
                "grpc_server_handling_seconds_bucket",
                &[labels[0], labels[1], ("le", b)],
            )
        };
        assert_eq!(le("0.025"), 0.0);
        assert_eq!(le("0.05"), 1.0);
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
                let frames = stream::iter(vec![Ok::<_, Infallible>(Frame::data(
                    Bytes::from_static(b"first"),
                ))])
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
}
