//! The work deadline of one decision, split into phases.

use std::time::Instant;

/// The decision's start and its deadline (`None`: unbounded, as in tests and tools).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    start: Instant,
    deadline: Option<Instant>,
}

impl Clock {
    /// A clock started now.
    pub fn new(deadline: Option<Instant>) -> Clock {
        Clock {
            start: Instant::now(),
            deadline,
        }
    }

    /// The instant a fraction `f` (0..=1) of the budget has passed (`None`: unbounded).
    pub fn at(&self, f: f64) -> Option<Instant> {
        self.deadline.map(|d| {
            let total = d.saturating_duration_since(self.start);
            self.start + total.mul_f64(f.clamp(0.0, 1.0))
        })
    }

    /// Whether the fraction `f` of the budget has passed.
    pub fn past(&self, f: f64) -> bool {
        self.at(f).is_some_and(|t| Instant::now() >= t)
    }
}
