//! Winning-set distance tables, built once per process (seed 003; tomohxx's method).
//!
//! Seed 003 splits a hand into four parts — characters, dots, bamboo, honours — and
//! precomputes every winning pattern of one part, with and without the pair. We keep that
//! split and, following tomohxx ("シャンテン数計算アルゴリズム", Qiita 2020), store for every
//! possible part the *distance* to each target instead of the patterns themselves:
//!
//! `dist(part, m, pair)` = the fewest tiles that must be added to `part` so that some
//! sub-multiset of the result is exactly `m` melds (sequences or triplets; honours:
//! triplets only) plus, if `pair`, one pair, with at most 4 copies of any kind.
//!
//! Surplus tiles cost nothing (they are the discards), so for a whole hand the number of
//! draws to a winning hand is the min-plus merge of the four parts' distances, and
//! shanten = draws - 1 (see `shanten.rs`). Because targets never exceed 4 copies, a hand
//! holding all four copies of a tile is never told it can draw a fifth
//! (`1112223334444z` is 1-shanten, not tenpai).
//!
//! # Layout
//! A part is a count vector (9 ranks for a suit, 7 for honours; each count 0..=4). Only
//! parts of at most 14 tiles occur, so vectors are indexed by their lexicographic rank
//! among vectors with sum <= 14 (405,350 suit parts, 43,130 honour parts); the rank is a
//! sum of small offset-table lookups. Each entry is one `u64`: byte `m` (0..=4) holds
//! `dist(m, no pair)` in its low nibble and `dist(m, pair)` in its high nibble (distances
//! are at most 14). One table serves all three suits.
//!
//! # Build
//! For every target at once (ten `u8` lanes per vector):
//! 1. mark the vectors that *are* an (m, pair) pattern (a recursive enumeration of blocks);
//! 2. `exact(v)` = tiles to add to reach a pattern containing `v`: 0 on patterns, else
//!    `1 + min_i exact(v + e_i)` (sweep in decreasing rank, since `v + e_i` ranks higher);
//! 3. `dist(v) = min(exact(v), min_i dist(v - e_i))` (increasing rank): dropping surplus
//!    tiles is free.
//!
//! The build is a pure function of nothing; [`init`] reports its wall time and the bytes
//! kept, which the server exports as `gameai_mahjong_tables_build_seconds` /
//! `gameai_mahjong_tables_bytes`.

use std::sync::OnceLock;
use std::time::Instant;

/// Largest number of tiles of one part in any hand.
const MAX_PART_TILES: usize = 14;
/// Number of (melds, pair) targets: melds 0..=4, pair or not.
const TARGETS: usize = 10;
/// "Unreachable" while building.
const INF: u8 = 0x3f;

/// The two kinds of part.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PartKind {
    /// Nine ranks, sequences allowed.
    Suit,
    /// Seven kinds, triplets and pairs only.
    Honour,
}

impl PartKind {
    const fn len(self) -> usize {
        match self {
            PartKind::Suit => 9,
            PartKind::Honour => 7,
        }
    }
}

/// Ranking of count vectors of `LEN` entries `0..=4` with sum <= 14, in lexicographic
/// order (entry 0 most significant).
///
/// `rank(v) = Σ_i offset(i, s_i, v_i)` with `s_i` the sum of `v[..i]`. To keep the hot
/// path short the sum is split at `LOW`: the first `LOW` entries' base-5 number looks up
/// their offsets and their sum; the rest's base-5 number and that sum look up the rest's
/// offsets. Out-of-domain input (a count above 4, a sum above 14) hits zero offsets or
/// the bounds-checked fallback, so every input gives an index below `size` (unspecified
/// for such input, never out of bounds).
struct Ranking<const LEN: usize, const LOW: usize> {
    /// Base-5 number of entries `0..LOW` -> their offsets | (their sum, 15 if > 14) << 24.
    low: Box<[u32]>,
    /// `[prefix sum 0..=15][base-5 number of entries LOW..LEN]` -> their offsets.
    high: Box<[u32]>,
    size: usize,
}

