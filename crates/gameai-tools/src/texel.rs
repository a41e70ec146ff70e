//! Fitting the gomoku engine's learned evaluation ([`gameai::gomoku::learned`]) to game
//! outcomes ("Texel tuning"), in three stages:
//!
//! 1. **Games** ([`self_play`]): the engine against itself from seeded random openings,
//!    node-limited (so the games are the same on every machine), at several strengths
//!    in turn; games from other sources (the Gomocup match harness's JSONL records,
//!    e.g. against Rapfi) may be added ([`read_games`]).
//! 2. **Positions** ([`samples`]): every quiet position of every game after the
//!    opening — no five point for either side and no flex-four point for the side to
//!    move, as where the search stands pat on the evaluation — with the game's result
//!    for the side to move (1, ½, 0) and the counts the evaluation weighs: per colour
//!    role (side to move = attack, opponent = defence), the line patterns over the
//!    empty points and directions, and the threat classes over the empty points.
//! 3. **Fit** ([`fit`]): first the scale `K` for which `σ(hand eval / K)` best predicts
//!    the results (mean squared error, as Texel tuning does), so the fitted weights keep
//!    the hand-made evaluation's units; then the weights, from the hand-made ones, by
//!    full-batch gradient descent (Adam, a fixed number of steps, a small pull towards
//!    the start for rarely seen features), rounded to integers. Deterministic.
//!
//! Run (reproduces `src/gomoku/learned/<rule>.txt`; see `docs/experiments/` for the
//! exact commands of each committed table):
//!
//! ```text
//! cargo run --release -p gameai-tools --bin gomoku-texel -- --rule freestyle \
//!     --games 400 --seed 1 --out src/gomoku/learned/freestyle.txt
//! ```

use gameai::gomoku::learned::{LINE_PATTERNS, Role, RoleWeights, Weights};
use gameai::gomoku::patterns::{COMBOS, Combo, LinePattern};
use gameai::gomoku::point::parse_sequence;
use gameai::gomoku::search::eval::evaluate_with;
use gameai::gomoku::search::{Limits, Searcher};
use gameai::gomoku::{Board, Color, Point, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Features per role: the line patterns, then the threat classes.
pub const PER_ROLE: usize = LINE_PATTERNS + COMBOS;
/// Features of a position.
pub const FEATURES: usize = 2 * PER_ROLE;

/// One game: the rule, the board size, the moves from the first, black's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub size: usize,
    pub rule: Rule,
    pub moves: Vec<Point>,
    /// 1 black won, 0 white won, 0.5 draw.
    pub black_score: f64,
}

/// One position: the counts, the result for the side to move, the hand-made eval.
#[derive(Clone, Debug)]
pub struct Sample {
    pub counts: [f32; FEATURES],
    pub result: f64,
    pub hand_eval: i32,
}

/// The rule named `name` (freestyle, standard, renju).
pub fn rule_of(name: &str) -> Option<Rule> {
    match name.to_ascii_lowercase().as_str() {
        "freestyle" => Some(Rule::Freestyle),
        "standard" => Some(Rule::Standard),
        "renju" => Some(Rule::Renju),
        _ => None,
    }
}

/// Stage 1: `games` games of the engine against itself under `rule` on 15x15, from
/// random openings of 3 to 5 stones within two points of the centre (from `seed`), at
/// the node limits `strengths` per move in turn (both sides the same).
pub fn self_play(rule: Rule, games: usize, seed: u64, strengths: &[u64]) -> Vec<Game> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..games)
        .map(|g| {
            let opening = random_opening(&mut rng, rule);
            let nodes = strengths[g % strengths.len()];
            play(rule, opening, nodes)
        })
        .collect()
}

fn random_opening(rng: &mut StdRng, rule: Rule) -> Vec<Point> {
    loop {
        let stones = rng.random_range(3..=5);
        let mut moves = vec![Point::new(7, 7)];
        while moves.len() < stones {
            let p = Point::new(rng.random_range(5..=9), rng.random_range(5..=9));
            if !moves.contains(&p) {
                moves.push(p);
            }
        }
        if Board::from_moves(15, rule, &moves).is_ok_and(|b| !b.is_over()) {
            return moves;
        }
    }
}

