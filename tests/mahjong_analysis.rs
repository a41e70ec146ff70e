//! Mahjong analysis checks (issue 5): the RIICHI golden file, hands from public bug
//! reports, ruleset differences, ukeire against brute force, and properties (the table
//! merge against an independent recursive decomposition; the parser never panics).
//!
//! The heavier randomized checks are sized for a debug `cargo test`; the larger runs are
//! `#[cfg_attr(debug_assertions, ignore)]` and run with
//! `cargo test --release --test mahjong_analysis` (CI runs it).

use gameai::mahjong::caps::Caps;
use gameai::mahjong::shanten::{
    self, shanten_forms, shanten_regular, shanten_seven_pairs, shanten_thirteen_orphans,
};
use gameai::mahjong::ukeire::{discards, ukeire};
use gameai::mahjong::{Hand, Meld, MeldKind, Ruleset, Tile, TileCounts};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn counts(s: &str) -> [u8; 34] {
    s.parse::<TileCounts>().unwrap().0
}

/// Melds implied by a hand of `n` tiles given without melds (the golden file's form).
fn implied_melds(n: usize) -> u8 {
    (4 - n / 3) as u8
}

/// Shanten of a hand written in mpsz, melds implied by its size.
fn sh(s: &str, r: Ruleset) -> i8 {
    let c = counts(s);
    let n: usize = c.iter().map(|&x| x as usize).sum();
    shanten::shanten(&c, implied_melds(n), r)
}

// ---------------------------------------------------------------------------------------
// Golden file: PyPI `mahjong` 2.1.0 (tests/data/README.md).

#[derive(serde::Deserialize)]
struct OracleLine {
    hand: String,
    tiles: usize,
    regular: i8,
    chiitoitsu: Option<i8>,
    kokushi: Option<i8>,
    min: i8,
}

#[test]
fn golden_riichi_oracle_all_four_numbers() {
    let text = include_str!("data/shanten_riichi_oracle.jsonl");
    let mut lines = 0;
    for (no, line) in text.lines().enumerate() {
        let case: OracleLine = serde_json::from_str(line).unwrap();
        let c = counts(&case.hand);
        let n: usize = c.iter().map(|&x| x as usize).sum();
        assert_eq!(n, case.tiles, "line {}", no + 1);
        let forms = shanten_forms(
            &c,
            implied_melds(n),
            Ruleset::Riichi,
            shanten::ANY_SUIT,
            &Caps::NONE,
        );
        let got = (
            forms.regular,
            forms.seven_pairs,
            forms.thirteen_orphans,
            forms.min(),
        );
        let want = (case.regular, case.chiitoitsu, case.kokushi, case.min);
        assert_eq!(got, want, "line {}: {}", no + 1, case.hand);
        assert_eq!(sh(&case.hand, Ruleset::Riichi), case.min, "{}", case.hand);
        lines += 1;
    }
    assert_eq!(lines, 4793);
}

// ---------------------------------------------------------------------------------------
// Hands from public bug reports of other shanten calculators; expected values are the
// PyPI `mahjong` 2.1.0 package's (issue 5). Most hinge on a kind whose four copies are
// all in hand: it can be neither drawn nor used as a fifth tile.

#[test]
fn bug_report_hands_riichi() {
    let cases = [
        ("123456789m1111z", 1),
        ("123456789m1111p", 1),
        ("123m456p789s1111z", 1),
        ("1111m111122233z", 1),
        ("1112223334444z", 1),
        ("11122233334444z", 1),
        ("1111247777m1111z", 1),
        ("145s36m12579p256z", 5),
        ("12479s5p344569m5z", 3),
        ("245568m245568p77s", 2),
        ("5566m233799p4444z", 1),
        ("9999m6677p88s335z", 2),
        // One meld called (hands of 10 or 11 tiles).
        ("111124m1111z", 1),
        ("1111247777m", 1),
        ("1111444478m", 2),
        ("19m19p19s12345z", 6),
    ];
    for (hand, want) in cases {
        assert_eq!(sh(hand, Ruleset::Riichi), want, "{hand}");
    }
    // 5566m233799p4444z: seven pairs 1 (4444z is one pair under RIICHI), regular 2.
    let c = counts("5566m233799p4444z");
    assert_eq!(shanten_seven_pairs(&c, Ruleset::Riichi), Some(1));
    assert_eq!(shanten_regular(&c, 0), 2);
    // Thirteen orphans does not apply once a meld is called.
    let c = counts("19m19p19s12345z");
    assert_eq!(shanten_thirteen_orphans(&c), None);
    let forms = shanten_forms(&c, 1, Ruleset::Riichi, shanten::ANY_SUIT, &Caps::NONE);
    assert_eq!((forms.seven_pairs, forms.thirteen_orphans), (None, None));
}

