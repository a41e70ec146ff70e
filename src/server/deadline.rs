//! The per-request deadline: the earliest of the caller's `grpc-timeout` and the
//! server's `--request-budget-ms` ends a call with `DEADLINE_EXCEEDED`, and the handlers
//! learn it (with the default work budget) from the request extensions.
//!
//! A [`ShortCircuit`] layer that never refuses at once: it bounds the answer's time.

use std::future::Future;
use std::time::{Duration, Instant};

use tonic::Status;

use super::short_circuit::{HttpResponse, ShortCircuit, ShortCircuitLayer};
use crate::service::{RequestDeadline, parse_grpc_timeout};

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
pub type DeadlineLayer = ShortCircuitLayer<Deadline>;

impl DeadlineLayer {
    /// `request_budget`: the server's cap per request; `default_budget`: the work budget
    /// for requests that give none.
    pub fn new(request_budget: Duration, default_budget: Duration) -> Self {
        Self::with_policy(Deadline {
            request_budget,
            default_budget,
        })
    }
}

/// The policy of [`DeadlineLayer`].
#[derive(Clone, Debug)]
pub struct Deadline {
    request_budget: Duration,
    default_budget: Duration,
}

/// When a call must have its answer, and whose limit that is.
#[derive(Clone, Copy, Debug)]
pub struct CallDeadline {
    at: Instant,
    limit: Duration,
    by_caller: bool,
}

/// How early our deadline fires before the caller's (see [`DeadlineLayer`]).
const CALLER_DEADLINE_LEAD: Duration = Duration::from_millis(1);

impl ShortCircuit for Deadline {
    type State = CallDeadline;

    fn admit<B>(&self, req: &mut http::Request<B>) -> Result<CallDeadline, Status> {
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
        Ok(CallDeadline {
            at,
            limit,
            by_caller,
        })
    }

    async fn finish<E: Send + 'static>(
        deadline: CallDeadline,
        answer: impl Future<Output = Result<HttpResponse, E>> + Send + 'static,
    ) -> Result<HttpResponse, E> {
        // An answer that is ready only after the deadline is late, even when the timer
        // (1 ms wheel, polled after the inner future) has not fired yet: the outcome
        // depends on when the answer was ready, not on the poll order.
        let answer = tokio::time::timeout_at(deadline.at.into(), answer)
            .await
            .ok()
            .filter(|_| Instant::now() <= deadline.at);
        match answer {
            Some(response) => response,
            None => Ok(Status::deadline_exceeded(deadline.exceeded_message()).into_http()),
        }
    }
}

impl CallDeadline {
    fn exceeded_message(&self) -> String {
        if self.by_caller {
            format!(
                "deadline exceeded: the caller's deadline of {} ms passed",
                (self.limit + CALLER_DEADLINE_LEAD).as_millis()
            )
        } else {
            format!(
                "deadline exceeded: the server's request budget of {} ms (--request-budget-ms) passed",
                self.limit.as_millis()
            )
        }
    }
}
