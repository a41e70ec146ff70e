//! Gomoku rules: renju forbidden points against the Piskvork referee's checker, win
//! detection on every edge and corner.

use std::collections::BTreeMap;

use gameai::gomoku::board::{Board, point_of};
use gameai::gomoku::point::{Color, Point};
use gameai::gomoku::rules::{ForbiddenKind, Rule, ThreeRule};

#[derive(serde::Deserialize)]
struct GoldenLine {
    size: usize,
    black: Vec<String>,
    white: Vec<String>,
    forbidden: BTreeMap<String, u8>,
}

fn points(list: &[String]) -> Vec<Point> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

/// Every forbidden point of black, with the Piskvork kind number (1 double-three,
/// 2 double-four, 3 overline).
fn forbidden_map(board: &mut Board, three_rule: ThreeRule) -> BTreeMap<String, u8> {
    let cells: Vec<_> = board.empty_cells().collect();
    cells
        .into_iter()
        .filter_map(|c| {
            board.forbidden_at_with(c, three_rule).map(|k| {
                let n = match k {
                    ForbiddenKind::DoubleThree => 1,
                    ForbiddenKind::DoubleFour => 2,
                    ForbiddenKind::Overline => 3,
                };
                (point_of(c).to_string(), n)
            })
        })
        .collect()
}

