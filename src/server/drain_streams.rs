//! The end of long-lived streams (health `Watch`, reflection) when the server starts
//! draining, so that one open stream does not hold the drain for the whole grace period.
//!
//! A [`ShortCircuit`] layer that never refuses at once: it wraps the streams' bodies.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use pin_project_lite::pin_project;
use tokio::sync::watch;
use tonic::Status;

use super::short_circuit::{BoxFuture, HttpResponse, ShortCircuit, ShortCircuitLayer};
use crate::telemetry::{GrpcType, MethodTable};

/// Ends long-lived streaming responses (health `Watch`, reflection) when the server
/// starts draining: after the stream has sent what it had (the `NOT_SERVING` update
/// among it), it ends with `UNAVAILABLE` "server is shutting down". Without this, one
/// `Watch` (grpc-go's client-side health checking keeps one per connection) holds
/// every drain for the whole grace period. Unary calls are left to finish.
pub type DrainStreamsLayer = ShortCircuitLayer<DrainStreams>;

impl DrainStreamsLayer {
    /// `draining` turns true when the drain starts.
    pub fn new(methods: Arc<MethodTable>, draining: watch::Receiver<bool>) -> Self {
        Self::with_policy(DrainStreams { methods, draining })
    }
}

/// The policy of [`DrainStreamsLayer`].
#[derive(Clone, Debug)]
pub struct DrainStreams {
    methods: Arc<MethodTable>,
    draining: watch::Receiver<bool>,
}

impl ShortCircuit for DrainStreams {
    /// The drain signal, for a streaming method only.
    type State = Option<watch::Receiver<bool>>;

    fn admit<B>(&self, req: &mut http::Request<B>) -> Result<Self::State, Status> {
        let streaming = self
            .methods
            .get(req.uri().path())
            .is_some_and(|m| m.grpc_type != GrpcType::Unary);
        Ok(streaming.then(|| self.draining.clone()))
    }

    fn respond(draining: Self::State, response: HttpResponse) -> HttpResponse {
        let Some(mut draining) = draining else {
            return response;
        };
        let drained: BoxFuture<()> = Box::pin(async move {
            // An error means the server is gone: end the stream too.
            let _ = draining.wait_for(|d| *d).await;
        });
        response.map(|body| {
            tonic::body::Body::new(DrainBody {
                inner: body,
                drained: Some(drained),
                done: false,
            })
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
