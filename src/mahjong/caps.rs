//! Copy caps: how many copies of each kind the concealed hand may still use, given the
//! copies the player holds in its called melds (DESIGN.md, "Rule decisions": a wait
//! whose four copies are all in the player's hand and melds is no wait).
//!
//! The distance tables ([`super::tables`]) already never ask for a fifth copy of a kind
//! counted *within* the concealed hand (`123456789m2222p` is 1-shanten). A meld's tiles
//! are outside the concealed hand, so they are counted here: with a pon of `222m` the
//! concealed hand may hold one more `2m` at most, with a kan of `2222m` none, and
//! `13m456p789s11z` + kan `2222m` is 1-shanten, not tenpai on a dead `2m`. Tiles in
//! `visible` do not cap anything (they change ukeire and probabilities, not shanten).
//!
//! A part (a suit or the honours) holding a capped kind gets its distances from a small
//! exact dynamic programme over its ranks instead of the table: the fewest tiles to add
//! so that the part contains exactly `m` melds (and a pair), each kind used at most its
//! cap. Results are kept in a small per-thread direct-mapped cache (1,024 entries,
//! 16 KiB per thread), so the probability DP, which asks for the same parts again and
//! again, pays the programme once per distinct part.

use std::cell::RefCell;

use super::meld::Meld;
use super::tables::{self, PartDistances};
use super::tile::{COPIES, KINDS};

/// Per-kind caps on the copies the concealed hand may use (4 minus the copies in the
/// player's melds). `Copy`; [`Caps::NONE`] when no meld tiles are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Caps {
    caps: [u8; KINDS],
    /// Bit `p` set when part `p` (0 m, 1 p, 2 s, 3 honours) has a kind capped below 4.
    capped: u8,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps::NONE
    }
}

impl Caps {
    /// No caps: every kind may be used four times.
    pub const NONE: Caps = Caps {
        caps: [COPIES; KINDS],
        capped: 0,
    };

    /// Caps from the copies held outside the concealed hand (`held[k]` copies of kind
    /// `k`, e.g. the tiles of the called melds). Counts above 4 cap at 0.
    pub fn from_held(held: &[u8; KINDS]) -> Caps {
        let mut out = Caps::NONE;
        for (k, &h) in held.iter().enumerate() {
            if h > 0 {
                out.caps[k] = COPIES.saturating_sub(h);
                out.capped |= 1 << (k / 9).min(3);
            }
        }
        out
    }

    /// Caps from the player's melds (their tiles, including the called tile).
    pub fn from_melds(melds: &[Meld]) -> Caps {
        let mut held = [0u8; KINDS];
        for m in melds {
            for (h, &c) in held.iter_mut().zip(m.tiles().0.iter()) {
                *h += c;
            }
        }
        Caps::from_held(&held)
    }

    /// The cap of kind `k`.
    pub fn cap(&self, k: usize) -> u8 {
        self.caps[k]
    }

    /// Whether any kind is capped below 4.
    pub fn any(&self) -> bool {
        self.capped != 0
    }

    /// Packed distances of part `part` (0 m, 1 p, 2 s, 3 honours) of the concealed
    /// `counts`: the table's entry, or the capped programme's when the part holds a
    /// capped kind.
    #[inline(always)]
    pub fn part(&self, part: usize, counts: &[u8; KINDS]) -> PartDistances {
        let t = tables::get();
        let uncapped = self.capped & (1 << part) == 0;
        match part {
            0..=2 => {
                let range = part * 9..part * 9 + 9;
                if uncapped {
                    t.suit(&counts[range])
                } else {
                    cached(part, &counts[range.clone()], &self.caps[range])
                }
            }
            _ => {
                if uncapped {
                    t.honour(&counts[27..34])
                } else {
                    cached(3, &counts[27..34], &self.caps[27..34])
                }
            }
        }
    }

    /// The four parts' packed distances (m, p, s, honours).
    #[inline(always)]
    pub fn parts(&self, counts: &[u8; KINDS]) -> [PartDistances; 4] {
        [
            self.part(0, counts),
            self.part(1, counts),
            self.part(2, counts),
            self.part(3, counts),
        ]
    }
}

/// Cache slots per thread.
const SLOTS: usize = 1024;

thread_local! {
    static CACHE: RefCell<Box<[(u64, PartDistances); SLOTS]>> =
        RefCell::new(Box::new([(u64::MAX, 0); SLOTS]));
}

/// Capped distances through the per-thread cache. The key packs the part's counts and
/// caps (3 bits each) and whether it is a suit.
fn cached(part: usize, counts: &[u8], caps: &[u8]) -> PartDistances {
    let mut key = u64::from(part == 3);
    for (&c, &cap) in counts.iter().zip(caps) {
        key = key << 6 | u64::from(c.min(7)) << 3 | u64::from(cap.min(7));
    }
    let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54) as usize % SLOTS;
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache[slot].0 == key {
            return cache[slot].1;
        }
        let d = if part == 3 {
            honour_distances(counts, caps)
        } else {
            suit_distances(counts, caps)
        };
        cache[slot] = (key, d);
        d
    })
}

/// "Unreachable" (as in the tables' barred entries).
const INF: u8 = 15;

/// Packs `best[m][pair]` (each capped at 15) as the tables do.
fn pack(best: &[[u8; 2]; 5]) -> PartDistances {
    let mut out = 0u64;
    for (m, b) in best.iter().enumerate() {
        out |= u64::from(b[0].min(INF)) << (8 * m);
        out |= u64::from(b[1].min(INF)) << (8 * m + 4);
    }
    out
}

