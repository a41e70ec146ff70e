//! The exact dynamic programme of the advance-or-throw model (see the [module
//! docs](super) for the model and the proof that `(hand, draws left)` is a sufficient
//! state).
//!
//! A 3n+1 state `H` at shanten `s` with `r` draws left, pool size `M_r = rest + r`
//! (`rest` = tiles still in the pool after the last draw) and useful kinds `k` with
//! `a_k` copies left:
//!
//! ```text
//! V(H, r) = sum_k a_k / M_r * B(H + k, r - 1) + (1 - A / M_r) * V(H, r - 1),   A = sum_k a_k
//! B(H + k, r) = 1                                  if H + k wins
//!             = max_j V(H + k - j, r)              over j with shanten(H + k - j) = s - 1
//! V(H, 0) = 0
//! ```
//!
//! and the same for tenpai with `V(H, r) = 1` when `s <= 0`. Each state (3n+1 and 3n+2)
//! is evaluated once, for every `r` in `0..=T` together: its value is an array.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use super::eval::{ALL_KINDS, Eval};
use crate::memory_budget::{MemoryBudget, Reservation};

/// Why an exact computation stopped before finishing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The deadline passed.
    #[error("the work deadline passed")]
    Deadline,
    /// The state limit (memory bound) was reached.
    #[error("the state limit ({0}) was reached")]
    StateLimit(usize),
    /// The process-wide engine memory budget refused more memory
    /// ([`crate::memory_budget`]).
    #[error("the engine memory budget is spent")]
    MemoryBudget,
}

/// Win and tenpai probability of one decision, exact under the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Odds {
    /// Probability of winning within the draws (0..=1).
    pub win: f64,
    /// Probability of being tenpai at some point within the draws (0..=1).
    pub tenpai: f64,
}

/// Default memory bound of one solver: 256 MiB of value arrays and memo entries. The
/// state limit is derived from it ([`ExactSolver::state_limit`]): about 800,000 states
/// with 17 draws. Change it with [`ExactSolver::with_state_limit`].
pub const DEFAULT_MEMORY_BYTES: usize = 256 << 20;

/// Bytes per memo entry besides its values (key, index, hash-table slack).
const ENTRY_OVERHEAD: usize = 48;

/// Memoised DP over hand states for one situation: fixed melds, ruleset, unseen pool,
/// horizon `T` draws.
///
/// Shapes: hands are `[u8; 34]` counts of the concealed tiles (index order of
/// [`crate::mahjong::tile::Tile`]). Build one solver per situation with
/// [`ExactSolver::new`]; query the first-discard candidates with
/// [`ExactSolver::discard`] (3n+2 hands) or a hand after its discard with
/// [`ExactSolver::hand`] (3n+1). Values of states are shared between queries.
pub struct ExactSolver {
    eval: Eval,
    /// Copies of each kind that are in the root hand or in the unseen pool.
    supply: [u8; 34],
    horizon: usize,
    /// `inv_pool[r]` = 1 / (pool size with `r` draws left) = 1 / (`rest` + r).
    inv_pool: Vec<f64>,
    memo13: HashMap<u128, u32, FastBuild>,
    memo14: HashMap<u128, u32, FastBuild>,
    /// Entries of `2 * (horizon + 1)` values: win for r = 0..=T, then tenpai.
    arena: Vec<f64>,
    deadline: Option<Instant>,
    state_limit: usize,
    ticks: u64,
    /// Bytes drawn from the engine memory budget: always at least what the arena and
    /// the two memo tables have allocated (capacity, not length), reserved before they
    /// grow ([`ExactSolver::make_room`]).
    memory: Reservation,
}

/// Smallest growth of a memo table or the arena, in entries / states.
const MIN_GROWTH: usize = 1024;

/// Bytes a memo table (`HashMap<u128, u32>`, hashbrown) allocates for `capacity`
/// entries: buckets are the next power of two of `capacity * 8 / 7`, each holding a
/// 32-byte entry (16-aligned `(u128, u32)`) and one control byte.
fn table_bytes(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two();
    buckets * (32 + 1) + 16
}

/// Arena entry whose win and tenpai values are 1 for every `r` (a winning draw).
const ONE: u32 = 0;

/// Arena entry whose values are 0 for every `r` (a hand too far from tenpai).
const ZERO: u32 = 1;

