//! The min-plus merge of the four parts' distances (tomohxx's method, see `tables.rs`).
//!
//! `merge(parts, M)` = min over meld counts `m0 + m1 + m2 + m3 = M` and the part holding
//! the pair of the sum of the parts' distances: the fewest draws to `M` melds and a pair.
//!
//! Two implementations compute the same number: a portable scalar one
//! ([`merge_scalar`]) and, on x86_64, an SSE2 one (SSE2 is part of the x86_64 baseline)
//! that keeps a part's ten distances in one 16-byte register (bytes 0..5: no pair,
//! melds 0..4; bytes 8..13: with the pair) and does each convolution step with byte
//! shifts, saturating adds and byte minima. A test checks they agree.

use super::tables::PartDistances;

/// Unpacked distances of one part: `[no pair, pair][melds 0..=4]`.
type Lanes = [[u8; 5]; 2];

/// Low nibbles of each byte: the no-pair distances (byte m = melds m).
const LOW_NIBBLES: u64 = 0x0f0f_0f0f_0f0f_0f0f;

#[inline(always)]
fn unpack(d: PartDistances) -> Lanes {
    let lo = (d & LOW_NIBBLES).to_le_bytes();
    let hi = ((d >> 4) & LOW_NIBBLES).to_le_bytes();
    [
        [lo[0], lo[1], lo[2], lo[3], lo[4]],
        [hi[0], hi[1], hi[2], hi[3], hi[4]],
    ]
}

/// Min-plus convolution of two parts' distances (all five meld counts). Uses
/// `d(0 melds, no pair) = 0` for every part (the empty target costs nothing).
#[inline(always)]
fn convolve(a: &Lanes, b: &Lanes) -> Lanes {
    let mut out = [[0u8; 5]; 2];
    for m in 1..5 {
        let mut r = a[0][m].min(b[0][m]);
        for k in 1..m {
            r = r.min(a[0][k] + b[0][m - k]);
        }
        out[0][m] = r;
    }
    for m in 0..5 {
        let mut r = a[1][m].min(b[1][m]);
        for k in 1..=m {
            r = r.min(a[1][m - k] + b[0][k]).min(a[0][k] + b[1][m - k]);
        }
        out[1][m] = r;
    }
    out
}

/// Portable merge: fewest draws to `melds_needed` (clamped to 4) melds and a pair.
pub fn merge_scalar(parts: &[PartDistances; 4], melds_needed: usize) -> u8 {
    let m = melds_needed.min(4);
    let ab = convolve(&unpack(parts[0]), &unpack(parts[1]));
    let cd = convolve(&unpack(parts[2]), &unpack(parts[3]));
    let mut best = ab[1][m].min(cd[1][m]);
    for k in 1..=m {
        best = best
            .min(ab[0][k] + cd[1][m - k])
            .min(ab[1][m - k] + cd[0][k]);
    }
    best
}

/// Three of the four parts convolved once, for many merges that differ in the fourth
/// part only (a scan over the kinds of one suit): [`merge_with`] of them and a part
/// equals [`merge`] of the four.
#[derive(Clone, Copy)]
pub struct Others {
    #[cfg(target_arch = "x86_64")]
    reg: std::arch::x86_64::__m128i,
    #[cfg(not(target_arch = "x86_64"))]
    lanes: Lanes,
}

/// The parts other than `parts[skip]`, convolved.
#[inline(always)]
pub fn others(parts: &[PartDistances; 4], skip: usize) -> Others {
    let mut rest = [0; 3];
    let mut n = 0;
    for (i, &p) in parts.iter().enumerate() {
        if i != skip {
            rest[n] = p;
            n += 1;
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so every x86_64 CPU has it.
        Others {
            reg: unsafe { sse2::three(&rest) },
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let ab = convolve(&unpack(rest[0]), &unpack(rest[1]));
        Others {
            lanes: convolve(&ab, &unpack(rest[2])),
        }
    }
}

/// [`merge`] of the parts in `others` and `part`: fewest draws to `melds_needed`
/// (clamped to 4) melds and a pair.
#[inline(always)]
pub fn merge_with(others: &Others, part: PartDistances, melds_needed: usize) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: as in `others`.
        unsafe { sse2::finish(others.reg, part, melds_needed) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        finish_scalar(&others.lanes, &unpack(part), melds_needed)
    }
}

/// The last step of a merge: `abc` (three parts convolved) with the fourth part `d`.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn finish_scalar(abc: &Lanes, d: &Lanes, melds_needed: usize) -> u8 {
    let m = melds_needed.min(4);
    let mut best = u8::MAX;
    for k in 0..=m {
        best = best
            .min(abc[0][k].saturating_add(d[1][m - k]))
            .min(abc[1][k].saturating_add(d[0][m - k]));
    }
    best
}

