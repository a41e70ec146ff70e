//! How soon the gomoku search stops after its deadline when its thread gets a small
//! share of the machine (issue 34): searches with a deadline on a thread at nice 15, as
//! the service runs its engine threads, each measured for the thread's CPU time spent
//! after the deadline (read from the thread's CPU clock at the deadline by a watcher)
//! and the wall time past it.
//!
//! ```text
//! cargo run --release --example gomoku_clock -- --runs 90 --deadline-ms 100
//! ```
//!
//! Run it beside busy processes to give the search thread a small share, e.g. two
//! `timeout 300 sh -c 'while :; do :; done' &`. Positions: the empty board's reply
//! `h8i9` (the issue's case) and middle games from seeded node-limited self-play, in
//! turn; freestyle unless `--rule renju`. Linux only.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use gameai::gomoku::search::{Limits, Searcher};
use gameai::gomoku::{Board, Point, Rule};

#[derive(Parser)]
struct Args {
    /// Searches.
    #[arg(long, default_value_t = 90)]
    runs: usize,
    /// Deadline of each search, milliseconds from its start.
    #[arg(long, default_value_t = 100)]
    deadline_ms: u64,
    /// Nice value of the search thread (the service's engine threads: 15).
    #[arg(long, default_value_t = 15)]
    nice: i32,
    /// freestyle or renju.
    #[arg(long, default_value = "freestyle")]
    rule: String,
    /// Transposition table MiB (the service's for budgets of 4 s and more: 64).
    #[arg(long, default_value_t = 64)]
    hash_mb: usize,
}

/// Milliseconds of a thread's CPU clock.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn cpu_ms(clock: libc::clockid_t) -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec; the clock belongs to a thread kept alive until
    // the reads are done.
    let rc = unsafe { libc::clock_gettime(clock, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// The calling thread's CPU clock, after setting its nice value.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn own_clock(nice: i32) -> libc::clockid_t {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: gettid and pthread_self have no preconditions; setpriority changes only
    // this thread's nice value; `clock` is a valid out pointer.
    unsafe {
        let tid = libc::gettid() as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, nice);
        assert_eq!(
            libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock),
            0
        );
    }
    clock
}

/// Positions: `h8i9`, then middle games (moves 12, 20, 28) of node-limited self-play
/// from a few fixed openings.
fn positions(rule: Rule) -> Vec<Vec<Point>> {
    let mut out = vec![gameai::gomoku::point::parse_sequence("h8i9").unwrap()];
    for opening in ["h8i9h9", "h8g9i7", "h8j8h10", "h8i8g7"] {
        let moves = gameai::gomoku::point::parse_sequence(opening).unwrap();
        let mut board = Board::from_moves(15, rule, &moves).unwrap();
        let mut searcher = Searcher::new(8 << 20);
        while board.stone_count() < 28 && !board.is_over() {
            let best = searcher
                .search(&mut board, &Limits::nodes(3_000))
                .unwrap()
                .best;
            board.play(best).unwrap();
            if [12, 20, 28].contains(&board.stone_count()) && !board.is_over() {
                out.push(board.history().collect());
            }
        }
    }
    out
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn main() {
    let args = Args::parse();
    let rule = match args.rule.as_str() {
        "renju" => Rule::Renju,
        _ => Rule::Freestyle,
    };
    let positions = positions(rule);
    let mut cpu_late = Vec::new();
    let mut wall_late = Vec::new();
    let mut share = Vec::new();
    for run in 0..args.runs {
        let moves = positions[run % positions.len()].clone();
        let (clock_tx, clock_rx) = mpsc::channel();
        let (done_tx, done_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let deadline_ms = args.deadline_ms;
        let hash = args.hash_mb << 20;
        let nice = args.nice;
        let worker = thread::spawn(move || {
            let clock = own_clock(nice);
            let start = Instant::now();
            let deadline = start + Duration::from_millis(deadline_ms);
            clock_tx.send((clock, deadline, cpu_ms(clock))).unwrap();
            let mut board = Board::from_moves(15, rule, &moves).unwrap();
            let mut searcher = Searcher::new(hash);
            let result = searcher
                .search(&mut board, &Limits::until(deadline))
                .unwrap();
            let end = Instant::now();
            done_tx.send((end, cpu_ms(clock), result.reason)).unwrap();
            // Stay alive (the clock valid) until the watcher has read it.
            let _ = release_rx.recv();
        });
        let (clock, deadline, cpu_start) = clock_rx.recv().unwrap();
        thread::sleep(deadline.saturating_duration_since(Instant::now()));
        let cpu_at_deadline = cpu_ms(clock);
        let (end, cpu_end, _reason) = done_rx.recv().unwrap();
        release_tx.send(()).unwrap();
        worker.join().unwrap();
        let late_cpu = (cpu_end - cpu_at_deadline).max(0.0);
        let late_wall = end.saturating_duration_since(deadline).as_secs_f64() * 1e3;
        let wall = (end - (deadline - Duration::from_millis(args.deadline_ms))).as_secs_f64() * 1e3;
        share.push((cpu_end - cpu_start) / wall);
        cpu_late.push(late_cpu);
        wall_late.push(late_wall);
    }
    for v in [&mut cpu_late, &mut wall_late, &mut share] {
        v.sort_by(f64::total_cmp);
    }
    let over = |v: &[f64], x: f64| v.iter().filter(|&&t| t > x).count();
    println!(
        "{} searches, deadline {} ms, nice {}, {} positions, rule {}",
        args.runs,
        args.deadline_ms,
        args.nice,
        positions.len(),
        args.rule
    );
    println!(
        "CPU ms after the deadline: p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}",
        percentile(&cpu_late, 0.5),
        percentile(&cpu_late, 0.9),
        percentile(&cpu_late, 0.99),
        cpu_late[cpu_late.len() - 1]
    );
    println!(
        "wall ms after the deadline: p50 {:.1} p90 {:.1} p99 {:.1} max {:.1}; over 5 ms: {}, over 20 ms: {}",
        percentile(&wall_late, 0.5),
        percentile(&wall_late, 0.9),
        percentile(&wall_late, 0.99),
        wall_late[wall_late.len() - 1],
        over(&wall_late, 5.0),
        over(&wall_late, 20.0)
    );
    println!(
        "the search thread's share of a core: p50 {:.3} (min {:.3}, max {:.3})",
        percentile(&share, 0.5),
        share[0],
        share[share.len() - 1]
    );
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() {
    let _ = Args::parse();
    eprintln!("gomoku_clock reads thread CPU clocks: Linux (glibc) only");
}
