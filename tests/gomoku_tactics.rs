//! Gomoku tactics: VCF puzzles whose shortest length comes from an independent brute
//! force (tools/gomoku/vcf_oracle.py), each solution replayed and checked by plain run
//! counting; VCT puzzles worked by hand, checked against every defender reply; a renju
//! VCF that wins because black's only block is forbidden.

use gameai::gomoku::board::{Cell, point_of};
use gameai::gomoku::point::parse_sequence;
use gameai::gomoku::search::vcf::{FailCache, Vcf};
use gameai::gomoku::search::vct::Vct;
use gameai::gomoku::search::{Limits, Reason, Searcher};
use gameai::gomoku::{Board, Color, Point, Rule};

#[derive(serde::Deserialize)]
struct Puzzle {
    size: usize,
    rule: String,
    black: Vec<String>,
    white: Vec<String>,
    depth: u32,
    vcf_moves: Option<u32>,
}

fn points(list: &[String]) -> Vec<Point> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

fn rule_of(name: &str) -> Rule {
    match name {
        "freestyle" => Rule::Freestyle,
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        _ => panic!("rule {name}"),
    }
}

/// Whether `color` at the empty point `p` completes a winning run, by counting stones
/// along the four lines (independent of the engine's pattern tables).
fn completes_win(b: &Board, p: Point, color: Color) -> bool {
    let n = b.size() as i32;
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
        let mut len = 1;
        for s in [1, -1] {
            let mut i = 1;
            loop {
                let (x, y) = (p.x as i32 + s * i * dx, p.y as i32 + s * i * dy);
                if x < 0
                    || y < 0
                    || x >= n
                    || y >= n
                    || b.stone(Point::new(x as u8, y as u8)) != Some(color)
                {
                    break;
                }
                len += 1;
                i += 1;
            }
        }
        b.rule().run_wins(color, len)
    })
}

fn five_points(b: &Board, color: Color) -> Vec<Point> {
    let n = b.size() as u8;
    (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&p| b.stone(p).is_none() && completes_win(b, p, color))
        .collect()
}

/// Replays a VCF line for the side to move and checks it by the rules: every attacker
/// move but the last leaves the attacker exactly one five point (a four) or two (the
/// defender cannot block both), the defender has no five point to answer with, the
/// defender's move is the block, and the last attacker move completes a win.
fn check_vcf_line(board: &Board, cells: &[Cell], moves: u32) {
    let mut b = board.clone();
    let attacker = b.to_move();
    let defender = attacker.opponent();
    let line: Vec<Point> = cells.iter().map(|&c| point_of(c)).collect();
    assert_eq!(line.len() as u32, 2 * moves - 1, "line {line:?}");
    for (i, &p) in line.iter().enumerate() {
        if i % 2 == 0 {
            assert_eq!(b.to_move(), attacker);
            assert!(b.stone(p).is_none(), "{p} taken");
            if i + 1 == line.len() {
                assert!(
                    completes_win(&b, p, attacker),
                    "the last move {p} is no five"
                );
                b.play(p).unwrap();
                assert_eq!(b.winner(), Some(attacker));
                return;
            }
            // A defender's four must have been answered by this very move.
            let theirs = five_points(&b, defender);
            assert!(
                theirs.is_empty() || theirs == vec![p],
                "ignored the defender's four {theirs:?}"
            );
            b.play(p).unwrap();
            let fives = five_points(&b, attacker);
            assert!(!fives.is_empty(), "{p} is not a four");
            let reply = line[i + 1];
            assert!(
                fives.contains(&reply),
                "the reply {reply} does not block a five point"
            );
            assert!(
                five_points(&b, defender).is_empty(),
                "the defender could make a five"
            );
        } else {
            b.play(p).unwrap();
        }
    }
}

