//! The shanten judge the probability code uses: [`shanten`](mod@crate::mahjong::shanten)
//! fixed to one situation (melds called, ruleset, suits a SICHUAN hand may still lack),
//! plus scans of "every hand one tile away" that update the changed suit only (the DP's
//! inner loop: one scan per hand state).

use crate::mahjong::caps::Caps;
use crate::mahjong::merge::{self, merge};
use crate::mahjong::rules::{Ruleset, SevenPairsRule};
use crate::mahjong::shanten::{self, LackableSuits};
use crate::mahjong::tables::{BARRED_PART, PartDistances};

/// Bit mask of all 34 kinds.
pub const ALL_KINDS: u64 = (1 << 34) - 1;

/// Shanten for fixed melds and ruleset. `Copy`, cheap to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShantenJudge {
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
    caps: Caps,
}

impl ShantenJudge {
    /// A judge for hands with `melds` called under `ruleset`; `lackable` is the mask of
    /// suits a SICHUAN hand may lack (bit 0 m, 1 p, 2 s; ignored by other rulesets). No
    /// copy caps (see [`ShantenJudge::with_caps`]).
    pub fn new(melds: u8, ruleset: Ruleset, lackable: LackableSuits) -> ShantenJudge {
        ShantenJudge {
            melds,
            ruleset,
            lackable,
            caps: Caps::NONE,
        }
    }

    /// The same judge counting the copies in the player's melds ([`crate::mahjong::caps`]).
    pub fn with_caps(mut self, caps: Caps) -> ShantenJudge {
        self.caps = caps;
        self
    }

    /// The copy caps.
    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    /// Melds called.
    pub fn melds(&self) -> u8 {
        self.melds
    }

    /// The ruleset.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Suits a SICHUAN hand may lack (bit 0 m, 1 p, 2 s).
    pub fn lackable(&self) -> LackableSuits {
        self.lackable
    }

    /// Shanten of the concealed `hand` (3n+1 or 3n+2 tiles, n = 4 - melds): the minimum
    /// over the ruleset's forms, `-1` = complete.
    #[inline]
    pub fn shanten(&self, hand: &[u8; 34]) -> i8 {
        let parts = self.caps.parts(hand);
        shanten::shanten_with_parts(hand, &parts, self.melds, self.ruleset, self.lackable)
    }

    /// Whether the 3n+2 `hand` is a winning hand.
    pub fn is_winning(&self, hand: &[u8; 34]) -> bool {
        hand.iter().map(|&c| c as usize).sum::<usize>() % 3 == 2 && self.shanten(hand) == -1
    }

    /// Shanten of `hand` plus one copy of each kind: `out[k]` for `k` with fewer than 4
    /// copies in `hand` (others get [`shanten::NEVER`]). Equal to [`ShantenJudge::shanten`] of
    /// each such hand (unit-tested against it), but incremental: only the changed
    /// suit's table entry is looked up, the merge is skipped when that entry did not
    /// change, and the seven-pairs / thirteen-orphans figures are updated in O(1).
    pub fn shanten_after_each_draw(&self, hand: &mut [u8; 34]) -> [i8; 34] {
        self.scan(hand, 1, ALL_KINDS, ALL_KINDS)
    }

    /// [`ShantenJudge::shanten_after_each_draw`] for the kinds in `mask` only (bit `k` = kind
    /// `k`); the others get [`shanten::NEVER`].
    pub fn shanten_after_draws(&self, hand: &mut [u8; 34], mask: u64) -> [i8; 34] {
        self.scan(hand, 1, mask, ALL_KINDS)
    }

    /// [`ShantenJudge::shanten_after_draws`] with the regular form (four melds and a pair)
    /// weighed only for the kinds in `regular`: for the others `out[k]` is the minimum
    /// of the closed forms (seven pairs, thirteen orphans) alone, [`shanten::NEVER`]
    /// where they do not apply. Wherever the regular form of `hand + k` is known to be
    /// at least `s` (see [`ShantenJudge::regular_after_each_draw`]), `out[k] < s` exactly when
    /// the true shanten of `hand + k` is below `s`: the useful kinds come out the same
    /// at a fraction of the table lookups and merges.
    pub fn shanten_after_draws_weighing(
        &self,
        hand: &mut [u8; 34],
        mask: u64,
        regular: u64,
    ) -> [i8; 34] {
        self.scan(hand, 1, mask, regular)
    }