#[test]
fn seven_pairs_with_quads_depends_on_ruleset() {
    // 1111m2233445566p: 1111m is two pairs under GENERAL and SICHUAN (complete), one
    // pair under RIICHI (six distinct pairs: 1-shanten, the 7th pair needs a new kind
    // from a single... there is none, so one draw for a single and one for its pair).
    let c = counts("1111m2233445566p");
    assert_eq!(shanten_seven_pairs(&c, Ruleset::General), Some(-1));
    assert_eq!(shanten_seven_pairs(&c, Ruleset::Sichuan), Some(-1));
    assert_eq!(shanten_seven_pairs(&c, Ruleset::Riichi), Some(1));
    assert!(shanten::is_winning(&c, 0, Ruleset::General));
    assert!(shanten::is_winning(&c, 0, Ruleset::Sichuan));
    assert!(!shanten::is_winning(&c, 0, Ruleset::Riichi));
    // Regular form: 111m 234p 234p 55p + 1m 66p: one exchange (draw 6p, discard 1m)
    // makes 111m 234p 234p 666p 55p, so 0 under every ruleset (RIICHI min = 0 too).
    assert_eq!(sh("1111m2233445566p", Ruleset::Riichi), 0);
}

#[test]
fn sichuan_needs_a_missing_suit() {
    // 123m 11m 222p 456p 789s: complete in GENERAL, but holds all three suits. Lacking
    // s keeps 11123m222456p (11 tiles, already 123m 11m 222p 456p): the 4th meld takes 3
    // draws -> shanten 2. Lacking m keeps 9 tiles, lacking p 8: at least 5 draws.
    assert_eq!(sh("123m11m222456p789s", Ruleset::General), -1);
    assert_eq!(sh("123m11m222456p789s", Ruleset::Sichuan), 2);
    // Two suits only: complete under SICHUAN too.
    assert_eq!(sh("123456789m11p456p", Ruleset::Sichuan), -1);
    // Seven pairs in three suits: lacking s (one pair, 99s) leaves 6 pairs of m/p;
    // the 7th pair needs two draws of a new m/p kind -> shanten 1.
    let c = counts("1122m3344p5566m99s");
    assert_eq!(shanten_seven_pairs(&c, Ruleset::General), Some(-1));
    assert_eq!(shanten_seven_pairs(&c, Ruleset::Sichuan), Some(1));
    // 123m 456p 789s 123s 1m: tenpai on 1m under GENERAL. Lacking p keeps 1123m 123789s
    // (10 tiles): +1m completes 11m 123m, the 4th meld takes 3 -> 4 draws, shanten 3.
    assert_eq!(sh("123m456p789s123s1m", Ruleset::General), 0);
    assert_eq!(sh("123m456p789s123s1m", Ruleset::Sichuan), 3);
    // Called melds fix the suits they are in. 11m 456p 123789s + pon 222m: lacking m
    // would need only a pair (2 draws, shanten 1), but m holds a meld. Lacking p keeps
    // 11m 123s 789s: one meld short, 3 draws -> shanten 2.
    let h = Hand::parse(
        "11m456p123789s",
        vec![Meld::parse(MeldKind::Pon, "222m").unwrap()],
        "",
        Ruleset::Sichuan,
    )
    .unwrap();
    assert_eq!(h.lackable(), 0b110);
    assert_eq!(h.shanten_forms().regular, 2);
    assert_eq!(
        shanten::shanten_regular_lacking(&h.concealed().0, 1, shanten::ANY_SUIT),
        1
    );
}

// ---------------------------------------------------------------------------------------
// An independent slow reference for the regular form: a recursive decomposition of the
// whole hand (not split into parts, no tables). It counts the fewest tiles to add so
// that the hand's tiles plus the added ones contain `melds` melds and a pair with at
// most `cap[k]` copies of kind `k` (4, or fewer when the player's melds hold copies);
// surplus tiles are dropped for free.

struct Reference {
    allowed: [bool; 34],
    cap: [u8; 34],
    best: u8,
}

