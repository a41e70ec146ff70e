//! The gRPC handlers: proto <-> domain translation and validation only.
//!
//! Each game has one handler struct implementing its generated service trait
//! ([`doudizhu::DouDizhuApi`], [`mahjong::MahjongApi`], [`gomoku::GomokuApi`]). A handler
//! validates the request (bad input is [`error::invalid_argument`]), computes the work
//! deadline with [`work_deadline`], runs the engine on an engine thread with
//! [`run_blocking`] and translates the answer. No game logic lives here.

pub mod doudizhu;
pub mod error;
pub mod executor;
pub mod gomoku;
pub mod mahjong;
pub mod mahjong_scoring;
pub mod mahjong_table;
pub mod wake_delay;

pub use executor::{run_blocking, run_or_fallback, run_or_fallback_with};

use std::time::{Duration, Instant};

/// Work budget used when neither the request (`budget_ms = 0`) nor the server (no
/// [`RequestDeadline`] in the request, e.g. a handler called directly in a unit test)
/// says otherwise: 1000 ms.
pub const DEFAULT_WORK_BUDGET: Duration = Duration::from_millis(1000);

/// The server's limits for one request, put into the request extensions by the
/// server's deadline layer (`crate::server`) and read back by [`work_deadline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestDeadline {
    /// The hard deadline: the earliest of the caller's gRPC deadline (`grpc-timeout`)
    /// and now + the server's `--request-budget-ms`. At this instant the server answers
    /// `DEADLINE_EXCEEDED` whether or not the engine has finished.
    pub at: Instant,
    /// The server's default work budget (`--default-budget-ms`), used when a request
    /// says `budget_ms = 0`.
    pub default_budget: Duration,
}

/// The most an engine's work deadline keeps before the hard deadline: its stop, the
/// handler's wake-up, encoding and the reply's way to the caller. Measured
/// (tools/load/deadlines.py, docs/experiments/2026-12-06-deadlines.md): the time a
/// call spends outside its engine, at the median, is 1-7 ms beside two busy processes
/// and the shared machine's builds; 25 ms covers it with room for an engine that reads
/// its clock a few ms late. Its tail under heavy load (p99 80-130 ms) no margin within
/// a 100 ms deadline covers: [`run_or_fallback`] sends a cheap answer instead.
pub const STOP_MARGIN: Duration = Duration::from_millis(25);

/// The share of the time left that the margin takes at most, so that a short deadline
/// still leaves the engine most of its time.
pub const STOP_MARGIN_SHARE: u32 = 4;

/// What a handler keeps between sending its answer and the hard deadline: the reply's
/// way out and the caller's wake-up (plus the handlers' recent wake-up delay,
/// [`wake_delay::recent`], and at most the stop margin). With 8 ms, 37% of bids whose simulation was cut
/// (their fallback sent when due) still reached the client late at a load average of
/// 13; 20 ms is what the same measurement gave room for (the experiment file).
pub const REPLY_MARGIN: Duration = Duration::from_millis(20);

/// The instants a handler works to (see [`deadlines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// The engine stops working by then ([`work_deadline`]).
    pub work: Instant,
    /// The handler sends what it has by then: the hard deadline less [`REPLY_MARGIN`]
    /// (at most the stop margin, so never before [`Deadlines::work`]);
    /// `None` without a hard deadline (no server layer and no `grpc-timeout`).
    pub answer: Option<Instant>,
}

/// The instant by which an engine must stop working on `req` and answer.
///
/// The earliest of:
/// - now + `budget_ms` when `budget_ms > 0`, else now + the server's default work
///   budget (`--default-budget-ms`, [`DEFAULT_WORK_BUDGET`] without a server);
/// - the server's hard deadline for the request (the earliest of now +
///   `--request-budget-ms` and the caller's gRPC deadline), less a stop margin
///   ([`stop_margin`]: [`STOP_MARGIN`] plus the handlers' recent wake-up delay,
///   [`wake_delay::recent`]) so that the answer is sent before the server's deadline
///   layer answers `DEADLINE_EXCEEDED` in its place.
///
/// Without the server's layers (a handler called directly) the caller's
/// `grpc-timeout` metadata is read instead of the hard deadline.
pub fn work_deadline<T>(req: &tonic::Request<T>, budget_ms: u32) -> Instant {
    deadlines(req, budget_ms).work
}

