//! How long the brain's thread has recently gone without running: the margin its
//! searches keep before their deadlines on a loaded machine.
//!
//! A search notices its deadline at its first clock reading after it; when the machine
//! is loaded, the thread can sit off the CPU for tens or hundreds of milliseconds, and
//! a stall that starts just before the deadline makes the answer that much late. Each
//! search watches the gaps between its clock readings
//! ([`Pace`](crate::gomoku::search::limits::Pace)) and stops once its deadline is
//! nearer than the longest stall seen; [`Stalls`] carries the longest of the last
//! [`STALL_WINDOW`] searches into the next one, so that a brain does not relearn the
//! machine's load on every move.
//!
//! A fresh process has seen no search: every game of a match starts a new brain, and
//! its first moves (the opening, where nothing is forced and the search runs to its
//! deadline) were the ones lost on time. [`probe`] fills the gap: when a game starts
//! (outside the turn's time) the brain reads the clock in a busy loop for
//! [`PROBE_TIME`] and records the longest gap, the same measure the searches take.

use std::time::{Duration, Instant};

use super::time_manager::RecentMax;
use crate::gomoku::search::limits::Pace;

/// How many recent stalls (searches and start-up probes) [`Stalls`] remembers.
pub const STALL_WINDOW: usize = 8;

/// How long the start-up probe reads the clock (wall time).
pub const PROBE_TIME: Duration = Duration::from_millis(40);

/// The longest stall each recent search (or probe) saw; the margin for the next search
/// is the longest of them.
pub type Stalls = RecentMax<STALL_WINDOW>;

/// The longest gap between successive clock readings of a busy loop that lasts `time`:
/// how long this thread went without running meanwhile.
pub fn probe(time: Duration) -> Duration {
    let start = Instant::now();
    let pace = Pace::starting_at(start, None, Duration::ZERO);
    loop {
        let now = Instant::now();
        pace.read(now);
        if now.saturating_duration_since(start) >= time {
            return pace.worst_seen();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn the_margin_is_the_longest_recent_stall_and_old_ones_are_forgotten() {
        let mut stalls = Stalls::default();
        assert_eq!(stalls.margin(), Duration::ZERO);
        stalls.record(ms(3));
        stalls.record(ms(90));
        stalls.record(ms(1));
        assert_eq!(stalls.margin(), ms(90));
        for _ in 0..STALL_WINDOW - 1 {
            stalls.record(ms(2));
        }
        // 90 ms was STALL_WINDOW records ago.
        assert_eq!(stalls.margin(), ms(2));
    }

    #[test]
    fn the_probe_runs_its_time_and_reports_a_gap_within_it() {
        // Not a timing test: whatever the load, the longest gap of a loop that ran
        // 5 ms of wall time cannot exceed the time the loop took.
        let started = Instant::now();
        let gap = probe(ms(5));
        let took = started.elapsed();
        assert!(took >= ms(5));
        assert!(gap <= took, "{gap:?} > {took:?}");
    }
}
