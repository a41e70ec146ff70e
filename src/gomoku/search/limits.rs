//! When a search stops: the caller's [`Limits`], and the [`Clock`] every stage reads.
//!
//! Every stage (VCF, VCT, alpha-beta and its quiescence, the root checks) reads the
//! clock and the stop flag at its entry and then every [`CLOCK_EVERY_NODES`] nodes, so
//! that a search stops within a few milliseconds of CPU time of its deadline whatever
//! its thread's share of the machine: the costliest nodes (VCT's, which generate every
//! defence) take some tens of microseconds each, so 16 of them are well under a
//! millisecond of CPU time, while a read of the monotonic clock costs some tens of
//! nanoseconds. Node limits are counted apart from the clock, so a search limited by
//! nodes alone stays deterministic.
//!
//! On a loaded machine the thread itself may not run for a while: the scheduler gives
//! the CPU to other processes, and a stop noticed at the first clock reading after the
//! deadline can come a whole stall later. A [`Pace`] (optional, in [`Limits::pace`])
//! watches for that: every clock reading records the gap since the one before, and as
//! readings come some microseconds of CPU time apart, a gap of milliseconds is time the
//! thread spent off the CPU. The clock then counts as expired once the deadline is
//! nearer than the longest stall seen (in this search, or before it: the caller's
//! `prior`), so that a stall as long as the worst one seen still ends before the
//! deadline.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Nodes between two readings of the clock and the stop flag, in every stage.
pub const CLOCK_EVERY_NODES: u64 = 16;

/// When and how far to search.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'a> {
    /// Stop at this instant and answer with the best move so far.
    pub deadline: Option<Instant>,
    /// Stop as soon as this flag is set (read with the clock in every stage) and answer
    /// with the best move so far: a caller's time manager or a protocol's `END` can end
    /// a search early.
    pub stop: Option<&'a AtomicBool>,
    /// Do not start a new iteration after this instant (default:
    /// [`super::Params::soft_percent`] of the way to the deadline).
    pub soft_deadline: Option<Instant>,
    /// Stop after this many nodes (all stages together, approximately).
    pub max_nodes: Option<u64>,
    /// Deepest alpha-beta iteration, in plies.
    pub max_depth: u32,
    /// The scheduling stalls to allow for before the answer's deadline ([`Pace`]);
    /// none when `None`.
    pub pace: Option<&'a Pace>,
    /// Where the alpha-beta stage publishes its best move so far (the cell + 1; 0 while
    /// there is none), for a caller that must answer before the search returns.
    pub progress: Option<&'a AtomicUsize>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            deadline: None,
            stop: None,
            soft_deadline: None,
            max_nodes: None,
            max_depth: 40,
            pace: None,
            progress: None,
        }
    }
}

