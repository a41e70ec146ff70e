//! Self-play A/B matches between two parameter sets of the gomoku search, for tuning.
//!
//! ```text
//! cargo run --release --example gomoku_selfplay -- --games 100 --ms 100 \
//!     --a "lmp=0" --b "lmp=3" [--size 15] [--rule freestyle] [--seed 1] [--nodes N]
//! ```
//!
//! Each opening (the centre plus 1-3 random moves within two points of it, from
//! `--seed`) is played twice, A as black then B as black. A parameter set is a comma
//! list of `name=value` over the defaults (`lmr`, `lmp`, `lmps`, `lmpd`, `dw`, `vct`, `rvd`, `qsd`, `qsp`, `qsc`, `nm`, `et`, `le`, `soft`, `fut`). Prints
//! one line per game and A's score with a 95% interval and the Elo difference.

use std::time::{Duration, Instant};

use clap::Parser;
use gameai::gomoku::search::{Limits, Params, Searcher};
use gameai::gomoku::{Board, Color, Point, Rule};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Parser)]
struct Args {
    /// Games (rounded up to an even number: each opening with both colours).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 100)]
    ms: u64,
    /// Nodes per move instead of time (deterministic).
    #[arg(long)]
    nodes: Option<u64>,
    /// Parameters of engine A.
    #[arg(long, default_value = "")]
    a: String,
    /// Parameters of engine B.
    #[arg(long, default_value = "")]
    b: String,
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table MiB per engine.
    #[arg(long, default_value_t = 32)]
    hash_mb: usize,
    /// Print each game's moves (for recorded positions).
    #[arg(long)]
    record: bool,
}

fn params(spec: &str) -> Params {
    let mut p = Params::default();
    for item in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = item.split_once('=').expect("name=value");
        let n: i64 = v.parse().expect("a number");
        match k {
            "lmr" => p.lmr = n != 0,
            "lmp" => p.lmp_base = n as usize,
            "lmps" => p.lmp_step = n as usize,
            "lmpd" => p.lmp_depth = n as i32,
            "dw" => p.defence_weight = n as i32,
            "vct" => p.vct_share = n as u32,
            "rvd" => p.root_vcf_defence = n != 0,
            "qsd" => p.qs_defend = n != 0,
            "qsp" => p.qs_plies = n as i32,
            "qsc" => p.qs_check_plies = n as i32,
            "nm" => p.null_move = n != 0,
            "et" => p.eval_threats = n != 0,
            "le" => p.learned_eval = n != 0,
            "soft" => p.soft_percent = n as u32,
            "fut" => p.futility_margin = n as i32,
            "text" => p.threat_extension = n != 0,
            "lmrd" => p.lmr_divisor = n as i32,
            _ => panic!("unknown parameter {k}"),
        }
    }
    p
}

fn opening(rng: &mut StdRng, size: usize, rule: Rule) -> Vec<Point> {
    let m = (size / 2) as i32;
    let mut moves = vec![Point::new(m as u8, m as u8)];
    let extra = rng.random_range(1..=3);
    while moves.len() <= extra {
        let x = m + rng.random_range(-2..=2);
        let y = m + rng.random_range(-2..=2);
        let p = Point::new(x as u8, y as u8);
        if !moves.contains(&p) {
            moves.push(p);
        }
    }
    let _ = Board::from_moves(size, rule, &moves).expect("a legal opening");
    moves
}

/// Plays one game; the result from black's view: 1 win, 0.5 draw, 0 loss.
fn play(args: &Args, rule: Rule, open: &[Point], black: Params, white: Params) -> (f64, usize) {
    let (result, board) = play_game(args, rule, open, black, white);
    if args.record {
        let moves: String = board.history().map(|p| p.to_string()).collect();
        println!("game {} {} {moves}", args.size, args.rule);
    }
    (result, board.stone_count())
}

fn play_game(
    args: &Args,
    rule: Rule,
    open: &[Point],
    black: Params,
    white: Params,
) -> (f64, Board) {
    let mut board = Board::from_moves(args.size, rule, open).unwrap();
    let mut engines = [
        Searcher::new(args.hash_mb << 20),
        Searcher::new(args.hash_mb << 20),
    ];
    engines[0].params = black;
    engines[1].params = white;
    while !board.is_over() {
        let side = board.to_move().index();
        let limits = match args.nodes {
            Some(n) => Limits::nodes(n),
            None => Limits::until(Instant::now() + Duration::from_millis(args.ms)),
        };
        let answer = engines[side].search(&mut board, &limits).expect("a move");
        board.play(answer.best).unwrap();
    }
    let result = match board.winner() {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    (result, board)
}

fn main() {
    let args = Args::parse();
    let rule = match args.rule.as_str() {
        "freestyle" => Rule::Freestyle,
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        r => panic!("unknown rule {r}"),
    };
    let (pa, pb) = (params(&args.a), params(&args.b));
    println!("A = {pa:?}\nB = {pb:?}");
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut scores = Vec::new();
    let mut black_score = 0.0;
    for g in 0..args.games.div_ceil(2) {
        let open = opening(&mut rng, args.size, rule);
        let (r1, n1) = play(&args, rule, &open, pa, pb);
        let (r2, n2) = play(&args, rule, &open, pb, pa);
        black_score += r1 + r2;
        scores.push(r1);
        scores.push(1.0 - r2);
        let text: String = open.iter().map(Point::to_string).collect();
        println!(
            "opening {g:3} {text:<12} A black: {r1} ({n1} stones)  A white: {} ({n2} stones)",
            1.0 - r2
        );
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let se = (var / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(0.001, 0.999) - 1.0).log10();
    println!(
        "A scores {:.1}/{n} = {:.3} ± {:.3} (95%): Elo {:+.0} [{:+.0}, {:+.0}]; black scored {:.3}",
        mean * n,
        mean,
        1.96 * se,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se),
        black_score / n
    );
}
