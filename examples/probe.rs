use std::time::Instant;
use gameai::mahjong::probability::eval::Eval;
use gameai::mahjong::probability::plan::{PlanConfig, Planner};
use gameai::mahjong::rules::Ruleset;
use rand::{Rng, SeedableRng};
use rand::rngs::StdRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let want: i8 = args[1].parse().unwrap();
    let draws: u32 = args[2].parse().unwrap();
    let ex: i8 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(-1);
    let raise = args.get(4).map(|s| s == "raise").unwrap_or(false);
    let rep = args.get(5).map(|s| s == "repeat").unwrap_or(false);
    let eval = Eval::new(0, Ruleset::Riichi, 7);
    let mut rng = StdRng::seed_from_u64(want as u64 * 1000 + draws as u64);
    let mut times = vec![];
    for _ in 0..args.get(6).map(|s| s.parse().unwrap()).unwrap_or(20) {
        let h = loop {
            let mut wall: Vec<usize> = (0..136).map(|i| i / 4).collect();
            let mut h = [0u8; 34];
            for _ in 0..14 { h[wall.swap_remove(rng.random_range(0..wall.len()))] += 1; }
            if eval.shanten(&h) == want { break h; }
        };
        let unseen: [u8; 34] = std::array::from_fn(|k| 4 - h[k]);
        let t0 = Instant::now();
        let cfg = PlanConfig { exchange_up_to: ex, down_up_to: if ex >= 0 && !args.get(5).map(|s| s == "restore").unwrap_or(false) { 0 } else { -1 }, repeat: rep, restore: args.get(5).map(|s| s == "restore").unwrap_or(false) };
        let mut plan = Planner::new(eval, cfg, &h, &unseen, draws, None).with_state_limit(300_000);
        let smin = (0..34).filter(|&j| h[j] > 0).map(|j| { let mut x = h; x[j] -= 1; eval.shanten(&x) }).min().unwrap();
        let mut ok = true;
        for d in 0..34 {
            if h[d] == 0 { continue; }
            let mut x = h; x[d] -= 1;
            let sd = eval.shanten(&x);
            if sd > smin && !raise { continue; }
            if plan.root(&h, d, sd == smin).is_err() { ok = false; break; }
        }
        times.push((t0.elapsed().as_secs_f64() * 1e3, plan.states(), ok));
    }
    times.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    let n = times.len();
    println!("shanten {want} draws {draws} ex {ex} raise {raise}: median {:.2} ms ({} states) p90 {:.2} max {:.2} ms ({} states) all ok {}", times[n/2].0, times[n/2].1, times[n*9/10].0, times[n-1].0, times[n-1].1, times.iter().all(|t| t.2));
}
