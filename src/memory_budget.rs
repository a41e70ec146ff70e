//! The process-wide engine memory budget: one pool of bytes that every engine's
//! search state (mahjong DP memo, Dou Dizhu endgame transposition table, gomoku hash
//! table) draws from, so that the process stays within the container's memory limit
//! however many hard requests run at once.
//!
//! # Model
//!
//! - The budget is a number of bytes, [`MemoryBudget::limit`], set once at start from
//!   `--engine-memory-mb` ([`DEFAULT_LIMIT_BYTES`] otherwise). It covers the engines'
//!   *per-request* working memory only: the tables built at start-up, the server's own
//!   buffers and the allocator's slack are outside it (size the flag to the
//!   Deployment's limit minus those; `deploy/README.md` gives the arithmetic).
//! - An engine takes a [`Reservation`] before it allocates and grows it (in chunks, so
//!   that the shared counter is not touched per entry) as its state grows. A growth
//!   that would take the total past the limit is refused; the engine must then stop
//!   growing and answer with what it has, saying so (`exact: false` or the engine's
//!   equivalent). Nothing blocks or waits for memory.
//! - A reservation gives its bytes back when dropped, so a request that ends, fails or
//!   panics releases its share.
//! - Each engine call is also charged its fixed overhead outside the engine's tables
//!   ([`CALL_OVERHEAD_BYTES`], by `service::run_blocking`), never refused: with many
//!   calls at once that overhead adds up, and the engines then get that much less.
//! - Finished mahjong plans leave their buffers for the next call
//!   (`crate::mahjong::probability::buffer_pool`): still charged here, at most an eighth of
//!   the limit, and freed before any engine's growth would be refused (the budget's
//!   [`Reclaim`]er). Idle, [`MemoryBudget::used`] is therefore their bytes, not 0.
//! - Engines reserve what they really allocate (capacity, not length; hash-table
//!   control bytes included), so that [`MemoryBudget::used`] is an honest figure. It is
//!   exported as the gauge `gameai_engine_memory_used_bytes` beside
//!   `gameai_engine_memory_limit_bytes` and the counter
//!   `gameai_engine_memory_refusals_total`.
//!
//! Engines use [`MemoryBudget::global`]; tests can make their own budget with
//! [`MemoryBudget::leak`] to exercise refusal without touching the process's.
//!
//! # The allocator
//!
//! The model counts a block as gone once it is freed, which holds only if the allocator
//! hands freed pages back to the OS. glibc's malloc does not by default (its mmap
//! threshold rises to the largest block freed, and freed heap blocks stay resident):
//! eight concurrent 5-shanten `SuggestMahjongDiscard` calls with a 64 MiB budget took
//! RSS from 11 MB to 120 MB (BENCHMARKS.md, "Memory under concurrent hard requests").
//! The server binary therefore allocates with jemalloc configured to return freed pages
//! at once (`src/allocator.rs`); until session 36 it fixed glibc's mmap threshold at
//! 128 KiB instead, which bounded RSS as well but shared glibc's arena locks between
//! the runtime workers and the low-priority engine threads. A block freed is then a
//! page fault when it is used again; the mahjong plans, which grow the most per call,
//! keep their buffers for the next call instead
//! (`crate::mahjong::probability::buffer_pool`), charged to the budget.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The default budget: 512 MiB, which leaves about half of the Deployment's 1 GiB
/// limit (`deploy/kubernetes/deployment.yaml`) for the process itself, the mahjong
/// tables (3.5 MiB), the allocator's slack and the response buffers.
pub const DEFAULT_LIMIT_BYTES: usize = 512 << 20;

/// Bytes std's `HashMap` (hashbrown) allocates for a table whose
/// `HashMap::capacity()` is `capacity`, with entries of `entry_bytes` each (key and
/// value as laid out in the table, padding included): the buckets are the next power of
/// two of `capacity * 8 / 7`, each holding one entry and one control byte, plus 16
/// trailing control bytes. 0 for an unallocated table. Engines reserve this before they
/// let a table grow.
pub fn hash_table_bytes(capacity: usize, entry_bytes: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two().max(4);
    buckets * (entry_bytes + 1) + 16
}

