//! The transposition table: a fixed-size array of 16-byte entries indexed by the
//! Zobrist key, whose memory is drawn from the process-wide engine budget
//! ([`crate::memory_budget`]) before it is allocated.
//!
//! Each entry keeps the key's upper 32 bits (to tell positions apart), the best move,
//! the score with its bound, the static evaluation, the depth and the search
//! generation. Replacement prefers deeper results and entries of the current
//! generation. Win and loss scores are stored relative to the node (distance to the
//! five from the node, not from the root) so that they stay right wherever the position
//! recurs.

use crate::memory_budget::{MemoryBudget, Reservation};

use super::score::{WIN_MIN, from_tt, to_tt};

/// Bytes per entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<u128>();
/// The smallest table worth having: 4,096 entries (64 KiB). When not even that fits in
/// the budget, the search runs without a table.
pub const MIN_ENTRIES: usize = 4096;

/// The largest table a search asks for: 64 MiB. At a second or a few per move (some
/// 10^5..10^6 nodes a second) a larger table holds nothing more of use, and its
/// allocation and clearing, which grow with its size, would eat into the move's time.
pub const MAX_TABLE_BYTES: usize = 64 << 20;

/// The smallest table a timed search asks for: 1 MiB.
pub const MIN_TABLE_BYTES: usize = 1 << 20;

/// Bytes of table a search asks for (the service per request, the Gomocup brain per
/// game): with a time `budget`, 16 KiB per millisecond (about twice what the search
/// fills at its measured speed) between [`MIN_TABLE_BYTES`] and [`MAX_TABLE_BYTES`];
/// without one, [`MAX_TABLE_BYTES`]; never more than `memory_limit`. The engine memory
/// budget may grant less.
pub fn table_bytes(budget: Option<std::time::Duration>, memory_limit: Option<usize>) -> usize {
    let by_time = budget.map_or(MAX_TABLE_BYTES, |b| {
        usize::try_from(b.as_millis())
            .unwrap_or(usize::MAX)
            .saturating_mul(16 << 10)
            .clamp(MIN_TABLE_BYTES, MAX_TABLE_BYTES)
    });
    by_time.min(memory_limit.unwrap_or(usize::MAX))
}

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

impl Bound {
    /// The bound of a node's best score `best` searched with the window (`alpha`,
    /// `beta`): lower at a cut-off, exact inside the window, upper when nothing reached
    /// alpha.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One entry, packed into a `u128` (so that the table is allocated zeroed and its pages
/// are only touched when used): check (32 bits), move (16), score (16), eval (16),
/// depth (8), flags (8; bits 0..2 the bound: 0 empty, 1 exact, 2 lower, 3 upper; bits
/// 2..8 the generation).
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: i8,
    flags: u8,
}

impl Entry {
    fn pack(self) -> u128 {
        u128::from(self.check)
            | u128::from(self.mv) << 32
            | u128::from(self.score as u16) << 48
            | u128::from(self.eval as u16) << 64
            | u128::from(self.depth as u8) << 80
            | u128::from(self.flags) << 88
    }

    fn unpack(v: u128) -> Entry {
        Entry {
            check: v as u32,
            mv: (v >> 32) as u16,
            score: (v >> 48) as u16 as i16,
            eval: (v >> 64) as u16 as i16,
            depth: (v >> 80) as u8 as i8,
            flags: (v >> 88) as u8,
        }
    }
}

/// One probe's answer.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best move found at this position (a cell), if any.
    pub mv: Option<usize>,
    /// Score from the node's side to move, with win scores adjusted to `ply`.
    pub score: i32,
    /// What `score` bounds.
    pub bound: Bound,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// The static evaluation stored with it.
    pub eval: i32,
}

/// The transposition table. See the [module docs](self).
pub struct TranspositionTable {
    entries: Vec<u128>,
    mask: usize,
    generation: u8,
    _memory: Option<Reservation>,
}

