//! Spare buffers: the tables and vectors a finished plan leaves for the next one.
//!
//! # Why
//!
//! A [`Planner`](super::plan::Planner) grows nine vectors and hash tables by doubling:
//! on the recorded game states (`bench/requests/mahjong_game_states.jsonl`) to a median
//! of 0.9 MB per decision (p90 3.7 MB, largest 11.5 MB). The service's
//! allocator returns a freed table's pages to the OS at once (`crate::memory_budget`,
//! "The allocator"); the price is that a block allocated again has pages that fault in
//! one by one. (Measured when that allocator was glibc's with its mmap threshold fixed
//! at 128 KiB.) Served one call at a time, the
//! 1,292 recorded decisions took 355,000 page faults and 1.3 s of kernel time (9 % of the
//! process's CPU), where the same decisions in one process with glibc's defaults took
//! 8,000 faults (BENCHMARKS.md, "Spare plan buffers").
//!
//! # Model
//!
//! - A planner that ends (its decision answered) leaves its buffers, cleared but with
//!   their capacity, in the process-wide [`BufferPool`]; the next planner takes the most
//!   recently left set and grows it only beyond what it already holds. The values do not
//!   depend on the capacities (the tables are only looked up, never iterated), so the
//!   answers are the same to the bit.
//! - The spare buffers stay charged to the engine memory budget
//!   ([`crate::memory_budget`]): a set is left with a [`Reservation`] of exactly its
//!   capacity in bytes, and the planner that takes it takes that reservation over. The
//!   budget's bound on RSS (idle + limit) therefore still holds.
//! - The pool holds at most [`BufferPool::limit`] bytes: an eighth of the budget's limit,
//!   at most [`POOL_MAX_BYTES`]. A set that does not fit is freed.
//! - A growth that the budget would refuse, by any engine, first frees the pool (the
//!   pool is its budget's [`Reclaim`]er), so spare buffers never cost a request its
//!   memory.

use std::collections::HashMap;
use std::mem::size_of;
use std::sync::{Mutex, PoisonError};

use super::budgeted_growth::table_bytes;
use super::plan::{Change, DiscardNode, DrawNode, FastBuild, Useful};
use crate::memory_budget::{MemoryBudget, Reclaim, Reservation};

/// Most bytes the global pool holds (with the default 512 MiB budget, its eighth would
/// be 64 MiB; the largest set on the recorded game states is 11.5 MB).
pub const POOL_MAX_BYTES: usize = 32 << 20;

/// The buffers of one planner (see [`super::plan::Planner`] for what each holds).
#[derive(Debug, Default)]
pub struct PlanBuffers {
    /// 13-tile state key -> node id.
    pub draw_memo: HashMap<u128, u32, FastBuild>,
    /// 14-tile state key -> node id.
    pub discard_memo: HashMap<u128, u32, FastBuild>,
    /// Useful kinds (bit mask) of the 13-tile hands weighed as change targets.
    pub useful_memo: HashMap<u128, u64, FastBuild>,
    /// Value arrays, `2 * (T + 1)` per state.
    pub values: Vec<f64>,
    /// 13-tile states; node 0 is [`super::plan::ZERO`].
    pub draw_nodes: Vec<DrawNode>,
    /// 14-tile states.
    pub discard_nodes: Vec<DiscardNode>,
    /// Useful edges.
    pub useful: Vec<Useful>,
    /// Change edges.
    pub changes: Vec<Change>,
    /// Targets of changes and discards of 14-tile states (13-tile node ids).
    pub targets: Vec<u32>,
}

impl PlanBuffers {
    /// Bytes allocated (capacities; hash tables with their control bytes, as
    /// [`table_bytes`] counts them).
    pub fn bytes(&self) -> usize {
        self.values.capacity() * size_of::<f64>()
            + self.draw_nodes.capacity() * size_of::<DrawNode>()
            + self.discard_nodes.capacity() * size_of::<DiscardNode>()
            + self.useful.capacity() * size_of::<Useful>()
            + self.changes.capacity() * size_of::<Change>()
            + self.targets.capacity() * size_of::<u32>()
            + table_bytes::<u128, u32>(self.draw_memo.capacity())
            + table_bytes::<u128, u32>(self.discard_memo.capacity())
            + table_bytes::<u128, u64>(self.useful_memo.capacity())
    }