impl Reference {
    /// Fewest additions. `hand`: tiles not yet placed; `target`: tiles of the winning
    /// shape so far; `cost` so far.
    fn search(
        &mut self,
        hand: &mut [u8; 34],
        target: &mut [u8; 34],
        melds: u8,
        pair: u8,
        cost: u8,
    ) {
        if cost >= self.best {
            return;
        }
        let Some(i) = (0..34).find(|&i| hand[i] > 0) else {
            // The rest comes from fresh kinds (always available: at most 14 tiles are
            // in the target, so some allowed kind is untouched for each group).
            self.best = self.best.min(cost + 3 * melds + 2 * pair);
            return;
        };
        if self.allowed[i] {
            self.place_groups(i, hand, target, melds, pair, cost);
        }
        // Or drop one copy of i (a discard).
        hand[i] -= 1;
        self.search(hand, target, melds, pair, cost);
        hand[i] += 1;
    }

    /// Every group (meld or pair) containing one copy of tile `i`, then the rest.
    fn place_groups(
        &mut self,
        i: usize,
        hand: &mut [u8; 34],
        target: &mut [u8; 34],
        melds: u8,
        pair: u8,
        cost: u8,
    ) {
        // A group using tile i: its members j take a hand copy if any, else one is added.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        if melds > 0 {
            groups.push(vec![i, i, i]);
            if i < 27 {
                let r = i % 9;
                for start in r.saturating_sub(2)..=r {
                    if start + 2 <= 8 {
                        let base = i - r + start;
                        groups.push(vec![base, base + 1, base + 2]);
                    }
                }
            }
        }
        if pair > 0 {
            groups.push(vec![i, i]);
        }
        for g in groups {
            if g.iter().any(|&j| !self.allowed[j]) {
                continue;
            }
            let mut ok = true;
            let mut added = 0;
            let mut used = Vec::new();
            for &j in &g {
                target[j] += 1;
                if target[j] > self.cap[j] {
                    ok = false;
                }
                if hand[j] > 0 {
                    hand[j] -= 1;
                    used.push(j);
                } else {
                    added += 1;
                }
            }
            if ok {
                let (m, p) = if g.len() == 3 {
                    (melds - 1, pair)
                } else {
                    (melds, pair - 1)
                };
                self.search(hand, target, m, p, cost + added);
            }
            for &j in &used {
                hand[j] += 1;
            }
            for &j in &g {
                target[j] -= 1;
            }
        }
    }
}

/// Reference regular shanten; `allowed` kinds may be used in groups.
fn reference_regular(hand: &[u8; 34], melds_called: u8, allowed: [bool; 34]) -> i8 {
    reference_regular_capped(hand, melds_called, allowed, [4; 34])
}

/// [`reference_regular`] with kind `k` used at most `cap[k]` times.
fn reference_regular_capped(
    hand: &[u8; 34],
    melds_called: u8,
    allowed: [bool; 34],
    cap: [u8; 34],
) -> i8 {
    let mut r = Reference {
        allowed,
        cap,
        best: u8::MAX,
    };
    r.search(&mut hand.clone(), &mut [0; 34], 4 - melds_called, 1, 0);
    r.best as i8 - 1
}

fn random_hand(rng: &mut impl Rng, n: usize) -> [u8; 34] {
    let mut wall: Vec<u8> = (0..136).map(|i| (i / 4) as u8).collect();
    let mut c = [0u8; 34];
    for k in 0..n {
        let j = rng.random_range(k..136);
        wall.swap(k, j);
        c[wall[k] as usize] += 1;
    }
    c
}

/// Random hands concentrated on few kinds, where the reference's edge cases live.
fn random_dense_hand(rng: &mut impl Rng, n: usize) -> [u8; 34] {
    let kinds: Vec<usize> = (0..rng.random_range(3..10))
        .map(|_| rng.random_range(0..34))
        .collect();
    let mut c = [0u8; 34];
    let mut placed = 0;
    while placed < n {
        let k = kinds[rng.random_range(0..kinds.len())];
        if c[k] < 4 {
            c[k] += 1;
            placed += 1;
        } else if kinds.iter().all(|&k| c[k] == 4) {
            let k = rng.random_range(0..34);
            if c[k] < 4 {
                c[k] += 1;
                placed += 1;
            }
        }
    }
    c
}

