//! The shanten judge the probability code uses: [`crate::mahjong::shanten`] fixed to one
//! situation (melds called, ruleset, suits a SICHUAN hand may still lack), plus a scan
//! of the useful kinds that looks up only the changed suit's table entry.

use crate::mahjong::rules::Ruleset;
use crate::mahjong::shanten::{self, LackableSuits};
use crate::mahjong::tables::{self, PartDistances};

/// Shanten for fixed melds and ruleset. `Copy`, cheap to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval {
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
}

impl Eval {
    /// A judge for hands with `melds` called under `ruleset`; `lackable` is the mask of
    /// suits a SICHUAN hand may lack (bit 0 m, 1 p, 2 s; ignored by other rulesets).
    pub fn new(melds: u8, ruleset: Ruleset, lackable: LackableSuits) -> Eval {
        Eval {
            melds,
            ruleset,
            lackable,
        }
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
        shanten::shanten_lacking(hand, self.melds, self.ruleset, self.lackable)
    }

    /// Whether the 3n+2 `hand` is a winning hand.
    pub fn is_winning(&self, hand: &[u8; 34]) -> bool {
        hand.iter().map(|&c| c as usize).sum::<usize>() % 3 == 2 && self.shanten(hand) == -1
    }

    /// Shanten of `hand` plus one copy of each kind: `out[k]` for `k` with fewer than 4
    /// copies in `hand` (others get [`shanten::NEVER`]). One table lookup per kind
    /// instead of four: the other three parts are looked up once.
    pub fn shanten_after_each_draw(&self, hand: &mut [u8; 34]) -> [i8; 34] {
        let t = tables::get();
        let parts = shanten::part_distances(hand);
        let mut out = [shanten::NEVER; 34];
        for k in 0..34 {
            if hand[k] >= 4 {
                continue;
            }
            hand[k] += 1;
            let mut p: [PartDistances; 4] = parts;
            let suit = k / 9;
            p[suit] = if suit == 3 {
                t.honour(&hand[27..34])
            } else {
                t.suit(&hand[suit * 9..suit * 9 + 9])
            };
            out[k] = shanten::shanten_with_parts(hand, &p, self.melds, self.ruleset, self.lackable);
            hand[k] -= 1;
        }
        out
    }

    /// Shanten of `hand` minus one copy of each kind it holds (others get
    /// [`shanten::NEVER`]), with the same one-lookup-per-kind saving.
    pub fn shanten_after_each_discard(&self, hand: &mut [u8; 34]) -> [i8; 34] {
        let t = tables::get();
        let parts = shanten::part_distances(hand);
        let mut out = [shanten::NEVER; 34];
        for k in 0..34 {
            if hand[k] == 0 {
                continue;
            }
            hand[k] -= 1;
            let mut p: [PartDistances; 4] = parts;
            let suit = k / 9;
            p[suit] = if suit == 3 {
                t.honour(&hand[27..34])
            } else {
                t.suit(&hand[suit * 9..suit * 9 + 9])
            };
            out[k] = shanten::shanten_with_parts(hand, &p, self.melds, self.ruleset, self.lackable);
            hand[k] += 1;
        }
        out
    }
}