impl ExactSolver {
    /// A solver for a hand `hand` (3n+1 or 3n+2 concealed tiles) with `unseen` the unseen
    /// pool (copies per kind), `draws` the horizon `T` (at most the pool size), `eval`
    /// the shanten judge for the melds and ruleset. `deadline`: stop with
    /// [`Stopped::Deadline`] once it passes (checked at the first state and every 256th).
    ///
    /// Panics never; a horizon beyond the pool is clamped to the pool size.
    pub fn new(
        eval: Eval,
        hand: &[u8; 34],
        unseen: &[u8; 34],
        draws: u32,
        deadline: Option<Instant>,
    ) -> ExactSolver {
        let mut supply = [0u8; 34];
        for k in 0..34 {
            supply[k] = hand[k].saturating_add(unseen[k]);
        }
        let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
        let draws = draws.min(pool);
        let horizon = draws as usize;
        let stride = 2 * (horizon + 1);
        ExactSolver {
            eval,
            supply,
            horizon,
            inv_pool: (0..=draws)
                .map(|r| 1.0 / f64::from((pool - draws + r).max(1)))
                .collect(),
            memo13: HashMap::default(),
            memo14: HashMap::default(),
            arena: [vec![1.0; stride], vec![0.0; stride]].concat(),
            deadline,
            state_limit: DEFAULT_MEMORY_BYTES / (2 * (horizon + 1) * 8 + ENTRY_OVERHEAD),
            ticks: 0,
            memory: MemoryBudget::global().reservation(),
        }
    }

    /// Draws memory from `budget` instead of the process's
    /// ([`MemoryBudget::global`]).
    pub fn with_memory_budget(mut self, budget: &'static MemoryBudget) -> ExactSolver {
        self.memory = budget.reservation();
        self
    }

    /// Bytes this solver holds from the engine memory budget.
    pub fn reserved_bytes(&self) -> usize {
        self.memory.bytes()
    }

    /// Sets the bound on memoised states (memory); [`Stopped::StateLimit`] beyond it.
    pub fn with_state_limit(mut self, limit: usize) -> ExactSolver {
        self.state_limit = limit;
        self
    }

    /// The bound on memoised states; [`Stopped::StateLimit`] beyond it.
    pub fn state_limit(&self) -> usize {
        self.state_limit
    }

    /// The horizon `T` in draws.
    pub fn horizon(&self) -> u32 {
        self.horizon as u32
    }

    /// States evaluated so far (3n+1 and 3n+2).
    pub fn states(&self) -> u64 {
        (self.memo13.len() + self.memo14.len()) as u64
    }

    /// Odds after discarding `discard` from the 3n+2 `hand` this solver was built for
    /// (or any 3n+2 hand drawn from the same supply), with all `T` draws to come. The
    /// discarded tile leaves the game: if it is useful to the hand left (the discard
    /// raises shanten), its copies are counted one lower. `None` if `discard` is not in
    /// `hand`.
    pub fn discard(&mut self, hand: &[u8; 34], discard: usize) -> Result<Option<Odds>, Stopped> {
        if discard >= 34 || hand[discard] == 0 {
            return Ok(None);
        }
        let mut h = *hand;
        h[discard] -= 1;
        let s = self.eval.shanten(&h);
        let idx = self.values13(&mut h, s, Some(discard as u8), ALL_KINDS)?;
        Ok(Some(self.odds(idx, self.horizon)))
    }

    /// Odds of the 3n+1 `hand` with `draws_left` draws to come (`draws_left <= T`; draws
    /// left beyond `T` are clamped). The pool then holds `rest + draws_left` tiles, the
    /// copies of each useful kind being its supply minus the copies in `hand`. With
    /// `draws_left = T` and the hand the solver was built from, this is the value of
    /// that hand; smaller values are the states a line of play passes through (used by
    /// the simulator in the tests).
    pub fn hand(&mut self, hand: &[u8; 34], draws_left: u32) -> Result<Odds, Stopped> {
        let mut h = *hand;
        let s = self.eval.shanten(&h);
        let idx = self.values13(&mut h, s, None, ALL_KINDS)?;
        Ok(self.odds(idx, (draws_left as usize).min(self.horizon)))
    }

    fn odds(&self, idx: u32, r: usize) -> Odds {
        let base = idx as usize * self.stride();
        Odds {
            win: self.arena[base + r],
            tenpai: self.arena[base + self.horizon + 1 + r],
        }
    }

    fn stride(&self) -> usize {
        2 * (self.horizon + 1)
    }