fn check_against_reference(cases: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let sizes = [1, 2, 4, 5, 7, 8, 10, 11, 13, 14];
    for k in 0..cases {
        let n = sizes[k % sizes.len()];
        let hand = if k % 2 == 0 {
            random_hand(&mut rng, n)
        } else {
            random_dense_hand(&mut rng, n)
        };
        let melds = implied_melds(n);
        let want = reference_regular(&hand, melds, [true; 34]);
        assert_eq!(shanten_regular(&hand, melds), want, "{}", TileCounts(hand));
        // SICHUAN regular: reference with the lacked suit (and honours) barred.
        let mut best = i8::MAX;
        for lack in 0..3 {
            let allowed: [bool; 34] = std::array::from_fn(|i| i < 27 && i / 9 != lack);
            best = best.min(reference_regular(&hand, melds, allowed));
        }
        assert_eq!(
            shanten::shanten_regular_lacking(&hand, melds, shanten::ANY_SUIT),
            best,
            "SICHUAN {}",
            TileCounts(hand)
        );
    }
}

/// Issue 11: copies in the player's listed melds count against the four copies of a
/// kind in shanten. Random hands with random listed melds (pons, kans, chis sharing the
/// hand's kinds), every ruleset: `Hand::shanten_forms` equals the reference with each
/// kind capped at 4 minus its copies in the melds.
#[test]
fn listed_meld_copies_cap_shanten_like_the_reference() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut differs = 0;
    for case in 0..300 {
        let ruleset = Ruleset::ALL[case % 3];
        let kinds = if ruleset.has_honours() { 34 } else { 27 };
        let n_melds = rng.random_range(1..=4usize);
        let mut held = [0u8; 34];
        let mut melds = Vec::new();
        while melds.len() < n_melds {
            let k = rng.random_range(0..kinds);
            let kind = match rng.random_range(0..4) {
                0 if k < 27 && k % 9 <= 6 && ruleset.allows_chi() => MeldKind::Chi,
                1 => MeldKind::ClosedKan,
                2 => MeldKind::OpenKan,
                _ => MeldKind::Pon,
            };
            let meld = if kind == MeldKind::Chi {
                Meld::chi(Tile(k as u8)).unwrap()
            } else {
                Meld::of_kind(kind, Tile(k as u8)).unwrap()
            };
            let tiles = meld.tiles().0;
            if (0..34).all(|i| held[i] + tiles[i] <= 4) {
                for i in 0..34 {
                    held[i] += tiles[i];
                }
                melds.push(meld);
            }
        }
        // Concealed tiles near the meld kinds, where the caps bite.
        let size = 3 * (4 - n_melds) + rng.random_range(1..=2);
        let mut hand = [0u8; 34];
        let mut placed = 0;
        while placed < size {
            let near: Vec<usize> = (0..kinds).filter(|&i| held[i] > 0).collect();
            let k = if rng.random_bool(0.6) {
                let b = near[rng.random_range(0..near.len())] as i32 + rng.random_range(-2..=2);
                if b < 0 || b >= kinds as i32 {
                    continue;
                }
                b as usize
            } else {
                rng.random_range(0..kinds)
            };
            if hand[k] + held[k] < 4 {
                hand[k] += 1;
                placed += 1;
            }
        }
        let Ok(h) = Hand::new(TileCounts(hand), melds.clone(), TileCounts::EMPTY, ruleset) else {
            // SICHUAN melds in all three suits leave no suit to lack: not a legal hand.
            continue;
        };
        let cap: [u8; 34] = std::array::from_fn(|i| 4 - held[i]);
        let want = if ruleset.requires_missing_suit() {
            (0..3)
                .filter(|&lack| h.lackable() & (1 << lack) != 0)
                .map(|lack| {
                    let allowed: [bool; 34] = std::array::from_fn(|i| i < 27 && i / 9 != lack);
                    reference_regular_capped(&hand, n_melds as u8, allowed, cap)
                })
                .min()
                .unwrap()
        } else {
            reference_regular_capped(&hand, n_melds as u8, [true; 34], cap)
        };
        let what = format!("{} melds {melds:?} {ruleset:?}", TileCounts(hand));
        assert_eq!(h.shanten_forms().regular, want, "{what}");
        differs += (want != h_uncapped(&h)) as usize;
    }
    // The caps matter in a good share of these cases.
    assert!(
        differs >= 10,
        "only {differs} cases where the caps change shanten"
    );
}