/// Fewest draws to `melds_needed` (clamped to 4) melds and a pair from the four parts.
#[inline(always)]
pub fn merge(parts: &[PartDistances; 4], melds_needed: usize) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so every x86_64 CPU has it.
        unsafe { sse2::merge(parts, melds_needed) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        merge_scalar(parts, melds_needed)
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{LOW_NIBBLES, PartDistances};
    use std::arch::x86_64::*;

    /// Each byte of a u64 set to the same value.
    const SPLAT: u64 = 0x0101_0101_0101_0101;

    /// Distance `(melds k, pair p)` of a packed part, broadcast to the 8 bytes of a u64.
    #[inline(always)]
    fn splat(d: PartDistances, k: u32, pair: u32) -> i64 {
        (((d >> (8 * k + 4 * pair)) & 15).wrapping_mul(SPLAT)) as i64
    }

    /// A packed part in register form: low half no pair, high half with the pair.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn load(d: PartDistances) -> __m128i {
        _mm_set_epi64x(((d >> 4) & LOW_NIBBLES) as i64, (d & LOW_NIBBLES) as i64)
    }

    /// One convolution term pair for `k` melds from the packed part `a`: lanes `m` of
    /// the result hold `a(k, ·) + b(m - k, ·)` (bytes below `k` made 255 = unreachable).
    macro_rules! term {
        ($c:ident, $a:expr, $b:expr, $bn2:expr, $k:literal) => {{
            let low = _mm_set1_epi64x(((1u64 << (8 * $k)) - 1) as i64);
            let shifted = _mm_or_si128(_mm_slli_epi64::<{ 8 * $k }>($b), low);
            let shifted_n = _mm_or_si128(_mm_slli_epi64::<{ 8 * $k }>($bn2), low);
            let an = _mm_set1_epi64x(splat($a, $k, 0));
            let ap = _mm_set_epi64x(splat($a, $k, 1), -1);
            $c = _mm_min_epu8($c, _mm_adds_epu8(an, shifted));
            $c = _mm_min_epu8($c, _mm_adds_epu8(ap, shifted_n));
        }};
    }

    /// Min-plus convolution of packed part `a` with register-form `b`.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn convolve(a: PartDistances, b: __m128i) -> __m128i {
        // B's no-pair half in both halves: pairs of `a` combine with it.
        let bn2 = _mm_unpacklo_epi64(b, b);
        // k = 0: a(0, no pair) = 0, so B itself; and a(0, pair) + B(no pair).
        let ap0 = _mm_set_epi64x(splat(a, 0, 1), -1);
        let mut c = _mm_min_epu8(b, _mm_adds_epu8(ap0, bn2));
        term!(c, a, b, bn2, 1);
        term!(c, a, b, bn2, 2);
        term!(c, a, b, bn2, 3);
        term!(c, a, b, bn2, 4);
        c
    }

    /// Bytes `j <= m` of `x` reversed to `m - j`; bytes above `m` set to 255.
    #[inline(always)]
    fn reverse_lanes(x: u64, m: usize) -> u64 {
        let r = x.swap_bytes() >> (8 * (7 - m));
        let above = if m >= 7 { 0 } else { u64::MAX << (8 * (m + 1)) };
        r | above
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn merge(parts: &[PartDistances; 4], melds_needed: usize) -> u8 {
        let ab = convolve(parts[0], load(parts[1]));
        let abc = convolve(parts[2], ab);
        finish(abc, parts[3], melds_needed)
    }

    /// Three parts convolved (register form).
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn three(parts: &[PartDistances; 3]) -> __m128i {
        convolve(parts[2], convolve(parts[0], load(parts[1])))
    }

    /// The final step of a merge: three parts convolved (`abc`) with the fourth, `d`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn finish(abc: __m128i, d: PartDistances, melds_needed: usize) -> u8 {
        let m = melds_needed.min(4);
        // Final step at the single target (m melds, pair): lane j pairs abc(j, ·) with
        // honours(m - j, other ·), so put the honours' distances in reversed order, the
        // pair half against abc's no-pair half and vice versa.
        let dn = reverse_lanes(d & LOW_NIBBLES, m);
        let dp = reverse_lanes((d >> 4) & LOW_NIBBLES, m);
        let sums = _mm_adds_epu8(abc, _mm_set_epi64x(dn as i64, dp as i64));
        // Horizontal minimum of the 16 bytes.
        let x = _mm_min_epu8(sums, _mm_srli_si128::<8>(sums));
        let x = _mm_min_epu8(x, _mm_srli_si128::<4>(x));
        let x = _mm_min_epu8(x, _mm_srli_si128::<2>(x));
        let x = _mm_min_epu8(x, _mm_srli_si128::<1>(x));
        _mm_cvtsi128_si32(x) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::tables::{BARRED_PART, EMPTY_PART};

    /// Random packed parts with nibble values in 0..=14 (not necessarily table entries:
    /// the two implementations must agree on any input of that shape).
    #[test]
    fn sse2_and_scalar_merges_agree() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mut d = 0u64;
            for lane in 0..10 {
                let v = (rng >> (lane * 6)) % 15;
                // d(0, no pair) is always 0.
                let v = if lane == 0 { 0 } else { v };
                d |= v << (8 * (lane % 5) + 4 * (lane / 5));
            }
            d
        };
        for i in 0..200_000 {
            let mut parts = [next(), next(), next(), next()];
            if i % 7 == 0 {
                parts[i % 4] = BARRED_PART;
            }
            if i % 11 == 0 {
                parts[(i + 1) % 4] = EMPTY_PART;
            }
            for m in 0..=4 {
                let want = merge_scalar(&parts, m);
                assert_eq!(merge(&parts, m), want, "{parts:x?} {m}");
                // Any three convolved first, the fourth last: the same number, by the
                // platform's path and by the scalar one.
                let skip = i % 4;
                let o = others(&parts, skip);
                assert_eq!(
                    merge_with(&o, parts[skip], m),
                    want,
                    "{parts:x?} {m} {skip}"
                );
                let mut rest = parts;
                rest[skip] = rest[3];
                let abc = convolve(
                    &convolve(&unpack(rest[0]), &unpack(rest[1])),
                    &unpack(rest[2]),
                );
                assert_eq!(finish_scalar(&abc, &unpack(parts[skip]), m), want);
            }
        }
    }
}