/// `b[0] + 5 b[1] + 25 b[2] + 125 b[3]`, two digits at a time in one `u32`.
#[inline(always)]
fn base5(b: [u8; 4]) -> usize {
    let x = u32::from_le_bytes(b);
    let pairs = (x & 0x00ff_00ff) + ((x >> 8) & 0x00ff_00ff) * 5;
    ((pairs & 0xffff) + (pairs >> 16) * 25) as usize
}

/// Row of `Ranking::high` for an out-of-domain prefix (all zero offsets).
const BAD_PREFIX: u32 = 15;

impl<const LEN: usize, const LOW: usize> Ranking<LEN, LOW> {
    const HIGH: usize = LEN - LOW;

    fn new() -> Self {
        // completions[k][r]: vectors of length k, entries 0..=4, sum <= r.
        let mut completions = [[0u32; MAX_PART_TILES + 1]; 10];
        completions[0] = [1; MAX_PART_TILES + 1];
        for k in 1..=9 {
            for r in 0..=MAX_PART_TILES {
                completions[k][r] = (0..=r.min(4)).map(|v| completions[k - 1][r - v]).sum();
            }
        }
        // offset(i, s, c): vectors sharing the prefix whose entry i is below c.
        let offset = |i: usize, s: usize, c: usize| -> u32 {
            if s + c > MAX_PART_TILES {
                return 0;
            }
            (0..c)
                .map(|v| completions[LEN - 1 - i][MAX_PART_TILES - s - v])
                .sum()
        };
        let digits = |mut n: usize, len: usize| -> Vec<usize> {
            (0..len)
                .map(|_| {
                    let d = n % 5;
                    n /= 5;
                    d
                })
                .collect()
        };
        let low = (0..5usize.pow(LOW as u32))
            .map(|n| {
                let (mut sum, mut off) = (0, 0);
                for (i, c) in digits(n, LOW).into_iter().enumerate() {
                    off += offset(i, sum, c);
                    sum += c;
                }
                let sum = if sum > MAX_PART_TILES {
                    BAD_PREFIX
                } else {
                    sum as u32
                };
                off | sum << 24
            })
            .collect();
        let mut high = vec![0u32; 16 * 5usize.pow(Self::HIGH as u32)];
        for prefix in 0..=MAX_PART_TILES {
            for n in 0..5usize.pow(Self::HIGH as u32) {
                let (mut sum, mut off) = (prefix, 0);
                for (j, c) in digits(n, Self::HIGH).into_iter().enumerate() {
                    off += offset(LOW + j, sum, c);
                    sum += c;
                }
                high[prefix * 5usize.pow(Self::HIGH as u32) + n] = off;
            }
        }
        Ranking {
            low,
            high: high.into_boxed_slice(),
            size: completions[LEN][MAX_PART_TILES] as usize,
        }
    }

    /// Rank from the base-5 numbers of entries `0..LOW` and `LOW..LEN`.
    #[inline(always)]
    fn lookup(&self, lo: usize, hi: usize) -> usize {
        let a = self.low.get(lo).copied().unwrap_or(BAD_PREFIX << 24);
        let row = (a >> 24) as usize * 5usize.pow(Self::HIGH as u32);
        let b = self.high.get(row + hi).copied().unwrap_or(0);
        (a & 0x00ff_ffff) as usize + b as usize
    }

    /// Rank of `counts[..LEN]` (entries past the slice's end read as 0).
    fn rank(&self, counts: &[u8]) -> usize {
        let digit = |i: usize| counts.get(i).copied().unwrap_or(0) as usize;
        let lo = (0..LOW).rev().fold(0, |n, i| n * 5 + digit(i));
        let hi = (LOW..LEN).rev().fold(0, |n, i| n * 5 + digit(i));
        self.lookup(lo, hi)
    }

    fn bytes(&self) -> usize {
        (self.low.len() + self.high.len()) * std::mem::size_of::<u32>()
    }

