//! Shanten throughput on 1,000,000 random 14-tile hands (fixed seed), ours side by side
//! with the `xiangting` crate, plus the cost of building our tables.
//!
//! Run: `cargo bench --bench mahjong_shanten`. Both sides compute the minimum over the
//! regular form, seven pairs (distinct pairs, as `xiangting` counts them) and thirteen
//! orphans, i.e. `shanten(hand, 0, Ruleset::Riichi)` vs `calculate_replacement_number`
//! (= shanten + 1). The hands are dealt from a shuffled 136-tile set.
//!
//! The two sides alternate in chunks of 100,000 hands inside every sample (each timing
//! only its own chunks), so that a shared, fluctuating machine loads both alike.

#[path = "../tests/common/random_hands.rs"]
mod random_hands;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gameai::mahjong::shanten::shanten;
use gameai::mahjong::{Ruleset, tables};

const HANDS: usize = 1_000_000;

/// Sum of shanten over `hands`, ours.
fn ours(hands: &[[u8; 34]]) -> i64 {
    hands
        .iter()
        .map(|h| shanten(black_box(h), 0, Ruleset::Riichi) as i64)
        .sum()
}

/// Sum of replacement numbers (shanten + 1) over `hands`, `xiangting`'s.
fn theirs(hands: &[[u8; 34]]) -> i64 {
    hands
        .iter()
        .map(|h| {
            xiangting::calculate_replacement_number(black_box(h), xiangting::PlayerCount::Four)
                .unwrap_or(0) as i64
        })
        .sum()
}

/// Hands per chunk when the two sides alternate (about 10 ms of work: long enough for
/// each side to have its tables in cache, short enough to share the load fairly).
const CHUNK: usize = 100_000;

/// Wall time of `timed` over all hands, `other` running (untimed) on each chunk right
/// after: both sides see the same machine load, chunk by chunk.
fn interleaved(
    hands: &[[u8; 34]],
    iters: u64,
    timed: fn(&[[u8; 34]]) -> i64,
    other: fn(&[[u8; 34]]) -> i64,
) -> Duration {
    let mut spent = Duration::ZERO;
    for _ in 0..iters {
        for chunk in hands.chunks(CHUNK) {
            let start = Instant::now();
            black_box(timed(chunk));
            spent += start.elapsed();
            black_box(other(chunk));
        }
    }
    spent
}

fn shanten_throughput(c: &mut Criterion) {
    let hands = random_hands::random_hands(HANDS);
    tables::init();
    // Both sides must agree before their speed means anything.
    for h in hands.iter().take(100_000) {
        let ours = shanten(h, 0, Ruleset::Riichi);
        let theirs = xiangting::calculate_replacement_number(h, xiangting::PlayerCount::Four)
            .expect("valid hand") as i8
            - 1;
        assert_eq!(ours, theirs, "{h:?}");
    }

    // The machine is shared (2 cores, often oversubscribed by parallel builds), so the
    // load swings between one benchmark and the next; the two sides therefore alternate
    // chunk by chunk inside every sample, each side timing only its own chunks.
    let mut group = c.benchmark_group("mahjong_shanten_1M_hands");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(12));
    group.bench_function("gameai", |b| {
        b.iter_custom(|iters| interleaved(&hands, iters, ours, theirs))
    });
    group.bench_function("xiangting", |b| {
        b.iter_custom(|iters| interleaved(&hands, iters, theirs, ours))
    });
    group.finish();
}

fn table_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("mahjong_tables");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("build", |b| b.iter(|| black_box(tables::Tables::build())));
    group.finish();
    let t = tables::Tables::build();
    println!("mahjong tables: {} bytes", t.bytes());
}

criterion_group!(benches, shanten_throughput, table_build);
criterion_main!(benches);
