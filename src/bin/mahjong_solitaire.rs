//! Experimental solitaire harness.
use std::time::Instant;

use gameai::mahjong::caps::Caps;
use gameai::mahjong::hand::Hand;
use gameai::mahjong::probability::eval::Eval;
use gameai::mahjong::probability::plan::{PlanConfig, Planner};
use gameai::mahjong::probability::simulate::{Estimate, Simulator};
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::tile::TileCounts;
use gameai::mahjong::ukeire;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}
unsafe extern "C" {
    fn clock_gettime(clk: i32, ts: *mut Timespec) -> i32;
}
fn cpu_ns() -> u64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    unsafe { clock_gettime(3, &mut ts) };
    ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
}

fn wall(seed: u64) -> Vec<usize> {
    let mut w: Vec<usize> = (0..136).map(|i| i / 4).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    w.shuffle(&mut rng);
    w
}

fn baseline(h: &[u8; 34], unseen: &[u8; 34]) -> usize {
    let ds = ukeire::discards(h, 0, Ruleset::Riichi, 7, &Caps::NONE, unseen);
    ds[0].discard.index()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let from: u64 = args[1].parse().unwrap();
    let games: u64 = args[2].parse().unwrap();
    let policy = args[3].clone();
    let far: i8 = args.get(4).map(|s| s.parse().unwrap()).unwrap_or(4);
    let sims: u32 = args.get(5).map(|s| s.parse().unwrap()).unwrap_or(0);
    let eval = Eval::new(0, Ruleset::Riichi, 7);
    let mut wins = 0;
    let mut times = Vec::new();
    let mut states = Vec::new();
    let mut cal = Vec::new();
    let mut outcomes = String::new();
    let mut log = String::new();
    for seed in from..from + games {
        let w = wall(seed);
        let mut h = [0u8; 34];
        for &k in &w[..13] {
            h[k] += 1;
        }
        let mut visible = [0u8; 34];
        let mut won = false;
        let mut first: Option<(f64, f64, f64)> = None;
        for d in 0..17 {
            let k = w[13 + d];
            h[k] += 1;
            let hand =
                Hand::new(TileCounts(h), vec![], TileCounts(visible), Ruleset::Riichi).unwrap();
            if hand.is_winning() {
                won = true;
                break;
            }
            let left = 16 - d as u32;
            let unseen = hand.unseen();
            let t0 = Instant::now();
            let c0 = cpu_ns();
            let mut ctr = [0u64; 3];
            let mut nst = 0;
            let smin = (0..34)
                .filter(|&j| h[j] > 0)
                .map(|j| {
                    let mut x = h;
                    x[j] -= 1;
                    eval.shanten(&x)
                })
                .min()
                .unwrap();
            let j = if policy == "baseline" || smin >= far || left == 0 {
                baseline(&h, &unseen)
            } else {
                let keep_only = policy.ends_with("keep");
                let config = if policy.starts_with("aot") {
                    PlanConfig::ADVANCE_OR_THROW
                } else {
                    let p: Vec<i8> = policy
                        .split(':')
                        .skip(1)
                        .map(|x| x.parse().unwrap())
                        .collect();
                    PlanConfig {
                        exchange_up_to: p[0],
                        down_up_to: p[1],
                    }
                };
                let mut plan = Planner::new(eval, config, &h, &unseen, left, None);
                let mut best: Option<(f64, f64, i8, usize, u32)> = None;
                for dd in 0..34 {
                    if h[dd] == 0 {
                        continue;
                    }
                    let mut h13 = h;
                    h13[dd] -= 1;
                    let sd = eval.shanten(&h13);
                    if keep_only && sd > smin {
                        continue;
                    }
                    let root = plan.root(&h, dd, sd == smin).unwrap().unwrap();
                    let o = plan.odds(root);
                    let b = match best {
                        None => true,
                        Some((bw, bt, bs, _, _)) => {
                            o.win > bw + 1e-12
                                || ((o.win - bw).abs() <= 1e-12
                                    && (o.tenpai > bt + 1e-12
                                        || ((o.tenpai - bt).abs() <= 1e-12 && sd < bs)))
                        }
                    };
                    if b {
                        best = Some((o.win, o.tenpai, sd, dd, root));
                    }
                }
                let (bw, _, _, dd, root) = best.unwrap();
                if first.is_none() {
                    let mut est = Estimate::default();
                    if sims > 0 {
                        let mut pool = unseen;
                        let _ = &mut pool;
                        let mut sim = Simulator::new(&plan, root, &unseen);
                        let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
                        sim.run(sims, &mut est, &mut rng);
                    }
                    first = Some((bw, est.win.probability(), est.win.stderr()));
                }
                states.push(plan.states());
                nst = plan.states();
                dd
            };
            let _ = t0;
            times.push((cpu_ns() - c0) as f64 / 1e6);
            log.push_str(&format!(
                "{smin} {left} {:.3} {} {} {} {}\n",
                times.last().unwrap(),
                nst,
                ctr[0],
                ctr[1],
                ctr[2]
            ));
            h[j] -= 1;
            visible[j] += 1;
        }
        wins += won as u32;
        outcomes.push(if won { '1' } else { '0' });
        if let Some(f) = first {
            cal.push((f, won));
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = times.len();
    println!(
        "{policy} far {far}: {wins}/{games} = {:.4}; decisions {n}, median {:.2} ms p90 {:.2} p99 {:.2} max {:.2}; states max {}",
        wins as f64 / games as f64,
        times[n / 2],
        times[n * 9 / 10],
        times[n * 99 / 100],
        times[n - 1],
        states.iter().max().unwrap_or(&0)
    );
    if !cal.is_empty() {
        let m = cal.len() as f64;
        let mv: f64 = cal.iter().map(|x| x.0.0).sum::<f64>() / m;
        let ms: f64 = cal.iter().map(|x| x.0.1).sum::<f64>() / m;
        let mse: f64 = cal.iter().map(|x| x.0.2).sum::<f64>() / m;
        let real: f64 = cal.iter().filter(|x| x.1).count() as f64 / m;
        println!(
            "first decisions {m}: plan value {mv:.4}, simulated {ms:.4} (mean se {mse:.4}), realised {real:.4}"
        );
    }
    std::fs::write(
        format!(
            "/tmp/exp/log_{}_{}_{}.txt",
            policy.replace(':', "_"),
            from,
            games
        ),
        log,
    )
    .unwrap();
    std::fs::write(
        format!(
            "/tmp/exp/out_{}_{}_{}.txt",
            policy.replace(':', "_"),
            from,
            games
        ),
        outcomes,
    )
    .unwrap();
}