#[test]
fn vcf_puzzles_are_solved_at_their_shortest_length() {
    let text = include_str!("data/gomoku_vcf_puzzles.jsonl");
    let mut cache = FailCache::new(1 << 16);
    let (mut positive, mut negative) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        let pz: Puzzle = serde_json::from_str(line).unwrap();
        let mut board = Board::from_stones_any_counts(
            pz.size,
            rule_of(&pz.rule),
            &points(&pz.black),
            &points(&pz.white),
            Color::Black,
        )
        .unwrap();
        let mut vcf = Vcf::new(&mut cache, 1_000_000);
        let found = vcf.solve(&mut board, pz.depth);
        assert!(!vcf.aborted(), "puzzle {}: node limit", i + 1);
        match (pz.vcf_moves, found) {
            (Some(n), Some(line)) => {
                assert_eq!(line.moves, n, "puzzle {}: length", i + 1);
                check_vcf_line(&board, &line.cells, line.moves);
                positive += 1;
            }
            (None, None) => negative += 1,
            (want, got) => panic!("puzzle {}: want {want:?}, got {got:?}", i + 1),
        }
    }
    assert!(positive >= 30, "{positive} VCF puzzles");
    assert!(negative >= 10, "{negative} positions without a VCF");
}

fn stones(rule: Rule, black: &str, white: &str, to_move: Color) -> Board {
    let p = |s: &str| parse_sequence(s).unwrap();
    Board::from_stones(15, rule, &p(black), &p(white), to_move).unwrap()
}

/// The attacker's (side to move's) shortest VCF or VCT within `moves`.
fn threat_win(board: &mut Board, moves: u32) -> Option<u32> {
    let mut cache = FailCache::new(1 << 16);
    if let Some(line) = Vcf::new(&mut cache, 200_000).solve(board, moves) {
        return Some(line.moves);
    }
    Vct::new(&mut cache, 200_000, None)
        .solve(board, moves)
        .map(|p| p.moves)
}

/// A VCT puzzle: the solver proves a win of exactly `moves` attacker moves with no VCF
/// at all, and after its first move every legal defender reply — all empty points, not
/// only the solver's defence set — still loses to a VCF or VCT of `moves - 1`.
fn check_vct(mut board: Board, moves: u32) -> Point {
    let mut cache = FailCache::new(1 << 16);
    assert!(
        Vcf::new(&mut cache, 200_000)
            .solve(&mut board, 10)
            .is_none(),
        "a VCF: not a VCT puzzle"
    );
    let proof = Vct::new(&mut cache, 500_000, None)
        .solve(&mut board, moves)
        .expect("a VCT");
    assert_eq!(proof.moves, moves);
    let defender = board.to_move().opponent();
    board.make(proof.first);
    let replies: Vec<Cell> = board.empty_cells().collect();
    for r in replies {
        if !board.is_legal_for(r, defender) {
            continue;
        }
        board.make(r);
        let after = threat_win(&mut board, moves - 1);
        assert!(
            after.is_some_and(|n| n < moves),
            "reply {} refutes {}",
            point_of(r),
            point_of(proof.first)
        );
        board.unmake();
    }
    point_of(proof.first)
}

/// Black e8 f8 and g6 g7, white far away: g8 makes two open threes at once (row
/// e8-f8-g8 and column g6-g7-g8); white can stop one, black makes a straight four of
/// the other, then five: 3 moves.
#[test]
fn vct_double_three() {
    let b = stones(Rule::Freestyle, "e8f8g6g7", "a1a3o15o13", Color::Black);
    assert_eq!(check_vct(b, 3), "g8".parse().unwrap());
}

/// Black d8 f8 (a split two) and g9 g10: g8 makes the split three d8-f8-g8 and the
/// three g8-g9-g10: 3 moves; the same for white with the colours swapped (black's
/// stones in the corners, where no four can come of them).
#[test]
fn vct_split_and_solid_three() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        let b = stones(rule, "d8f8g9g10", "a1a3o15o13", Color::Black);
        assert_eq!(check_vct(b, 3), "g8".parse().unwrap());
        let w = stones(rule, "a1o1a15o15h1", "d8f8g9g10", Color::White);
        assert_eq!(check_vct(w, 3), "g8".parse().unwrap());
    }
}

/// Under RENJU the same shape is a forbidden double-three for black: no VCT for black
/// through g8 (g8 is forbidden), while white may play it.
#[test]
fn renju_black_cannot_win_by_a_forbidden_double_three() {
    let mut b = stones(Rule::Renju, "d8f8g9g10", "a1a3o15o13", Color::Black);
    assert_eq!(
        b.forbidden("g8".parse().unwrap()),
        Some(gameai::gomoku::ForbiddenKind::DoubleThree)
    );
    assert_eq!(threat_win(&mut b, 3), None);
    let answer = Searcher::new(1 << 20)
        .search(&mut b, &Limits::nodes(3_000))
        .unwrap();
    assert_ne!(answer.best, "g8".parse().unwrap());
}

