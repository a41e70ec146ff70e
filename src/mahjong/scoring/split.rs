//! Every reading of a winning hand: the sets, the pair, and where the winning tile sits.
//!
//! A regular hand is split into a pair and sets in every possible way (the concealed
//! tiles; the melds are sets as they stand), and for each split the winning tile is
//! placed in every set or pair that holds it: that choice fixes the wait (ryanmen,
//! kanchan, penchan, shanpon, tanki) and, on a discard, turns the triplet it completes
//! into an open one for fu and concealed-triplet counting. Seven pairs (seven distinct
//! kinds) and thirteen orphans are readings of their own.

use super::input::WinInput;
use crate::mahjong::meld::MeldKind;
use crate::mahjong::tile::{KINDS, Tile, TileCounts};

/// What a set is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// Three consecutive tiles (shuntsu).
    Sequence,
    /// Three identical tiles (koutsu).
    Triplet,
    /// Four identical tiles (kantsu).
    Quad,
}

/// One set of a regular hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Set {
    /// Sequence, triplet or quad.
    pub kind: SetKind,
    /// Its lowest tile.
    pub tile: Tile,
    /// Concealed for fu and for concealed triplets: not called, and (a triplet) not
    /// completed by a discard. A closed kan is concealed.
    pub concealed: bool,
}

impl Set {
    /// The tiles' kinds (three for a sequence, one otherwise).
    pub fn kinds(&self) -> impl Iterator<Item = Tile> + '_ {
        let n = if self.kind == SetKind::Sequence { 3 } else { 1 };
        (0..n).map(move |k| Tile(self.tile.0 + k))
    }

    /// Holds a terminal or an honour.
    pub fn has_terminal_or_honour(&self) -> bool {
        self.kinds().any(Tile::is_terminal_or_honour)
    }

    /// A triplet or a quad.
    pub fn is_triplet_like(&self) -> bool {
        self.kind != SetKind::Sequence
    }
}

/// How the winning tile completed the hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wait {
    /// Both sides of two consecutive tiles (34 waiting on 2 or 5).
    Ryanmen,
    /// The middle of a sequence (35 waiting on 4).
    Kanchan,
    /// The edge: 12 waiting on 3, or 89 waiting on 7.
    Penchan,
    /// One of two pairs becoming a triplet.
    Shanpon,
    /// A single tile becoming the pair.
    Tanki,
    /// Thirteen orphans waiting on all thirteen kinds (the pair was already held).
    ThirteenSided,
}

/// One reading of a winning hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reading {
    /// Four sets and a pair.
    Regular {
        /// The four sets: the concealed ones first, then the melds.
        sets: Vec<Set>,
        /// The pair's kind.
        pair: Tile,
        /// The wait the winning tile completed.
        wait: Wait,
    },
    /// Seven distinct pairs (chiitoitsu); the wait is a single tile.
    SevenPairs {
        /// The seven kinds.
        pairs: Vec<Tile>,
    },
    /// Thirteen orphans (kokushi musou).
    ThirteenOrphans {
        /// The wait: a single tile, or all thirteen.
        wait: Wait,
    },
}

/// Every reading of the hand. Empty when the tiles form no winning hand.
pub fn readings(input: &WinInput) -> Vec<Reading> {
    let mut out = regular_readings(input);
    if input.melds.is_empty() {
        out.extend(seven_pairs(&input.concealed));
        out.extend(thirteen_orphans(&input.concealed, input.win_tile));
    }
    out
}

/// Four sets and a pair, with each place the winning tile can sit.
fn regular_readings(input: &WinInput) -> Vec<Reading> {
    let melds: Vec<Set> = input.melds.iter().map(meld_set).collect();
    let mut out = Vec::new();
    for pair in 0..KINDS {
        let mut rest = input.concealed.0;
        if rest[pair] < 2 {
            continue;
        }
        rest[pair] -= 2;
        let mut splits = Vec::new();
        split_sets(&mut rest, &mut Vec::new(), &mut splits);
        for concealed in splits {
            place_win_tile(&concealed, &melds, Tile(pair as u8), input, &mut out);
        }
    }
    out
}

