//! Ukeire (受け入れ, 有效牌): the tile kinds whose draw lowers shanten, with the copies the
//! player cannot see.
//!
//! For a 3n+1 hand: every kind `x` with `shanten(hand + x) < shanten(hand)` and at least
//! one unseen copy (kinds whose copies are all in hand, melds or visible are not listed:
//! they cannot be drawn — `123m456p789s1111z` never waits on 1z). For a 3n+2 hand: the
//! same for the 3n+1 hand left by each distinct discard.
//!
//! Shanten counts the copies in the player's melds ([`super::caps`]), so a wait whose
//! copies are all in hand and melds is not a wait at all (it does not lower shanten).
//!
//! Drawing a tile changes one part, so each candidate costs one table lookup and one merge
//! (the other three parts' distances are reused).

use super::caps::Caps;
use super::rules::Ruleset;
use super::shanten::{LackableSuits, shanten_with_parts};
use super::tile::{COPIES, KINDS, Tile};

/// Effective tiles: `(kind, unseen copies)` in tile order, and the total of the copies.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ukeire {
    /// Kinds that lower shanten, each with its unseen copies (always > 0).
    pub tiles: Vec<(Tile, u8)>,
    /// Sum of the copies.
    pub total: u32,
}

/// One discard of a 3n+2 hand: the shanten it leaves and that hand's ukeire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscardUkeire {
    /// The tile discarded.
    pub discard: Tile,
    /// Shanten of the 3n+1 hand left.
    pub shanten: i8,
    /// Its ukeire.
    pub ukeire: Ukeire,
}

/// Shanten and ukeire of a 3n+1 concealed hand (`melds` called), `unseen` giving the
/// copies of each kind the player cannot see (e.g. [`super::hand::Hand::unseen`]).
/// `lackable` matters under SICHUAN only; `caps` are the copy caps of the player's melds
/// ([`super::hand::Hand::caps`]).
pub fn ukeire(
    counts: &[u8; KINDS],
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
    caps: &Caps,
    unseen: &[u8; KINDS],
) -> (i8, Ukeire) {
    let parts = caps.parts(counts);
    let base = shanten_with_parts(counts, &parts, melds, ruleset, lackable);
    let mut out = Ukeire::default();
    let mut drawn = *counts;
    let mut drawn_parts = parts;
    for x in 0..KINDS {
        if unseen[x] == 0 || counts[x] >= COPIES {
            continue;
        }
        drawn[x] += 1;
        drawn_parts[x / 9] = caps.part(x / 9, &drawn);
        if shanten_with_parts(&drawn, &drawn_parts, melds, ruleset, lackable) < base {
            out.tiles.push((Tile(x as u8), unseen[x]));
            out.total += unseen[x] as u32;
        }
        drawn[x] -= 1;
        drawn_parts[x / 9] = parts[x / 9];
    }
    (base, out)
}

/// For a 3n+2 concealed hand: every distinct discard with the shanten and ukeire it
/// leaves, best first (lowest shanten, then largest ukeire total, then tile order).
pub fn discards(
    counts: &[u8; KINDS],
    melds: u8,
    ruleset: Ruleset,
    lackable: LackableSuits,
    caps: &Caps,
    unseen: &[u8; KINDS],
) -> Vec<DiscardUkeire> {
    let mut out = Vec::new();
    let mut left = *counts;
    for d in 0..KINDS {
        if counts[d] == 0 {
            continue;
        }
        left[d] -= 1;
        let (shanten, ukeire) = ukeire(&left, melds, ruleset, lackable, caps, unseen);
        out.push(DiscardUkeire {
            discard: Tile(d as u8),
            shanten,
            ukeire,
        });
        left[d] += 1;
    }
    out.sort_by(|a, b| {
        a.shanten
            .cmp(&b.shanten)
            .then(b.ukeire.total.cmp(&a.ukeire.total))
            .then(a.discard.cmp(&b.discard))
    });
    out
}
