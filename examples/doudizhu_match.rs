//! In-process duplicate matches between two Dou Dizhu players, for measuring what a
//! change of the search buys without the noise of a loaded machine.
//!
//! Every deal (a seeded shuffle: landlord 20 cards with the last three as bottom cards,
//! then 17 and 17) is played twice: A as landlord against two B farmers, then B as
//! landlord against two A farmers. Each seat decides from its own observation (hand,
//! seat, bottom cards, history), as through the service. A search player searches a
//! fixed number of worlds per decision (not a time budget), so a match is reproducible
//! and independent of the machine's load; `time50` and `time100` search by the clock
//! instead.
//!
//! Prints A's share of the games won with its standard error (per-deal scores), and A's
//! rate as landlord and as farmers.
//!
//! Run: `cargo run --release --example doudizhu_match -- A B DEALS SEED [WORLDS]`, e.g.
//! `... -- default plain 200 1 32`. Players: `default` (the service's search),
//! `heuristic`, `plain` (plain value playouts, no cooperation), `uniform` (no
//! inference), `wide` (the extra candidates of `SearchConfig::wide`), `w16` / `w128` (16 / 128 worlds),
//! `timeMS` (the default by the clock, MS milliseconds per decision, e.g. `time50`).
//! Modifiers after `+` change one setting of `SearchConfig`: `wide`, `zF` (`prune_z`),
//! `cN` (`candidates`), `sN` / `nN` (`solve_cards` / `solve_nodes`), `psN` / `pnN`
//! (`playout_solve_cards` / `playout_solve_nodes`), `lmN` / `fmN` / `sbN` (the playout's
//! landlord margin, farmer margin, safe bonus), `icN` / `ikN` (the inference's `cheap` /
//! `costly` pass probabilities in thousandths), `cutN` (`eval_cut`: playouts cut after N
//! moves and scored by the learned evaluation); e.g. `time50+z3+wide`.

use std::time::{Duration, Instant};

use gameai::doudizhu::search::playout::Style;
use gameai::doudizhu::search::worlds::Inference;
use gameai::doudizhu::search::{self, SearchConfig};
use gameai::doudizhu::state::{GameState, Observation, Seat};
use gameai::doudizhu::strategy::decide_play;
use gameai::doudizhu::{Cards, Play, Rules};

#[path = "shared/duplicate.rs"]
mod duplicate;

#[derive(Clone, Copy)]
enum Player {
    Heuristic,
    /// A search configuration and its time per decision.
    Search(SearchConfig, Duration),
}

fn player(name: &str, worlds: u32) -> Result<Player, String> {
    let mut parts = name.split('+');
    let base = parts.next().unwrap_or_default();
    let mut c = SearchConfig {
        max_worlds: worlds,
        ..SearchConfig::default()
    };
    let mut time = Duration::from_secs(60);
    match base {
        "default" => {}
        "heuristic" => return Ok(Player::Heuristic),
        "plain" => c.playout = Style::PLAIN,
        "uniform" => c.inference = Inference::UNIFORM,
        "wide" => c.wide = true,
        "w16" => c.max_worlds = 16,
        "w128" => c.max_worlds = 128,
        _ => match base.strip_prefix("time").map(str::parse::<u64>) {
            Some(Ok(ms)) => {
                c.max_worlds = u32::MAX;
                time = Duration::from_millis(ms);
            }
            _ => return Err(format!("unknown player '{name}'")),
        },
    }
    for m in parts {
        let (key, value) = m.split_at(m.find(|ch: char| ch.is_ascii_digit()).unwrap_or(m.len()));
        let number = || {
            value
                .parse::<f64>()
                .map_err(|e| format!("'{m}' in '{name}': {e}"))
        };
        match key {
            "wide" => c.wide = true,
            "z" => c.prune_z = number()?,
            "c" => c.candidates = number()? as usize,
            "s" => c.solve_cards = number()? as usize,
            "n" => c.solve_nodes = number()? as u64,
            "ps" => c.playout_solve_cards = number()? as usize,
            "pn" => c.playout_solve_nodes = number()? as u64,
            "lm" => c.playout.landlord_margin = number()? as i32,
            "fm" => c.playout.farmer_margin = number()? as i32,
            "sb" => c.playout.safe_bonus = number()? as i32,
            "ic" => c.inference.cheap = number()? / 1000.0,
            "ik" => c.inference.costly = number()? / 1000.0,
            "cut" => c.eval_cut = Some(number()? as u32),
            _ => return Err(format!("unknown modifier '{m}' in '{name}'")),
        }
    }
    Ok(Player::Search(c, time))
}

fn decide(p: Player, st: &GameState) -> Option<Play> {
    match p {
        Player::Heuristic => decide_play(st).play,
        Player::Search(c, time) => {
            search::decide_with(st, Instant::now() + time, &c)
                .decision
                .play
        }
    }
}

/// Plays one game; whether the landlord won.
fn play_game(hands: [Cards; 3], bottom: Cards, players: [Player; 3]) -> bool {
    let mut left = hands;
    let mut history: Vec<Cards> = Vec::new();
    loop {
        let seat = Seat::from_index(history.len());
        let obs = Observation {
            hand: left[seat.index()],
            seat,
            landlord_cards: bottom,
            history: history.clone(),
            rules: Rules::default(),
        };
        let st = GameState::derive(&obs).expect("the players' history is consistent");
        let cards = decide(players[seat.index()], &st).map_or(Cards::EMPTY, |p| p.cards);
        left[seat.index()] = left[seat.index()]
            .checked_sub(&cards)
            .expect("a suggestion is in hand");
        history.push(cards);
        if left[seat.index()].is_empty() {
            return seat == Seat::Landlord;
        }
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        return Err("usage: doudizhu_match A B DEALS SEED [WORLDS]".into());
    }
    let number = |s: &str| s.parse::<u64>().map_err(|e| format!("'{s}': {e}"));
    let deals = number(&args[2])? as usize;
    let seed = number(&args[3])?;
    let worlds = args.get(4).map_or(Ok(32), |s| number(s))? as u32;
    let (a, b) = (player(&args[0], worlds)?, player(&args[1], worlds)?);
    let r = duplicate::play(deals, seed, 50, |hands, bottom, a_landlord| {
        let seats = if a_landlord { [a, b, b] } else { [b, a, a] };
        play_game(hands, bottom, seats)
    });
    println!(
        "{} vs {}, {deals} deals (seed {seed}, {worlds} worlds): A wins {:.3} ± {:.3} of the games (as landlord {:.3}, as farmers {:.3}); {:.0} s",
        args[0], args[1], r.mean, r.se, r.landlord, r.farmers, r.secs
    );
    Ok(())
}