    /// Every vector of the domain, in rank order.
    fn enumerate(&self) -> Vec<[u8; 9]> {
        fn go(len: usize, at: usize, left: usize, cur: &mut [u8; 9], out: &mut Vec<[u8; 9]>) {
            if at == len {
                out.push(*cur);
                return;
            }
            for c in 0..=left.min(4) {
                cur[at] = c as u8;
                go(len, at + 1, left - c, cur, out);
            }
            cur[at] = 0;
        }
        let mut out = Vec::with_capacity(self.size);
        go(LEN, 0, MAX_PART_TILES, &mut [0; 9], &mut out);
        out
    }
}

/// The distance tables. Obtain with [`get`]; see the module doc for the meaning.
pub struct Tables {
    suit_rank: Ranking<9, 5>,
    honour_rank: Ranking<7, 4>,
    suit: Box<[u64]>,
    honour: Box<[u64]>,
}

/// A part's packed distances: byte `m` = `dist(m, no pair) | dist(m, pair) << 4`.
pub type PartDistances = u64;

/// Distances of an empty part: `3m` tiles for m melds, `3m + 2` with the pair.
pub const EMPTY_PART: PartDistances = pack(&[0, 3, 6, 9, 12, 2, 5, 8, 11, 14]);

/// Distances of a part that may hold nothing at all (a suit a SICHUAN hand lacks, or the
/// honours where there are none): 0 for (0 melds, no pair), "unreachable" (15) otherwise.
pub const BARRED_PART: PartDistances = pack(&[0, 15, 15, 15, 15, 15, 15, 15, 15, 15]);

/// Packs ten distances `[m0..m4 without pair, m0..m4 with pair]` (each <= 15).
const fn pack(d: &[u8; TARGETS]) -> u64 {
    let mut out = 0u64;
    let mut m = 0;
    while m < 5 {
        out |= ((d[m] & 15) as u64) << (8 * m);
        out |= ((d[m + 5] & 15) as u64) << (8 * m + 4);
        m += 1;
    }
    out
}

impl Tables {
    /// Packed distances of one numbered suit: `counts` holds its 9 ranks (each <= 4,
    /// sum <= 14; other values give an unspecified value, another length `EMPTY_PART`;
    /// never a panic).
    #[inline(always)]
    pub fn suit(&self, counts: &[u8]) -> PartDistances {
        let Ok(c) = <&[u8; 9]>::try_from(counts) else {
            return EMPTY_PART;
        };
        let lo = base5([c[0], c[1], c[2], c[3]]) + 625 * c[4] as usize;
        let hi = base5([c[5], c[6], c[7], c[8]]);
        let i = self.suit_rank.lookup(lo, hi);
        self.suit.get(i).copied().unwrap_or(EMPTY_PART)
    }

    /// Packed distances of the honours: `counts` holds the 7 honour kinds (each <= 4,
    /// sum <= 14; other values give an unspecified value, another length `EMPTY_PART`).
    #[inline(always)]
    pub fn honour(&self, counts: &[u8]) -> PartDistances {
        let Ok(c) = <&[u8; 7]>::try_from(counts) else {
            return EMPTY_PART;
        };
        let lo = base5([c[0], c[1], c[2], c[3]]);
        let hi = c[4] as usize + 5 * c[5] as usize + 25 * c[6] as usize;
        let i = self.honour_rank.lookup(lo, hi);
        self.honour.get(i).copied().unwrap_or(EMPTY_PART)
    }

    /// Bytes held by the tables (entries and rank offsets).
    pub fn bytes(&self) -> usize {
        (self.suit.len() + self.honour.len()) * std::mem::size_of::<u64>()
            + self.suit_rank.bytes()
            + self.honour_rank.bytes()
    }

    /// Builds a fresh copy, bypassing the process-wide one (for the build benchmark;
    /// callers want [`get`]).
    pub fn build() -> Tables {
        let suit_rank = Ranking::new();
        let honour_rank = Ranking::new();
        let suit = build_part(PartKind::Suit, &suit_rank);
        let honour = build_part(PartKind::Honour, &honour_rank);
        Tables {
            suit_rank,
            honour_rank,
            suit,
            honour,
        }
    }
}

