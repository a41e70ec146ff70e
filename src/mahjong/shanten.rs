//! Shanten (向聴数): how many tile exchanges a hand is from tenpai; `-1` = complete.
//!
//! Definition used throughout (tomohxx; the PyPI `mahjong` 2.1.0 package and the
//! `xiangting` crate agree): shanten = (fewest tiles to draw, each against a discard, until
//! the hand is a winning hand) - 1, where the winning hand never holds a fifth copy of a
//! kind, counting the copies in the player's own melds ([`super::caps`]: with a kan of
//! `2222m`, `13m456p789s11z` is 1-shanten). Copies visible elsewhere (discards, other
//! players' melds) do not count here; they count in `ukeire.rs`.
//!
//! Forms:
//! - regular: `4 - melds` melds plus a pair, from the distance tables (`tables.rs`),
//!   merged over the four parts by min-plus convolution;
//! - seven pairs (closed hands of 13/14 tiles): GENERAL/SICHUAN count four identical
//!   tiles as two pairs; RIICHI needs seven distinct kinds;
//! - thirteen orphans (closed 13/14 tiles, GENERAL/RIICHI): one of each terminal and
//!   honour plus a pair of one of them.
//!
//! SICHUAN: a winning hand lacks at least one numbered suit, so each form's shanten is the
//! minimum over the suits the hand may lack, the lacked suit's tiles being surplus (to be
//! discarded). Honour tiles under SICHUAN are likewise surplus (validation rejects them
//! at the API).
//!
//! Input: `counts` is the concealed hand (`[u8; 34]`, each count <= 4, total 3n+1 or
//! 3n+2 with n = 4 - melds). Other inputs give an unspecified number, never a panic.

use super::caps::Caps;
use super::rules::{Ruleset, SevenPairsRule};
use super::tables::{self, BARRED_PART, PartDistances};
use super::tile::KINDS;

/// Shanten of a hand that can never win (a SICHUAN hand with no suit left to lack).
pub const NEVER: i8 = i8::MAX;

/// Bit mask of the numbered suits a SICHUAN hand may lack: bit 0 = m, 1 = p, 2 = s.
pub type LackableSuits = u8;

/// Every suit may be the lacking one (no melds called, or melds not yet considered).
pub const ANY_SUIT: LackableSuits = 0b111;

/// The four parts' packed distances: m, p, s, honours.
#[inline(always)]
pub fn part_distances(counts: &[u8; KINDS]) -> [PartDistances; 4] {
    let t = tables::get();
    [
        t.suit(&counts[0..9]),
        t.suit(&counts[9..18]),
        t.suit(&counts[18..27]),
        t.honour(&counts[27..34]),
    ]
}

pub use super::merge::merge;

/// Melds still to be formed in the hand when `melds` have been called (saturating).
#[inline(always)]
fn melds_needed(melds: u8) -> usize {
    4usize.saturating_sub(melds as usize)
}

/// Regular-form shanten (`4 - melds` melds and a pair) of the concealed `counts`.
/// `-1` = complete. No suit restriction (see [`shanten_regular_lacking`]).
#[inline]
pub fn shanten_regular(counts: &[u8; KINDS], melds: u8) -> i8 {
    merge(&part_distances(counts), melds_needed(melds)) as i8 - 1
}

/// Regular-form shanten of a hand that must lack one of the suits in `lackable`
/// (SICHUAN): the minimum over those suits, the lacked suit's tiles and all honours
/// being surplus. [`NEVER`] when `lackable` has no suit.
pub fn shanten_regular_lacking(counts: &[u8; KINDS], melds: u8, lackable: LackableSuits) -> i8 {
    let parts = part_distances(counts);
    regular_lacking_from_parts(&parts, melds_needed(melds), lackable)
}

fn regular_lacking_from_parts(
    parts: &[PartDistances; 4],
    needed: usize,
    lackable: LackableSuits,
) -> i8 {
    let mut best = NEVER;
    for suit in 0..3 {
        if lackable & (1 << suit) == 0 {
            continue;
        }
        let mut p = *parts;
        p[suit] = BARRED_PART;
        p[3] = BARRED_PART;
        best = best.min(merge(&p, needed) as i8 - 1);
    }
    best
}

