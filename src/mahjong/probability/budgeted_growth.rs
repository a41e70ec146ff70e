//! Growth of the searches' vectors and hash tables that reserves from the engine memory
//! budget ([`crate::memory_budget`]) *before* it allocates: a structure that is full
//! grows to twice its capacity (at least [`MIN_GROWTH`] entries); while it moves, both
//! its old and its new allocation are live, so both are reserved; the old one is given
//! back afterwards. A refusal leaves the structure as it was and reports
//! [`Stopped::MemoryBudget`].

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::mem::size_of;

use super::Stopped;
use crate::memory_budget::Reservation;

/// Smallest growth, in entries.
pub const MIN_GROWTH: usize = 1024;

/// Bytes a `HashMap<K, V>` (hashbrown) allocates for `capacity` entries: buckets are the
/// next power of two of `capacity * 8 / 7`, each holding a `(K, V)` and one control
/// byte, plus one group of control bytes.
pub fn table_bytes<K, V>(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = (capacity * 8 / 7).next_power_of_two().max(4);
    buckets * (size_of::<(K, V)>() + 1) + 16
}

/// Makes room for `additional` more entries in `v`, reserving first.
pub fn vec_room<T>(
    v: &mut Vec<T>,
    additional: usize,
    memory: &mut Reservation,
) -> Result<(), Stopped> {
    if v.len() + additional <= v.capacity() {
        return Ok(());
    }
    let old = v.capacity() * size_of::<T>();
    let want = (2 * v.capacity()).max(v.len() + additional).max(MIN_GROWTH);
    let new = want * size_of::<T>();
    if !memory.try_grow(new) {
        return Err(Stopped::MemoryBudget);
    }
    v.reserve_exact(want - v.len());
    let actual = v.capacity() * size_of::<T>();
    // An allocator that rounded up is counted too (never refused: it is done).
    if actual > new && !memory.try_grow(actual - new) {
        return Err(Stopped::MemoryBudget);
    }
    memory.shrink(old);
    Ok(())
}

/// Makes room for one more entry in `m`, reserving first.
pub fn map_room<K, V, S>(m: &mut HashMap<K, V, S>, memory: &mut Reservation) -> Result<(), Stopped>
where
    K: Eq + std::hash::Hash,
    S: BuildHasher,
{
    if m.len() < m.capacity() {
        return Ok(());
    }
    let old = table_bytes::<K, V>(m.capacity());
    let want = (2 * m.capacity()).max(MIN_GROWTH);
    let new = table_bytes::<K, V>(want);
    if !memory.try_grow(new) {
        return Err(Stopped::MemoryBudget);
    }
    m.reserve(want - m.len());
    let actual = table_bytes::<K, V>(m.capacity());
    if actual > new && !memory.try_grow(actual - new) {
        return Err(Stopped::MemoryBudget);
    }
    memory.shrink(old);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory_budget::MemoryBudget;

    #[test]
    fn growth_is_reserved_and_refused_past_the_budget() {
        let budget = MemoryBudget::leak(64 << 10);
        let mut memory = budget.reservation();
        let mut v: Vec<u64> = Vec::new();
        for i in 0..4000u64 {
            vec_room(&mut v, 1, &mut memory).unwrap();
            v.push(i);
        }
        assert!(memory.bytes() >= v.capacity() * 8);
        // 8,192 u64 (64 KiB) do not fit beside the 32 KiB held.
        let mut refused = false;
        for i in 0..10_000u64 {
            if vec_room(&mut v, 1, &mut memory).is_err() {
                refused = true;
                break;
            }
            v.push(i);
        }
        assert!(refused);
        assert!(budget.used() <= budget.limit());
        let mut m: HashMap<u64, u32> = HashMap::new();
        let mut memory2 = MemoryBudget::leak(1 << 20).reservation();
        for i in 0..5000 {
            map_room(&mut m, &mut memory2).unwrap();
            m.insert(i, 0);
        }
        assert!(memory2.bytes() >= table_bytes::<u64, u32>(m.capacity()));
    }
}