/// The work deadline ([`work_deadline`]) and the instant the answer is due.
pub fn deadlines<T>(req: &tonic::Request<T>, budget_ms: u32) -> Deadlines {
    let delay = wake_delay::recent();
    metrics::gauge!(crate::telemetry::HANDLER_WAKE_DELAY_SECONDS).set(delay.as_secs_f64());
    deadlines_given(req, budget_ms, delay)
}

/// [`deadlines`] with the handlers' recent wake-up delay given.
fn deadlines_given<T>(req: &tonic::Request<T>, budget_ms: u32, delay: Duration) -> Deadlines {
    let now = Instant::now();
    let limits = req.extensions().get::<RequestDeadline>().copied();
    let own = if budget_ms > 0 {
        now + Duration::from_millis(u64::from(budget_ms))
    } else {
        now + limits.map_or(DEFAULT_WORK_BUDGET, |l| l.default_budget)
    };
    let hard = limits.map(|l| l.at).or_else(|| {
        req.metadata()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_grpc_timeout)
            .map(|d| now + d)
    });
    match hard {
        Some(hard) => {
            let left = hard.saturating_duration_since(now);
            let stop = stop_margin(left, delay);
            Deadlines {
                work: own.min(hard - stop),
                answer: Some(hard - (REPLY_MARGIN + delay).min(stop)),
            }
        }
        None => Deadlines {
            work: own,
            answer: None,
        },
    }
}

/// The stop margin with `left` before the hard deadline, when handlers have recently
/// woken `delay` after what they awaited ([`wake_delay::recent`]): [`STOP_MARGIN`] +
/// `delay`, at most 1/[`STOP_MARGIN_SHARE`] of `left` + `delay`, and never more than
/// half of `left` (the engine keeps at least the other half).
pub fn stop_margin(left: Duration, delay: Duration) -> Duration {
    (STOP_MARGIN + delay)
        .min(left / STOP_MARGIN_SHARE + delay)
        .min(left / 2)
}

