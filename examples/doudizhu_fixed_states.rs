//! The Dou Dizhu engine's answers on a fixed list of states, printed one line each, so
//! that a refactoring can be shown not to change behaviour: run it before and after and
//! `diff` the outputs.
//!
//! For every line of `bench/requests/doudizhu_play.jsonl` and
//! `doudizhu_play_search.jsonl` (the recorded game states): the heuristic's play and
//! scores, the search's decision with a fixed number of worlds (no clock: reproducible
//! whatever the load) and its ranked scores, nodes, worlds and proof; and the error (or
//! not) of three corrupted observations of the same state (last history entry dropped,
//! the hand with its first card dropped, the bottom cards replaced by the hand's
//! lowest three). For every line of `doudizhu_bid.jsonl`: the bid simulation cut at a
//! fixed number of deals, and the threshold bidder.
//!
//! Run: `cargo run --release --example doudizhu_fixed_states -- [WORLDS] [DEALS] > out`.

use std::time::{Duration, Instant};

use gameai::doudizhu::bidding;
use gameai::doudizhu::search::{SearchConfig, decide_with};
use gameai::doudizhu::state::{GameState, Observation, Seat};
use gameai::doudizhu::strategy::{Scored, decide_bid, decide_play};
use gameai::doudizhu::{Cards, Rules};

fn cards(v: &serde_json::Value) -> Cards {
    v.as_str()
        .unwrap_or("")
        .parse()
        .expect("recorded cards parse")
}

fn seat(v: &serde_json::Value) -> Seat {
    match v.as_str().unwrap_or("") {
        "SEAT_LANDLORD" => Seat::Landlord,
        "SEAT_LANDLORD_DOWN" => Seat::LandlordDown,
        _ => Seat::LandlordUp,
    }
}

fn ranked(r: &[Scored]) -> String {
    r.iter()
        .map(|s| {
            format!(
                "{}={:.6}",
                s.play.map_or("pass".to_string(), |p| p.cards.to_string()),
                s.score
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn requests(file: &str) -> Vec<serde_json::Value> {
    let path = format!("{}/bench/requests/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .expect("bench request file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json")["request"].clone())
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let worlds: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(24);
    let deals: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(30);
    let far = Instant::now() + Duration::from_secs(3600);
    let cfg = SearchConfig {
        max_worlds: worlds,
        ..SearchConfig::default()
    };
    for file in ["doudizhu_play.jsonl", "doudizhu_play_search.jsonl"] {
        for (i, r) in requests(file).iter().enumerate() {
            let obs = Observation {
                hand: cards(&r["hand"]),
                seat: seat(&r["seat"]),
                landlord_cards: cards(&r["landlord_cards"]),
                history: r["history"]
                    .as_array()
                    .map(|h| h.iter().map(cards).collect())
                    .unwrap_or_default(),
                rules: Rules::default(),
            };
            let st = GameState::derive(&obs).expect("recorded states are consistent");
            let h = decide_play(&st);
            let d = decide_with(&st, far, &cfg);
            println!(
                "{file}:{i} heuristic [{}] {} | search [{}] nodes={} worlds={} tried={:?} exact={} proven={:?} {}",
                ranked(&h.ranked),
                h.reason,
                ranked(&d.decision.ranked),
                d.nodes,
                d.worlds,
                d.tried,
                d.exact,
                d.proven,
                d.decision.reason
            );
            let mut short = obs.clone();
            short.history.pop();
            let mut less = obs.clone();
            let first = less.hand.ranks().next();
            if let Some((r, _)) = first {
                less.hand.remove(r, 1);
            }
            let mut bottom = obs.clone();
            bottom.landlord_cards = Cards::EMPTY;
            for r in obs.hand.iter().take(3) {
                bottom
                    .landlord_cards
                    .add(r, 1)
                    .expect("a hand's cards fit a deck");
            }
            for (name, o) in [("short", short), ("less", less), ("bottom", bottom)] {
                let e = GameState::derive(&o).map(|s| s.unseen.to_string());
                println!("{file}:{i} {name} {e:?}");
            }
        }
    }
    for (i, r) in requests("doudizhu_bid.jsonl").iter().enumerate() {
        let hand = cards(&r["hand"]);
        let bids: Vec<u8> = r["bids"]
            .as_array()
            .map(|b| b.iter().map(|x| x.as_u64().unwrap_or(0) as u8).collect())
            .unwrap_or_default();
        let e = bidding::estimate_deals(hand.counts(), &bids, &Rules::default(), far, deals);
        let t = decide_bid(hand.counts(), bids.iter().copied().max().unwrap_or(0));
        println!(
            "bid:{i} {} p={:.6} se={:.6} share={:.6} deals={} options={:?} | threshold {} {}",
            e.bid,
            e.win_probability,
            e.win_stderr,
            e.simulated_share,
            e.deals,
            e.options,
            t.bid,
            t.reason
        );
    }
}