    /// Empties every buffer, keeping its capacity.
    pub fn clear(&mut self) {
        self.draw_memo.clear();
        self.discard_memo.clear();
        self.useful_memo.clear();
        self.values.clear();
        self.draw_nodes.clear();
        self.discard_nodes.clear();
        self.useful.clear();
        self.changes.clear();
        self.targets.clear();
    }
}

/// A pool of cleared [`PlanBuffers`], each with the reservation that pays for it.
#[derive(Debug)]
pub struct BufferPool {
    /// `None`: the process's budget.
    budget: Option<&'static MemoryBudget>,
    max_bytes: usize,
    spares: Mutex<Spares>,
}

#[derive(Debug, Default)]
struct Spares {
    sets: Vec<(PlanBuffers, Reservation)>,
    bytes: usize,
}

static GLOBAL: BufferPool = BufferPool::charging(None, POOL_MAX_BYTES);

impl BufferPool {
    /// An empty pool charging `budget`, holding at most `max_bytes` (and at most an
    /// eighth of the budget's limit).
    pub const fn new(budget: &'static MemoryBudget, max_bytes: usize) -> BufferPool {
        BufferPool::charging(Some(budget), max_bytes)
    }

    const fn charging(budget: Option<&'static MemoryBudget>, max_bytes: usize) -> BufferPool {
        BufferPool {
            budget,
            max_bytes,
            spares: Mutex::new(Spares {
                sets: Vec::new(),
                bytes: 0,
            }),
        }
    }

