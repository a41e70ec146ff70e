//! The shape shared by the server's own tower layers (in-flight limit, deadline, drain
//! of streams, undecodable requests): look at the request, maybe answer at once with a
//! gRPC status instead of calling the service, else call it and adjust its answer.
//!
//! A layer is a [`ShortCircuit`] policy: [`ShortCircuit::admit`] sees the request
//! first (it may add extensions) and returns the state the answer needs, or the status
//! to answer with at once; [`ShortCircuit::respond`] adjusts the service's response
//! (wraps its body, rewrites it), or [`ShortCircuit::finish`] takes the whole pending
//! answer (to bound its time). [`ShortCircuitLayer`] turns a policy into a tower layer
//! and holds the boilerplate once: cloning the policy into each service, readiness,
//! boxing the body into `tonic::body::Body`, and the short-circuit answer, a
//! trailers-only gRPC response built with `tonic::Status::into_http`, so that clients
//! see the intended code and message.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::Body as HttpBody;
use tonic::Status;
use tower::{Layer, Service};

/// A boxed, sendable future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
/// The response every layer of the server hands on.
pub type HttpResponse = http::Response<tonic::body::Body>;

/// What one short-circuit layer does with a request and its answer (see the
/// [module docs](self)).
pub trait ShortCircuit: Clone + Send + 'static {
    /// What [`ShortCircuit::admit`] hands on to the answer.
    type State: Send + 'static;

    /// Before the service sees `req`: `Err(status)` answers with `status` at once, and
    /// the service is not called.
    fn admit<B>(&self, req: &mut http::Request<B>) -> Result<Self::State, Status>;

    /// The answer to give for the service's `response`; by default the response as it
    /// is.
    fn respond(state: Self::State, response: HttpResponse) -> HttpResponse {
        let _ = state;
        response
    }

    /// The answer to give once the service's `answer` completes; by default
    /// [`ShortCircuit::respond`] applied to it.
    fn finish<E: Send + 'static>(
        state: Self::State,
        answer: impl Future<Output = Result<HttpResponse, E>> + Send + 'static,
    ) -> impl Future<Output = Result<HttpResponse, E>> + Send + 'static {
        async move { Ok(Self::respond(state, answer.await?)) }
    }
}

/// The tower layer of a [`ShortCircuit`] policy.
#[derive(Clone, Debug)]
pub struct ShortCircuitLayer<P> {
    policy: P,
}

impl<P> ShortCircuitLayer<P> {
    /// The layer of `policy`.
    pub fn with_policy(policy: P) -> Self {
        Self { policy }
    }
}

impl<S, P: Clone> Layer<S> for ShortCircuitLayer<P> {
    type Service = ShortCircuitService<S, P>;

    fn layer(&self, inner: S) -> Self::Service {
        ShortCircuitService {
            inner,
            policy: self.policy.clone(),
        }
    }
}

/// The service of a [`ShortCircuitLayer`].
#[derive(Clone, Debug)]
pub struct ShortCircuitService<S, P> {
    inner: S,
    policy: P,
}

impl<S, P, ReqBody, ResBody> Service<http::Request<ReqBody>> for ShortCircuitService<S, P>
where
    P: ShortCircuit,
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
        let state = match self.policy.admit(&mut req) {
            Ok(state) => state,
            Err(status) => return Box::pin(async move { Ok(status.into_http()) }),
        };
        let future = self.inner.call(req);
        let answer = async move { Ok(future.await?.map(tonic::body::Body::new)) };
        Box::pin(P::finish(state, answer))
    }
}