    /// For a 3n+2 `hand`: `out[k]` = regular-form shanten (four melds and a pair, under
    /// the ruleset's lacked suit, the copy caps) of the 3n+3 tiles `hand + k`, a lower
    /// bound of the regular form of `hand - j + k` for every `j` (removing a tile never
    /// brings a hand nearer: its surplus tiles cost nothing). [`shanten::NEVER`] where
    /// `hand` holds 4 copies of `k` (then `hand - j` cannot draw `k` unless `j == k`);
    /// `i8::MIN` (no bound) for the kinds of a part of 14 tiles or more, beyond the
    /// distance tables' domain. For the change weighing of the plan: one scan per drawn
    /// kind bounds the useful kinds of all its discards.
    pub fn regular_after_each_draw(&self, hand: &mut [u8; 34]) -> [i8; 34] {
        // 3n+3 tiles: the closed forms (13 or 14 tiles) never apply, only the regular.
        let mut out = self.scan(hand, 1, ALL_KINDS, ALL_KINDS);
        for part in 0..4 {
            let range = part * 9..(part * 9 + 9).min(34);
            if hand[range.clone()]
                .iter()
                .map(|&c| c as usize)
                .sum::<usize>()
                >= 14
            {
                out[range].fill(i8::MIN);
            }
        }
        out
    }

    /// Shanten of `hand` minus one copy of each kind it holds (others get
    /// [`shanten::NEVER`]), computed as incrementally as
    /// [`ShantenJudge::shanten_after_each_draw`].
    pub fn shanten_after_each_discard(&self, hand: &mut [u8; 34]) -> [i8; 34] {
        self.scan(hand, -1, ALL_KINDS, ALL_KINDS)
    }

    /// `hand` changed by `delta` copies of each kind in `mask`: shanten over the
    /// ruleset's forms, the regular form only for the kinds in `regular`.
    fn scan(&self, hand: &mut [u8; 34], delta: i8, mask: u64, regular_kinds: u64) -> [i8; 34] {
        let parts = self.caps.parts(hand);
        let needed = 4usize.saturating_sub(self.melds as usize);
        let sichuan = self.ruleset.requires_missing_suit();
        let regular_of = |p: &[PartDistances; 4]| -> i8 {
            if sichuan {
                let mut best = shanten::NEVER;
                for suit in 0..3 {
                    if self.lackable & (1 << suit) != 0 {
                        let mut q = *p;
                        q[suit] = BARRED_PART;
                        q[3] = BARRED_PART;
                        best = best.min(merge(&q, needed) as i8 - 1);
                    }
                }
                best
            } else {
                merge(p, needed) as i8 - 1
            }
        };
        let base_regular = regular_of(&parts);
        // The closed forms apply to closed hands of 13 or 14 tiles (after the change).
        let total = hand.iter().map(|&c| c as i32).sum::<i32>() + i32::from(delta);
        let rule = self.ruleset.seven_pairs();
        // One tile changes a closed form by at most one step and the regular form, which
        // an added tile never raises and a removed one raises by at most one, stays
        // within `base_regular + (delta < 0)`: a closed form already more than one above
        // that can never be the minimum, and is not weighed.
        let closed = (self.melds == 0 && (total == 13 || total == 14))
            .then(|| Closed::of(hand))
            .filter(|c| {
                // In i16: `base_regular` is NEVER (i8::MAX) when no suit may be lacked.
                i16::from(c.minimum(rule, sichuan, self.lackable)) - 1
                    < i16::from(base_regular) + i16::from(delta < 0)
            });
        let mut out = [shanten::NEVER; 34];
        let mut others: [Option<merge::Others>; 4] = [None; 4];
        // Without a closed form the kinds whose regular form is not weighed stay NEVER.
        let weighed = if closed.is_some() {
            mask
        } else {
            mask & regular_kinds
        };
        let mut bits = weighed & ALL_KINDS;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = hand[k];
            if (delta > 0 && c >= 4) || (delta < 0 && c == 0) {
                continue;
            }
            let regular = if regular_kinds & (1 << k) == 0 {
                shanten::NEVER
            } else {
                let suit = k / 9;
                hand[k] = c.wrapping_add_signed(delta);
                let part = self.caps.part(suit, hand);
                hand[k] = c;
                if part == parts[suit] {
                    base_regular
                } else if sichuan {
                    let mut p = parts;
                    p[suit] = part;
                    regular_of(&p)
                } else {
                    // The other three parts convolved once per suit of the scan.
                    let o = others[suit].get_or_insert_with(|| merge::others(&parts, suit));
                    merge::merge_with(o, part, needed) as i8 - 1
                }
            };
            out[k] = match &closed {
                Some(closed) => regular.min(closed.changed(k, c, delta).minimum(
                    rule,
                    sichuan,
                    self.lackable,
                )),
                None => regular,
            };
        }
        out
    }
}