    /// The pool of the process's budget ([`MemoryBudget::global`]), the one planners use.
    pub fn global() -> &'static BufferPool {
        &GLOBAL
    }

    /// The budget the pool's sets are charged to.
    pub fn budget(&self) -> &'static MemoryBudget {
        self.budget.unwrap_or_else(MemoryBudget::global)
    }

    /// Most bytes held: `min(max_bytes, limit / 8)`.
    pub fn limit(&self) -> usize {
        self.max_bytes.min(self.budget().limit() / 8)
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    /// The most recently left set with its reservation (`bytes()` of the set, from
    /// [`Self::budget`]), or `None` when the pool is empty.
    pub fn take(&self) -> Option<(PlanBuffers, Reservation)> {
        let mut spares = self.lock();
        let (buffers, memory) = spares.sets.pop()?;
        spares.bytes -= memory.bytes();
        Some((buffers, memory))
    }

    /// Leaves `buffers` (cleared here) for the next planner; `memory`, a reservation of
    /// this pool's budget, is set to exactly their bytes and kept with them. Frees them
    /// instead when they would take the pool past [`Self::limit`], when `memory` is
    /// another budget's, or when the budget cannot cover their bytes. The first pool to
    /// keep a set becomes its budget's reclaimer ([`MemoryBudget::set_reclaimer`]), so
    /// that any engine's growth the budget could not otherwise cover frees the pool first.
    pub fn give(&'static self, mut buffers: PlanBuffers, mut memory: Reservation) {
        let budget = self.budget();
        if !std::ptr::eq(memory.budget(), budget) {
            return;
        }
        budget.set_reclaimer(self);
        let bytes = buffers.bytes();
        if bytes == 0 || bytes > self.limit() {
            return;
        }
        // The reservation may hold less (a planner does not charge its first, tiny
        // vectors) or more (an allocator that rounded up is charged its rounding).
        if memory.bytes() > bytes {
            memory.shrink(memory.bytes() - bytes);
        }
        if budget.available() < bytes - memory.bytes() || !memory.try_grow_to(bytes) {
            return;
        }
        buffers.clear();
        let mut spares = self.lock();
        if spares.bytes + bytes > self.limit() {
            return;
        }
        spares.bytes += bytes;
        spares.sets.push((buffers, memory));
    }

    /// Frees every set (their reservations are released); returns the bytes freed.
    pub fn release(&self) -> usize {
        let sets = {
            let mut spares = self.lock();
            spares.bytes = 0;
            std::mem::take(&mut spares.sets)
        };
        sets.iter().map(|(_, memory)| memory.bytes()).sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Spares> {
        // A panic while holding the lock cannot leave the counts inconsistent with the
        // sets (both change under one guard without calls that panic).
        self.spares.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Reclaim for BufferPool {
    fn reclaim(&self) -> usize {
        self.release()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(entries: usize) -> PlanBuffers {
        let mut b = PlanBuffers::default();
        for i in 0..entries {
            b.draw_memo.insert(i as u128, i as u32);
            b.values.push(i as f64);
            b.targets.push(i as u32);
        }
        b
    }

    #[test]
    fn a_set_is_kept_cleared_with_a_reservation_of_exactly_its_bytes() {
        let budget = MemoryBudget::leak(64 << 20);
        let pool: &'static BufferPool = Box::leak(Box::new(BufferPool::new(budget, 32 << 20)));
        let b = filled(1000);
        let bytes = b.bytes();
        // 1000 entries: 1024 f64 + 1000 u32 at least, and a table of 2048 buckets of 33 bytes.
        assert!(bytes >= 1000 * 8 + 1000 * 4 + 2048 * 33, "{bytes}");
        let mut memory = budget.reservation();
        assert!(memory.try_grow(bytes / 2));
        pool.give(b, memory);
        assert_eq!(pool.bytes(), bytes);
        assert_eq!(budget.used(), bytes, "the pool's set stays charged");
        let (b, memory) = pool.take().unwrap();
        assert_eq!(memory.bytes(), bytes);
        assert_eq!(b.bytes(), bytes, "the capacity is kept");
        assert!(b.draw_memo.is_empty() && b.values.is_empty() && b.targets.is_empty());
        assert_eq!(pool.bytes(), 0);
        assert!(pool.take().is_none());
        drop(memory);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn the_pool_holds_at_most_an_eighth_of_the_budget_and_its_own_maximum() {
        let budget = MemoryBudget::leak(8 << 20);
        let pool: &'static BufferPool = Box::leak(Box::new(BufferPool::new(budget, 32 << 20)));
        assert_eq!(pool.limit(), 1 << 20);
        let bytes = filled(5000).bytes();
        assert!(bytes < 1 << 19 && 3 * bytes > 1 << 20, "{bytes}");
        for _ in 0..3 {
            pool.give(filled(5000), budget.reservation());
        }
        // The third does not fit in 1 MiB: freed, its bytes not charged.
        assert_eq!(pool.bytes(), 2 * bytes);
        assert_eq!(budget.used(), 2 * bytes);
        assert_eq!(BufferPool::new(budget, 1 << 10).limit(), 1 << 10);
        assert_eq!(pool.release(), 2 * bytes);
        assert_eq!((pool.bytes(), budget.used()), (0, 0));
    }

    #[test]
    fn a_set_the_budget_cannot_cover_or_of_another_budget_is_freed() {
        let budget = MemoryBudget::leak(8 << 20);
        let pool: &'static BufferPool = Box::leak(Box::new(BufferPool::new(budget, 32 << 20)));
        let hog = budget.try_reserve((8 << 20) - 1000).unwrap();
        pool.give(filled(1000), budget.reservation());
        assert_eq!((pool.bytes(), budget.refusals()), (0, 0), "not a refusal");
        drop(hog);
        let other = MemoryBudget::leak(8 << 20);
        pool.give(filled(1000), other.reservation());
        assert_eq!(pool.bytes(), 0);
        assert_eq!((budget.used(), other.used()), (0, 0));
    }

    #[test]
    fn any_growth_the_budget_cannot_cover_frees_the_pool_first() {
        let budget = MemoryBudget::leak(8 << 20);
        let pool: &'static BufferPool = Box::leak(Box::new(BufferPool::new(budget, 32 << 20)));
        pool.give(filled(5000), budget.reservation());
        assert!(pool.bytes() > 0);
        // Taken as another engine would (Dou Dizhu, gomoku): the whole limit.
        let all = budget
            .try_reserve(8 << 20)
            .expect("the pool gives its set back");
        assert_eq!((pool.bytes(), budget.refusals()), (0, 0));
        drop(all);
        // Nothing left to reclaim: a growth past the limit is refused, and counted.
        assert!(budget.try_reserve((8 << 20) + 1).is_none());
        assert_eq!((budget.refusals(), budget.used()), (1, 0));
    }
}