/// Distances of a 9-rank suit part under caps: a programme over the ranks whose state is
/// (sequences begun at the previous rank, sequences begun two ranks back, melds so far,
/// pair placed), each rank choosing a triplet (0 or 1), new sequences (0..=4) and the
/// pair (0 or 1) within its cap; a rank's cost is the copies used beyond those held.
#[allow(clippy::needless_range_loop)] // x, y, m, p index one table
pub fn suit_distances(counts: &[u8], caps: &[u8]) -> PartDistances {
    // cost[x][y][m][p], u8::MAX = not reached.
    let mut cost = [[[[u8::MAX; 2]; 5]; 5]; 5];
    cost[0][0][0][0] = 0;
    for rank in 0..9 {
        let held = counts.get(rank).copied().unwrap_or(0);
        let cap = caps.get(rank).copied().unwrap_or(COPIES).min(COPIES);
        let mut next = [[[[u8::MAX; 2]; 5]; 5]; 5];
        for x in 0..5 {
            for y in 0..5 - x {
                for m in 0..5 {
                    for p in 0..2 {
                        let c = cost[x][y][m][p];
                        if c == u8::MAX {
                            continue;
                        }
                        let max_new = if rank <= 6 { 4 } else { 0 };
                        for t in 0..=1 {
                            for n in 0..=max_new {
                                if m + t + n > 4 {
                                    break;
                                }
                                for pair in 0..=(1 - p) {
                                    let used = x + y + n + 3 * t + 2 * pair;
                                    if used > usize::from(cap) {
                                        continue;
                                    }
                                    let add = (used as u8).saturating_sub(held);
                                    let slot = &mut next[n][x][m + t + n][p + pair];
                                    *slot = (*slot).min(c + add);
                                }
                            }
                        }
                    }
                }
            }
        }
        cost = next;
    }
    let mut best = [[INF; 2]; 5];
    for (m, b) in best.iter_mut().enumerate() {
        for p in 0..2 {
            b[p] = cost[0][0][m][p].min(INF);
        }
    }
    pack(&best)
}

/// Distances of the 7 honour kinds under caps (triplets and the pair only).
pub fn honour_distances(counts: &[u8], caps: &[u8]) -> PartDistances {
    let mut cost = [[u8::MAX; 2]; 5];
    cost[0][0] = 0;
    for kind in 0..7 {
        let held = counts.get(kind).copied().unwrap_or(0);
        let cap = caps.get(kind).copied().unwrap_or(COPIES).min(COPIES);
        let mut next = [[u8::MAX; 2]; 5];
        for m in 0..5 {
            for p in 0..2 {
                let c = cost[m][p];
                if c == u8::MAX {
                    continue;
                }
                for t in 0..=usize::from(m < 4) {
                    for pair in 0..=(1 - p) {
                        let used = 3 * t + 2 * pair;
                        if used > usize::from(cap) {
                            continue;
                        }
                        let add = (used as u8).saturating_sub(held);
                        let slot = &mut next[m + t][p + pair];
                        *slot = (*slot).min(c + add);
                    }
                }
            }
        }
        cost = next;
    }
    let mut best = [[INF; 2]; 5];
    for (m, b) in best.iter_mut().enumerate() {
        for p in 0..2 {
            b[p] = cost[m][p].min(INF);
        }
    }
    pack(&best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::tables::distance;

    /// Uncapped, the programmes reproduce the tables on every part of a sample.
    #[test]
    fn uncapped_programmes_equal_the_tables() {
        let t = tables::get();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for _ in 0..20_000 {
            let mut v = [0u8; 9];
            let mut total = 0;
            for c in v.iter_mut() {
                let x = (next() % 5) as u8;
                if total + x as usize <= 14 && next() % 3 == 0 {
                    *c = x;
                    total += x as usize;
                }
            }
            assert_eq!(suit_distances(&v, &[4; 9]), t.suit(&v), "{v:?}");
            assert_eq!(
                honour_distances(&v[..7], &[4; 7]),
                t.honour(&v[..7]),
                "{v:?}"
            );
        }
    }

    #[test]
    fn a_kan_makes_its_kind_unusable() {
        // 13m with 2m capped at 0 (kan 2222m): 123m is impossible, the nearest meld
        // takes two draws (111m, 333m or 345m).
        let d = suit_distances(&[1, 0, 1, 0, 0, 0, 0, 0, 0], &[4, 0, 4, 4, 4, 4, 4, 4, 4]);
        assert_eq!(distance(d, 1, false), 2);
        // Uncapped it is one draw (2m).
        let d = tables::get().suit(&[1, 0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(distance(d, 1, false), 1);
        // A pon of 2m leaves one 2m: 13m still one draw from 123m, but no 22m pair.
        let caps = [4, 1, 4, 4, 4, 4, 4, 4, 4];
        let d = suit_distances(&[1, 0, 1, 0, 0, 0, 0, 0, 0], &caps);
        assert_eq!(distance(d, 1, false), 1);
        let d = suit_distances(&[0, 1, 0, 0, 0, 0, 0, 0, 0], &caps);
        // No second 2m for a pair: a pair of another kind costs two draws.
        assert_eq!(distance(d, 0, true), 2);
        assert_eq!(
            distance(tables::get().suit(&[0, 1, 0, 0, 0, 0, 0, 0, 0]), 0, true),
            1
        );
    }
}
