//! Shanten (向聴数): how many tile exchanges a hand is from tenpai; `-1` = complete.
//!
//! Definition used throughout (tomohxx; the PyPI `mahjong` 2.1.0 package and the
//! `xiangting` crate agree): shanten = (fewest tiles to draw, each against a discard, until
//! the hand is a winning hand) - 1, where the winning hand never holds a fifth copy of a
//! kind. Copies visible elsewhere (discards, melds) do not count here; they count in
//! `ukeire.rs`.
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

/// Unpacked distances of one part: `[no pair, pair][melds 0..=4]`.
type Lanes = [[u8; 5]; 2];

#[inline(always)]
fn unpack(d: PartDistances) -> Lanes {
    let lo = d & 0x0f0f_0f0f_0f0f_0f0f;
    let hi = (d >> 4) & 0x0f0f_0f0f_0f0f_0f0f;
    let lo = lo.to_le_bytes();
    let hi = hi.to_le_bytes();
    [
        [lo[0], lo[1], lo[2], lo[3], lo[4]],
        [hi[0], hi[1], hi[2], hi[3], hi[4]],
    ]
}

/// Min-plus convolution of two parts' distances, for melds up to `max_melds`.
#[inline(always)]
fn convolve(a: &Lanes, b: &Lanes, max_melds: usize) -> Lanes {
    let mut out = [[u8::MAX; 5]; 2];
    for m in 0..=max_melds.min(4) {
        let mut no_pair = u8::MAX;
        let mut pair = u8::MAX;
        for k in 0..=m {
            no_pair = no_pair.min(a[0][k] + b[0][m - k]);
            pair = pair.min((a[1][k] + b[0][m - k]).min(a[0][k] + b[1][m - k]));
        }
        out[0][m] = no_pair;
        out[1][m] = pair;
    }
    out
}

/// Fewest draws to `melds_needed` melds plus a pair from the four parts.
#[inline(always)]
pub fn merge(parts: &[PartDistances; 4], melds_needed: usize) -> u8 {
    let m = melds_needed.min(4);
    let a = unpack(parts[0]);
    let b = unpack(parts[1]);
    let ab = convolve(&a, &b, m);
    let c = unpack(parts[2]);
    let abc = convolve(&ab, &c, m);
    let d = unpack(parts[3]);
    let mut best = u8::MAX;
    for k in 0..=m {
        best = best
            .min(abc[0][k] + d[1][m - k])
            .min(abc[1][k] + d[0][m - k]);
    }
    best
}

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
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    if total != 13 && total != 14 {
        return None;
    }
    let rule = ruleset.seven_pairs();
    if !ruleset.requires_missing_suit() {
        return Some(seven_pairs_of(counts, rule));
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

/// Draws to seven pairs minus one, the tiles in `counts` being the only useful ones.
fn seven_pairs_of(counts: &[u8; KINDS], rule: SevenPairsRule) -> i8 {
    // pairs: pairs already held; singles: kinds one draw turns into a new pair.
    let (mut pairs, mut singles) = (0i8, 0i8);
    for &c in counts {
        match rule {
            SevenPairsRule::DistinctPairs => {
                pairs += (c >= 2) as i8;
                singles += (c == 1) as i8;
            }
            SevenPairsRule::QuadsAsTwoPairs => {
                pairs += (c / 2) as i8;
                singles += (c % 2) as i8;
            }
        }
    }
    let need = (7 - pairs).max(0);
    // Each missing pair takes one draw on a single, or two on a fresh kind.
    need + (need - singles).max(0) - 1
}

/// Thirteen-orphans shanten of a closed hand of 13 or 14 tiles; `None` for any other
/// size. Whether the ruleset has the form (not SICHUAN) is the caller's check, as in
/// [`shanten_forms`].
pub fn shanten_thirteen_orphans(counts: &[u8; KINDS]) -> Option<i8> {
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    if total != 13 && total != 14 {
        return None;
    }
    let (mut kinds, mut pair) = (0i8, false);
    for i in [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33] {
        kinds += (counts[i] > 0) as i8;
        pair |= counts[i] >= 2;
    }
    Some(13 - kinds - pair as i8)
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
/// `lackable` matters only under SICHUAN (see [`super::rules::Ruleset::missing_suit_choices`]).
pub fn shanten_forms(
    counts: &[u8; KINDS],
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
) -> ShantenForms {
    let regular = if ruleset.requires_missing_suit() {
        shanten_regular_lacking(counts, melds, lackable)
    } else {
        shanten_regular(counts, melds)
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
    let seven = shanten_seven_pairs(counts, ruleset).unwrap_or(NEVER);
    let orphans = shanten_thirteen_orphans(counts).unwrap_or(NEVER);
    regular.min(seven).min(orphans)
}

/// Whether the concealed `counts` (3n+2 tiles) with `melds` called is a winning hand
/// under `ruleset` (any suit may be lacking under SICHUAN).
pub fn is_winning(counts: &[u8; KINDS], melds: u8, ruleset: Ruleset) -> bool {
    let total: usize = counts.iter().map(|&c| c as usize).sum();
    total % 3 == 2 && shanten(counts, melds, ruleset) == -1
}
