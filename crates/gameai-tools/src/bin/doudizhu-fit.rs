//! `doudizhu-fit`: fits the Dou Dizhu search's learned evaluation (logistic, issue 36)
//! on positions written by `doudizhu-positions`, writes the weights file the library
//! compiles in, and prints the calibration per decile on held-out positions (another
//! seed's games), as Markdown.
//!
//! The committed `src/doudizhu/search/eval_weights.txt` is reproduced by (training
//! seed 1, held-out seed 2; see `docs/experiments/2026-12-06-doudizhu-learned-eval.md`):
//!
//! ```sh
//! cargo run --release -p gameai-tools --bin doudizhu-positions -- --out /tmp/ddz-positions --seed 1 --games 60000
//! cargo run --release -p gameai-tools --bin doudizhu-positions -- --out /tmp/ddz-positions --seed 2 --games 10000
//! cargo run --release -p gameai-tools --bin doudizhu-fit -- --data /tmp/ddz-positions \
//!     --train-seed 1 --test-seed 2 --every 12 --iterations 8 --out src/doudizhu/search/eval_weights.txt
//! ```
//!
//! (The chunk size and the threads do not change the positions, only how they are split
//! into files; the fit reads them in game order either way.) Prints the cost of the
//! features and of the prediction per held-out position.

use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use gameai_tools::doudizhu::fit::{calibration, featurize, fit, predictions, scores};
use gameai_tools::doudizhu::positions::read_dir;

#[derive(Parser)]
#[command(about = "Fits the Dou Dizhu learned evaluation and prints its calibration")]
struct Args {
    /// Directory of `positions-*.txt` files.
    #[arg(long)]
    data: PathBuf,
    /// Seeds fitted on.
    #[arg(long, num_args = 1.., default_value = "1")]
    train_seed: Vec<u64>,
    /// Seeds held out for the calibration.
    #[arg(long, num_args = 1.., default_value = "2")]
    test_seed: Vec<u64>,
    /// Keep one training position in this many.
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// L2 penalty on the weights.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Newton iterations at most.
    #[arg(long, default_value_t = 12)]
    iterations: usize,
    /// Where the weights go (not written when absent).
    #[arg(long)]
    out: Option<PathBuf>,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let started = Instant::now();
    let train = read_dir(&args.data, &args.train_seed, args.every)?;
    let test = read_dir(&args.data, &args.test_seed, 1)?;
    if train.is_empty() || test.is_empty() {
        return Err("no training or no held-out positions".into());
    }
    let train_data = featurize(&train);
    let timed = Instant::now();
    let test_data = featurize(&test);
    let featurize_us = timed.elapsed().as_secs_f64() * 1e6 / test.len() as f64;
    let model = fit(&train_data, args.lambda, args.iterations);
    eprintln!(
        "fitted on {} positions ({} features) in {:.0} s",
        train_data.len(),
        train_data.dim,
        started.elapsed().as_secs_f64()
    );
    let p_train = predictions(&model, &train_data);
    let timed = Instant::now();
    let p_test = predictions(&model, &test_data);
    let predict_us = timed.elapsed().as_secs_f64() * 1e6 / test.len() as f64;
    let (ll_tr, br_tr) = scores(&p_train, &train_data.y);
    let (ll, br) = scores(&p_test, &test_data.y);
    let base = test_data.y.iter().map(|&v| f64::from(v)).sum::<f64>() / test_data.len() as f64;
    let (ll0, br0) = scores(&vec![base; test_data.len()], &test_data.y);
    println!(
        "train seeds {:?}: {} positions, log loss {ll_tr:.4}, Brier {br_tr:.4}",
        args.train_seed,
        train_data.len()
    );
    println!(
        "held-out seeds {:?}: {} positions, log loss {ll:.4}, Brier {br:.4} (constant {base:.3}: log loss {ll0:.4}, Brier {br0:.4})\n",
        args.test_seed,
        test_data.len()
    );
    println!(
        "cost per held-out position (one thread, this machine's load): features {featurize_us:.2} us (hand values memoised across positions), dot product and sigmoid {predict_us:.3} us\n"
    );
    println!("| decile | positions | predicted | observed |\n| --- | --- | --- | --- |");
    for (k, d) in calibration(&p_test, &test_data.y).iter().enumerate() {
        println!(
            "| {} | {} | {:.3} | {:.3} |",
            k + 1,
            d.count,
            d.predicted,
            d.observed
        );
    }
    if let Some(out) = &args.out {
        let header = format!(
            "Dou Dizhu learned evaluation (issue 36): logistic weights written by doudizhu-fit.\n\
             data: doudizhu-positions seeds {:?}, one position in {}; lambda {}; {} positions.\n\
             held-out seeds {:?}: log loss {ll:.4}, Brier {br:.4}.",
            args.train_seed,
            args.every,
            args.lambda,
            train_data.len(),
            args.test_seed
        );
        std::fs::write(out, model.to_text(&header))
            .map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}
