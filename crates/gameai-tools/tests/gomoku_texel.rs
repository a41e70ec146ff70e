//! The learned evaluation's fitting (`gameai_tools::texel`, `gomoku-texel`).

use gameai::gomoku::learned::Weights;
use gameai::gomoku::search::eval::evaluate_learned;
use gameai::gomoku::{Board, Rule};
use gameai_tools::texel::{
    FEATURES, PER_ROLE, Sample, counts, eval_with, fit, fit_scale, flatten, read_games, samples,
    split,
};

/// 24 self-play games, committed so that the fit below does not depend on the search:
/// `gomoku-texel --rule freestyle --games 24 --seed 5 --strengths 300,1000 --steps 200
/// --games-out tests/data/gomoku_texel_games.txt --out tests/data/gomoku_texel_expected.txt`
/// wrote both files (the second is the table this test must reproduce).
const GAMES: &str = include_str!("data/gomoku_texel_games.txt");

/// The table the fit below wrote when it was committed (`to_text` of its weights).
const EXPECTED: &str = include_str!("data/gomoku_texel_expected.txt");

#[test]
fn the_fit_reproduces_from_the_fixed_games() {
    let games = read_games(GAMES, Rule::Freestyle);
    assert_eq!(games.len(), 24);
    let train = samples(&split(&games).0, 6);
    let k = fit_scale(&train);
    let fitted = fit(&train, &Weights::hand(), k, 200, 2.0);
    let expected = Weights::parse(EXPECTED).unwrap();
    // Integer weights; allow one sixteenth for a last-bit difference of the floats.
    let (got, want) = (flatten(&fitted.weights), flatten(&expected));
    for i in 0..FEATURES {
        assert!(
            (got[i] - want[i]).abs() <= 1.0,
            "weight {i}: {} != {}\n{}",
            got[i],
            want[i],
            fitted.weights.to_text("got")
        );
    }
    assert!(fitted.end_error < fitted.start_error);
}

#[test]
fn the_scale_of_results_drawn_from_a_known_curve_is_found() {
    // Hand-made samples whose results are exactly σ(eval / 250): the best K is 250.
    let samples: Vec<Sample> = (-40..=40)
        .map(|i| {
            let e = i * 25;
            Sample {
                counts: [0.0; FEATURES],
                result: 1.0 / (1.0 + (-(e as f64) / 250.0).exp()),
                hand_eval: e,
            }
        })
        .collect();
    let k = fit_scale(&samples);
    assert!((k - 250.0).abs() < 0.5, "K = {k}");
}

#[test]
fn the_counts_times_the_weights_are_the_boards_incremental_evaluation() {
    // Two separate computations of the same number: the tool's counts of a position
    // (a scan of every empty point) dotted with the freestyle table, and the board's
    // incrementally kept sums of the 65,536-entry point tables.
    let w = flatten(gameai::gomoku::learned::weights(Rule::Freestyle));
    for game in read_games(GAMES, Rule::Freestyle).iter().take(6) {
        let mut board = Board::new(15, Rule::Freestyle).unwrap();
        board.keep_learned(true);
        for &m in &game.moves[..game.moves.len() - 1] {
            board.play(m).unwrap();
            let s = Sample {
                counts: counts(&board),
                result: 0.5,
                hand_eval: 0,
            };
            let raw = eval_with(&w, &s) * 16.0;
            // evaluate_learned divides by 16 with truncation and clamps.
            let engine = evaluate_learned(&board);
            assert!(
                ((raw / 16.0).trunc() as i32 - engine).abs() <= 0,
                "{raw} vs {engine} after {}",
                board.stone_count()
            );
        }
    }
    assert_eq!(PER_ROLE * 2, FEATURES);
}