/// Shanten of the same concealed tiles with the meld tiles unknown (no caps).
fn h_uncapped(h: &Hand) -> i8 {
    shanten_forms(
        &h.concealed().0,
        h.called(),
        h.ruleset(),
        h.lackable(),
        &Caps::NONE,
    )
    .regular
}

#[test]
fn dead_waits_hand_worked() {
    // 123456789m 2222p: the 2p single could only pair with a fifth 2p, so the hand is
    // 1-shanten (the PyPI `mahjong` package agrees: tests/data/README.md).
    assert_eq!(sh("123456789m2222p", Ruleset::Riichi), 1);
    // 13m 456p 789s 11z + kan 2222m: 13m waits on 2m, whose four copies are in the kan,
    // so this is 1-shanten too, not tenpai.
    let kan = Meld::parse(MeldKind::ClosedKan, "2222m").unwrap();
    let h = Hand::parse("13m456p789s11z", vec![kan], "", Ruleset::General).unwrap();
    assert_eq!(h.shanten_forms().regular, 1);
    let (s, u) = ukeire(
        &h.concealed().0,
        1,
        Ruleset::General,
        shanten::ANY_SUIT,
        &h.caps(),
        &h.unseen(),
    );
    assert_eq!(s, 1);
    assert!(u.tiles.iter().all(|&(t, _)| t != "2m".parse().unwrap()));
    // The same tiles with the kan not listed (an implied meld): tenpai on 2m.
    assert_eq!(sh("13m456p789s11z", Ruleset::General), 0);
    // 45z + pons 111z 444z 555z 777z: 4z and 5z both dead, so either discard leaves a
    // dead single: 1-shanten.
    let pons: Vec<Meld> = ["111z", "444z", "555z", "777z"]
        .iter()
        .map(|t| Meld::parse(MeldKind::Pon, t).unwrap())
        .collect();
    let h = Hand::parse("5z", pons, "", Ruleset::General).unwrap();
    assert_eq!(h.shanten_forms().regular, 1);
}

