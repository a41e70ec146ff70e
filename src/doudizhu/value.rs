//! Hand value (seed 000 and its source series, 斗地主AI算法): every group has a value,
//! and a hand is worth its best decomposition into groups, the one maximising
//! `sum_value - 7 * need_rounds` (7 is the worth of one round of control: a round the
//! hand must win back to lead again).
//!
//! Group values, with ranks as values 3..=14 for `3`..`A`, 15 for `2`, 16 / 17 for the
//! small / big joker (`v` = the highest rank of the main part):
//! - single, pair, trio, trio+single, trio+pair: `v - 10`;
//! - chain and pair chain: `v - 10 + 1`;
//! - trio chain and airplanes: `(v - 3 + 1) / 2`;
//! - four+two (singles or pairs): `(v - 3) / 2`;
//! - bomb: `v - 3 + 7`; rocket: 20.
//!
//! Divisions truncate toward zero as in the source's integer arithmetic. The best
//! decomposition is found by exact search: the group holding the lowest card is chosen
//! first (every group that contains it, kicker uses included), the rest recursively,
//! memoised on the rank-count vector. The rocket is never split into two kickers there:
//! as a group it is worth 20, as kickers at most 1.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::groups::{Counts, for_each_with_lowest, minus, pack};
use super::play::{Kind, Play};
use crate::memory_budget::{MemoryBudget, Reservation, hash_table_bytes};

/// Worth of one round of control in the hand value (seed 000).
pub const ROUND_WORTH: i32 = 7;

/// Rank value of a rank index: 3..=14 for `3`..`A`, 15 for `2`, 16 / 17 for the jokers.
pub const fn rank_value(rank: u8) -> i32 {
    rank as i32 + 3
}

/// The value of one group (seed 000's table, see the module docs).
pub fn group_value(g: &Play) -> i32 {
    let v = rank_value(g.main.index() as u8);
    match g.kind {
        Kind::Single | Kind::Pair | Kind::Trio | Kind::TrioWithSingle | Kind::TrioWithPair => {
            v - 10
        }
        Kind::Chain | Kind::PairChain => v - 10 + 1,
        Kind::TrioChain | Kind::AirplaneWithSingles | Kind::AirplaneWithPairs => (v - 3 + 1) / 2,
        Kind::FourWithTwoSingles | Kind::FourWithTwoPairs => (v - 3) / 2,
        Kind::Bomb => v - 3 + 7,
        Kind::Rocket => 20,
    }
}

/// A hand's best decomposition: its groups, their value sum and the rounds they need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The groups, lowest card first.
    pub groups: Vec<Play>,
    /// Sum of the group values.
    pub sum_value: i32,
    /// Number of groups (rounds needed to play them out with no one beating them).
    pub need_rounds: i32,
}

impl Evaluation {
    /// `sum_value - 7 * need_rounds`, the quantity the decomposition maximises.
    pub fn value(&self) -> i32 {
        self.sum_value - ROUND_WORTH * self.need_rounds
    }
}

/// Memo entry: best sum and rounds for a count vector, and the group holding its lowest
/// card in that best decomposition.
#[derive(Clone, Copy, Debug)]
struct Best {
    sum: i16,
    rounds: u8,
    first: Option<Play>,
}

impl Best {
    fn score(&self) -> i32 {
        i32::from(self.sum) - ROUND_WORTH * i32::from(self.rounds)
    }
}

/// A multiplicative hasher for the packed 45-bit keys (they are well spread already).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = (k ^ (k >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Most memo entries an [`Evaluator`] keeps (about 64 MiB with the table's slack);
/// beyond it the memo starts afresh.
pub const MEMO_LIMIT: usize = 1 << 20;

/// Bytes of one memo entry (`(u64, Best)` as the table lays it out).
const MEMO_ENTRY_BYTES: usize = std::mem::size_of::<(u64, Best)>();

/// Exact hand evaluator with a memo shared across calls (one per decision or search; a
/// 20-card hand's decomposition visits a few hundred to a few thousand count vectors).
///
/// An evaluator made by [`Evaluator::with_budget`] reserves its memo from an engine
/// memory budget before the memo grows; when the budget refuses, or the memo reaches
/// [`MEMO_LIMIT`] entries, the memo is cleared instead (the values stay exact, only the
/// work is redone).
#[derive(Default)]
pub struct Evaluator {
    memo: HashMap<u64, Best, BuildHasherDefault<KeyHasher>>,
    /// Option buffers reused across recursion levels (no allocation per state).
    pool: Vec<Vec<Play>>,
    /// The memo's bytes, reserved from the engine budget (`None`: not accounted).
    memory: Option<Reservation>,
}