fn golden() -> Vec<GoldenLine> {
    include_str!("data/renju_forbidden_piskvork.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn golden_board(g: &GoldenLine) -> Board {
    Board::from_stones_any_counts(
        g.size,
        Rule::Renju,
        &points(&g.black),
        &points(&g.white),
        Color::Black,
    )
    .unwrap()
}

/// Read with the Piskvork checker's three rule, every one of the 300 positions has
/// exactly the golden forbidden points and kinds.
#[test]
fn golden_renju_forbidden_points_match_piskvork_exactly() {
    let golden = golden();
    assert_eq!(golden.len(), 300);
    let mut mismatches = Vec::new();
    for (i, g) in golden.iter().enumerate() {
        let ours = forbidden_map(&mut golden_board(g), ThreeRule::Piskvork);
        if ours != g.forbidden {
            mismatches.push(format!(
                "line {}: ours {ours:?} golden {:?}",
                i + 1,
                g.forbidden
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// Under RIF (the engine's rule) the answers differ on one line only: line 298, where
/// black k6 makes the diagonal open three i4-j5-k6 and the split three h9-i8-k6 whose
/// only straight-four point j7 also completes black's five j4-j8. A five is never
/// forbidden, so RIF counts that three and k6 is a double-three; Piskvork's checker
/// does not count it. (Black would of course win at j7 at once.)
#[test]
fn golden_renju_forbidden_points_under_rif_differ_only_at_the_documented_point() {
    let mut differing = Vec::new();
    for (i, g) in golden().iter().enumerate() {
        let ours = forbidden_map(&mut golden_board(g), ThreeRule::Rif);
        if ours != g.forbidden {
            differing.push((i + 1, ours, g.forbidden.clone()));
        }
    }
    let k6: BTreeMap<String, u8> = [("k6".to_string(), 1)].into();
    assert_eq!(differing, vec![(298, k6, BTreeMap::new())]);
}

/// 2,000 random dense positions (tools/gomoku/forbidden_oracle.py, seed 20240, the same
/// checker): with the Piskvork three rule, exactly equal. Under RIF a point may differ
/// only by being a double-three where the checker sees none, and only when black
/// already has a four (a five point on the board), as the RIF/Piskvork note explains.
#[test]
fn random_renju_positions_match_piskvork_and_differ_under_rif_only_with_a_four_on_board() {
    let text = include_str!("data/renju_forbidden_piskvork_random.jsonl");
    let mut mismatches = Vec::new();
    let mut rif_differences = 0;
    for (i, line) in text.lines().enumerate() {
        let g: GoldenLine = serde_json::from_str(line).unwrap();
        let mut board = golden_board(&g);
        let ours = forbidden_map(&mut board, ThreeRule::Piskvork);
        if ours != g.forbidden {
            mismatches.push(format!(
                "line {}: ours {ours:?} golden {:?}",
                i + 1,
                g.forbidden
            ));
            continue;
        }
        let rif = forbidden_map(&mut board, ThreeRule::Rif);
        if rif != ours {
            rif_differences += 1;
            let black_has_four = board
                .empty_cells()
                .any(|c| board.combo(c, Color::Black) == gameai::gomoku::patterns::Combo::Five);
            assert!(
                black_has_four,
                "line {}: RIF differs without a black four",
                i + 1
            );
            for (p, kind) in &rif {
                if ours.get(p) != Some(kind) {
                    assert_eq!((*kind, ours.get(p)), (1, None), "line {} point {p}", i + 1);
                }
            }
            assert!(ours.keys().all(|p| rif.contains_key(p)), "line {}", i + 1);
        }
    }
    assert_eq!(text.lines().count(), 2000);
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(
        rif_differences > 0,
        "the sample holds no RIF/Piskvork difference"
    );
}

/// Every run of five cells that touches an edge of the board, on the smallest, default
/// and largest boards: as cell lists (x, y).
fn edge_fives(size: usize) -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    for y in 0..size as isize {
        for x in 0..size as isize {
            for (dx, dy) in dirs {
                let cells: Vec<(isize, isize)> = (0..5).map(|i| (x + i * dx, y + i * dy)).collect();
                let on = |&(a, b): &(isize, isize)| {
                    a >= 0 && b >= 0 && a < size as isize && b < size as isize
                };
                if !cells.iter().all(on) {
                    continue;
                }
                let edge = |&(a, b): &(isize, isize)| {
                    a == 0 || b == 0 || a == size as isize - 1 || b == size as isize - 1
                };
                if cells.iter().any(edge) {
                    out.push(
                        cells
                            .iter()
                            .map(|&(a, b)| (a as usize, b as usize))
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

/// A five along every edge and through every corner is detected under each rule, both
/// when the board is set up with it and when any of its five stones is the last move;
/// `winning_line` gives exactly those five points.
#[test]
fn a_five_on_every_edge_and_corner_is_detected() {
    for size in [5, 15, 22] {
        let fives = edge_fives(size);
        // Corners: the row, column and diagonal fives from each corner are all there.
        for corner in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)] {
            assert_eq!(
                fives
                    .iter()
                    .filter(|f| f[0] == corner || f[4] == corner)
                    .count(),
                3,
                "size {size}"
            );
        }
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            // One board per rule and size, played on and taken back (undo is checked too).
            let mut board = Board::new(size, rule).unwrap();
            for five in &fives {
                let black: Vec<Point> = five
                    .iter()
                    .map(|&(x, y)| Point::new(x as u8, y as u8))
                    .collect();
                // Four white stones away from the five (the first free cells in row order
                // that do not touch it), so that black's run is exactly five.
                let touches = |x: usize, y: usize| {
                    five.iter()
                        .any(|&(a, b)| a.abs_diff(x) <= 1 && b.abs_diff(y) <= 1)
                };
                let white: Vec<Point> = (0..size * size)
                    .map(|i| (i % size, i / size))
                    .filter(|&(x, y)| !touches(x, y))
                    .take(4)
                    .map(|(x, y)| Point::new(x as u8, y as u8))
                    .collect();
                if white.len() < 4 {
                    continue; // a 5x5 board has no room away from a middle line
                }
                let set_up = Board::from_stones(size, rule, &black, &white, Color::White).unwrap();
                assert_eq!(
                    set_up.winner(),
                    Some(Color::Black),
                    "{rule} {size} {black:?}"
                );
                let mut line = set_up.winning_line().unwrap().1;
                line.sort();
                let mut want = black.clone();
                want.sort();
                assert_eq!(line, want);
                // Each stone of the five as the last move in freestyle; the two ends and
                // the middle under the other rules (the same code path, fewer boards).
                let lasts: &[usize] = if rule == Rule::Freestyle {
                    &[0, 1, 2, 3, 4]
                } else {
                    &[0, 2, 4]
                };
                for &last in lasts {
                    let mut order: Vec<Point> = black
                        .iter()
                        .copied()
                        .filter(|&p| p != black[last])
                        .collect();
                    order.push(black[last]);
                    let moves: Vec<Point> = order
                        .iter()
                        .zip(white.iter().map(Some).chain([None]))
                        .flat_map(|(&b, w)| std::iter::once(b).chain(w.copied()))
                        .collect();
                    for (i, &m) in moves.iter().enumerate() {
                        assert_eq!(board.winner(), None, "{rule} {size} before move {i}");
                        board.play(m).unwrap();
                    }
                    assert_eq!(
                        board.winner(),
                        Some(Color::Black),
                        "{rule} {size} {moves:?}"
                    );
                    while board.undo().is_some() {}
                }
            }
        }
    }
}

/// Six in a row: a win in freestyle; nothing under STANDARD; under RENJU a loss for
/// black (a forbidden overline) and a win for white.
#[test]
fn overlines_follow_the_rule() {
    let p = |s: &str| gameai::gomoku::point::parse_sequence(s).unwrap();
    // Black a1..e1 then f1 last; white far away.
    let moves = p("a1h8b1h9c1h10e1h11f1h13d1");
    let free = Board::from_moves(15, Rule::Freestyle, &moves).unwrap();
    assert_eq!(free.winner(), Some(Color::Black));
    let standard = Board::from_moves(15, Rule::Standard, &moves).unwrap();
    assert_eq!(standard.winner(), None);
    let renju = Board::from_moves(15, Rule::Renju, &moves).unwrap();
    assert_eq!(renju.winner(), Some(Color::White));
    assert_eq!(renju.lost_by_forbidden(), Some(ForbiddenKind::Overline));
    // White's overline under RENJU wins.
    let white = Board::from_moves(15, Rule::Renju, &p("h8a1h9b1h10c1o15e1o1f1h12d1")).unwrap();
    assert_eq!(white.winner(), Some(Color::White));
    assert_eq!(white.lost_by_forbidden(), None);
}
