//! Criterion: SuggestMahjongDiscard's engine (every distinct discard's win and tenpai
//! probability, exact or simulated with its standard error, `strategy`'s tiers) on 0- to
//! 3-shanten hands with 12 and 17 draws left, and the two hands of Mortal's
//! single-player calculator benchmark (issue 6's anchor), at the service's default work
//! budget (1 s). Before timing a hand it prints the best candidate's figures to stderr.
//!
//! Run: `cargo bench --bench mahjong_probability`. Each iteration builds a fresh solver
//! (no state shared between iterations), as one request does.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gameai::mahjong::hand::Hand;
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::strategy::suggest_discard;

/// (label, 14-tile hand, visible tiles, shanten of the hand).
const HANDS: [(&str, &str, &str); 6] = [
    // 0-shanten: discarding 6s or 3s keeps tenpai.
    ("0-shanten 123456789m34677s", "123456789m34677s", ""),
    // 1-shanten, Mortal's benchmark hand.
    ("1-shanten 45677m456778p248s", "45677m456778p248s", ""),
    // 1-shanten, a random deal.
    ("1-shanten 2345m457p4455668s", "2345m457p4455668s", ""),
    // 2-shanten, Mortal's benchmark hand; 6m visible as the dora indicator.
    ("2-shanten 3667m23489p34688s", "3667m23489p34688s", "6m"),
    // 2-shanten, a random deal.
    ("2-shanten 277m88p1446788s45z", "277m88p1446788s45z", ""),
    // 3-shanten, a random deal.
    ("3-shanten 14m12469p256799s6z", "14m12469p256799s6z", ""),
];

/// The service's default work budget (`--default-budget-ms`).
const BUDGET: Duration = Duration::from_millis(1000);

fn discard(c: &mut Criterion) {
    let mut group = c.benchmark_group("mahjong_discard_exact");
    group.sample_size(10);
    for draws in [12u32, 17] {
        for (label, tiles, visible) in HANDS {
            let hand = Hand::parse(tiles, Vec::new(), visible, Ruleset::Riichi).unwrap();
            let deadline = || Some(Instant::now() + BUDGET);
            let advice = suggest_discard(&hand, Some(draws), deadline()).unwrap();
            let best = &advice.candidates[0];
            eprintln!(
                "{label} draws {draws}: discard {} win {:.4} ± {:.4} tenpai {:.4} ({:?}, {:?}; \
                 exact {}, {} states, {} paths)",
                best.tile,
                best.win_probability,
                best.win_stderr,
                best.tenpai_probability,
                best.method,
                best.continuation,
                advice.exact,
                advice.states,
                advice.paths
            );
            group.bench_function(format!("{label} draws {draws}"), |b| {
                b.iter(|| suggest_discard(black_box(&hand), Some(draws), deadline()).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, discard);
criterion_main!(benches);