/// Seven-pairs shanten of a closed hand of 13 or 14 tiles under `ruleset`; `None` for
/// any other size. GENERAL/SICHUAN count four identical tiles as two pairs; RIICHI needs
/// seven distinct kinds; SICHUAN also lacks a suit (minimum over the three).
pub fn shanten_seven_pairs(counts: &[u8; KINDS], ruleset: Ruleset) -> Option<i8> {
    shanten_seven_pairs_lacking(counts, ruleset, ANY_SUIT)
}

/// [`shanten_seven_pairs`] with the suits a SICHUAN hand may lack given (other rulesets
/// ignore `lackable`). [`NEVER`] inside `Some` when SICHUAN and `lackable` is empty.
pub fn shanten_seven_pairs_lacking(
    counts: &[u8; KINDS],
    ruleset: Ruleset,
    lackable: LackableSuits,
) -> Option<i8> {
    let profile = Profile::of(counts);
    if !profile.closed_size() {
        return None;
    }
    let rule = ruleset.seven_pairs();
    if !ruleset.requires_missing_suit() {
        return Some(profile.seven_pairs(rule));
    }
    let mut best = NEVER;
    for suit in 0..3 {
        if lackable & (1 << suit) != 0 {
            let mut kept = *counts;
            kept[suit * 9..suit * 9 + 9].fill(0);
            kept[27..].fill(0);
            best = best.min(seven_pairs_of(&kept, rule));
        }
    }
    Some(best)
}

/// Per-kind facts of a hand, counted eight kinds at a time (one byte per kind in a
/// `u64`). Counts above 4 are read by their low three bits (unspecified, no panic).
#[derive(Clone, Copy)]
struct Profile {
    /// Tiles in the hand.
    total: u32,
    /// Kinds with at least two copies; kinds with exactly one.
    distinct_pairs: u32,
    distinct_singles: u32,
    /// Sum of `count / 2` (four copies = two pairs); kinds with an odd count.
    quad_pairs: u32,
    odd_kinds: u32,
    /// Terminal and honour kinds present; whether one of them has two copies or more.
    orphan_kinds: u32,
    orphan_pair: bool,
}

/// Lowest bit of every byte.
const BYTE_LSB: u64 = 0x0101_0101_0101_0101;

/// Bytes of the 34 counts (padded with zeros) as five little-endian words.
#[inline(always)]
fn words(counts: &[u8; KINDS]) -> [u64; 5] {
    let w = |i: usize| {
        let mut b = [0u8; 8];
        let end = (i + 8).min(KINDS);
        b[..end - i].copy_from_slice(&counts[i..end]);
        u64::from_le_bytes(b)
    };
    [w(0), w(8), w(16), w(24), w(32)]
}

/// Per word: the bytes (low bit) of the terminal and honour kinds
/// (1m 9m 1p 9p 1s 9s 1z..7z = indices 0 8 9 17 18 26 27..33).
const ORPHAN_BYTES: [u64; 5] = [0x01, 0x0101, 0x0001_0100, 0x0101_0101_0101_0000, 0x0101];

/// Sum of the bytes of `x` (each sum below 256).
#[inline(always)]
fn byte_sum(x: u64) -> u32 {
    (x.wrapping_mul(BYTE_LSB) >> 56) as u32
}