/// A meld as a set: a chi is an open sequence, a pon an open triplet, a closed kan a
/// concealed quad, any other kan an open quad.
fn meld_set(meld: &crate::mahjong::meld::Meld) -> Set {
    let (kind, concealed) = match meld.kind() {
        MeldKind::Chi => (SetKind::Sequence, false),
        MeldKind::Pon => (SetKind::Triplet, false),
        MeldKind::ClosedKan => (SetKind::Quad, true),
        MeldKind::OpenKan | MeldKind::AddedKan => (SetKind::Quad, false),
    };
    Set {
        kind,
        tile: meld.tile(),
        concealed,
    }
}

/// Every way to split `rest` entirely into triplets and sequences (concealed), lowest
/// kind first so that each split is found once.
fn split_sets(rest: &mut [u8; KINDS], acc: &mut Vec<Set>, out: &mut Vec<Vec<Set>>) {
    let Some(i) = rest.iter().position(|&c| c > 0) else {
        out.push(acc.clone());
        return;
    };
    let tile = Tile(i as u8);
    if rest[i] >= 3 {
        rest[i] -= 3;
        acc.push(Set {
            kind: SetKind::Triplet,
            tile,
            concealed: true,
        });
        split_sets(rest, acc, out);
        acc.pop();
        rest[i] += 3;
    }
    if !tile.is_honour() && tile.rank() <= 7 && rest[i + 1] > 0 && rest[i + 2] > 0 {
        for k in 0..3 {
            rest[i + k] -= 1;
        }
        acc.push(Set {
            kind: SetKind::Sequence,
            tile,
            concealed: true,
        });
        split_sets(rest, acc, out);
        acc.pop();
        for k in 0..3 {
            rest[i + k] += 1;
        }
    }
}

/// The readings of one split: the winning tile in the pair, or in each concealed set
/// that holds it.
fn place_win_tile(
    concealed: &[Set],
    melds: &[Set],
    pair: Tile,
    input: &WinInput,
    out: &mut Vec<Reading>,
) {
    let win = input.win_tile;
    let reading = |sets: Vec<Set>, wait| Reading::Regular {
        sets: sets.into_iter().chain(melds.iter().copied()).collect(),
        pair,
        wait,
    };
    if pair == win {
        out.push(reading(concealed.to_vec(), Wait::Tanki));
    }
    for (i, set) in concealed.iter().enumerate() {
        let wait = match set.kind {
            SetKind::Triplet if set.tile == win => Wait::Shanpon,
            SetKind::Sequence => match win.0.checked_sub(set.tile.0) {
                Some(1) => Wait::Kanchan,
                Some(0) if set.tile.rank() == 7 => Wait::Penchan,
                Some(2) if set.tile.rank() == 1 => Wait::Penchan,
                Some(0 | 2) => Wait::Ryanmen,
                _ => continue,
            },
            _ => continue,
        };
        let mut sets = concealed.to_vec();
        if wait == Wait::Shanpon && !input.flags.self_draw {
            sets[i].concealed = false;
        }
        let candidate = reading(sets, wait);
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
}

/// Seven distinct pairs.
fn seven_pairs(concealed: &TileCounts) -> Option<Reading> {
    let pairs: Vec<Tile> = concealed
        .kinds()
        .filter(|&t| concealed.count(t) == 2)
        .collect();
    (pairs.len() == 7).then_some(Reading::SevenPairs { pairs })
}

/// Thirteen orphans: one of each terminal and honour and a second of one of them.
fn thirteen_orphans(concealed: &TileCounts, win: Tile) -> Option<Reading> {
    let complete = concealed.len() == 14
        && Tile::all()
            .filter(|t| t.is_terminal_or_honour())
            .all(|t| concealed.count(t) >= 1)
        && concealed.kinds().all(Tile::is_terminal_or_honour);
    complete.then(|| Reading::ThirteenOrphans {
        wait: if concealed.count(win) == 2 {
            Wait::ThirteenSided
        } else {
            Wait::Tanki
        },
    })
}