/// What one engine call costs outside its engine's tables, charged to the budget for
/// as long as the call runs ([`crate::service::run_blocking`]): the blocking thread's
/// stack pages, its malloc arena's first pages, the answer being built. 256 KiB, twice
/// what was measured: nine concurrent 5-shanten `SuggestMahjongDiscard` calls under a
/// 64 MiB budget took RSS 0.5 to 1.3 MB past idle + their reservations (release).
pub const CALL_OVERHEAD_BYTES: usize = 256 << 10;

/// Memory kept for reuse and charged to a budget, which it can give back on demand
/// (see [`MemoryBudget::set_reclaimer`]).
pub trait Reclaim: Sync + std::fmt::Debug {
    /// Frees what is kept (its reservations released); returns the bytes given back.
    fn reclaim(&self) -> usize;
}

/// A pool of bytes shared by the engines. See the [module docs](self).
#[derive(Debug)]
pub struct MemoryBudget {
    limit: AtomicUsize,
    used: AtomicUsize,
    peak: AtomicUsize,
    refusals: AtomicU64,
    reclaimer: OnceLock<&'static dyn Reclaim>,
}

static GLOBAL: MemoryBudget = MemoryBudget::new(DEFAULT_LIMIT_BYTES);

impl MemoryBudget {
    /// A budget of `limit` bytes with nothing reserved.
    pub const fn new(limit: usize) -> MemoryBudget {
        MemoryBudget {
            limit: AtomicUsize::new(limit),
            used: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            refusals: AtomicU64::new(0),
            reclaimer: OnceLock::new(),
        }
    }

    /// Registers what to free before a growth is refused: a growth that does not fit
    /// first asks `reclaimer` to give back what it keeps and tries once more (a
    /// refusal is counted only if it still does not fit). The first registration wins;
    /// returns whether this one did. `reclaimer` must not take from this budget.
    pub fn set_reclaimer(&self, reclaimer: &'static dyn Reclaim) -> bool {
        self.reclaimer.set(reclaimer).is_ok()
    }

