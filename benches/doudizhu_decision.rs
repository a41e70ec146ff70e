//! Dou Dizhu decision speed: the heuristic policy's free lead for 20-card landlord hands
//! (goal p99 <= 1 ms), and SEARCH mode's time against its budget (goal: within budget +
//! 10 %).
//!
//! Run: `cargo bench --bench doudizhu_decision`. Besides criterion's estimates, the
//! bench prints the per-hand latency distribution of the heuristic lead (p50 / p99 /
//! max over 1,000 deals), the search's elapsed time over its budget, and the default
//! search (50 ms) on every state of recorded games (elapsed, worlds, exact and proven
//! shares by stage), because a p99 and a deadline overrun are properties of the
//! distribution, not of the mean. Figures go to BENCHMARKS.md ("Dou Dizhu decisions").

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gameai::doudizhu::search;
use gameai::doudizhu::state::{GameState, Observation, Seat};
use gameai::doudizhu::strategy::decide_play;
use gameai::doudizhu::{Cards, Rules};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// `n` opening states of the landlord (20 cards, empty history), fixed seed.
fn opening_states(n: usize) -> Vec<GameState> {
    let mut rng = StdRng::seed_from_u64(20261129);
    let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
    deck.push('X');
    deck.push('D');
    (0..n)
        .map(|_| {
            deck.shuffle(&mut rng);
            let hand: String = deck[..20].iter().collect();
            let bottom: String = deck[17..20].iter().collect();
            GameState::derive(&Observation {
                hand: hand.parse::<Cards>().expect("deal parses"),
                seat: Seat::Landlord,
                landlord_cards: bottom.parse().expect("bottom parses"),
                history: Vec::new(),
                rules: Rules::default(),
            })
            .expect("an opening is consistent")
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn heuristic_lead(c: &mut Criterion) {
    let states = opening_states(1000);
    let mut times: Vec<Duration> = states
        .iter()
        .map(|st| {
            let t = Instant::now();
            black_box(decide_play(black_box(st)));
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "heuristic lead, 20 cards, 1000 deals: p50 {:?}  p99 {:?}  max {:?}",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1]
    );
    let mut i = 0;
    c.bench_function("ddz_heuristic_lead_20", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            black_box(decide_play(black_box(&states[i])))
        })
    });
}

fn search_budget(c: &mut Criterion) {
    let states = opening_states(40);
    for budget_ms in [20u64, 100] {
        let budget = Duration::from_millis(budget_ms);
        let mut times: Vec<Duration> = states
            .iter()
            .map(|st| {
                let t = Instant::now();
                black_box(search::decide(st, t + budget));
                t.elapsed()
            })
            .collect();
        times.sort();
        let pct = |d: Duration| d.as_secs_f64() * 100.0 / budget.as_secs_f64();
        println!(
            "search, budget {budget_ms} ms, {} openings: p50 {:.1} %  p90 {:.1} %  max {:.1} % of budget",
            times.len(),
            pct(percentile(&times, 0.5)),
            pct(percentile(&times, 0.9)),
            pct(times[times.len() - 1])
        );
    }
    let mut group = c.benchmark_group("ddz_search");
    group.sample_size(10);
    let mut i = 0;
    group.bench_function("opening_budget_20ms", |b| {
        b.iter(|| {
            i = (i + 1) % states.len();
            let st = &states[i];
            black_box(search::decide(
                st,
                Instant::now() + Duration::from_millis(20),
            ))
        })
    });
    group.finish();
}

/// Every decision of the recorded games in `benches/data/doudizhu_arena_games.jsonl`
/// (every 5th game): the states a real game produces, opening to end.
fn recorded_states() -> Vec<GameState> {
    use std::io::BufRead;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/doudizhu_arena_games.jsonl"
    );
    let file = std::fs::File::open(path).expect("the recorded games are in benches/data");
    let mut out = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        if i % 5 != 0 {
            continue;
        }
        let g: serde_json::Value = serde_json::from_str(&line.expect("a line")).expect("json");
        let cards = |v: &serde_json::Value| -> Cards { v.as_str().unwrap().parse().unwrap() };
        let h = &g["hands"];
        let mut left = [
            cards(&h["landlord"]),
            cards(&h["landlord_down"]),
            cards(&h["landlord_up"]),
        ];
        let bottom = cards(&g["landlord_cards"]);
        let history: Vec<Cards> = g["history"].as_array().unwrap().iter().map(cards).collect();
        for k in 0..history.len() {
            let seat = Seat::from_index(k);
            out.push(
                GameState::derive(&Observation {
                    hand: left[seat.index()],
                    seat,
                    landlord_cards: bottom,
                    history: history[..k].to_vec(),
                    rules: Rules::default(),
                })
                .expect("a recorded game is consistent"),
            );
            left[seat.index()] = left[seat.index()].checked_sub(&history[k]).unwrap();
        }
    }
    out
}

