//! Dou Dizhu move generation speed: free leads of 20-card hands and follows.
//!
//! Run: `cargo bench --bench doudizhu_movegen`. Figures go to BENCHMARKS.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use gameai::doudizhu::{Cards, Play, Rules, for_each_lead, legal_follows_into, legal_leads_into};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

fn cards(s: &str) -> Cards {
    s.parse().expect("bench cards parse")
}

/// `n` landlord hands (20 cards) dealt from shuffled decks with a fixed seed.
fn random_hands(n: usize) -> Vec<Cards> {
    let mut rng = StdRng::seed_from_u64(20261129);
    let mut deck: Vec<char> = "33334444555566667777888899991111JJJJQQQQKKKKAAAA2222XD"
        .chars()
        .map(|c| if c == '1' { 'T' } else { c })
        .collect();
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            deck[..20]
                .iter()
                .collect::<String>()
                .parse()
                .expect("a deal parses")
        })
        .collect()
}

fn leads(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("ddz_lead_20");
    // Named hands: a typical landlord hand (the golden file's first line, 125 plays) and
    // two heavy ones (many airplanes; many fours with kickers).
    for (name, hand) in [
        ("typical", "445567788889TJQQQAA2"),
        ("airplanes", "3334445556667778889T"),
        ("bombs", "3333444455556666789X"),
    ] {
        let hand = cards(hand);
        let mut out: Vec<Play> = Vec::with_capacity(4096);
        group.bench_function(name, |b| {
            b.iter(|| {
                legal_leads_into(black_box(&hand), &rules, &mut out);
                out.len()
            })
        });
    }
    // The mean over 200 random deals: one iteration generates all 200 leads.
    let hands = random_hands(200);
    let mut out: Vec<Play> = Vec::with_capacity(4096);
    group.bench_function("random_200_deals", |b| {
        b.iter(|| {
            let mut total = 0;
            for hand in &hands {
                legal_leads_into(black_box(hand), &rules, &mut out);
                total += out.len();
            }
            total
        })
    });
    // The visitor API as a search would use it: count without storing.
    let hand = cards("445567788889TJQQQAA2");
    group.bench_function("typical_visitor_count", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for_each_lead(black_box(&hand), &rules, |_| n += 1);
            n
        })
    });
    group.finish();
}

fn follows(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("ddz_follow_20");
    for (name, hand, rival) in [
        ("single", "445567788889TJQQQAA2", "9"),
        ("trio_with_single", "445567788889TJQQQAA2", "3335"),
        ("airplane", "3334445556667778889T", "33344456"),
        ("four_with_two", "3333444455556666789X", "333345"),
    ] {
        let hand = cards(hand);
        let rival = Play::read(&cards(rival), None, &rules).expect("bench rival is a play");
        let mut out: Vec<Play> = Vec::with_capacity(4096);
        group.bench_function(name, |b| {
            b.iter(|| {
                legal_follows_into(black_box(&hand), &rival, &rules, &mut out);
                out.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, leads, follows);
criterion_main!(benches);
