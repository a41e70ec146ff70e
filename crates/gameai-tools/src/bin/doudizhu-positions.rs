//! `doudizhu-positions`: labelled perfect-information Dou Dizhu positions from self-play
//! under the search's playout policy (issue 36; record format and labels in
//! `gameai_tools::doudizhu::positions`).
//!
//! ```sh
//! cargo run --release -p gameai-tools --bin doudizhu-positions -- \
//!     --out /tmp/ddz-positions --seed 1 --games 20000 --chunk 500 --jobs 2
//! ```
//!
//! Resumable: the same command skips the chunks already written. Prints positions and
//! games per hour at the end (and a line per chunk).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use clap::Parser;
use gameai_tools::doudizhu::positions::{Generator, Settings, write_chunk};

#[derive(Parser)]
#[command(about = "Labelled Dou Dizhu positions from playout-policy self-play")]
struct Args {
    /// Output directory (created).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games (rounded up to whole chunks).
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Games per chunk file.
    #[arg(long, default_value_t = 500)]
    chunk: u64,
    /// Threads.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Positions with at most this many cards get the solver's exact result.
    #[arg(long, default_value_t = 16)]
    exact_cards: usize,
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    std::fs::create_dir_all(&args.out)?;
    let settings = Settings {
        exact_cards: args.exact_cards,
        ..Settings::default()
    };
    let chunks = args.games.div_ceil(args.chunk);
    let next = AtomicU64::new(0);
    let positions = AtomicUsize::new(0);
    let written_chunks = AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.jobs.max(1) {
            s.spawn(|| -> std::io::Result<()> {
                let mut generator = Generator::new(settings);
                loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        return Ok(());
                    }
                    let n = write_chunk(&mut generator, &args.out, args.seed, c, args.chunk)?;
                    if n > 0 {
                        positions.fetch_add(n, Ordering::Relaxed);
                        written_chunks.fetch_add(1, Ordering::Relaxed);
                        eprintln!(
                            "chunk {c}: {n} positions; {:.0} s",
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let hours = started.elapsed().as_secs_f64() / 3600.0;
    let n = positions.load(Ordering::Relaxed);
    let games = written_chunks.load(Ordering::Relaxed) * args.chunk;
    println!(
        "{n} positions from {games} games in {:.0} s with {} thread(s): {:.0} positions/hour, {:.0} games/hour",
        hours * 3600.0,
        args.jobs,
        n as f64 / hours.max(1e-9),
        games as f64 / hours.max(1e-9)
    );
    Ok(())
}