#[test]
fn table_merge_equals_reference_decomposition() {
    check_against_reference(100, 1);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn table_merge_equals_reference_decomposition_release() {
    check_against_reference(5_000, 2);
}

#[test]
fn reference_agrees_with_hand_worked_cases() {
    // The reference itself, against the bug-report hands' regular shanten (2.1.0).
    assert_eq!(
        reference_regular(&counts("1112223334444z"), 0, [true; 34]),
        1
    );
    assert_eq!(
        reference_regular(&counts("5566m233799p4444z"), 0, [true; 34]),
        2
    );
    assert_eq!(reference_regular(&counts("1111444478m"), 1, [true; 34]), 2);
    assert_eq!(
        reference_regular(&counts("123m456p789s11z"), 1, [true; 34]),
        -1
    );
    assert_eq!(
        reference_regular(&counts("123m456p789s1z"), 1, [true; 34]),
        0
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_merge_equals_reference(seed in any::<u64>(), size in 0usize..10) {
        let n = [1, 2, 4, 5, 7, 8, 10, 11, 13, 14][size];
        let mut rng = StdRng::seed_from_u64(seed);
        let hand = random_hand(&mut rng, n);
        let melds = implied_melds(n);
        prop_assert_eq!(shanten_regular(&hand, melds), reference_regular(&hand, melds, [true; 34]));
    }

    #[test]
    fn prop_parser_never_panics(s in "\\PC*", t in "[0-9mpsz]{0,20}") {
        let _ = s.parse::<TileCounts>();
        let _ = s.parse::<Tile>();
        for kind in [MeldKind::Chi, MeldKind::Pon, MeldKind::OpenKan, MeldKind::ClosedKan, MeldKind::AddedKan] {
            let _ = Meld::parse(kind, &s);
            let _ = Meld::parse(kind, &t);
        }
        for ruleset in Ruleset::ALL {
            // Whatever validates can be analysed without a panic.
            for (hand, visible) in [(&s, &t), (&t, &s), (&t, &t)] {
                if let Ok(h) = Hand::parse(hand, Vec::new(), visible, ruleset) {
                    let _ = h.shanten_forms();
                    let _ = h.is_winning();
                }
            }
        }
    }

    #[test]
    fn prop_parser_never_panics_on_mpsz_like(s in "[0-9mpszx \\n]{0,64}") {
        if let Ok(c) = s.parse::<TileCounts>() {
            // Whatever parses round-trips through the canonical form.
            prop_assert_eq!(c.to_string().parse::<TileCounts>().unwrap(), c);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Ukeire.

fn unseen_of(hand: &[u8; 34]) -> [u8; 34] {
    std::array::from_fn(|i| 4 - hand[i])
}

fn check_ukeire_brute_force(cases: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for k in 0..cases {
        let n = [1, 4, 7, 10, 13][k % 5];
        let hand = if k % 3 == 0 {
            random_dense_hand(&mut rng, n)
        } else {
            random_hand(&mut rng, n)
        };
        let melds = implied_melds(n);
        let ruleset = Ruleset::ALL[k % 3];
        let hand = if ruleset == Ruleset::Sichuan {
            // No honours under SICHUAN: move them to the matching numbered tile.
            let mut h = hand;
            for z in 27..34 {
                while h[z] > 0 {
                    h[z] -= 1;
                    let t = (z - 27) * 3 % 27;
                    let t = (t..t + 27).map(|x| x % 27).find(|&x| h[x] < 4).unwrap();
                    h[t] += 1;
                }
            }
            h
        } else {
            hand
        };
        // Some copies also visible elsewhere.
        let mut unseen = unseen_of(&hand);
        for _ in 0..rng.random_range(0..20) {
            let t = rng.random_range(0..34);
            unseen[t] = unseen[t].saturating_sub(1);
        }
        if ruleset == Ruleset::Sichuan {
            unseen[27..].fill(0);
        }
        let (base, got) = ukeire(
            &hand,
            melds,
            ruleset,
            shanten::ANY_SUIT,
            &Caps::NONE,
            &unseen,
        );
        assert_eq!(base, shanten::shanten(&hand, melds, ruleset));
        let mut want = Vec::new();
        for x in 0..34 {
            if unseen[x] > 0 && hand[x] < 4 {
                let mut h = hand;
                h[x] += 1;
                if shanten::shanten(&h, melds, ruleset) < base {
                    want.push((Tile(x as u8), unseen[x]));
                }
            }
        }
        let total: u32 = want.iter().map(|&(_, c)| c as u32).sum();
        assert_eq!(got.tiles, want, "{} {ruleset}", TileCounts(hand));
        assert_eq!(got.total, total);
    }
}

#[test]
fn ukeire_matches_brute_force() {
    check_ukeire_brute_force(3_000, 3);
}

#[test]
fn four_copies_in_hand_are_never_a_wait() {
    // 123m456p789s1111z: tenpai-looking (1z pair wait) but all four 1z are in hand, so
    // 1z is not a draw; 1-shanten, and its ukeire holds no 1z.
    let c = counts("123m456p789s1111z");
    let (s, u) = ukeire(
        &c,
        0,
        Ruleset::Riichi,
        shanten::ANY_SUIT,
        &Caps::NONE,
        &unseen_of(&c),
    );
    assert_eq!(s, 1);
    assert!(u.tiles.iter().all(|&(t, _)| t != Tile(27)));
    assert!(!u.tiles.is_empty());
    // Tenpai 123m456p789s111z2z waits on 2z, 3 unseen.
    let c = counts("123m456p789s1112z");
    let (s, u) = ukeire(
        &c,
        0,
        Ruleset::Riichi,
        shanten::ANY_SUIT,
        &Caps::NONE,
        &unseen_of(&c),
    );
    assert_eq!((s, u.tiles.clone(), u.total), (0, vec![(Tile(28), 3)], 3));
}

#[test]
fn discards_are_sorted_best_first() {
    // 123m456p789s1112z + 5m: discarding 5m keeps tenpai on 2z (3 copies).
    let c = counts("123m5m456p789s1112z");
    let d = discards(
        &c,
        0,
        Ruleset::General,
        shanten::ANY_SUIT,
        &Caps::NONE,
        &unseen_of(&c),
    );
    assert_eq!(d.len(), 12);
    assert_eq!(d[0].shanten, 0);
    // Discarding 5m (waits 2z, 3) or 2z (waits 4m 5m 6m? no: 5m single-wait 5m, 3 left).
    assert!(
        d.windows(2)
            .all(|w| (w[0].shanten, std::cmp::Reverse(w[0].ukeire.total))
                <= (w[1].shanten, std::cmp::Reverse(w[1].ukeire.total)))
    );
    let tenpai: Vec<String> = d
        .iter()
        .filter(|x| x.shanten == 0)
        .map(|x| x.discard.to_string())
        .collect();
    assert_eq!(tenpai, vec!["5m", "2z"]);
}