    /// The process's budget, the one every engine draws from.
    pub fn global() -> &'static MemoryBudget {
        &GLOBAL
    }

    /// A budget of `limit` bytes that lives for the rest of the process (for tests and
    /// tools that want a budget of their own).
    pub fn leak(limit: usize) -> &'static MemoryBudget {
        Box::leak(Box::new(MemoryBudget::new(limit)))
    }

    /// Sets the limit in bytes. Reservations already made are kept even if they now
    /// exceed it; further growth is refused until enough is released.
    pub fn set_limit(&self, bytes: usize) {
        self.limit.store(bytes, Ordering::Relaxed);
    }

    /// The limit in bytes.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Bytes reserved now, over all reservations.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Bytes still free: `limit - used` (0 when over).
    pub fn available(&self) -> usize {
        self.limit().saturating_sub(self.used())
    }

    /// The most bytes ever reserved at once since the process started.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// How many growths were refused since the process started.
    pub fn refusals(&self) -> u64 {
        self.refusals.load(Ordering::Relaxed)
    }

    /// An empty reservation, to be grown with [`Reservation::try_grow`].
    pub fn reservation(&'static self) -> Reservation {
        Reservation {
            budget: self,
            bytes: 0,
        }
    }

    /// A reservation of `bytes` taken whether or not they fit (never refused, not
    /// counted as a refusal): for memory that will be used anyway, such as a call's
    /// fixed overhead ([`CALL_OVERHEAD_BYTES`]). Growths after it see less room.
    pub fn charge(&'static self, bytes: usize) -> Reservation {
        let before = self.used.fetch_add(bytes, Ordering::AcqRel);
        self.peak.fetch_max(before + bytes, Ordering::Relaxed);
        Reservation {
            budget: self,
            bytes,
        }
    }

    /// A reservation of `bytes`, or `None` (and nothing reserved) when they do not fit.
    pub fn try_reserve(&'static self, bytes: usize) -> Option<Reservation> {
        let mut r = self.reservation();
        r.try_grow(bytes).then_some(r)
    }

    /// Takes `bytes` if they fit under the limit.
    /// Takes `bytes` if they fit under the limit, after asking the reclaimer (if any)
    /// to give back what it keeps when they do not.
    fn take(&self, bytes: usize) -> bool {
        if self.try_take(bytes)
            || self
                .reclaimer
                .get()
                .is_some_and(|r| r.reclaim() > 0 && self.try_take(bytes))
        {
            return true;
        }
        self.refusals.fetch_add(1, Ordering::Relaxed);
        false
    }

    fn try_take(&self, bytes: usize) -> bool {
        let limit = self.limit();
        let taken = self
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&total| total <= limit)
            });
        match taken {
            Ok(before) => {
                self.peak.fetch_max(before + bytes, Ordering::Relaxed);
                true
            }
            Err(_) => false,
        }
    }

    fn give_back(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// Bytes held from a [`MemoryBudget`] by one computation; released on drop.
#[derive(Debug)]
pub struct Reservation {
    budget: &'static MemoryBudget,
    bytes: usize,
}

impl Reservation {
    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The budget this reservation draws from.
    pub fn budget(&self) -> &'static MemoryBudget {
        self.budget
    }

    /// Grows by `bytes`. Returns false, holding what it held before, when the budget
    /// cannot cover them.
    pub fn try_grow(&mut self, bytes: usize) -> bool {
        if bytes == 0 {
            return true;
        }
        if self.budget.take(bytes) {
            self.bytes += bytes;
            true
        } else {
            false
        }
    }

    /// Grows to hold at least `total` bytes (no change when it already does).
    pub fn try_grow_to(&mut self, total: usize) -> bool {
        self.try_grow(total.saturating_sub(self.bytes))
    }

    /// Gives back up to `bytes` (memory the computation has freed).
    pub fn shrink(&mut self, bytes: usize) {
        let bytes = bytes.min(self.bytes);
        self.budget.give_back(bytes);
        self.bytes -= bytes;
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.give_back(self.bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_refused_past_the_limit_and_released_on_drop() {
        let budget = MemoryBudget::leak(1000);
        let mut a = budget.try_reserve(600).expect("600 of 1000 fit");
        assert_eq!(budget.used(), 600);
        // 600 + 500 > 1000: refused, nothing changes.
        assert!(budget.try_reserve(500).is_none());
        assert_eq!(budget.used(), 600);
        assert_eq!(budget.refusals(), 1);
        let mut b = budget.try_reserve(400).expect("exactly the rest fits");
        assert_eq!(budget.available(), 0);
        assert!(!b.try_grow(1));
        assert_eq!(b.bytes(), 400);
        a.shrink(100);
        assert!(b.try_grow(100));
        assert_eq!(budget.used(), 1000);
        assert_eq!(budget.peak(), 1000);
        drop(a);
        assert_eq!(budget.used(), 500);
        drop(b);
        assert_eq!(budget.used(), 0);
        assert_eq!(budget.peak(), 1000);
    }

    #[test]
    fn a_charge_is_never_refused_and_leaves_less_room() {
        let budget = MemoryBudget::leak(100);
        let mut r = budget.reservation();
        assert!(r.try_grow(90));
        let overhead = budget.charge(30);
        assert_eq!(budget.used(), 120);
        assert_eq!(budget.refusals(), 0);
        assert!(!r.try_grow(1), "over the limit: growth is refused");
        drop(overhead);
        assert!(r.try_grow(10));
        assert_eq!(budget.used(), 100);
    }

    #[test]
    fn grow_to_and_shrink_clamp() {
        let budget = MemoryBudget::leak(100);
        let mut r = budget.reservation();
        assert!(r.try_grow_to(40));
        assert!(r.try_grow_to(30), "already holds more");
        assert_eq!(r.bytes(), 40);
        r.shrink(1000);
        assert_eq!(r.bytes(), 0);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn concurrent_reservations_never_exceed_the_limit() {
        let budget = MemoryBudget::leak(10_000);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let mut r = budget.reservation();
                    for _ in 0..10_000 {
                        if r.try_grow(7) {
                            assert!(budget.used() <= budget.limit());
                        } else {
                            r.shrink(70);
                        }
                    }
                });
            }
        });
        assert_eq!(budget.used(), 0);
        assert!(budget.peak() <= 10_000);
    }
}