impl Profile {
    #[inline(always)]
    fn of(counts: &[u8; KINDS]) -> Profile {
        let mut p = Profile {
            total: 0,
            distinct_pairs: 0,
            distinct_singles: 0,
            quad_pairs: 0,
            odd_kinds: 0,
            orphan_kinds: 0,
            orphan_pair: false,
        };
        for (x, orphans) in words(counts).into_iter().zip(ORPHAN_BYTES) {
            let x = x & 0x0707_0707_0707_0707;
            let ge2 = ((x >> 1) | (x >> 2)) & BYTE_LSB;
            let nonzero = (x | ge2) & BYTE_LSB;
            let one = x & !ge2 & BYTE_LSB;
            // Lanes are 0/1 (or small) bytes: a byte sum counts them without relying on
            // a popcount instruction (not in the x86_64 baseline).
            p.total += byte_sum(x);
            p.distinct_pairs += byte_sum(ge2);
            p.distinct_singles += byte_sum(one);
            p.quad_pairs += byte_sum((x >> 1) & 0x0303_0303_0303_0303);
            p.odd_kinds += byte_sum(x & BYTE_LSB);
            p.orphan_kinds += byte_sum(nonzero & orphans);
            p.orphan_pair |= ge2 & orphans != 0;
        }
        p
    }

    /// Seven-pairs shanten (size not checked).
    #[inline(always)]
    fn seven_pairs(&self, rule: SevenPairsRule) -> i8 {
        let (pairs, singles) = match rule {
            SevenPairsRule::DistinctPairs => (self.distinct_pairs, self.distinct_singles),
            SevenPairsRule::QuadsAsTwoPairs => (self.quad_pairs, self.odd_kinds),
        };
        let need = 7 - pairs.min(7) as i8;
        // Each missing pair takes one draw on a single, or two on a fresh kind.
        need + (need - singles.min(7) as i8).max(0) - 1
    }

    /// Thirteen-orphans shanten (size not checked).
    #[inline(always)]
    fn thirteen_orphans(&self) -> i8 {
        13 - self.orphan_kinds.min(13) as i8 - self.orphan_pair as i8
    }

    /// 13 or 14 tiles: the sizes the closed forms apply to.
    #[inline(always)]
    fn closed_size(&self) -> bool {
        self.total == 13 || self.total == 14
    }
}

/// Draws to seven pairs minus one, the tiles in `counts` being the only useful ones.
#[inline]
fn seven_pairs_of(counts: &[u8; KINDS], rule: SevenPairsRule) -> i8 {
    Profile::of(counts).seven_pairs(rule)
}

/// Number of tiles in `counts`.
#[inline]
fn total(counts: &[u8; KINDS]) -> u32 {
    counts.iter().map(|&c| c as u32).sum()
}

/// Thirteen-orphans shanten of a closed hand of 13 or 14 tiles; `None` for any other
/// size. Whether the ruleset has the form (not SICHUAN) is the caller's check, as in
/// [`shanten_forms`].
pub fn shanten_thirteen_orphans(counts: &[u8; KINDS]) -> Option<i8> {
    let p = Profile::of(counts);
    p.closed_size().then(|| p.thirteen_orphans())
}

/// Shanten per form, as the API reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShantenForms {
    /// Regular form (melds and a pair).
    pub regular: i8,
    /// Seven pairs, `None` where it does not apply (melds called, not 13/14 tiles).
    pub seven_pairs: Option<i8>,
    /// Thirteen orphans, `None` where it does not apply (also under SICHUAN).
    pub thirteen_orphans: Option<i8>,
}

impl ShantenForms {
    /// The minimum over the forms that apply.
    pub fn min(&self) -> i8 {
        self.regular
            .min(self.seven_pairs.unwrap_or(NEVER))
            .min(self.thirteen_orphans.unwrap_or(NEVER))
    }
}

/// Every form's shanten for the concealed `counts` with `melds` called, under `ruleset`;
/// `lackable` matters only under SICHUAN (see [`super::rules::Ruleset::missing_suit_choices`]);
/// `caps` limits the copies the hand may use (the copies in the player's melds, see
/// [`super::caps`]; [`Caps::NONE`] when the meld tiles are not known).
pub fn shanten_forms(
    counts: &[u8; KINDS],
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
    caps: &Caps,
) -> ShantenForms {
    let parts = caps.parts(counts);
    let regular = if ruleset.requires_missing_suit() {
        regular_lacking_from_parts(&parts, melds_needed(melds), lackable)
    } else {
        merge(&parts, melds_needed(melds)) as i8 - 1
    };
    let closed = melds == 0;
    ShantenForms {
        regular,
        seven_pairs: if closed {
            shanten_seven_pairs_lacking(counts, ruleset, lackable)
        } else {
            None
        },
        thirteen_orphans: if closed && ruleset.has_thirteen_orphans() {
            shanten_thirteen_orphans(counts)
        } else {
            None
        },
    }
}