impl TranspositionTable {
    /// A table of at most `max_bytes` (rounded down to a power of two of entries),
    /// reserved from `budget`. When the budget refuses, the size is halved until it
    /// fits, down to [`MIN_ENTRIES`]; below that the table is empty (every probe
    /// misses) and holds no memory.
    pub fn new(max_bytes: usize, budget: &'static MemoryBudget) -> TranspositionTable {
        let mut entries = (max_bytes / ENTRY_BYTES).max(1);
        entries = 1 << (usize::BITS - 1 - entries.leading_zeros());
        while entries >= MIN_ENTRIES {
            if let Some(r) = budget.try_reserve(entries * ENTRY_BYTES) {
                return TranspositionTable {
                    entries: vec![0u128; entries],
                    mask: entries - 1,
                    generation: 0,
                    _memory: Some(r),
                };
            }
            entries /= 2;
        }
        TranspositionTable {
            entries: Vec::new(),
            mask: 0,
            generation: 0,
            _memory: None,
        }
    }

    /// Bytes the table holds (and has reserved).
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// The entry for `key`, scores adjusted to `ply` plies from the root.
    pub fn probe(&self, key: u64, ply: i32) -> Option<Hit> {
        if self.entries.is_empty() {
            return None;
        }
        let e = Entry::unpack(self.entries[(key as usize) & self.mask]);
        if e.check != (key >> 32) as u32 || e.flags & 3 == 0 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            mv: (e.mv != u16::MAX).then_some(e.mv.into()),
            score: from_tt(e.score.into(), ply),
            bound,
            depth: e.depth.into(),
            eval: e.eval.into(),
        })
    }

    /// Stores a result for `key` (scores from the node's side, adjusted from `ply`).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        ply: i32,
        mv: Option<usize>,
        score: i32,
        bound: Bound,
        depth: i32,
        eval: i32,
    ) {
        if self.entries.is_empty() {
            return;
        }
        let index = (key as usize) & self.mask;
        let slot = Entry::unpack(self.entries[index]);
        let check = (key >> 32) as u32;
        let old_gen = slot.flags >> 2;
        let replace = slot.flags & 3 == 0
            || slot.check == check
            || old_gen != self.generation
            || depth >= i32::from(slot.depth) - 2
            || score.abs() >= WIN_MIN;
        if !replace {
            return;
        }
        let mv = match mv {
            Some(m) => m as u16,
            // Keep the old move of the same position when this result has none.
            None if slot.check == check => slot.mv,
            None => u16::MAX,
        };
        let b = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.entries[index] = Entry {
            check,
            mv,
            score: to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth: depth.clamp(-100, 100) as i8,
            flags: b | (self.generation << 2),
        }
        .pack();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_16_bytes_and_memory_is_reserved() {
        assert_eq!(ENTRY_BYTES, 16);
        let budget = MemoryBudget::leak(1 << 20);
        let tt = TranspositionTable::new(4 << 20, budget);
        // 4 MiB refused, 2 MiB refused, 1 MiB fits exactly.
        assert_eq!(tt.bytes(), 1 << 20);
        assert_eq!(budget.used(), 1 << 20);
        let small = TranspositionTable::new(1 << 20, budget);
        assert_eq!(small.bytes(), 0, "nothing left: no table");
        assert!(small.probe(1, 0).is_none());
        drop(tt);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn stores_and_probes() {
        let budget = MemoryBudget::leak(1 << 20);
        let mut tt = TranspositionTable::new(1 << 16, budget);
        tt.store(0xDEAD_BEEF_0000_0001, 3, Some(77), 123, Bound::Lower, 5, -4);
        let hit = tt.probe(0xDEAD_BEEF_0000_0001, 3).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.bound, hit.depth, hit.eval),
            (Some(77), 123, Bound::Lower, 5, -4)
        );
        assert!(tt.probe(0xDEAD_BEEE_0000_0001, 3).is_none());
    }
}
