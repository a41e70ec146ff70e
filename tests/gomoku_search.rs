//! Gomoku search: forced facts, cases from other engines' bug reports, tactics.

use std::time::{Duration, Instant};

use gameai::gomoku::point::{format_sequence, parse_sequence};
use gameai::gomoku::search::{Limits, Searcher};
use gameai::gomoku::{Board, Color, Point, Rule};

fn board(rule: Rule, size: usize, moves: &str) -> Board {
    Board::from_moves(size, rule, &parse_sequence(moves).unwrap()).unwrap()
}

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn searcher() -> Searcher {
    Searcher::new(4 << 20)
}

fn quick() -> Limits {
    Limits {
        max_nodes: Some(20_000),
        ..Limits::until(Instant::now() + Duration::from_secs(20))
    }
}

/// Freestyle, black to move after `h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10`
/// (a case from a Gomocup engine's public bug report): white's four f8-g9-h10-i11 is
/// closed at j12 by black and open at e7, black has no five of its own, so e7 is the
/// only move that does not lose at once.
#[test]
fn bug_report_black_blocks_whites_four_at_e7() {
    let mut b = board(
        Rule::Freestyle,
        15,
        "h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10",
    );
    assert_eq!(b.to_move(), Color::Black);
    let answer = searcher().search(&mut b, &quick()).unwrap();
    assert_eq!(answer.best, p("e7"), "{answer:?}");
}

/// A look at the engine on a middle-game position (release: `cargo test --release
/// --test gomoku_search probe -- --ignored --nocapture`).
#[test]
#[ignore]
fn probe() {
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
