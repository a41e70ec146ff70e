//! The groups a hand splits into, for the exact decomposition of [`super::value`]:
//! every play of a hand that holds its lowest card. Deciding the group of the lowest
//! card first, then the rest recursively, visits every decomposition of a hand into
//! plays (each decomposition once per order of its groups by lowest card).
//!
//! Works on rank counts (index 0..=14: `3`..`A` = 0..=11, `2` = 12, `X` = 13, `D` = 14)
//! and hands [`Play`]s to a visitor. The kicker rules are DESIGN.md's (kickers never
//! share a rank with their trio / four / airplane; single kickers may share ranks with
//! each other; pair kickers are pairwise distinct). The rocket is never split into two
//! kickers here: as a group it is worth 20, as kickers at most 1, so no best
//! decomposition splits it.

use super::card::{Cards, Rank};
use super::play::{Kind, Play};

/// Cards per rank, index 0..=14 (`3`..`A`, `2`, `X`, `D`).
pub type Counts = [u8; Rank::COUNT];

const RANK_COUNT: usize = Rank::COUNT;
const ACE: u8 = Rank::ACE.index() as u8;
const TWO: u8 = Rank::TWO.index() as u8;
const SMALL_JOKER: u8 = Rank::SMALL_JOKER.index() as u8;
const BIG_JOKER: u8 = Rank::BIG_JOKER.index() as u8;

/// Total number of cards.
pub fn total(c: &Counts) -> u8 {
    c.iter().sum()
}

/// `whole - part` rank by rank (saturating at 0).
pub fn minus(whole: &Counts, part: &Counts) -> Counts {
    let mut c = *whole;
    for (a, b) in c.iter_mut().zip(part) {
        *a = a.saturating_sub(*b);
    }
    c
}

/// Packs counts into 45 bits (3 per rank): a memo key.
pub fn pack(c: &Counts) -> u64 {
    c.iter()
        .enumerate()
        .fold(0u64, |k, (r, &n)| k | (u64::from(n) << (3 * r)))
}

/// Builds the play: main part `bottom..=top` with `per` cards each, plus kickers (one
/// entry per single kicker, or per pair kicker when `pair_kickers`).
fn make(kind: Kind, top: u8, len: u8, kickers: &[u8]) -> Play {
    let mut c = [0u8; RANK_COUNT];
    let per = match kind {
        Kind::Single | Kind::Chain => 1,
        Kind::Pair | Kind::PairChain => 2,
        Kind::FourWithTwoSingles | Kind::FourWithTwoPairs | Kind::Bomb => 4,
        Kind::Rocket => {
            c[SMALL_JOKER as usize] = 1;
            c[BIG_JOKER as usize] = 1;
            0
        }
        _ => 3,
    };
    if per > 0 {
        for r in top + 1 - len..=top {
            c[r as usize] = per;
        }
    }
    let kper = if matches!(
        kind,
        Kind::TrioWithPair | Kind::AirplaneWithPairs | Kind::FourWithTwoPairs
    ) {
        2
    } else {
        1
    };
    for &k in kickers {
        c[k as usize] += kper;
    }
    Play {
        kind,
        len,
        main: Rank::ALL[top as usize],
        cards: Cards::from_counts_unchecked(c),
    }
}

fn make0(kind: Kind, top: u8, len: u8) -> Play {
    make(kind, top, len, &[])
}

/// Single-wing choices: `n` kicker ranks as a multiset (ascending), outside
/// `body_lo..=body_hi`, within the counts, not both jokers unless allowed. When `must`
/// is set, the first kicker is that rank (callers use it for the lowest rank).
fn single_wings(
    c: &Counts,
    body: (u8, u8),
    n: usize,
    must: Option<u8>,
    allow_rocket: bool,
    f: &mut dyn FnMut(&[u8]),
) {
    let mut buf = [0u8; 5];
    let mut used = [0u8; RANK_COUNT];
    let start = match must {
        Some(m) => {
            if (body.0..=body.1).contains(&m) || c[m as usize] == 0 {
                return;
            }
            buf[0] = m;
            used[m as usize] = 1;
            if n == 1 {
                f(&buf[..1]);
                return;
            }
            1
        }
        None => 0,
    };
    let from = must.unwrap_or(0);
    single_wings_rec(
        c,
        body,
        n,
        start,
        from,
        allow_rocket,
        &mut buf,
        &mut used,
        f,
    );
}

#[allow(clippy::too_many_arguments)]
fn single_wings_rec(
    c: &Counts,
    body: (u8, u8),
    n: usize,
    at: usize,
    from: u8,
    allow_rocket: bool,
    buf: &mut [u8; 5],
    used: &mut Counts,
    f: &mut dyn FnMut(&[u8]),
) {
    if at == n {
        f(&buf[..n]);
        return;
    }
    for r in from..=BIG_JOKER {
        let ri = r as usize;
        if (body.0..=body.1).contains(&r) || used[ri] >= c[ri] {
            continue;
        }
        if r == BIG_JOKER && !allow_rocket && used[SMALL_JOKER as usize] > 0 {
            continue;
        }
        buf[at] = r;
        used[ri] += 1;
        single_wings_rec(c, body, n, at + 1, r, allow_rocket, buf, used, f);
        used[ri] -= 1;
    }
}

