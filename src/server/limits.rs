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
