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

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            deadline: None,
            stop: None,
            soft_deadline: None,
            max_nodes: None,
            max_depth: 40,
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

    /// The clock of these limits with the deadline `deadline` (a stage's slice).
    pub(crate) fn clock(&self, deadline: Option<Instant>) -> Clock<'a> {
        Clock {
            deadline,
            stop: self.stop,
        }
    }
}

/// A stage's deadline and the caller's stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock<'a> {
    /// The stage's deadline.
    pub deadline: Option<Instant>,
    /// The caller's stop flag.
    pub stop: Option<&'a AtomicBool>,
}

impl<'a> Clock<'a> {
    /// A clock that never runs out.
    pub fn none() -> Clock<'a> {
        Clock::default()
    }

    /// Whether the stop flag is set or the deadline has passed (reads the clock).
    #[inline]
    pub fn expired(&self) -> bool {
        stop_set(self.stop) || self.deadline.is_some_and(|d| Instant::now() >= d)
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
