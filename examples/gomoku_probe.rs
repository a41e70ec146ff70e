//! A look at the gomoku search from the command line (a profiling tool, not a check).
//!
//! ```text
//! cargo run --release --example gomoku_probe            # timed searches (100 ms, 1 s)
//! cargo run --release --example gomoku_probe -- depth   # depth 8 on the benchmark positions
//! ```
//!
//! `timed` prints the answer, score, depths, nodes and speed of a search of three middle
//! games (two freestyle, one renju) at 100 ms and 1 s; `depth` runs a fixed depth-8 search
//! on every position of `benches/data/gomoku_positions.txt` and the total speed.

use std::time::{Duration, Instant};

use gameai::gomoku::point::{format_sequence, parse_sequence};
use gameai::gomoku::search::{Limits, Searcher};
use gameai::gomoku::{Board, Rule};

fn board(rule: Rule, size: usize, moves: &str) -> Board {
    Board::from_moves(size, rule, &parse_sequence(moves).unwrap()).unwrap()
}

fn timed() {
    for (rule, size, moves) in [
        (
            Rule::Freestyle,
            15,
            "h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10",
        ),
        (Rule::Freestyle, 20, "j10k11k10j11l11i9l10l9m10n10"),
        (Rule::Renju, 15, "h8i9h9h7i8g8j8k8j9"),
    ] {
        let mut b = board(rule, size, moves);
        for ms in [100u64, 1000] {
            let mut s = Searcher::new(64 << 20);
            let answer = s
                .search(
                    &mut b,
                    &Limits::until(Instant::now() + Duration::from_millis(ms)),
                )
                .unwrap();
            println!(
                "{rule} {moves} {ms} ms: {} score {} depth {} sel {} nodes {} ({:.0} kn/s) {:?} pv {}",
                answer.best,
                answer.score,
                answer.depth,
                answer.seldepth,
                answer.nodes,
                answer.nodes as f64 / answer.elapsed.as_secs_f64() / 1000.0,
                answer.reason,
                format_sequence(&answer.pv)
            );
        }
    }
}

fn depth() {
    let text = include_str!("../benches/data/gomoku_positions.txt");
    let mut total = (0u64, 0f64);
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut parts = line.split_whitespace();
        let size: usize = parts.next().unwrap().parse().unwrap();
        let rule = match parts.next().unwrap() {
            "freestyle" => Rule::Freestyle,
            _ => Rule::Renju,
        };
        let mut b = board(rule, size, parts.next().unwrap());
        let answer = Searcher::new(64 << 20)
            .search(&mut b, &Limits::depth(8))
            .unwrap();
        total.0 += answer.nodes;
        total.1 += answer.elapsed.as_secs_f64();
        println!(
            "{size} {rule}: {} score {} depth {} nodes {} in {:.0} ms ({:.0} kn/s) {:?}",
            answer.best,
            answer.score,
            answer.depth,
            answer.nodes,
            answer.elapsed.as_secs_f64() * 1000.0,
            answer.nodes as f64 / answer.elapsed.as_secs_f64() / 1000.0,
            answer.reason
        );
    }
    println!(
        "total {} nodes {:.0} kn/s",
        total.0,
        total.0 as f64 / total.1 / 1000.0
    );
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        None | Some("timed") => timed(),
        Some("depth") => depth(),
        Some(other) => {
            eprintln!("unknown mode {other:?}: use `timed` or `depth`");
            std::process::exit(2);
        }
    }
}