/// Seven-pairs and thirteen-orphans statistics of a closed hand, per part (m, p, s,
/// honours), updatable in O(1) when one tile is added or removed. Same definitions as
/// [`shanten`](mod@crate::mahjong::shanten): distinct pairs / singles (RIICHI), `count / 2` pairs
/// and odd kinds (quads as two pairs), orphan kinds and orphan kinds held twice.
#[derive(Clone, Copy)]
struct Closed {
    distinct_pairs: [i8; 4],
    distinct_singles: [i8; 4],
    quad_pairs: [i8; 4],
    odd_kinds: [i8; 4],
    orphan_kinds: i8,
    orphan_pairs: i8,
}

/// The thirteen orphan kinds: terminals of each suit and the honours.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

fn is_orphan(k: usize) -> bool {
    k >= 27 || k.is_multiple_of(9) || k % 9 == 8
}

impl Closed {
    /// The statistics of no tiles.
    const EMPTY: Closed = Closed {
        distinct_pairs: [0; 4],
        distinct_singles: [0; 4],
        quad_pairs: [0; 4],
        odd_kinds: [0; 4],
        orphan_kinds: 0,
        orphan_pairs: 0,
    };

    fn of(hand: &[u8; 34]) -> Closed {
        let mut out = Closed::EMPTY;
        // Part by part over fixed ranges (no per-kind division or branch: this runs
        // once per scan, as often as the scans themselves).
        for (part, counts) in [&hand[0..9], &hand[9..18], &hand[18..27], &hand[27..34]]
            .into_iter()
            .enumerate()
        {
            let (mut pairs, mut singles, mut quad_pairs, mut odd) = (0u8, 0u8, 0u8, 0u8);
            for &c in counts {
                pairs += u8::from(c >= 2);
                singles += u8::from(c == 1);
                quad_pairs += c >> 1;
                odd += c & 1;
            }
            out.distinct_pairs[part] = pairs as i8;
            out.distinct_singles[part] = singles as i8;
            out.quad_pairs[part] = quad_pairs as i8;
            out.odd_kinds[part] = odd as i8;
        }
        for k in ORPHANS {
            let c = hand[k];
            out.orphan_kinds += i8::from(c > 0);
            out.orphan_pairs += i8::from(c >= 2);
        }
        out
    }

    /// The statistics after kind `k` goes from `c` copies to `c + delta` (delta = ±1).
    #[inline]
    fn changed(&self, k: usize, c: u8, delta: i8) -> Closed {
        let mut out = *self;
        let after = c.wrapping_add_signed(delta);
        let part = k / 9;
        let f = |x: bool| x as i8;
        out.distinct_pairs[part] += f(after >= 2) - f(c >= 2);
        out.distinct_singles[part] += f(after == 1) - f(c == 1);
        out.quad_pairs[part] += (after / 2) as i8 - (c / 2) as i8;
        out.odd_kinds[part] += (after % 2) as i8 - (c % 2) as i8;
        if is_orphan(k) {
            out.orphan_kinds += f(after > 0) - f(c > 0);
            out.orphan_pairs += f(after >= 2) - f(c >= 2);
        }
        out
    }