/// Renju: white d4 d5 d6 (d3 black) and black a8 b8 c8 . e8 f8. White d7 makes a four
/// whose only five point d8 would give black six in a row — a forbidden overline, so
/// black cannot block and white wins: a VCF of 2 moves, found by the search too.
#[test]
fn renju_white_wins_through_a_forbidden_block() {
    let mut b = stones(Rule::Renju, "a8b8c8e8f8d3", "d4d5d6o1o3", Color::White);
    let mut cache = FailCache::new(1 << 12);
    let line = Vcf::new(&mut cache, 10_000)
        .solve(&mut b, 4)
        .expect("a VCF");
    assert_eq!(
        (point_of(line.cells[0]), line.moves),
        ("d7".parse().unwrap(), 2)
    );
    let answer = Searcher::new(1 << 20)
        .search(&mut b, &Limits::nodes(3_000))
        .unwrap();
    assert_eq!(answer.best, "d7".parse().unwrap());
    assert_eq!(answer.forced_win_in, Some(2));
    assert_eq!(answer.reason, Reason::Vcf);
    // In freestyle black's block d8 is allowed (and makes six, a win): no VCF for white.
    let mut free = stones(Rule::Freestyle, "a8b8c8e8f8d3", "d4d5d6o1o3", Color::White);
    assert!(Vcf::new(&mut cache, 10_000).solve(&mut free, 4).is_none());
}

/// Win in one is always taken, and a four is always blocked, in hand-set positions on
/// every edge (the search's forced facts).
#[test]
fn win_in_one_and_block_on_the_edges() {
    let cases = [
        // Black a1..a4 (column a, bottom-left corner): a5 wins.
        ("a1a2a3a4", "c1c2c3o15", Color::Black, "a5"),
        // White o12..o15 (right edge, top corner): black must block o11.
        ("a1c3e5h8", "o12o13o14o15", Color::Black, "o11"),
        // Black l15..o15 on the top edge: k15 wins (before white's own five at a5).
        ("l15m15n15o15", "a1a2a3a4", Color::Black, "k15"),
        // Anti-diagonal into the a15 corner: black b14 c13 d12 e11 (f10 white), a15 wins.
        ("b14c13d12e11", "o1o2o3f10", Color::Black, "a15"),
    ];
    for (black, white, to_move, want) in cases {
        let mut b = stones(Rule::Freestyle, black, white, to_move);
        let answer = Searcher::new(1 << 20)
            .search(&mut b, &Limits::nodes(2_000))
            .unwrap();
        assert_eq!(answer.best, want.parse().unwrap(), "{black} / {white}");
    }
}

#[derive(serde::Deserialize)]
struct VctPuzzle {
    rule: String,
    black: Vec<String>,
    white: Vec<String>,
    /// The engine's first move when the position was made.
    first: String,
    /// The independent oracle's (`tools/gomoku/vct_oracle.py`) verdicts: black's
    /// shortest VCF within `vcf_within` moves (none, in every puzzle), its shortest win
    /// by continuous threats against every reply, every first move winning that fast,
    /// and the fewest moves within which `first` wins.
    vcf_within: u32,
    vcf: Option<u32>,
    vct_moves: u32,
    winning_first: Vec<String>,
    first_wins_in: Option<u32>,
}

