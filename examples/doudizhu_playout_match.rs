//! Duplicate matches between two styles of the search's playout policy
//! (`search::playout`), with every hand open: a cheap screen for a change of the policy
//! before the search that uses it is measured (`examples/doudizhu_match.rs`).
//!
//! Every deal (the shuffle of `doudizhu_match`) is played twice with all hands visible:
//! A as landlord against two B farmers, then B as landlord against two A farmers.
//! Prints A's share of the games with its standard error (per-deal scores).
//!
//! Run: `cargo run --release --example doudizhu_playout_match -- A B DEALS SEED`, e.g.
//! `... -- default+sb7 default 20000 1`. Styles: `default` (`Style::DEFAULT`), `bid`
//! (`Style::BID_SIMULATION`), `plain` (`Style::PLAIN`); modifiers after `+`: `lmN`,
//! `fmN`, `sbN` (landlord margin, farmer margin, safe bonus).

use gameai::doudizhu::search::playout::{Playout, Style};
use gameai::doudizhu::search::position::Position;
use gameai::doudizhu::{Cards, Rules};
use gameai::memory_budget::MemoryBudget;

#[path = "shared/duplicate.rs"]
mod duplicate;

fn style(name: &str) -> Result<Style, String> {
    let mut parts = name.split('+');
    let mut s = match parts.next().unwrap_or_default() {
        "default" => Style::DEFAULT,
        "bid" => Style::BID_SIMULATION,
        "plain" => Style::PLAIN,
        other => return Err(format!("unknown style '{other}'")),
    };
    for m in parts {
        let (key, value) = m.split_at(
            m.find(|ch: char| ch.is_ascii_digit() || ch == '-')
                .unwrap_or(m.len()),
        );
        let number = || {
            value
                .parse::<i32>()
                .map_err(|e| format!("'{m}' in '{name}': {e}"))
        };
        match key {
            "lm" => s.landlord_margin = number()?,
            "fm" => s.farmer_margin = number()?,
            "sb" => s.safe_bonus = number()?,
            _ => return Err(format!("unknown modifier '{m}' in '{name}'")),
        }
    }
    Ok(s)
}

/// Plays one open-handed game, `landlord` for seat 0 and `farmers` for seats 1 and 2;
/// whether the landlord won.
fn play_game(hands: [Cards; 3], landlord: &mut Playout, farmers: &mut Playout) -> bool {
    let mut pos = Position {
        hands,
        turn: 0,
        last: None,
    };
    loop {
        let p = if pos.turn == 0 {
            landlord.choose(&pos)
        } else {
            farmers.choose(&pos)
        };
        let next = pos.after(p.as_ref());
        if next.hands[pos.turn].is_empty() {
            return pos.turn == 0;
        }
        pos = next;
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        return Err("usage: doudizhu_playout_match A B DEALS SEED".into());
    }
    let number = |s: &str| s.parse::<u64>().map_err(|e| format!("'{s}': {e}"));
    let deals = number(&args[2])? as usize;
    let seed = number(&args[3])?;
    let budget = MemoryBudget::global();
    let rules = Rules::default();
    let mut a = Playout::with_style(rules, style(&args[0])?, budget);
    let mut b = Playout::with_style(rules, style(&args[1])?, budget);
    let r = duplicate::play(deals, seed, 0, |hands, _, a_landlord| {
        if a_landlord {
            play_game(hands, &mut a, &mut b)
        } else {
            play_game(hands, &mut b, &mut a)
        }
    });
    println!(
        "{} vs {}, {deals} open deals (seed {seed}): A wins {:.4} ± {:.4} of the games (as landlord {:.3}, as farmers {:.3}); {:.1} s",
        args[0], args[1], r.mean, r.se, r.landlord, r.farmers, r.secs
    );
    Ok(())
}
