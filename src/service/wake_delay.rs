//! How late the handlers wake: the recent scheduling delay of the runtime workers, which
//! the deadlines ([`super::deadlines`]) keep as extra margin.
//!
//! # Model
//!
//! A handler that waits for its engine or for its answer's due instant
//! ([`super::run_or_fallback_with`]) records, when it runs again, how long after that
//! event it got a CPU: the timer fired at `due` and the handler ran `d` later, or the
//! engine's answer was handed over and the handler ran `d` later. On an idle machine `d`
//! is tens of microseconds; beside busy processes, or on a node whose other pods want
//! the cores, it is milliseconds to tens of milliseconds, and the rest of the reply path
//! (encoding, the write, the caller's wake-up) is delayed alike. A fixed margin sized on
//! one machine is then too small on a busier one.
//!
//! The last [`WINDOW`] delays are kept; [`recent`] is the [`RANK`]-th largest of them
//! (a high quantile, about the 97th percentile once the window is full, that one
//! stall alone does not move), at most [`MAX_EXTRA`]. Lock-free: one atomic store per
//! record, and a read of the window per call.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::time::Duration;

/// How many recent delays are kept.
pub const WINDOW: usize = 64;

/// Which of the kept delays [`recent`] reports, counted from the largest (1 = the
/// largest): the 2nd, so that a single stall does not widen every margin for the next
/// [`WINDOW`] calls.
pub const RANK: usize = 2;

/// The most extra margin the deadlines take for delays: beyond this the machine is
/// too loaded for any margin, and the engines would only lose their time.
pub const MAX_EXTRA: Duration = Duration::from_millis(40);

/// A window of recent delays, in microseconds.
#[derive(Debug)]
pub struct WakeDelays {
    micros: [AtomicU32; WINDOW],
    next: AtomicUsize,
}

impl WakeDelays {
    /// An empty window (every delay 0).
    pub const fn new() -> WakeDelays {
        WakeDelays {
            micros: [const { AtomicU32::new(0) }; WINDOW],
            next: AtomicUsize::new(0),
        }
    }

    /// Records one delay.
    pub fn record(&self, delay: Duration) {
        let micros = u32::try_from(delay.as_micros()).unwrap_or(u32::MAX);
        let i = self.next.fetch_add(1, Ordering::Relaxed) % WINDOW;
        self.micros[i].store(micros, Ordering::Relaxed);
    }

    /// The [`RANK`]-th largest delay in the window, at most [`MAX_EXTRA`].
    pub fn recent(&self) -> Duration {
        let mut micros: [u32; WINDOW] =
            std::array::from_fn(|i| self.micros[i].load(Ordering::Relaxed));
        micros.sort_unstable_by(|a, b| b.cmp(a));
        Duration::from_micros(u64::from(micros[RANK - 1])).min(MAX_EXTRA)
    }
}

impl Default for WakeDelays {
    fn default() -> Self {
        WakeDelays::new()
    }
}

static DELAYS: WakeDelays = WakeDelays::new();

/// Records a handler's wake-up delay in the process's window.
pub fn record(delay: Duration) {
    DELAYS.record(delay);
}

/// The process's recent wake-up delay ([`WakeDelays::recent`]).
pub fn recent() -> Duration {
    DELAYS.recent()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn an_empty_window_adds_nothing() {
        assert_eq!(WakeDelays::new().recent(), Duration::ZERO);
    }

    #[test]
    fn one_stall_is_ignored_and_two_are_kept() {
        let w = WakeDelays::new();
        for _ in 0..10 {
            w.record(Duration::from_micros(50));
        }
        w.record(ms(30));
        // The largest is 30 ms, the second largest 50 us.
        assert_eq!(w.recent(), Duration::from_micros(50));
        w.record(ms(12));
        assert_eq!(w.recent(), ms(12));
    }

    #[test]
    fn old_delays_leave_the_window_and_the_extra_is_capped() {
        let w = WakeDelays::new();
        w.record(ms(500));
        w.record(ms(500));
        assert_eq!(w.recent(), MAX_EXTRA);
        for _ in 0..WINDOW {
            w.record(ms(3));
        }
        assert_eq!(w.recent(), ms(3));
    }
}
