//! Shanten throughput on 1,000,000 random 14-tile hands (fixed seed), ours side by side
//! with the `xiangting` crate, plus the cost of building our tables.
//!
//! Run: `cargo bench --bench mahjong_shanten`. Both sides compute the minimum over the
//! regular form, seven pairs (distinct pairs, as `xiangting` counts them) and thirteen
//! orphans, i.e. `shanten(hand, 0, Ruleset::Riichi)` vs `calculate_replacement_number`
//! (= shanten + 1). The hands are dealt from a shuffled 136-tile set.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gameai::mahjong::shanten::shanten;
use gameai::mahjong::{Ruleset, tables};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const HANDS: usize = 1_000_000;

fn hands() -> Vec<[u8; 34]> {
    let mut rng = StdRng::seed_from_u64(20_261_129);
    let mut wall: Vec<u8> = (0..136).map(|i| (i / 4) as u8).collect();
    (0..HANDS)
        .map(|_| {
            let mut c = [0u8; 34];
            for k in 0..14 {
                let j = rng.random_range(k..136);
                wall.swap(k, j);
                c[wall[k] as usize] += 1;
            }
            c
        })
        .collect()
}

fn shanten_throughput(c: &mut Criterion) {
    let hands = hands();
    tables::init();
    // Both sides must agree before their speed means anything.
    for h in hands.iter().take(100_000) {
        let ours = shanten(h, 0, Ruleset::Riichi);
        let theirs = xiangting::calculate_replacement_number(h, xiangting::PlayerCount::Four)
            .expect("valid hand") as i8
            - 1;
        assert_eq!(ours, theirs, "{h:?}");
    }

    let mut group = c.benchmark_group("mahjong_shanten_1M_hands");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("gameai", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for h in &hands {
                sum += shanten(black_box(h), 0, Ruleset::Riichi) as i64;
            }
            sum
        })
    });
    group.bench_function("xiangting", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for h in &hands {
                sum += xiangting::calculate_replacement_number(
                    black_box(h),
                    xiangting::PlayerCount::Four,
                )
                .unwrap_or(0) as i64;
            }
            sum
        })
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