impl Evaluator {
    /// A fresh evaluator. Kickers follow DESIGN.md's rules; the rocket is never split.
    pub fn new() -> Evaluator {
        Evaluator {
            memo: HashMap::default(),
            pool: Vec::new(),
            memory: None,
        }
    }

    /// An evaluator whose memo is sized for `entries` up front (no rehashing pauses
    /// until then).
    pub fn with_capacity(entries: usize) -> Evaluator {
        Evaluator {
            memo: HashMap::with_capacity_and_hasher(entries.min(MEMO_LIMIT), Default::default()),
            pool: Vec::new(),
            memory: None,
        }
    }

    /// An evaluator whose memo draws from `budget` (the search's: its playouts visit many
    /// hands), starting with room for `entries` when the budget allows.
    pub fn with_budget(entries: usize, budget: &'static MemoryBudget) -> Evaluator {
        let mut memory = budget.reservation();
        let entries = entries.min(MEMO_LIMIT);
        let memo = if memory.try_grow(hash_table_bytes(entries, MEMO_ENTRY_BYTES)) {
            HashMap::with_capacity_and_hasher(entries, Default::default())
        } else {
            HashMap::default()
        };
        let mut ev = Evaluator {
            memo,
            pool: Vec::new(),
            memory: Some(memory),
        };
        ev.account();
        ev
    }

    /// Keeps the reservation equal to what the memo holds.
    fn account(&mut self) {
        if let Some(m) = &mut self.memory {
            let held = hash_table_bytes(self.memo.capacity(), MEMO_ENTRY_BYTES);
            let excess = m.bytes().saturating_sub(held);
            m.shrink(excess);
            let _ = m.try_grow_to(held);
        }
    }

    /// Whether the memo may take one more entry without growing past its limit or its
    /// budget; grows it (reserving first) when it must.
    fn make_room(&mut self) -> bool {
        if self.memo.len() < self.memo.capacity() {
            return true;
        }
        let cap = self.memo.capacity();
        let new_cap = (2 * cap).max(1024);
        if new_cap > MEMO_LIMIT {
            return false;
        }
        if let Some(m) = &mut self.memory {
            let total = hash_table_bytes(cap, MEMO_ENTRY_BYTES)
                + hash_table_bytes(new_cap, MEMO_ENTRY_BYTES);
            if !m.try_grow_to(total) {
                return false;
            }
        }
        self.memo.reserve(new_cap - self.memo.len());
        self.account();
        true
    }

    /// `sum_value - 7 * need_rounds` of the best decomposition of `c` (0 for no cards).
    pub fn value(&mut self, c: &Counts) -> i32 {
        self.best(c).score()
    }

    /// Number of memoised count vectors (for benchmarks and tests).
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The best decomposition of `c`.
    pub fn evaluate(&mut self, c: &Counts) -> Evaluation {
        let mut groups = Vec::new();
        let mut rest = *c;
        let top = self.best(c);
        while let Some(g) = self.best(&rest).first {
            groups.push(g);
            rest = minus(&rest, g.cards.counts());
        }
        Evaluation {
            groups,
            sum_value: i32::from(top.sum),
            need_rounds: i32::from(top.rounds),
        }
    }

    fn best(&mut self, c: &Counts) -> Best {
        let Some(low) = c.iter().position(|&n| n > 0) else {
            return Best {
                sum: 0,
                rounds: 0,
                first: None,
            };
        };
        let key = pack(c);
        if let Some(b) = self.memo.get(&key) {
            return *b;
        }
        let mut options = self.pool.pop().unwrap_or_default();
        options.clear();
        for_each_with_lowest(c, low as u8, &mut |g| options.push(g));
        let mut best: Option<Best> = None;
        for &g in &options {
            let rest = minus(c, g.cards.counts());
            let r = self.best(&rest);
            let cand = Best {
                sum: r.sum + group_value(&g) as i16,
                rounds: r.rounds + 1,
                first: Some(g),
            };
            let better = match &best {
                None => true,
                Some(b) => {
                    cand.score() > b.score()
                        || (cand.score() == b.score() && cand.rounds < b.rounds)
                }
            };
            if better {
                best = Some(cand);
            }
        }
        self.pool.push(options);
        let best = best.expect("a single card is always a group");
        if !self.make_room() {
            // Bounded memory: start afresh (results stay exact, only slower).
            self.memo.clear();
        }
        self.memo.insert(key, best);
        best
    }
}

/// Convenience: the best decomposition of `c` with a fresh evaluator.
pub fn evaluate(c: &Counts) -> Evaluation {
    Evaluator::new().evaluate(c)
}