    #[inline]
    fn seven_pairs(&self, rule: SevenPairsRule, sichuan: bool, lackable: LackableSuits) -> i8 {
        let (pairs, singles) = match rule {
            SevenPairsRule::DistinctPairs => (&self.distinct_pairs, &self.distinct_singles),
            SevenPairsRule::QuadsAsTwoPairs => (&self.quad_pairs, &self.odd_kinds),
        };
        let value = |p: i8, s: i8| {
            let need = 7 - p.min(7);
            need + (need - s.min(7)).max(0) - 1
        };
        if !sichuan {
            return value(pairs.iter().sum(), singles.iter().sum());
        }
        // SICHUAN: the lacked suit and the honours are surplus.
        let mut best = shanten::NEVER;
        for lack in 0..3 {
            if lackable & (1 << lack) != 0 {
                let kept = |v: &[i8; 4]| (0..3).filter(|&s| s != lack).map(|s| v[s]).sum();
                best = best.min(value(kept(pairs), kept(singles)));
            }
        }
        best
    }

    /// The lower of the closed forms the ruleset has (no thirteen orphans under
    /// SICHUAN).
    #[inline]
    fn minimum(&self, rule: SevenPairsRule, sichuan: bool, lackable: LackableSuits) -> i8 {
        let seven = self.seven_pairs(rule, sichuan, lackable);
        if sichuan {
            seven
        } else {
            seven.min(self.thirteen_orphans())
        }
    }

