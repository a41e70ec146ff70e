//! Gomoku search: forced facts, cases from other engines' bug reports, tactics.

use std::time::{Duration, Instant};

use gameai::gomoku::GomokuError;
use gameai::gomoku::point::parse_sequence;
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

fn quick() -> Limits<'static> {
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

/// Black to move under RENJU and every empty point forbidden to it, none of them a five
/// (the rules text: a five wins even where the point is otherwise forbidden). The
/// forbidden judgement is checked against the Piskvork referee in `gomoku_rules.rs`; the
/// five by plain run counting here.
fn no_legal_point_for_black(b: &mut Board) -> bool {
    if b.rule() != Rule::Renju || b.to_move() != Color::Black {
        return false;
    }
    let fives = five_points_by_counting(b, Color::Black);
    let n = b.size() as u8;
    let empty: Vec<Point> = (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&p| b.stone(p).is_none())
        .collect();
    empty
        .into_iter()
        .all(|p| !fives.contains(&p) && b.forbidden(p).is_some())
}

/// The five points of `color` by plain run counting (independent of the pattern
/// tables): empty points where a stone of `color` completes a winning run.
fn five_points_by_counting(b: &Board, color: Color) -> Vec<Point> {
    let n = b.size() as i32;
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let p = Point::new(x as u8, y as u8);
            if b.stone(p).is_some() {
                continue;
            }
            let wins = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
                let mut len = 1;
                for s in [1, -1] {
                    let mut i = 1;
                    loop {
                        let (a, c) = (x + s * i * dx, y + s * i * dy);
                        if a < 0
                            || c < 0
                            || a >= n
                            || c >= n
                            || b.stone(Point::new(a as u8, c as u8)) != Some(color)
                        {
                            break;
                        }
                        len += 1;
                        i += 1;
                    }
                }
                b.rule().run_wins(color, len)
            });
            if wins {
                out.push(p);
            }
        }
    }
    out
}

/// A full 5x5 board without a five: rows 1, 3, 5 read XXOOX, rows 2 and 4 OOXXO.
fn full_5x5() -> (Vec<Point>, Vec<Point>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for y in 0..5u8 {
        for x in 0..5u8 {
            let row_kind = y % 2 == 0;
            let col_black = matches!(x, 0 | 1 | 4);
            if row_kind == col_black {
                black.push(Point::new(x, y));
            } else {
                white.push(Point::new(x, y));
            }
        }
    }
    (black, white)
}

#[test]
fn a_full_board_is_a_clear_no_move() {
    let (black, white) = full_5x5();
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let mut b = Board::from_stones(5, rule, &black, &white, Color::White).unwrap();
        assert_eq!(b.winner(), None);
        let err = searcher().search(&mut b, &quick()).unwrap_err();
        assert_eq!(err.to_string(), "no move: the board is full (a draw)");
    }
}

/// Every point of the full 5x5 board taken back in turn: the one empty point is the
/// answer (a move there never makes a five in this pattern, so it is the only move).
#[test]
fn a_position_with_one_empty_point_gets_that_point() {
    let (black, white) = full_5x5();
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        for i in 0..black.len() {
            let mut bl = black.clone();
            let hole = bl.remove(i);
            let mut b = Board::from_stones(5, rule, &bl, &white, Color::Black).unwrap();
            let answer = searcher().search(&mut b, &quick()).unwrap();
            assert_eq!(answer.best, hole, "{rule}");
        }
        for i in 0..white.len() {
            let mut wh = white.clone();
            let hole = wh.remove(i);
            // 13 black and 11 white stones: a composed position, white to move.
            let mut b = Board::from_stones_any_counts(5, rule, &black, &wh, Color::White).unwrap();
            let answer = searcher().search(&mut b, &quick()).unwrap();
            assert_eq!(answer.best, hole, "{rule}");
        }
    }
}

