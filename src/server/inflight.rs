//! The in-flight limit (load shedding): at most `--max-inflight` requests at once, the
//! excess answered at once with `RESOURCE_EXHAUSTED`; health checking and reflection are
//! never shed.
//!
//! The short-circuit answer is a trailers-only gRPC response built with
//! `tonic::Status::into_http`, so clients see the intended code and message.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tonic::Status;
use tower::{Layer, Service};

use crate::telemetry::{INFLIGHT_REQUESTS, REQUESTS_SHED_TOTAL};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
type HttpResponse = http::Response<tonic::body::Body>;

/// True for the paths that are never shed: gRPC health checking and both versions of
/// server reflection. Orchestrators must see health even when the server is full.
pub fn is_exempt_from_shedding(path: &str) -> bool {
    path.starts_with("/grpc.health.v1.Health/")
        || path.starts_with("/grpc.reflection.v1.ServerReflection/")
        || path.starts_with("/grpc.reflection.v1alpha.ServerReflection/")
}

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
