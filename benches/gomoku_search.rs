//! Gomoku engine speed, by stage: pattern updates (make + unmake); the main search alone
//! (PVS with its quiescence, iterative deepening to a fixed depth, no threat solvers);
//! the whole search at a fixed depth on recorded positions (root VCF and VCT, then the
//! main search: its node count is mostly the root VCT's on some positions); and VCF /
//! VCT solve times on the test puzzles.
//!
//! Run: `cargo bench --bench gomoku_search`. Searches are deterministic (fixed depth or
//! node counts, no clock), so the node counts are the same on every machine and the
//! throughput (nodes per second) is the figure to compare.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gameai::gomoku::point::parse_sequence;
use gameai::gomoku::search::alphabeta::Search;
use gameai::gomoku::search::score::INFINITE;
use gameai::gomoku::search::tt::TranspositionTable;
use gameai::gomoku::search::vcf::{FailCache, Vcf};
use gameai::gomoku::search::vct::Vct;
use gameai::gomoku::search::{Limits, Params, Searcher};
use gameai::gomoku::{Board, Color, Point, Rule};
use gameai::memory_budget::MemoryBudget;

/// Recorded positions (move sequences from self-play games, 15x15 and 20x20).
const POSITIONS: &str = include_str!("data/gomoku_positions.txt");

fn positions() -> Vec<(String, Board)> {
    POSITIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let mut parts = l.split_whitespace();
            let size: usize = parts.next().unwrap().parse().unwrap();
            let rule = match parts.next().unwrap() {
                "freestyle" => Rule::Freestyle,
                "standard" => Rule::Standard,
                _ => Rule::Renju,
            };
            let moves = parts.next().unwrap();
            let board = Board::from_moves(size, rule, &parse_sequence(moves).unwrap()).unwrap();
            (
                format!(
                    "p{i}-{size}-{}-{}",
                    rule.name().to_lowercase(),
                    board.stone_count()
                ),
                board,
            )
        })
        .collect()
}

fn make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_make_unmake");
    for (name, board) in positions().into_iter().take(3) {
        let moves: Vec<Point> = board.history().collect();
        let rule = board.rule();
        let size = board.size();
        let mut b = Board::new(size, rule).unwrap();
        group.throughput(Throughput::Elements(moves.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(name), |bench| {
            bench.iter(|| {
                for &m in &moves {
                    let cell = b.cell(m);
                    b.make(black_box(cell));
                }
                for _ in &moves {
                    b.unmake();
                }
            })
        });
    }
    group.finish();
}

/// The main search alone: iterative deepening of PVS (with its quiescence) from the
/// root, depths 1 to 7, a fresh table each time; the nodes it counts.
fn main_search(board: &mut Board) -> u64 {
    let mut tt = TranspositionTable::new(16 << 20, MemoryBudget::global());
    let mut search = Search::new(board, &mut tt, Params::default());
    for depth in 1..=7 {
        black_box(search.pvs(-INFINITE, INFINITE, depth, 0, true));
    }
    search.nodes
}

fn main_search_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_main_search");
    group.sample_size(10);
    for (name, mut board) in positions() {
        let nodes = main_search(&mut board);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(
            BenchmarkId::from_parameter(format!("{name}-{nodes}n")),
            |bench| bench.iter(|| main_search(&mut board)),
        );
    }
    group.finish();
}

fn search_fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_search_depth");
    group.sample_size(10);
    for (name, mut board) in positions() {
        let limits = Limits::depth(6);
        let nodes = Searcher::new(16 << 20)
            .search(&mut board, &limits)
            .unwrap()
            .nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(
            BenchmarkId::from_parameter(format!("{name}-{nodes}n")),
            |bench| {
                bench.iter(|| {
                    let mut s = Searcher::new(16 << 20);
                    black_box(s.search(&mut board, &limits).unwrap())
                })
            },
        );
    }
    group.finish();
}

#[derive(serde::Deserialize)]
struct Puzzle {
    rule: String,
    black: Vec<String>,
    white: Vec<String>,
}

fn puzzle_boards(text: &str) -> Vec<Board> {
    text.lines()
        .map(|l| {
            let p: Puzzle = serde_json::from_str(l).unwrap();
            let pts =
                |v: &[String]| -> Vec<Point> { v.iter().map(|s| s.parse().unwrap()).collect() };
            let rule = if p.rule == "standard" {
                Rule::Standard
            } else {
                Rule::Freestyle
            };
            Board::from_stones_any_counts(15, rule, &pts(&p.black), &pts(&p.white), Color::Black)
                .unwrap()
        })
        .collect()
}

fn threat_solvers(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_threats");
    group.sample_size(10);
    let mut vcf = puzzle_boards(include_str!("../tests/data/gomoku_vcf_puzzles.jsonl"));
    let mut cache = FailCache::new(1 << 16);
    group.throughput(Throughput::Elements(vcf.len() as u64));
    group.bench_function("vcf_60_puzzles_depth6", |bench| {
        bench.iter(|| {
            for b in vcf.iter_mut() {
                cache.clear();
                black_box(Vcf::new(&mut cache, 1_000_000).solve(b, 6));
            }
        })
    });
    let mut vct = puzzle_boards(include_str!("../tests/data/gomoku_vct_puzzles.jsonl"));
    group.throughput(Throughput::Elements(vct.len() as u64));
    group.bench_function("vct_12_puzzles_depth5", |bench| {
        bench.iter(|| {
            for b in vct.iter_mut() {
                cache.clear();
                black_box(Vct::new(&mut cache, 2_000_000, None).solve(b, 5));
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    make_unmake,
    main_search_depth,
    search_fixed_depth,
    threat_solvers
);
criterion_main!(benches);
