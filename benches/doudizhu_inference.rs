//! Does the search's inference model put the unseen cards where they really are?
//!
//! Replays recorded arena games (`benches/data/doudizhu_arena_games.jsonl`, see
//! `benches/data/README.md`): at every decision of "our" seats where some opponent pass is
//! evidence, it draws worlds with the uniform model and with inference models, and
//! counts the share of the freely dealt unseen cards each world gives to the seat that
//! really holds them. Prints, per model, the mean share and its paired difference from
//! the uniform model with a standard error.
//!
//! Run: `cargo bench --bench doudizhu_inference` (a few seconds; figures go to
//! BENCHMARKS.md, "Dou Dizhu inference").

use std::io::BufRead;

use gameai::doudizhu::search::worlds::{Inference, Worlds};
use gameai::doudizhu::state::{GameState, Observation, Seat};
use gameai::doudizhu::{Cards, Rules};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Deserialize;

#[derive(Deserialize)]
struct Game {
    ours: String,
    hands: Hands,
    landlord_cards: String,
    history: Vec<String>,
}

#[derive(Deserialize)]
struct Hands {
    landlord: String,
    landlord_down: String,
    landlord_up: String,
}

/// Worlds drawn per decision and model.
const WORLDS: usize = 100;

fn cards(s: &str) -> Cards {
    s.parse().expect("recorded cards parse")
}

/// Share of the free unseen cards a world deals to the seat that really holds them.
fn accuracy(world: &[Cards; 3], truth: &[Cards; 3], me: usize, forced: usize) -> f64 {
    let mut right = 0usize;
    let mut hidden = 0usize;
    for s in (0..3).filter(|&s| s != me) {
        hidden += truth[s].len();
        for (a, b) in world[s].counts().iter().zip(truth[s].counts()) {
            right += usize::from(*a.min(b));
        }
    }
    let free = hidden - forced;
    if free == 0 {
        return 1.0;
    }
    (right - forced) as f64 / free as f64
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/doudizhu_arena_games.jsonl"
    );
    let file = std::fs::File::open(path).expect("the recorded games are in benches/data");
    let games: Vec<Game> = std::io::BufReader::new(file)
        .lines()
        .map(|l| serde_json::from_str(&l.expect("a line")).expect("a game record"))
        .collect();
    let mut models: Vec<(String, Inference)> = vec![("default".into(), Inference::DEFAULT)];
    for draws in [8, 32, 128] {
        for (cheap, costly) in [
            (0.002, 0.02),
            (0.01, 0.1),
            (0.05, 0.3),
            (0.15, 0.6),
            (0.5, 0.9),
        ] {
            models.push((
                format!("cheap {cheap:.2} costly {costly:.2} draws {draws}"),
                Inference {
                    cheap,
                    costly,
                    draws,
                },
            ));
        }
    }
    let mut sums = vec![0.0f64; models.len()];
    let mut diffs: Vec<Vec<f64>> = vec![Vec::new(); models.len()];
    let mut uniform_sum = 0.0;
    let mut sample_time = vec![std::time::Duration::ZERO; models.len()];
    let mut points = 0usize;
    let mut rng = SmallRng::seed_from_u64(20261130);
    for g in &games {
        let dealt = [
            cards(&g.hands.landlord),
            cards(&g.hands.landlord_down),
            cards(&g.hands.landlord_up),
        ];
        let mut left = dealt;
        let bottom = cards(&g.landlord_cards);
        let history: Vec<Cards> = g.history.iter().map(|h| cards(h)).collect();
        for i in 0..history.len() {
            let seat = Seat::from_index(i);
            let ours = (g.ours == "landlord") == (seat == Seat::Landlord);
            if ours {
                let obs = Observation {
                    hand: left[seat.index()],
                    seat,
                    landlord_cards: bottom,
                    history: history[..i].to_vec(),
                    rules: Rules::default(),
                };
                let st = GameState::derive(&obs).expect("a recorded game is consistent");
                let forced = if seat == Seat::Landlord {
                    0
                } else {
                    st.landlord_known.len()
                };
                let uniform = Worlds::new(&st, Inference::UNIFORM);
                let probe = Worlds::new(&st, Inference::DEFAULT);
                if probe.is_weighted() {
                    points += 1;
                    let mean = |w: &Worlds, rng: &mut SmallRng| {
                        (0..WORLDS)
                            .map(|_| accuracy(&w.sample(rng), &left, seat.index(), forced))
                            .sum::<f64>()
                            / WORLDS as f64
                    };
                    let u = mean(&uniform, &mut rng);
                    uniform_sum += u;
                    for (k, (_, m)) in models.iter().enumerate() {
                        let t = std::time::Instant::now();
                        let a = mean(&Worlds::new(&st, *m), &mut rng);
                        sample_time[k] += t.elapsed();
                        sums[k] += a;
                        diffs[k].push(a - u);
                    }
                }
            }
            let s = seat.index();
            left[s] = left[s]
                .checked_sub(&history[i])
                .expect("played cards were held");
        }
    }
    println!(
        "{} games, {points} decisions with evidence, {WORLDS} worlds per decision and model",
        games.len()
    );
    println!(
        "uniform: share of free unseen cards placed right {:.4}",
        uniform_sum / points as f64
    );
    for (k, (name, _)) in models.iter().enumerate() {
        let d = &diffs[k];
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (d.len() - 1) as f64;
        println!(
            "{name:<34} {:.4}  vs uniform {:+.4} ± {:.4}  ({:.1} µs per world)",
            sums[k] / points as f64,
            mean,
            (var / d.len() as f64).sqrt(),
            sample_time[k].as_secs_f64() * 1e6 / (points * WORLDS) as f64
        );
    }
}