/// Parses a `grpc-timeout` header value: 1..8 ASCII digits followed by a unit `H`
/// (hours), `M` (minutes), `S`, `m` (ms), `u` (µs) or `n` (ns), per the gRPC over
/// HTTP/2 spec. `None` for anything else.
pub fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    if value.len() < 2 || value.len() > 9 {
        return None;
    }
    let (digits, unit) = value.split_at(value.len() - 1);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request_with(
        limits: Option<RequestDeadline>,
        grpc_timeout: Option<&str>,
    ) -> tonic::Request<()> {
        let mut req = tonic::Request::new(());
        if let Some(l) = limits {
            req.extensions_mut().insert(l);
        }
        if let Some(t) = grpc_timeout {
            req.metadata_mut()
                .insert("grpc-timeout", t.parse().unwrap());
        }
        req
    }

    fn ms_from_now(at: Instant) -> u128 {
        at.saturating_duration_since(Instant::now()).as_millis()
    }

    #[test]
    fn request_budget_applies_when_it_is_the_earliest() {
        let limits = RequestDeadline {
            at: Instant::now() + Duration::from_secs(10),
            default_budget: Duration::from_millis(1000),
        };
        let at = deadlines_given(&request_with(Some(limits), None), 200, Duration::ZERO).work;
        assert!(
            (150..=200).contains(&ms_from_now(at)),
            "{}",
            ms_from_now(at)
        );
    }

    #[test]
    fn zero_budget_uses_the_server_default() {
        let limits = RequestDeadline {
            at: Instant::now() + Duration::from_secs(10),
            default_budget: Duration::from_millis(300),
        };
        let at = deadlines_given(&request_with(Some(limits), None), 0, Duration::ZERO).work;
        assert!(
            (250..=300).contains(&ms_from_now(at)),
            "{}",
            ms_from_now(at)
        );
    }

    #[test]
    fn hard_deadline_caps_the_budget_with_a_margin() {
        // Hard deadline 400 ms away: margin min(400/4, 25) = 25 ms -> 375 ms.
        let limits = RequestDeadline {
            at: Instant::now() + Duration::from_millis(400),
            default_budget: Duration::from_millis(1000),
        };
        let at = deadlines_given(&request_with(Some(limits), None), 5000, Duration::ZERO).work;
        assert!(
            (325..=375).contains(&ms_from_now(at)),
            "{}",
            ms_from_now(at)
        );
    }

    #[test]
    fn grpc_timeout_metadata_is_read_without_the_server_layer() {
        // 100 ms: margin min(100/4, 25) = 25 ms -> 75 ms.
        let at = deadlines_given(&request_with(None, Some("100m")), 0, Duration::ZERO).work;
        assert!((40..=75).contains(&ms_from_now(at)), "{}", ms_from_now(at));
        // 40 ms: the margin is a quarter, 10 ms -> 30 ms; the answer is due then too
        // (the reply margin, 20 ms, is at most the stop margin).
        let d = deadlines_given(&request_with(None, Some("40m")), 0, Duration::ZERO);
        assert!(
            (0..=30).contains(&ms_from_now(d.work)),
            "{}",
            ms_from_now(d.work)
        );
        let answer = d.answer.expect("a hard deadline");
        assert!(answer >= d.work && ms_from_now(answer) <= 30);
        // 200 ms: work stops 25 ms before the end, the answer is due 20 ms before.
        let d = deadlines_given(&request_with(None, Some("200m")), 0, Duration::ZERO);
        let answer = d.answer.expect("a hard deadline");
        assert_eq!(answer - d.work, Duration::from_millis(5));
        let at = deadlines_given(&request_with(None, None), 0, Duration::ZERO).work;
        assert!(
            (950..=1000).contains(&ms_from_now(at)),
            "{}",
            ms_from_now(at)
        );
    }

    #[test]
    fn a_recent_wake_up_delay_widens_both_margins() {
        // 100 ms left, handlers recently woke 20 ms late: stop margin min(25 + 20,
        // 100/4 + 20, 100/2) = 45 ms -> work stops at 55 ms; the reply margin
        // min(20 + 20, 45) = 40 ms -> the answer is due at 60 ms.
        let req = request_with(None, Some("100m"));
        let d = deadlines_given(&req, 0, Duration::from_millis(20));
        let answer = d.answer.expect("a hard deadline");
        assert_eq!(answer - d.work, Duration::from_millis(5));
        assert!(
            (20..=55).contains(&ms_from_now(d.work)),
            "{}",
            ms_from_now(d.work)
        );
        // At the largest delay kept (40 ms) the engine still has half the time:
        // min(65, 65, 50) = 50 ms, and the answer is due when the work stops.
        let d = deadlines_given(&req, 0, wake_delay::MAX_EXTRA);
        assert_eq!(d.answer, Some(d.work));
        assert!(
            (15..=50).contains(&ms_from_now(d.work)),
            "{}",
            ms_from_now(d.work)
        );
    }

    #[test]
    fn grpc_timeout_values_parse_per_the_spec() {
        assert_eq!(parse_grpc_timeout("3S"), Some(Duration::from_secs(3)));
        assert_eq!(parse_grpc_timeout("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(parse_grpc_timeout("7u"), Some(Duration::from_micros(7)));
        assert_eq!(
            parse_grpc_timeout("99999999n"),
            Some(Duration::from_nanos(99_999_999))
        );
        assert_eq!(parse_grpc_timeout("123456789m"), None, "9 digits");
        assert_eq!(parse_grpc_timeout("m"), None);
        assert_eq!(parse_grpc_timeout("-1S"), None);
        assert_eq!(parse_grpc_timeout("10x"), None);
    }
}