/// Shanten: the minimum over the forms `ruleset` allows (`-1` = complete). Under
/// SICHUAN any suit may be the lacking one; use [`shanten_lacking`] to restrict it.
#[inline]
pub fn shanten(counts: &[u8; KINDS], melds: u8, ruleset: Ruleset) -> i8 {
    shanten_with_parts(counts, &part_distances(counts), melds, ruleset, ANY_SUIT)
}

/// [`shanten`] with the suits a SICHUAN hand may lack given ([`NEVER`] if none).
#[inline]
pub fn shanten_lacking(
    counts: &[u8; KINDS],
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
) -> i8 {
    shanten_with_parts(counts, &part_distances(counts), melds, ruleset, lackable)
}

/// [`shanten_lacking`] given the parts' distances already looked up (`parts` must be
/// [`part_distances`]`(counts)`): lets callers that change one part reuse the others.
#[inline]
pub fn shanten_with_parts(
    counts: &[u8; KINDS],
    parts: &[PartDistances; 4],
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
) -> i8 {
    let needed = melds_needed(melds);
    if ruleset.requires_missing_suit() {
        let regular = regular_lacking_from_parts(parts, needed, lackable);
        if melds != 0 {
            return regular;
        }
        let seven = shanten_seven_pairs_lacking(counts, ruleset, lackable).unwrap_or(NEVER);
        return regular.min(seven);
    }
    let regular = merge(parts, needed) as i8 - 1;
    if melds != 0 {
        return regular;
    }
    let p = Profile::of(counts);
    if !p.closed_size() {
        return regular;
    }
    regular
        .min(p.seven_pairs(ruleset.seven_pairs()))
        .min(p.thirteen_orphans())
}

/// Whether the concealed `counts` (3n+2 tiles) with `melds` called is a winning hand
/// under `ruleset` (any suit may be lacking under SICHUAN).
pub fn is_winning(counts: &[u8; KINDS], melds: u8, ruleset: Ruleset) -> bool {
    total(counts) % 3 == 2 && shanten(counts, melds, ruleset) == -1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-parallel profile against plain per-kind counting.
    #[test]
    fn profile_matches_plain_counting() {
        let orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
        let mut rng = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            let mut c = [0u8; KINDS];
            for x in c.iter_mut() {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                *x = if rng.is_multiple_of(3) {
                    (rng >> 8) as u8 % 5
                } else {
                    0
                };
            }
            let p = Profile::of(&c);
            assert_eq!(p.total, c.iter().map(|&x| x as u32).sum::<u32>());
            assert_eq!(
                p.distinct_pairs,
                c.iter().filter(|&&x| x >= 2).count() as u32
            );
            assert_eq!(
                p.distinct_singles,
                c.iter().filter(|&&x| x == 1).count() as u32
            );
            assert_eq!(p.quad_pairs, c.iter().map(|&x| (x / 2) as u32).sum::<u32>());
            assert_eq!(
                p.odd_kinds,
                c.iter().filter(|&&x| x % 2 == 1).count() as u32
            );
            assert_eq!(
                p.orphan_kinds,
                orphans.iter().filter(|&&i| c[i] > 0).count() as u32
            );
            assert_eq!(p.orphan_pair, orphans.iter().any(|&i| c[i] >= 2));
        }
    }

    #[test]
    fn garbage_counts_do_not_panic() {
        let c = [255u8; KINDS];
        let _ = shanten(&c, 0, Ruleset::General);
        let _ = shanten(&c, 9, Ruleset::Sichuan);
        let _ = shanten_seven_pairs(&c, Ruleset::Riichi);
        let _ = is_winning(&c, 0, Ruleset::Riichi);
    }
}
