//! Every discard and call decision of the mahjong engine on the recorded game states,
//! printed with every candidate's figures to the last bit, for a before / after diff of
//! a change that must not change behaviour (a refactor, a rename).
//!
//! Discards: each state of `bench/requests/mahjong_game_states.jsonl` (every `EVERY`-th).
//! Calls: for every `CALLS`-th state, the hand without the engine's discard, offered each
//! kind it holds from the left and from across, one draw fewer. The deadline is 600 s,
//! so that no search stops on the clock: the output is the same from run to run.
//!
//! ```sh
//! cargo run --release --example mahjong_decision_dump -- 1 6 > before.txt
//! # ... change the engine, then:
//! cargo run --release --example mahjong_decision_dump -- 1 6 > after.txt
//! cmp before.txt after.txt
//! ```
#![allow(clippy::needless_range_loop)]
use std::io::BufRead;
use std::time::{Duration, Instant};

use gameai::mahjong::hand::Hand;
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::strategy::{From, suggest_call, suggest_discard};
use gameai::mahjong::tile::Tile;

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let at = line.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &line[at..];
    if let Some(r) = rest.strip_prefix('"') {
        Some(&r[..r.find('"')?])
    } else {
        Some(&rest[..rest.find([',', '}'])?])
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let every: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let calls_every: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(4);
    let f = std::fs::File::open("bench/requests/mahjong_game_states.jsonl").unwrap();
    for (i, line) in std::io::BufReader::new(f).lines().enumerate() {
        let line = line.unwrap();
        if i % every != 0 {
            continue;
        }
        let hand = field(&line, "hand").unwrap();
        let visible = field(&line, "visible").unwrap_or("");
        let draws: Option<u32> = field(&line, "drawsLeft").and_then(|d| d.parse().ok());
        let ruleset = match field(&line, "ruleset").unwrap_or("") {
            "RULESET_SICHUAN" => Ruleset::Sichuan,
            "RULESET_GENERAL" => Ruleset::General,
            _ => Ruleset::Riichi,
        };
        let h = Hand::parse(hand, vec![], visible, ruleset).unwrap();
        let deadline = Some(Instant::now() + Duration::from_secs(600));
        let a = suggest_discard(&h, draws, deadline).unwrap();
        let c: Vec<String> = a
            .candidates
            .iter()
            .map(|c| {
                format!(
                    "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                    c.tile,
                    c.shanten,
                    c.win_probability,
                    c.tenpai_probability,
                    c.win_stderr,
                    c.method,
                    c.continuation,
                    c.play
                )
            })
            .collect();
        println!(
            "D {i} {} ex={} st={} pa={} | {}",
            a.discard().unwrap(),
            a.exact,
            a.states,
            a.paths,
            c.join(" ; ")
        );
        if i % calls_every != 0 {
            continue;
        }
        // Call decisions: the hand without its chosen discard, offered each kind held.
        let mut counts = h.concealed().0;
        counts[a.discard().unwrap().index()] -= 1;
        let waiting: String = gameai::mahjong::tile::TileCounts(counts).to_string();
        let mut vis = *h.visible();
        vis.add(a.discard().unwrap());
        let hw = match Hand::parse(&waiting, vec![], &vis.to_string(), ruleset) {
            Ok(x) => x,
            Err(_) => continue,
        };
        for k in 0..34 {
            if counts[k] == 0 {
                continue;
            }
            for from in [From::Left, From::Across] {
                let deadline = Some(Instant::now() + Duration::from_secs(600));
                match suggest_call(
                    &hw,
                    Tile(k as u8),
                    from,
                    draws.map(|d| d.saturating_sub(1)),
                    deadline,
                ) {
                    Ok(c) => println!(
                        "C {i} {} {:?} {:?} {:?} {:?} {:?} {:?} ex={} st={} pa={} {}",
                        Tile(k as u8),
                        from,
                        c.action,
                        c.meld.map(|m| m.to_string()),
                        c.discard,
                        c.with_call,
                        c.without_call,
                        c.exact,
                        c.states,
                        c.paths,
                        c.reason
                    ),
                    Err(e) => println!("C {i} {} {:?} err {e}", Tile(k as u8), from),
                }
            }
        }
    }
}