/// Distance of packed entry `d` to target (`melds`, `pair`).
#[inline(always)]
pub fn distance(d: PartDistances, melds: usize, pair: bool) -> u8 {
    ((d >> (8 * melds + 4 * pair as usize)) & 15) as u8
}

/// Target lane of (m, pair) while building.
const fn lane(m: usize, pair: bool) -> usize {
    m + 5 * pair as usize
}

fn build_part<const LEN: usize, const LOW: usize>(
    kind: PartKind,
    ranking: &Ranking<LEN, LOW>,
) -> Box<[u64]> {
    let len = kind.len();
    let vectors = ranking.enumerate();
    debug_assert_eq!(vectors.len(), ranking.size);

    // 1. Patterns: lanes (m, pair) that `v` is exactly.
    let mut lanes = vec![[INF; 16]; vectors.len()];
    let mut blocks: Vec<[u8; 9]> = Vec::new();
    for i in 0..len {
        let mut b = [0u8; 9];
        b[i] = 3;
        blocks.push(b);
    }
    if kind == PartKind::Suit {
        for i in 0..len - 2 {
            let mut b = [0u8; 9];
            b[i] = 1;
            b[i + 1] = 1;
            b[i + 2] = 1;
            blocks.push(b);
        }
    }
    mark_patterns(ranking, &blocks, 0, 0, &mut [0; 9], &mut lanes);

    // 2. exact(v) = 0 on patterns, else 1 + min over one added tile (higher rank).
    for r in (0..vectors.len()).rev() {
        let v = vectors[r];
        let total: usize = v[..len].iter().map(|&c| c as usize).sum();
        if total >= MAX_PART_TILES {
            continue;
        }
        let mut best = [INF; 16];
        let mut w = v;
        for i in 0..len {
            if v[i] < 4 {
                w[i] += 1;
                min_lanes(&mut best, &lanes[ranking.rank(&w[..len])]);
                w[i] -= 1;
            }
        }
        let cell = &mut lanes[r];
        for (c, b) in cell.iter_mut().zip(best.iter()) {
            if *c != 0 {
                *c = (*b + 1).min(INF);
            }
        }
    }

    // 3. dist(v) = min(exact(v), min over one removed tile (lower rank)).
    for r in 0..vectors.len() {
        let v = vectors[r];
        let mut best = lanes[r];
        let mut w = v;
        for i in 0..len {
            if v[i] > 0 {
                w[i] -= 1;
                min_lanes(&mut best, &lanes[ranking.rank(&w[..len])]);
                w[i] += 1;
            }
        }
        lanes[r] = best;
    }

    lanes
        .iter()
        .map(|l| {
            let mut d = [0u8; TARGETS];
            d.copy_from_slice(&l[..TARGETS]);
            debug_assert!(d.iter().all(|&x| x <= MAX_PART_TILES as u8));
            pack(&d)
        })
        .collect()
}

/// Marks every pattern of at most 4 melds (blocks in non-decreasing order from `from`)
/// plus an optional pair, counts never above 4.
fn mark_patterns<const LEN: usize, const LOW: usize>(
    ranking: &Ranking<LEN, LOW>,
    blocks: &[[u8; 9]],
    from: usize,
    melds: usize,
    cur: &mut [u8; 9],
    lanes: &mut [[u8; 16]],
) {
    let len = LEN;
    lanes[ranking.rank(&cur[..len])][lane(melds, false)] = 0;
    for i in 0..len {
        if cur[i] <= 2 {
            cur[i] += 2;
            lanes[ranking.rank(&cur[..len])][lane(melds, true)] = 0;
            cur[i] -= 2;
        }
    }
    if melds == 4 {
        return;
    }
    for (b, block) in blocks.iter().enumerate().skip(from) {
        if (0..len).all(|i| cur[i] + block[i] <= 4) {
            for i in 0..len {
                cur[i] += block[i];
            }
            mark_patterns(ranking, blocks, b, melds + 1, cur, lanes);
            for i in 0..len {
                cur[i] -= block[i];
            }
        }
    }
}