/// Random positions: a random game (moves clustered near the centre or anywhere)
/// stopped before anyone has won.
fn random_position(rule: Rule, size: usize, seeds: &[(u8, u8, bool)]) -> Board {
    let mut b = Board::new(size, rule).unwrap();
    let c = (size / 2) as i32;
    for &(x, y, near) in seeds {
        let p = if near {
            let r = (size as i32 / 3).max(2);
            let px = (c + (x as i32 % (2 * r + 1)) - r).clamp(0, size as i32 - 1);
            let py = (c + (y as i32 % (2 * r + 1)) - r).clamp(0, size as i32 - 1);
            Point::new(px as u8, py as u8)
        } else {
            Point::new(x % size as u8, y % size as u8)
        };
        if b.stone(p).is_some() || b.is_full() {
            continue;
        }
        // Black under RENJU does not play forbidden points in a game.
        if b.to_move() == Color::Black && b.forbidden(p).is_some() {
            continue;
        }
        b.play(p).unwrap();
        if b.winner().is_some() {
            b.undo();
            break;
        }
    }
    b
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn rule() -> impl Strategy<Value = Rule> {
        prop_oneof![
            Just(Rule::Freestyle),
            Just(Rule::Standard),
            Just(Rule::Renju)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Arbitrary positions never panic; the answer is an empty point, legal for the
        /// side to move (never forbidden to black under RENJU), takes a five when there is
        /// one, and otherwise blocks the opponent's only five point when it may.
        #[test]
        fn answers_are_legal_and_take_or_block_fives(
            rule in rule(),
            size in prop_oneof![Just(15usize), Just(20usize), 5usize..=22],
            seeds in prop::collection::vec((any::<u8>(), any::<u8>(), any::<bool>()), 0..90),
        ) {
            let mut b = random_position(rule, size, &seeds);
            let before = b.hash();
            let result = Searcher::new(1 << 20).search(&mut b, &Limits::nodes(400));
            prop_assert_eq!(b.hash(), before, "the board is given back as it was");
            let answer = match result {
                Ok(a) => a,
                Err(e) => {
                    // Only a full board, or black under RENJU with every empty point
                    // forbidden (and none of them a five), has no move.
                    prop_assert!(matches!(e, GomokuError::NoMove(_)), "{e}");
                    prop_assert!(b.is_full() || no_legal_point_for_black(&mut b), "{e}");
                    return Ok(());
                }
            };
            let us = b.to_move();
            prop_assert!(b.stone(answer.best).is_none());
            prop_assert!(answer.best.on_board(size));
            if us == Color::Black {
                prop_assert_eq!(b.forbidden(answer.best), None);
            }
            let own = five_points_by_counting(&b, us);
            let theirs = five_points_by_counting(&b, us.opponent());
            if !own.is_empty() {
                prop_assert!(own.contains(&answer.best), "missed the five: {:?} {:?}", own, answer);
                prop_assert_eq!(answer.forced_win_in, Some(1));
            } else if theirs.len() == 1 && (us == Color::White || b.forbidden(theirs[0]).is_none()) {
                prop_assert_eq!(answer.best, theirs[0], "did not block the four");
            }
        }
    }
}

/// The stop flag ends a search that has neither deadline nor node limit (depth 40 on a
/// middle game would take far longer than this test): set before the search, every
/// stage gives up at its next check and the answer is still an empty, legal point; set
/// from another thread mid-search (as pbrain-gameai's `END` does), the search returns.
#[test]
fn stop_flag_ends_an_unbounded_search() {
    use std::sync::atomic::{AtomicBool, Ordering};
    for (rule, moves) in [
        (
            Rule::Freestyle,
            "h8g6f8e8g7f7h5h6f6e5e7d6i9j10d8g5f4c9d9d11g4e4i6j7",
        ),
        (Rule::Renju, "h8g6f8e8g7f7d9e9e5f6e6h4i4i6e7j6h6i5k7f2"),
    ] {
        let mut b = board(rule, 15, moves);
        let stop = AtomicBool::new(true);
        let answer = searcher()
            .search(&mut b, &Limits::depth(40).with_stop(&stop))
            .unwrap();
        assert!(b.stone(answer.best).is_none(), "{rule}: {}", answer.best);
        assert_eq!(b.forbidden(answer.best), None, "{rule}");
        // Checks come every 256 (VCF), 512 (VCT) and 1,024 (alpha-beta) nodes.
        assert!(answer.nodes < 20_000, "{rule}: {} nodes", answer.nodes);

        let stop = AtomicBool::new(false);
        let answer = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                stop.store(true, Ordering::Relaxed);
            });
            searcher()
                .search(&mut b, &Limits::depth(40).with_stop(&stop))
                .unwrap()
        });
        assert!(b.stone(answer.best).is_none(), "{rule}: {}", answer.best);
    }
}

/// A stall allowance longer than the time left ends the search at its first clock
/// reading, as a deadline already past would (a brain that has seen its thread sit off
/// the CPU that long answers at once rather than late); the same search with no
/// allowance runs its iterations. The deadline is an hour away, so neither outcome
/// depends on the machine's speed or load.
#[test]
fn a_stall_allowance_beyond_the_deadline_stops_the_search_at_once() {
    use gameai::gomoku::search::limits::{CLOCK_EVERY_NODES, Pace};
    let moves = "h8i9h9";
    let deadline = Instant::now() + Duration::from_secs(3_600);
    let mut b = board(Rule::Freestyle, 15, moves);
    let pace = Pace::new(Some(deadline), Duration::from_secs(3_601));
    let mut limits = Limits::until(deadline).with_pace(&pace);
    limits.max_depth = 4;
    let stalled = searcher().search(&mut b, &limits).unwrap();
    assert!(b.stone(stalled.best).is_none(), "{}", stalled.best);
    assert_eq!(stalled.depth, 0);
    // The threat solvers give up at their entry reading, the alpha-beta search at its
    // first (every CLOCK_EVERY_NODES nodes, the root's node counted).
    assert!(
        stalled.nodes <= CLOCK_EVERY_NODES + 1,
        "{} nodes",
        stalled.nodes
    );

    let pace = Pace::new(Some(deadline), Duration::ZERO);
    let limits = Limits {
        pace: Some(&pace),
        ..limits
    };
    let free = searcher().search(&mut b, &limits).unwrap();
    assert_eq!(free.depth, 4);
}