    #[inline]
    fn thirteen_orphans(&self) -> i8 {
        13 - self.orphan_kinds.min(13) - (self.orphan_pairs > 0) as i8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A random judge (ruleset, melds, lackable suits, copy caps) and a concealed hand of
    /// `3 (4 - melds) + extra` tiles: clustered, spread, or all in one part (the
    /// distance tables' domain edge, a one-suit hand of 14 tiles).
    fn random_case(rng: &mut StdRng, extra: usize) -> (ShantenJudge, [u8; 34]) {
        let ruleset = Ruleset::ALL[rng.random_range(0..3)];
        let melds = rng.random_range(0..=4u8);
        let lackable = rng.random_range(0..8u8);
        let kinds = if ruleset.has_honours() { 34 } else { 27 };
        let size = 3 * (4 - melds as usize) + extra;
        let one_part = rng
            .random_bool(0.2)
            .then(|| rng.random_range(0..kinds / 9) * 9);
        let mut hand = [0u8; 34];
        let mut n = 0;
        while n < size {
            let k = match one_part {
                Some(first) => first + rng.random_range(0..9.min(kinds - first)),
                None if rng.random_bool(0.5) => rng.random_range(0..kinds.min(12)),
                None => rng.random_range(0..kinds),
            };
            if hand[k] < 4 {
                hand[k] += 1;
                n += 1;
            }
        }
        let mut held = [0u8; 34];
        if melds > 0 && rng.random_bool(0.5) {
            for _ in 0..rng.random_range(1..=3) {
                let k = rng.random_range(0..kinds);
                held[k] = rng.random_range(1..=4u8.saturating_sub(hand[k]).max(1));
            }
        }
        let judge = ShantenJudge::new(melds, ruleset, lackable).with_caps(Caps::from_held(&held));
        (judge, hand)
    }

    /// `Closed::of` by the definition, kind by kind (the first implementation).
    fn closed_by_definition(hand: &[u8; 34]) -> Closed {
        let mut out = Closed::EMPTY;
        for (k, &c) in hand.iter().enumerate() {
            let part = k / 9;
            out.distinct_pairs[part] += (c >= 2) as i8;
            out.distinct_singles[part] += (c == 1) as i8;
            out.quad_pairs[part] += (c / 2) as i8;
            out.odd_kinds[part] += (c % 2) as i8;
            if is_orphan(k) {
                out.orphan_kinds += (c > 0) as i8;
                out.orphan_pairs += (c >= 2) as i8;
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The change weighing's shortcut: for a 3n+2 hand `h` and each discard `j`, the
        /// useful kinds of `h - j` found by weighing the regular form only for the kinds
        /// [`ShantenJudge::regular_after_each_draw`] of `h` leaves open (and `j`) are the useful
        /// kinds of a full scan, and the kinds weighed get the full scan's shanten.
        #[test]
        fn weighing_finds_the_useful_kinds_of_a_full_scan(seed in any::<u64>()) {
            let mut rng = StdRng::seed_from_u64(seed);
            let (judge, mut hand) = random_case(&mut rng, 2);
            let bound = judge.regular_after_each_draw(&mut hand);
            for j in 0..34 {
                if hand[j] == 0 {
                    continue;
                }
                hand[j] -= 1;
                let s = judge.shanten(&hand);
                let regular = (0..34)
                    .filter(|&k| bound[k] < s)
                    .fold(1u64 << j, |m, k| m | 1 << k);
                let full = judge.shanten_after_each_draw(&mut hand);
                let weighed = judge.shanten_after_draws_weighing(&mut hand, ALL_KINDS, regular);
                for k in 0..34 {
                    prop_assert_eq!(weighed[k] < s, full[k] < s, "kind {} discard {}", k, j);
                    if regular & (1 << k) != 0 {
                        prop_assert_eq!(weighed[k], full[k]);
                    }
                }
                hand[j] += 1;
            }
        }

        /// The part-by-part statistics equal the kind-by-kind definition.
        #[test]
        fn closed_statistics_equal_the_definition(seed in any::<u64>()) {
            let mut rng = StdRng::seed_from_u64(seed);
            let extra = rng.random_range(1..=2);
            let (_, hand) = random_case(&mut rng, extra);
            let (a, b) = (Closed::of(&hand), closed_by_definition(&hand));
            prop_assert_eq!(a.distinct_pairs, b.distinct_pairs);
            prop_assert_eq!(a.distinct_singles, b.distinct_singles);
            prop_assert_eq!(a.quad_pairs, b.quad_pairs);
            prop_assert_eq!(a.odd_kinds, b.odd_kinds);
            prop_assert_eq!(a.orphan_kinds, b.orphan_kinds);
            prop_assert_eq!(a.orphan_pairs, b.orphan_pairs);
        }
    }

    /// The incremental scans equal the full shanten of every changed hand, for every
    /// ruleset, meld count and lackable mask, on random hands.
    #[test]
    fn scans_equal_full_shanten() {
        let mut rng = StdRng::seed_from_u64(34);
        for _ in 0..3000 {
            let extra = rng.random_range(1..=2);
            let (judge, mut hand) = random_case(&mut rng, extra);
            let draws = judge.shanten_after_each_draw(&mut hand);
            let mask = rng.random::<u64>() & ALL_KINDS;
            let masked = judge.shanten_after_draws(&mut hand, mask);
            for k in 0..34 {
                let want = if mask & (1 << k) != 0 {
                    draws[k]
                } else {
                    shanten::NEVER
                };
                assert_eq!(masked[k], want);
            }
            let discards = judge.shanten_after_each_discard(&mut hand);
            for k in 0..34 {
                if hand[k] < 4 {
                    hand[k] += 1;
                    assert_eq!(
                        draws[k],
                        judge.shanten(&hand),
                        "draw {k} {hand:?} {judge:?}"
                    );
                    hand[k] -= 1;
                }
                if hand[k] > 0 {
                    hand[k] -= 1;
                    assert_eq!(
                        discards[k],
                        judge.shanten(&hand),
                        "discard {k} {hand:?} {judge:?}"
                    );
                    hand[k] += 1;
                }
            }
        }
    }
}