    fn tick(&mut self) -> Result<(), Stopped> {
        self.ticks += 1;
        let states = self.memo13.len() + self.memo14.len();
        if states >= self.state_limit {
            return Err(Stopped::StateLimit(self.state_limit));
        }
        self.make_room()?;
        if self.ticks % 256 == 1
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            return Err(Stopped::Deadline);
        }
        Ok(())
    }

    /// Makes room for one more state in the arena and one more entry in each memo
    /// table, reserving from the engine memory budget *before* anything is allocated:
    /// a structure that is full grows (to twice its capacity, at least
    /// [`MIN_GROWTH`]), and while it moves both its old and its new allocation are
    /// live, so both are covered. [`Stopped::MemoryBudget`] when the budget refuses.
    fn make_room(&mut self) -> Result<(), Stopped> {
        let stride = self.stride();
        let arena_cap = self.arena.capacity() / stride;
        let arena_len = self.arena.len() / stride;
        let grow_arena = arena_len >= arena_cap;
        let grow13 = self.memo13.len() >= self.memo13.capacity();
        let grow14 = self.memo14.len() >= self.memo14.capacity();
        if !(grow_arena || grow13 || grow14) {
            return Ok(());
        }
        let new_cap = |cap: usize| (2 * cap).max(MIN_GROWTH);
        let arena_bytes = |states: usize| states * stride * 8;
        let (a_now, a_next) = (arena_bytes(arena_cap), arena_bytes(new_cap(arena_cap)));
        let (m13_now, m13_next) = (
            table_bytes(self.memo13.capacity()),
            table_bytes(new_cap(self.memo13.capacity())),
        );
        let (m14_now, m14_next) = (
            table_bytes(self.memo14.capacity()),
            table_bytes(new_cap(self.memo14.capacity())),
        );
        let mut total = a_now + m13_now + m14_now;
        if grow_arena {
            total += a_next;
        }
        if grow13 {
            total += m13_next;
        }
        if grow14 {
            total += m14_next;
        }
        if !self.memory.try_grow_to(total) {
            return Err(Stopped::MemoryBudget);
        }
        if grow_arena {
            let want = new_cap(arena_cap) * stride - self.arena.len();
            self.arena.reserve_exact(want);
        }
        if grow13 {
            let want = new_cap(self.memo13.capacity()) - self.memo13.len();
            self.memo13.reserve(want);
        }
        if grow14 {
            let want = new_cap(self.memo14.capacity()) - self.memo14.len();
            self.memo14.reserve(want);
        }
        // The old allocations are gone: keep only what is allocated now.
        let held = arena_bytes(self.arena.capacity() / stride)
            + table_bytes(self.memo13.capacity())
            + table_bytes(self.memo14.capacity());
        let excess = self.memory.bytes().saturating_sub(held);
        self.memory.shrink(excess);
        // An allocator that rounded up is counted too (never refused: it is done).
        if held > self.memory.bytes() && !self.memory.try_grow_to(held) {
            return Err(Stopped::MemoryBudget);
        }
        Ok(())
    }

    /// Values of the 3n+1 state `h` (shanten `s`). `variant = Some(d)`: the first discard
    /// was `d`, so while `d` is useful its copies count one lower; once it is not, the
    /// state is the shared one (`None`). `candidates`: a superset of the kinds useful to
    /// `h` — by the nesting lemma, the kinds useful to the hand it advanced from.
    fn values13(
        &mut self,
        h: &mut [u8; 34],
        s: i8,
        variant: Option<u8>,
        candidates: u64,
    ) -> Result<u32, Stopped> {
        let key = pack(h, variant);
        if let Some(&i) = self.memo13.get(&key) {
            return Ok(i);
        }
        // Pruning: shanten s needs s draws to tenpai and s + 1 to win; with fewer in
        // the whole horizon, every value is 0 and nothing is expanded.
        if s > 0 && s as usize > self.horizon {
            self.make_room()?;
            self.memo13.insert(key, ZERO);
            return Ok(ZERO);
        }
        self.tick()?;
        // Useful kinds with the copies left in the pool.
        let mut useful = [(0u8, 0u32); 34];
        let mut n_useful = 0;
        let mut variant_useful = false;
        let mut scan = candidates;
        if let Some(d) = variant {
            scan |= 1 << d;
        }
        let after = self.eval.shanten_after_draws(h, scan);
        let mut useful_mask = 0u64;
        for k in 0..34 {
            if h[k] >= 4 {
                continue;
            }
            let is_variant = variant == Some(k as u8);
            let left = i32::from(self.supply[k]) - i32::from(h[k]) - i32::from(is_variant);
            if left <= 0 && !is_variant {
                continue;
            }
            if after[k] < s {
                useful_mask |= 1 << k;
                variant_useful |= is_variant;
                if left > 0 {
                    useful[n_useful] = (k as u8, left as u32);
                    n_useful += 1;
                }
            }
        }
        if variant.is_some() && !variant_useful {
            let i = self.values13(h, s, None, candidates)?;
            self.memo13.insert(key, i);
            return Ok(i);
        }

        let t = self.horizon;
        let stride = self.stride();
        let mut children = [(ONE, 0u32); 34];
        let mut total = 0u32;
        for (slot, &(k, left)) in children.iter_mut().zip(&useful[..n_useful]) {
            total += left;
            let k = k as usize;
            let child = if s <= 0 {
                ONE
            } else {
                h[k] += 1;
                let c = self.values14(h, s - 1, variant, useful_mask);
                h[k] -= 1;
                c?
            };
            *slot = (child, left);
        }
        let i = self.arena.len() / stride;
        self.arena.resize(self.arena.len() + stride, 0.0);
        let (done, vals) = self.arena.split_at_mut(i * stride);
        let (win, ten) = vals.split_at_mut(t + 1);
        if s <= 0 {
            // Every useful draw wins: one term with all the waits.
            let a = f64::from(total);
            for (w, inv) in win.iter_mut().zip(&self.inv_pool).skip(1) {
                *w = a * inv;
            }
        } else {
            for &(child, left) in &children[..n_useful] {
                let a = f64::from(left);
                let c = &done[child as usize * stride..(child as usize + 1) * stride];
                for r in 1..=t {
                    let p = a * self.inv_pool[r];
                    win[r] += p * c[r - 1];
                    ten[r] += p * c[t + r];
                }
            }
        }
        // No useful draw: the hand stays, one draw fewer.
        let total = f64::from(total);
        for r in 1..=t {
            let stay = 1.0 - total * self.inv_pool[r];
            win[r] += stay * win[r - 1];
            ten[r] += stay * ten[r - 1];
        }
        // Sums of fractions can exceed 1 by a rounding error; probabilities do not.
        for v in win.iter_mut().chain(ten.iter_mut()) {
            *v = v.min(1.0);
        }
        if s <= 0 {
            ten.fill(1.0);
        }
        let i = i as u32;
        self.memo13.insert(key, i);
        Ok(i)
    }

    /// Values of the 3n+2 state `h` (not winning): the best, per `r`, over the discards
    /// that leave shanten `target`.
    fn values14(
        &mut self,
        h: &mut [u8; 34],
        target: i8,
        variant: Option<u8>,
        candidates: u64,
    ) -> Result<u32, Stopped> {
        let key = pack(h, variant);
        if let Some(&i) = self.memo14.get(&key) {
            return Ok(i);
        }
        self.tick()?;
        let stride = self.stride();
        let after = self.eval.shanten_after_each_discard(h);
        let mut children = [ONE; 14];
        let mut n = 0;
        for j in 0..34 {
            if h[j] == 0 || after[j] != target {
                continue;
            }
            h[j] -= 1;
            let child = self.values13(h, target, variant, candidates);
            h[j] += 1;
            if n < children.len() {
                children[n] = child?;
                n += 1;
            }
        }
        let i = self.arena.len() / stride;
        self.arena.resize(self.arena.len() + stride, 0.0);
        let (done, best) = self.arena.split_at_mut(i * stride);
        for &child in &children[..n] {
            let c = &done[child as usize * stride..(child as usize + 1) * stride];
            for (b, &v) in best.iter_mut().zip(c) {
                if v > *b {
                    *b = v;
                }
            }
        }
        let i = i as u32;
        self.memo14.insert(key, i);
        Ok(i)
    }
}

/// The state key: 3 bits per kind (counts 0..=4) and the variant kind + 1 above them.
fn pack(h: &[u8; 34], variant: Option<u8>) -> u128 {
    let mut key = 0u128;
    for (i, &c) in h.iter().enumerate() {
        key |= u128::from(c) << (3 * i);
    }
    if let Some(d) = variant {
        key |= u128::from(d + 1) << 102;
    }
    key
}

/// A multiply-fold hasher for the `u128` state keys (the std SipHash is several times
/// slower and the keys are not attacker-chosen in a way that matters: the state count
/// is bounded).
#[derive(Default, Clone, Copy)]
struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u128(&mut self, v: u128) {
        let lo = v as u64;
        let hi = (v >> 64) as u64;
        let x = (lo ^ hi.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 32) ^ hi.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    }
}

type FastBuild = BuildHasherDefault<FastHasher>;