/// VCT puzzles from random positions (black to move), judged by a solver written apart
/// from the engine (`tools/gomoku/vct_oracle.py`: plain run counting, every empty point
/// tried as the defender's reply). The engine finds no VCF where the oracle finds none,
/// and its VCT opens with a move the oracle proves to win in exactly the moves the engine
/// claims: the oracle's shortest, or (puzzle 12, below) a longer real win.
///
/// Known difference, pinned: in puzzle 12 the oracle wins in 4 with h6, a move that makes
/// no three but threatens a VCF (h5, forcing i6, then the straight four h3); the engine's
/// VCT plays only fours and threes, so it proves g6 in 5, which the oracle confirms wins
/// in 5 and no fewer. When the engine learns such threats, puzzle 12 joins the others.
#[test]
fn vct_puzzles_agree_with_the_independent_oracle() {
    let text = include_str!("data/gomoku_vct_puzzles.jsonl");
    let mut shortest = 0;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let pz: VctPuzzle = serde_json::from_str(line).unwrap();
        let mut b = Board::from_stones_any_counts(
            15,
            rule_of(&pz.rule),
            &points(&pz.black),
            &points(&pz.white),
            Color::Black,
        )
        .unwrap();
        let mut cache = FailCache::new(1 << 16);
        let vcf = Vcf::new(&mut cache, 200_000)
            .solve(&mut b, pz.vcf_within)
            .map(|l| l.moves);
        assert_eq!(vcf, pz.vcf, "puzzle {n}: VCF");
        let proof = Vct::new(&mut cache, 500_000, None)
            .solve(&mut b, 6)
            .unwrap_or_else(|| panic!("puzzle {n}: no VCT"));
        let first = point_of(proof.first).to_string();
        if proof.moves == pz.vct_moves {
            assert!(
                pz.winning_first.contains(&first),
                "puzzle {n}: first move {first} is not among the oracle's {:?}",
                pz.winning_first
            );
            shortest += 1;
        } else {
            assert!(
                proof.moves > pz.vct_moves,
                "puzzle {n}: {proof:?} beats the oracle"
            );
            assert_eq!(
                (first.as_str(), Some(proof.moves)),
                (pz.first.as_str(), pz.first_wins_in),
                "puzzle {n}: {proof:?}, oracle {:?} in {}",
                pz.winning_first,
                pz.vct_moves
            );
        }
    }
    assert_eq!(
        shortest, 11,
        "puzzles the engine solves at the oracle's shortest"
    );
}

