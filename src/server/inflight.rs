//! The in-flight limit (load shedding): at most `--max-inflight` requests at once, the
//! excess answered at once with `RESOURCE_EXHAUSTED`; health checking and reflection are
//! never shed.
//!
//! A [`ShortCircuit`] layer.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tonic::Status;

use super::short_circuit::{HttpResponse, ShortCircuit, ShortCircuitLayer};
use crate::telemetry::{INFLIGHT_REQUESTS, REQUESTS_SHED_TOTAL};

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
pub type InflightLimitLayer = ShortCircuitLayer<InflightLimit>;

impl InflightLimitLayer {
    /// A limit of `max` concurrent requests; 0 = unlimited.
    pub fn new(max: usize) -> Self {
        let slots = (max > 0).then(|| Arc::new(Semaphore::new(max)));
        Self::with_policy(InflightLimit { slots, max })
    }
}

/// The policy of [`InflightLimitLayer`].
#[derive(Clone, Debug)]
pub struct InflightLimit {
    slots: Option<Arc<Semaphore>>,
    max: usize,
}

/// One slot of the in-flight limit; keeps `gameai_inflight_requests` up to date.
pub struct Slot {
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

impl ShortCircuit for InflightLimit {
    /// The slot held for the call; `None` for an exempt path.
    type State = Option<Slot>;

    fn admit<B>(&self, req: &mut http::Request<B>) -> Result<Option<Slot>, Status> {
        if is_exempt_from_shedding(req.uri().path()) {
            return Ok(None);
        }
        let permit = match &self.slots {
            None => None,
            Some(slots) => match slots.clone().try_acquire_owned() {
                Ok(permit) => Some(permit),
                Err(_) => {
                    metrics::counter!(REQUESTS_SHED_TOTAL).increment(1);
                    return Err(Status::resource_exhausted(format!(
                        "server is at its in-flight limit of {} requests (--max-inflight); retry with backoff",
                        self.max
                    )));
                }
            },
        };
        Ok(Some(Slot::new(permit)))
    }

    fn respond(slot: Option<Slot>, response: HttpResponse) -> HttpResponse {
        match slot {
            None => response,
            Some(slot) => response.map(|body| {
                tonic::body::Body::new(GuardedBody {
                    inner: body,
                    guard: Some(slot),
                })
            }),
        }
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