/// The default search (50 ms) on every state of recorded games: elapsed time, worlds,
/// and how often the answer is exact or proven, by cards left in all hands.
fn default_search_on_recorded_games(_c: &mut Criterion) {
    let states = recorded_states();
    let budget = Duration::from_millis(50);
    let mut rows: Vec<(usize, Duration, search::SearchDecision)> = states
        .iter()
        .map(|st| {
            let t = Instant::now();
            let d = search::decide(st, t + budget);
            let left = st.cards_left.iter().map(|&n| usize::from(n)).sum();
            (left, t.elapsed(), d)
        })
        .collect();
    rows.sort_by_key(|r| r.1);
    let all: Vec<Duration> = rows.iter().map(|r| r.1).collect();
    println!(
        "default search (50 ms) on {} recorded states: elapsed p50 {:?}  p90 {:?}  p99 {:?}  max {:?}",
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.9),
        percentile(&all, 0.99),
        all[all.len() - 1]
    );
    for (lo, hi) in [(0, 20), (21, 34), (35, 54)] {
        let part: Vec<&(usize, Duration, search::SearchDecision)> =
            rows.iter().filter(|r| (lo..=hi).contains(&r.0)).collect();
        if part.is_empty() {
            continue;
        }
        let mut worlds: Vec<u32> = part.iter().map(|r| r.2.worlds).collect();
        worlds.sort_unstable();
        let times: Vec<Duration> = part.iter().map(|r| r.1).collect();
        let exact = part.iter().filter(|r| r.2.exact).count();
        let proven = part.iter().filter(|r| r.2.proven.is_some()).count();
        println!(
            "  {lo}-{hi} cards left: {} states, elapsed p50 {:?} max {:?}, worlds p50 {}, exact {:.0} %, proven {:.0} %",
            part.len(),
            percentile(&times, 0.5),
            times[times.len() - 1],
            worlds[worlds.len() / 2],
            100.0 * exact as f64 / part.len() as f64,
            100.0 * proven as f64 / part.len() as f64
        );
    }
}

/// The exact solver on random perfect-information positions (free lead of the landlord,
/// hands split about evenly), by cards in all hands: nodes and time per solve, and how
/// many hit a cap of 2,000,000 nodes.
fn exact_solver(_c: &mut Criterion) {
    use gameai::doudizhu::search::position::Position;
    use gameai::doudizhu::search::solver::Solver;
    use gameai::memory_budget::MemoryBudget;
    let mut rng = StdRng::seed_from_u64(20261201);
    let budget = MemoryBudget::leak(1 << 30);
    let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
    deck.push('X');
    deck.push('D');
    for total in [10usize, 14, 18, 22] {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        let mut capped = 0;
        for _ in 0..60 {
            deck.shuffle(&mut rng);
            let a = total.div_ceil(3);
            let b = (total - a) / 2;
            let mut at = 0;
            let mut hands = [Cards::EMPTY; 3];
            for (s, n) in [a, b, total - a - b].into_iter().enumerate() {
                let text: String = deck[at..at + n].iter().collect();
                hands[s] = text.parse().expect("deck cards parse");
                at += n;
            }
            let mut solver = Solver::new(Rules::default(), None, budget);
            let t = Instant::now();
            let r = solver.landlord_wins(
                &Position {
                    hands,
                    turn: 0,
                    last: None,
                },
                2_000_000,
            );
            times.push(t.elapsed());
            nodes.push(solver.nodes());
            capped += usize::from(r.is_err());
        }
        times.sort();
        nodes.sort_unstable();
        println!(
            "exact solver, {total} cards in all, 60 positions: nodes p50 {} p90 {} max {}, time p50 {:?} p90 {:?} max {:?}, capped {capped}",
            nodes[30],
            nodes[54],
            nodes[59],
            percentile(&times, 0.5),
            percentile(&times, 0.9),
            times[59]
        );
    }
}

criterion_group!(
    benches,
    heuristic_lead,
    search_budget,
    default_search_on_recorded_games,
    exact_solver
);
criterion_main!(benches);