#[inline(always)]
fn min_lanes(acc: &mut [u8; 16], other: &[u8; 16]) {
    for (a, &o) in acc.iter_mut().zip(other.iter()) {
        *a = (*a).min(o);
    }
}

/// What building the tables cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableStats {
    /// Wall-clock seconds the build took (in the process that built them).
    pub build_seconds: f64,
    /// Bytes the tables keep in memory.
    pub bytes: usize,
}

static TABLES: OnceLock<(Tables, TableStats)> = OnceLock::new();

fn built() -> &'static (Tables, TableStats) {
    TABLES.get_or_init(|| {
        let start = Instant::now();
        let tables = Tables::build();
        let build_seconds = start.elapsed().as_secs_f64();
        let bytes = tables.bytes();
        (
            tables,
            TableStats {
                build_seconds,
                bytes,
            },
        )
    })
}

/// The tables, built on first use (thread-safe; later calls are a load).
#[inline]
pub fn get() -> &'static Tables {
    &built().0
}

/// Builds the tables if not yet built and returns what the build cost. The server calls
/// this at start-up, before reporting SERVING.
pub fn init() -> TableStats {
    built().1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_is_a_bijection_in_order() {
        let r = Ranking::<9, 5>::new();
        let all = r.enumerate();
        assert_eq!(all.len(), 405_350);
        for (i, v) in all.iter().enumerate().step_by(7) {
            assert_eq!(r.rank(&v[..9]), i);
        }
        let r = Ranking::<7, 4>::new();
        let all = r.enumerate();
        assert_eq!(all.len(), 43_130);
        for (i, v) in all.iter().enumerate() {
            assert_eq!(r.rank(&v[..7]), i);
        }
    }

    #[test]
    fn fast_lookups_use_the_same_ranks() {
        let t = get();
        let r = Ranking::<9, 5>::new();
        for (i, v) in r.enumerate().iter().enumerate().step_by(13) {
            assert_eq!(t.suit(&v[..9]), t.suit[i]);
        }
        let r = Ranking::<7, 4>::new();
        for (i, v) in r.enumerate().iter().enumerate() {
            assert_eq!(t.honour(&v[..7]), t.honour[i]);
        }
        assert_eq!(t.suit(&[1, 2, 3]), EMPTY_PART);
        assert_eq!(t.honour(&[]), EMPTY_PART);
    }

    #[test]
    fn out_of_domain_parts_stay_in_bounds() {
        let r = Ranking::<9, 5>::new();
        for v in [
            [4u8; 9],
            [255; 9],
            [7, 7, 7, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 9, 9, 9, 9],
        ] {
            assert!(r.rank(&v) < r.size);
        }
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let v: [u8; 9] = std::array::from_fn(|i| (rng >> (i * 7)) as u8 % 9);
            assert!(r.rank(&v) < r.size);
        }
    }

    #[test]
    fn hand_worked_distances() {
        let t = get();
        // Empty suit: 3 per meld, 2 for the pair.
        assert_eq!(t.suit(&[0; 9]), EMPTY_PART);
        // 123 is one meld, and one tile (any of them again) away from meld + pair.
        let d = t.suit(&[1, 1, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(distance(d, 1, false), 0);
        assert_eq!(distance(d, 1, true), 2);
        assert_eq!(distance(d, 0, true), 1);
        assert_eq!(distance(d, 2, false), 3);
        // 1111 in honours: a triplet, but the pair must come from another kind.
        let d = t.honour(&[4, 0, 0, 0, 0, 0, 0]);
        assert_eq!(distance(d, 1, false), 0);
        assert_eq!(distance(d, 1, true), 2);
        // 13 in a suit: one draw (2) makes a meld.
        let d = t.suit(&[1, 0, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(distance(d, 1, false), 1);
    }
}