/// Writes VCT puzzle positions to stdout: `cargo test --release --test gomoku_tactics
/// generate_vct_puzzles -- --ignored --nocapture`; their verdicts are then the oracle's
/// (`python3 tools/gomoku/vct_oracle.py judge`, tests/data/README.md). Random clusters of stones (seeded),
/// black to move, kept when black has no VCF, the solver proves a VCT of 4 or 5 moves,
/// and every defender reply at the first two defender turns still loses (all empty
/// points tried, not only the solver's defence set).
#[test]
#[ignore]
fn generate_vct_puzzles() {
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(20_240);
    let mut made = 0;
    while made < 12 {
        let (cx, cy) = (rng.random_range(4..11u8), rng.random_range(4..11u8));
        let mut area: Vec<Point> = (cx - 3..=cx + 3)
            .flat_map(|x| (cy - 3..=cy + 3).map(move |y| Point::new(x, y)))
            .collect();
        area.shuffle(&mut rng);
        let nb = rng.random_range(5..10);
        let nw = rng.random_range(nb - 2..=nb);
        let rule = if made % 3 == 2 {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        let Ok(mut b) =
            Board::from_stones_any_counts(15, rule, &area[..nb], &area[nb..nb + nw], Color::Black)
        else {
            continue;
        };
        if b.winner().is_some() {
            continue;
        }
        let mut cache = FailCache::new(1 << 18);
        if Vcf::new(&mut cache, 200_000).solve(&mut b, 12).is_some() {
            continue;
        }
        // The opponent must not have a four already (a forced block, not a puzzle).
        let mut fives = Vec::new();
        gameai::gomoku::search::threats::five_points(&b, Color::White, &mut fives);
        if !fives.is_empty() {
            continue;
        }
        let Some(proof) = Vct::new(&mut cache, 2_000_000, None).solve(&mut b, 5) else {
            continue;
        };
        if proof.moves < 4 {
            continue;
        }
        if !verify_two_levels(&mut b, proof.first, proof.moves) {
            eprintln!("rejected: a reply refutes the proof");
            continue;
        }
        let names = |c: Color| {
            let mut v: Vec<String> = b
                .history()
                .filter(|&p| b.stone(p) == Some(c))
                .map(|p| p.to_string())
                .collect();
            v.sort();
            v
        };
        println!(
            "{}",
            serde_json::json!({
                "rule": if rule == Rule::Standard { "standard" } else { "freestyle" },
                "black": names(Color::Black),
                "white": names(Color::White),
                "vct_moves": proof.moves,
                "first": point_of(proof.first).to_string(),
            })
        );
        made += 1;
    }
}

/// After `first`, every defender reply leaves the attacker a win in fewer moves, and
/// after each of those wins' first moves, every reply again does.
fn verify_two_levels(b: &mut Board, first: Cell, moves: u32) -> bool {
    let defender = b.to_move().opponent();
    b.make(first);
    let replies: Vec<Cell> = b.empty_cells().collect();
    let mut ok = true;
    for r in replies {
        if !b.is_legal_for(r, defender) {
            continue;
        }
        b.make(r);
        let mut cache = FailCache::new(1 << 16);
        let next = Vcf::new(&mut cache, 200_000)
            .solve(b, moves - 1)
            .map(|l| (l.cells[0], l.moves))
            .or_else(|| {
                Vct::new(&mut cache, 500_000, None)
                    .solve(b, moves - 1)
                    .map(|p| (p.first, p.moves))
            });
        ok = match next {
            Some((m, n)) if n < moves => {
                n <= 2 || {
                    let d2 = b.to_move().opponent();
                    b.make(m);
                    let rs: Vec<Cell> = b.empty_cells().collect();
                    let all = rs.into_iter().all(|r2| {
                        if !b.is_legal_for(r2, d2) {
                            return true;
                        }
                        b.make(r2);
                        let w = threat_win(b, n - 1).is_some_and(|k| k < n);
                        b.unmake();
                        w
                    });
                    b.unmake();
                    all
                }
            }
            _ => false,
        };
        b.unmake();
        if !ok {
            break;
        }
    }
    b.unmake();
    ok
}

/// Replays `line` (attacker first) on `board` by the rules alone (`Board::play`: empty
/// points, legal for the colour) and says who has won at its end.
fn replay(mut board: Board, line: &[Point]) -> Option<Color> {
    for (i, &p) in line.iter().enumerate() {
        assert!(
            board.winner().is_none(),
            "the game ended before move {i} of {line:?}"
        );
        board
            .play(p)
            .unwrap_or_else(|e| panic!("move {i} ({p}) of {line:?}: {e}"));
    }
    board.winner()
}

/// Issue 33: a VCT answer's principal variation is the proof's line, not its first move
/// alone. Worked by hand for the double three (see `vct_double_three`): g8, white
/// stops one three, black makes a straight four of the other, white blocks one end,
/// black plays five: 5 plies, 3 attacker moves. For the puzzles, the line is replayed
/// by the rules alone: it must end in the attacker's five after 2 * moves - 1 plies.
#[test]
fn a_vct_answer_gives_the_whole_proof_line() {
    let mut cases = vec![(
        stones(Rule::Freestyle, "e8f8g6g7", "a1a3o15o13", Color::Black),
        3,
    )];
    for line in include_str!("data/gomoku_vct_puzzles.jsonl").lines() {
        let pz: VctPuzzle = serde_json::from_str(line).unwrap();
        let b = Board::from_stones_any_counts(
            15,
            rule_of(&pz.rule),
            &points(&pz.black),
            &points(&pz.white),
            Color::Black,
        )
        .unwrap();
        // The length the engine's first move wins in, by the oracle: the shortest in 11
        // puzzles, 5 in puzzle 12 (see `vct_puzzles_agree_with_the_independent_oracle`).
        cases.push((b, pz.first_wins_in.expect("the recorded first move wins")));
    }
    for (board, moves) in cases {
        let attacker = board.to_move();
        let mut searched = board.clone();
        let result = Searcher::new(4 << 20)
            .search(&mut searched, &Limits::default())
            .unwrap();
        assert_eq!(result.reason, Reason::Vct);
        assert_eq!(result.forced_win_in, Some(moves));
        assert_eq!(result.pv[0], result.best);
        assert_eq!(result.pv.len(), 2 * moves as usize - 1, "{:?}", result.pv);
        assert_eq!(replay(board, &result.pv), Some(attacker), "{:?}", result.pv);
    }
}
