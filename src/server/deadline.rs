//! The per-request deadline: the earliest of the caller's `grpc-timeout` and the
//! server's `--request-budget-ms` ends a call with `DEADLINE_EXCEEDED`, and the handlers
//! learn it (with the default work budget) from the request extensions.
//!
//! The short-circuit answer is a trailers-only gRPC response built with
//! `tonic::Status::into_http`, so clients see the intended code and message.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::Body as HttpBody;
use tonic::Status;
use tower::{Layer, Service};

use crate::service::{RequestDeadline, parse_grpc_timeout};

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
type HttpResponse = http::Response<tonic::body::Body>;

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
            // An answer that is ready only after the deadline is late, even when the
            // timer (1 ms wheel, polled after the inner future) has not fired yet: the
            // outcome depends on when the answer was ready, not on the poll order.
            let answer = tokio::time::timeout_at(at.into(), future)
                .await
                .ok()
                .filter(|_| Instant::now() <= at);
            match answer {
                Some(response) => Ok(response?.map(tonic::body::Body::new)),
                None => {
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