/// Pair-wing choices: `n` distinct ranks (ascending) with at least two cards, outside
/// the body. When `must` is set it is the first (lowest) kicker.
fn pair_wings(c: &Counts, body: (u8, u8), n: usize, must: Option<u8>, f: &mut dyn FnMut(&[u8])) {
    let mut buf = [0u8; 5];
    let (start, from) = match must {
        Some(m) => {
            if (body.0..=body.1).contains(&m) || c[m as usize] < 2 {
                return;
            }
            buf[0] = m;
            (1, m + 1)
        }
        None => (0, 0),
    };
    pair_wings_rec(c, body, n, start, from, &mut buf, f);
}

fn pair_wings_rec(
    c: &Counts,
    body: (u8, u8),
    n: usize,
    at: usize,
    from: u8,
    buf: &mut [u8; 5],
    f: &mut dyn FnMut(&[u8]),
) {
    if at == n {
        f(&buf[..n]);
        return;
    }
    for r in from..=TWO {
        if (body.0..=body.1).contains(&r) || c[r as usize] < 2 {
            continue;
        }
        buf[at] = r;
        pair_wings_rec(c, body, n, at + 1, r + 1, buf, f);
    }
}

/// Trio (len 1) or trio chain (len >= 2) ending at `top`, bare and with every wing
/// choice. `must`: only wings that start with that rank.
fn carriers_at(
    c: &Counts,
    top: u8,
    len: u8,
    allow_rocket: bool,
    must: Option<u8>,
    f: &mut dyn FnMut(Play),
) {
    let lo = top + 1 - len;
    let (bare, single, pair) = if len == 1 {
        (Kind::Trio, Kind::TrioWithSingle, Kind::TrioWithPair)
    } else {
        (
            Kind::TrioChain,
            Kind::AirplaneWithSingles,
            Kind::AirplaneWithPairs,
        )
    };
    if must.is_none() {
        f(make0(bare, top, len));
    }
    if len <= 5 {
        single_wings(c, (lo, top), len as usize, must, allow_rocket, &mut |k| {
            f(make(single, top, len, k))
        });
    }
    if len <= 4 {
        pair_wings(c, (lo, top), len as usize, must, &mut |k| {
            f(make(pair, top, len, k))
        });
    }
}

/// Bomb and four-with-two at rank `r` (four cards there).
fn fours_at(c: &Counts, r: u8, allow_rocket: bool, must: Option<u8>, f: &mut dyn FnMut(Play)) {
    if must.is_none() {
        f(make0(Kind::Bomb, r, 1));
    }
    single_wings(c, (r, r), 2, must, allow_rocket, &mut |k| {
        f(make(Kind::FourWithTwoSingles, r, 1, k))
    });
    pair_wings(c, (r, r), 2, must, &mut |k| {
        f(make(Kind::FourWithTwoPairs, r, 1, k))
    });
}

/// Chains, pair chains and trio chains (bare and with wings) starting at `lo`.
fn chains_from(c: &Counts, lo: u8, allow_rocket: bool, must: Option<u8>, f: &mut dyn FnMut(Play)) {
    // Singles chains: 5..=12 long.
    if must.is_none() {
        let mut top = lo;
        while top <= ACE && c[top as usize] >= 1 {
            let len = top - lo + 1;
            if len >= 5 {
                f(make0(Kind::Chain, top, len));
            }
            top += 1;
        }
        let mut top = lo;
        while top <= ACE && c[top as usize] >= 2 {
            let len = top - lo + 1;
            if len >= 3 {
                f(make0(Kind::PairChain, top, len));
            }
            top += 1;
        }
    }
    let mut top = lo;
    while top <= ACE && c[top as usize] >= 3 {
        let len = top - lo + 1;
        if len >= 2 {
            carriers_at(c, top, len, allow_rocket, must, f);
        }
        top += 1;
    }
}

/// Visits every play of `c` that contains at least one card of rank `low`, where `low`
/// is the lowest rank present in `c`. This is the branching rule of the exact
/// decomposition: the group holding the lowest card is decided first.
pub fn for_each_with_lowest(c: &Counts, low: u8, f: &mut dyn FnMut(Play)) {
    let allow_rocket = false;
    let n = c[low as usize];
    debug_assert!(n > 0 && c[..low as usize].iter().all(|&x| x == 0));
    // Main part at `low`.
    f(make0(Kind::Single, low, 1));
    if n >= 2 {
        f(make0(Kind::Pair, low, 1));
    }
    if n >= 3 {
        carriers_at(c, low, 1, allow_rocket, None, f);
    }
    if n == 4 {
        fours_at(c, low, allow_rocket, None, f);
    }
    if low == SMALL_JOKER && c[BIG_JOKER as usize] == 1 {
        f(make0(Kind::Rocket, BIG_JOKER, 1));
    }
    if low <= ACE {
        chains_from(c, low, allow_rocket, None, f);
    }
    // `low` as a kicker of a trio, trio chain or four higher up.
    for r in low + 1..=TWO {
        let m = c[r as usize];
        if m >= 3 {
            carriers_at(c, r, 1, allow_rocket, Some(low), f);
        }
        if m == 4 {
            fours_at(c, r, allow_rocket, Some(low), f);
        }
    }
    for lo in low + 1..ACE {
        // Trio chains starting at `lo` carrying `low` as a wing.
        let mut top = lo;
        while top <= ACE && c[top as usize] >= 3 {
            let len = top - lo + 1;
            if len >= 2 {
                carriers_at(c, top, len, allow_rocket, Some(low), f);
            }
            top += 1;
        }
    }
}