fn play(rule: Rule, opening: Vec<Point>, nodes: u64) -> Game {
    let mut board = Board::from_moves(15, rule, &opening).expect("a legal opening");
    let mut engines = [Searcher::new(8 << 20), Searcher::new(8 << 20)];
    while !board.is_over() && !board.is_full() {
        let side = board.to_move().index();
        let answer = engines[side]
            .search(&mut board, &Limits::nodes(nodes))
            .expect("a move");
        board.play(answer.best).expect("a legal move");
    }
    Game {
        size: 15,
        rule,
        moves: board.history().collect(),
        black_score: black_score(&board),
    }
}

fn black_score(board: &Board) -> f64 {
    match board.winner() {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    }
}

/// One game per line as [`write_games`] writes it.
pub fn write_games(games: &[Game]) -> String {
    games
        .iter()
        .map(|g| {
            let moves: String = g.moves.iter().map(Point::to_string).collect();
            format!("game {} {} {moves}\n", g.size, g.rule.name().to_lowercase())
        })
        .collect()
}

/// Games from text: lines `game SIZE RULE MOVES` (as [`write_games`] and the
/// `gomoku_selfplay --record` example write them; the result is read from the final
/// position) and the match harness's JSONL records (`tools/gomocup/`; games that
/// ended by a fault are skipped: their result says nothing of the position). Other
/// lines are skipped. Only games of `rule` are kept.
pub fn read_games(text: &str, rule: Rule) -> Vec<Game> {
    text.lines()
        .filter_map(|line| {
            if let Some(rest) = line.strip_prefix("game ") {
                parse_game_line(rest)
            } else if line.starts_with('{') {
                parse_record(line)
            } else {
                None
            }
        })
        .filter(|g| g.rule == rule)
        .collect()
}

fn parse_game_line(rest: &str) -> Option<Game> {
    let mut parts = rest.split_whitespace();
    let size: usize = parts.next()?.parse().ok()?;
    let rule = rule_of(parts.next()?)?;
    let moves = parse_sequence(parts.next()?).ok()?;
    let board = Board::from_moves(size, rule, &moves).ok()?;
    if !board.is_over() && !board.is_full() {
        return None;
    }
    Some(Game {
        size,
        rule,
        moves,
        black_score: black_score(&board),
    })
}

fn parse_record(line: &str) -> Option<Game> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    if !matches!(v["reason"].as_str()?, "five" | "full") {
        return None;
    }
    let size = v["size"].as_u64()? as usize;
    let rule = rule_of(v["rule"].as_str()?)?;
    let points = |key: &str| -> Option<Vec<Point>> {
        v[key]
            .as_array()?
            .iter()
            .map(|p| p.as_str()?.parse().ok())
            .collect()
    };
    let mut moves = points("opening")?;
    moves.extend(points("moves")?);
    let black_score = match v["result"].as_str()? {
        "black" => 1.0,
        "white" => 0.0,
        _ => 0.5,
    };
    Some(Game {
        size,
        rule,
        moves,
        black_score,
    })
}

/// The games fitted and the games held out (every tenth) to report the error on
/// positions the fit has not seen.
pub fn split(games: &[Game]) -> (Vec<Game>, Vec<Game>) {
    let (train, test): (Vec<_>, Vec<_>) = games.iter().enumerate().partition(|(i, _)| i % 10 != 9);
    let strip = |v: Vec<(usize, &Game)>| v.into_iter().map(|(_, g)| g.clone()).collect();
    (strip(train), strip(test))
}

/// Stage 2: the quiet positions of `games` after their first `skip` stones.
pub fn samples(games: &[Game], skip: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in games {
        let Ok(mut board) = Board::new(g.size, g.rule) else {
            continue;
        };
        for (i, &m) in g.moves.iter().enumerate() {
            if i >= skip && quiet(&board) {
                let us = board.to_move();
                let result = match us {
                    Color::Black => g.black_score,
                    Color::White => 1.0 - g.black_score,
                };
                out.push(Sample {
                    counts: counts(&board),
                    result,
                    hand_eval: evaluate_with(&board, 6),
                });
            }
            if board.play(m).is_err() {
                break;
            }
        }
    }
    out
}

/// Whether the search would stand pat here: no five point for either side and no
/// flex-four point for the side to move.
fn quiet(board: &Board) -> bool {
    let us = board.to_move();
    board.combo_count(us, Combo::Five) == 0
        && board.combo_count(us.opponent(), Combo::Five) == 0
        && board.combo_count(us, Combo::Flex4) == 0
}