impl<'a> Limits<'a> {
    /// Search until `deadline`.
    pub fn until(deadline: Instant) -> Limits<'a> {
        Limits {
            deadline: Some(deadline),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` nodes (deterministic; no clock).
    pub fn nodes(nodes: u64) -> Limits<'a> {
        Limits {
            max_nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search to exactly `depth` plies.
    pub fn depth(depth: u32) -> Limits<'a> {
        Limits {
            max_depth: depth,
            ..Limits::default()
        }
    }

    /// These limits, also stopped by `flag` (see [`Limits::stop`]).
    pub fn with_stop(self, flag: &'a AtomicBool) -> Limits<'a> {
        Limits {
            stop: Some(flag),
            ..self
        }
    }

    /// These limits, stopping a stall ahead of the deadline (see [`Pace`]).
    pub fn with_pace(self, pace: &'a Pace) -> Limits<'a> {
        Limits {
            pace: Some(pace),
            ..self
        }
    }

    /// These limits, publishing the best move so far to `progress` (see
    /// [`Limits::progress`]).
    pub fn with_progress(self, progress: &'a AtomicUsize) -> Limits<'a> {
        Limits {
            progress: Some(progress),
            ..self
        }
    }

    /// Publishes `cell` as the best move so far, if the caller asked.
    pub(crate) fn publish(&self, cell: usize) {
        if let Some(p) = self.progress {
            p.store(cell + 1, Ordering::Relaxed);
        }
    }

    /// The clock of these limits with the deadline `deadline` (a stage's slice).
    pub(crate) fn clock(&self, deadline: Option<Instant>) -> Clock<'a> {
        Clock {
            deadline,
            stop: self.stop,
            pace: self.pace,
        }
    }
}

/// The longest time the searching thread went without running (see the [module
/// docs](self)): the gaps between successive clock readings, and the deadline of the
/// answer they must not push it past.
#[derive(Debug)]
pub struct Pace {
    origin: Instant,
    deadline: Option<Instant>,
    prior: Duration,
    /// Nanoseconds from `origin` to the last reading.
    last: AtomicU64,
    /// The longest gap seen, in nanoseconds.
    worst: AtomicU64,
}

impl Pace {
    /// A pace starting now for an answer due at `deadline`, that already allows for
    /// stalls of `prior` (those the caller saw before this search).
    pub fn new(deadline: Option<Instant>, prior: Duration) -> Pace {
        Pace::starting_at(Instant::now(), deadline, prior)
    }

    /// [`Pace::new`] with the first gap counted from `origin`.
    pub fn starting_at(origin: Instant, deadline: Option<Instant>, prior: Duration) -> Pace {
        Pace {
            origin,
            deadline,
            prior,
            last: AtomicU64::new(0),
            worst: AtomicU64::new(0),
        }
    }

    /// Records a clock reading at `now`; returns the margin to keep before the
    /// deadline: the longest stall known, the gap just ended included.
    pub fn read(&self, now: Instant) -> Duration {
        let at = nanos(now.saturating_duration_since(self.origin));
        let last = self.last.swap(at, Ordering::Relaxed);
        let gap = at.saturating_sub(last);
        let worst = self.worst.fetch_max(gap, Ordering::Relaxed).max(gap);
        self.prior.max(Duration::from_nanos(worst))
    }

    /// Records a clock reading at `now`; whether the deadline is nearer than the
    /// longest stall known (or past).
    pub fn too_close(&self, now: Instant) -> bool {
        let margin = self.read(now);
        self.deadline.is_some_and(|d| now + margin >= d)
    }

    /// The longest gap between two readings seen so far (the prior not included).
    pub fn worst_seen(&self) -> Duration {
        Duration::from_nanos(self.worst.load(Ordering::Relaxed))
    }
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().min(u128::from(u64::MAX)) as u64
}

/// A stage's deadline and the caller's stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock<'a> {
    /// The stage's deadline.
    pub deadline: Option<Instant>,
    /// The caller's stop flag.
    pub stop: Option<&'a AtomicBool>,
    /// The stalls to allow for before the deadline.
    pub pace: Option<&'a Pace>,
}

impl<'a> Clock<'a> {
    /// A clock that never runs out.
    pub fn none() -> Clock<'a> {
        Clock::default()
    }

    /// Whether the stop flag is set or the stage's deadline has passed (reads the
    /// clock), or, with a [`Pace`], the answer's deadline is nearer than the longest
    /// stall seen.
    #[inline]
    pub fn expired(&self) -> bool {
        if stop_set(self.stop) {
            return true;
        }
        let now = Instant::now();
        self.deadline.is_some_and(|d| now >= d) || self.pace.is_some_and(|p| p.too_close(now))
    }

    /// [`Clock::expired`], read only when `nodes` is a multiple of
    /// [`CLOCK_EVERY_NODES`] (a stage's node counter).
    #[inline]
    pub fn expired_at(&self, nodes: u64) -> bool {
        nodes.is_multiple_of(CLOCK_EVERY_NODES) && self.expired()
    }
}

/// Whether an optional stop flag is set.
#[inline]
pub(crate) fn stop_set(flag: Option<&AtomicBool>) -> bool {
    flag.is_some_and(|f| f.load(Ordering::Relaxed))
}

/// The instant `1/parts` of the way from `start` to `deadline`.
pub(crate) fn slice(start: Instant, deadline: Option<Instant>, parts: u32) -> Option<Instant> {
    deadline.map(|d| start + d.saturating_duration_since(start) / parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn the_deadline_counts_as_near_once_closer_than_the_longest_gap_seen() {
        // Readings at instants chosen by the test, not the machine's clock: a deadline
        // 160 ms after the start; readings every millisecond up to 50 ms (gaps of 1 ms),
        // then a stall of 30 ms (reading at 80 ms: 80 + 30 < 160), then one of 48 ms
        // (reading at 129 ms: 129 + 48 >= 160).
        let t0 = Instant::now();
        let pace = Pace::starting_at(t0, Some(t0 + ms(160)), Duration::ZERO);
        for i in 1..=50 {
            assert!(!pace.too_close(t0 + ms(i)), "{i} ms");
        }
        assert_eq!(pace.worst_seen(), ms(1));
        assert!(!pace.too_close(t0 + ms(80)));
        assert_eq!(pace.worst_seen(), ms(30));
        assert!(!pace.too_close(t0 + ms(81)));
        assert!(pace.too_close(t0 + ms(129)));
        assert_eq!(pace.worst_seen(), ms(48));
        // Without a stall the same reading would have been in time: 129 + 1 < 160.
        let calm = Pace::starting_at(t0, Some(t0 + ms(160)), Duration::ZERO);
        for i in 1..=129 {
            assert!(!calm.too_close(t0 + ms(i)), "{i} ms");
        }
    }

    #[test]
    fn a_prior_stall_counts_from_the_first_reading() {
        // Stalls of 100 ms seen before this search: the deadline is near from 60 ms on.
        let t0 = Instant::now();
        let pace = Pace::starting_at(t0, Some(t0 + ms(160)), ms(100));
        assert!(!pace.too_close(t0 + ms(1)));
        assert!(!pace.too_close(t0 + ms(59)));
        assert!(pace.too_close(t0 + ms(60)));
        // The prior is not a gap of this search.
        assert_eq!(pace.worst_seen(), ms(58));
        // No deadline: never near, however long the stalls.
        let open = Pace::starting_at(t0, None, ms(100));
        assert!(!open.too_close(t0 + ms(500)));
    }

    #[test]
    fn a_clock_with_a_pace_expires_before_its_stage_deadline_when_stalls_are_long() {
        // The stage's own deadline is far; the answer's deadline is an hour away and
        // the stalls seen are longer than that: expired. The same clock without the
        // pace is not.
        let now = Instant::now();
        let pace = Pace::new(
            Some(now + Duration::from_secs(3_600)),
            Duration::from_secs(3_601),
        );
        let clock = Clock {
            deadline: Some(now + Duration::from_secs(7_200)),
            stop: None,
            pace: Some(&pace),
        };
        assert!(clock.expired());
        assert!(
            !Clock {
                pace: None,
                ..clock
            }
            .expired()
        );
    }
}