/// The evaluation's counts for the side to move of `board` (see the module docs).
pub fn counts(board: &Board) -> [f32; FEATURES] {
    let mut f = [0f32; FEATURES];
    let us = board.to_move();
    for (r, color) in [us, us.opponent()].into_iter().enumerate() {
        let base = r * PER_ROLE;
        for c in board.empty_cells() {
            let combo = board.combo(c, color);
            if matches!(combo, Combo::Five | Combo::Forbidden) {
                continue;
            }
            for d in 0..4 {
                f[base + board.pattern(c, color, d) as usize] += 1.0;
            }
            f[base + LINE_PATTERNS + combo as usize] += 1.0;
        }
    }
    f
}

/// The weights as one vector, attack then defence, lines then classes.
pub fn flatten(w: &Weights) -> [f64; FEATURES] {
    let mut v = [0.0; FEATURES];
    for r in 0..2 {
        for c in 0..LINE_PATTERNS {
            v[r * PER_ROLE + c] = w.roles[r].line[c] as f64;
        }
        for c in 0..COMBOS {
            v[r * PER_ROLE + LINE_PATTERNS + c] = w.roles[r].combo[c] as f64;
        }
    }
    v
}

fn unflatten(v: &[f64; FEATURES]) -> Weights {
    let role = |r: usize| RoleWeights {
        line: std::array::from_fn(|c| v[r * PER_ROLE + c].round() as i32),
        combo: std::array::from_fn(|c| v[r * PER_ROLE + LINE_PATTERNS + c].round() as i32),
    };
    Weights {
        roles: [role(Role::Attack as usize), role(Role::Defence as usize)],
    }
}

/// Features held at 0: dead lines, overlines and fives (lines), fives, forbidden
/// points and empty classes (combos) — the evaluation never sees them or they carry
/// no information.
fn fixed(i: usize) -> bool {
    let k = i % PER_ROLE;
    if k < LINE_PATTERNS {
        let p = LinePattern::from_code(k as u8);
        matches!(
            p,
            LinePattern::Dead | LinePattern::Overline | LinePattern::F5
        )
    } else {
        let c = Combo::from_code((k - LINE_PATTERNS) as u8);
        matches!(c, Combo::Five | Combo::Forbidden | Combo::None)
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `σ(eval / k)` against the results.
pub fn error(samples: &[Sample], eval: impl Fn(&Sample) -> f64, k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(eval(s) / k)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The learned evaluation of a sample under `w` (score units): attack counts add,
/// defence counts subtract, in sixteenths.
pub fn eval_with(w: &[f64; FEATURES], s: &Sample) -> f64 {
    let dot = |range: std::ops::Range<usize>| -> f64 {
        range.map(|i| w[i] * f64::from(s.counts[i])).sum()
    };
    (dot(0..PER_ROLE) - dot(PER_ROLE..FEATURES)) / 16.0
}

/// The scale `K` that best fits the hand-made evaluation (golden-section search on
/// a log scale between 10 and 10,000).
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let err = |lk: f64| error(samples, |s| f64::from(s.hand_eval), lk.exp());
    let (mut a, mut b) = (10f64.ln(), 10_000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// What [`fit`] found.
pub struct Fitted {
    pub weights: Weights,
    pub k: f64,
    pub start_error: f64,
    pub end_error: f64,
}

/// Stage 3: the weights from `start` that best predict the results of `samples` at
/// scale `k`: `steps` full-batch Adam steps of size `rate` (sixteenths), with an L2
/// pull of `pull` towards `start`.
pub fn fit(samples: &[Sample], start: &Weights, k: f64, steps: usize, rate: f64) -> Fitted {
    let pull = 1e-7;
    let w0 = flatten(start);
    let mut w = w0;
    let (mut m, mut v) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (b1, b2) = (0.9, 0.999);
    let n = samples.len().max(1) as f64;
    let start_error = error(samples, |s| eval_with(&w, s), k);
    for t in 1..=steps {
        let mut grad = [0.0; FEATURES];
        for s in samples {
            let p = sigmoid(eval_with(&w, s) / k);
            // d(err)/d(eval) = -2 (r - p) p (1 - p) / k; d(eval)/d(w_i) = ±count / 16.
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / k / 16.0;
            for (i, gi) in grad.iter_mut().enumerate() {
                let sign = if i < PER_ROLE { 1.0 } else { -1.0 };
                *gi += g * sign * f64::from(s.counts[i]);
            }
        }
        for i in 0..FEATURES {
            if fixed(i) {
                continue;
            }
            let gi = grad[i] / n + 2.0 * pull * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    let weights = unflatten(&w);
    let rounded = flatten(&weights);
    Fitted {
        end_error: error(samples, |s| eval_with(&rounded, s), k),
        weights,
        k,
        start_error,
    }
}
