//! `loadgen`: a closed-loop gRPC load generator for a running gameai server.
//!
//! `--concurrency` workers share one HTTP/2 connection (or `--connections` of them) and
//! each sends its next request as soon as the previous one answers, for `--duration-secs`
//! or until `--max-requests` have been sent, whichever comes first. It prints the
//! throughput, the latency percentiles of every call and the count per gRPC code.
//!
//! The requests are fixed, realistic positions (see [`Workload`]), so runs are
//! comparable. Usage:
//!
//! ```sh
//! cargo run --release --bin loadgen -- --addr 127.0.0.1:50051 --rpc list-plays \
//!     --concurrency 8 --duration-secs 10
//! ```
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use gameai::proto;
use proto::dou_dizhu_service_client::DouDizhuServiceClient;
use proto::mahjong_service_client::MahjongServiceClient;
use tonic::transport::{Channel, Endpoint};

#[derive(Debug, Parser)]
#[command(
    name = "loadgen",
    about = "Closed-loop gRPC load against a gameai server"
)]
struct Cli {
    /// Server address (host:port). Only loopback or your own test hosts.
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: String,
    /// Which RPC to load.
    #[arg(long, value_enum, default_value = "list-plays")]
    rpc: Workload,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    concurrency: u32,
    /// HTTP/2 connections the workers are spread over.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    connections: u32,
    /// How long to send, in seconds (at most 600).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    duration_secs: u64,
    /// Stop after this many requests in all (0 = only the duration bounds the run).
    #[arg(long, default_value_t = 0)]
    max_requests: u64,
    /// Per-call gRPC deadline in milliseconds.
    #[arg(long, default_value_t = 5_000)]
    timeout_ms: u64,
}

/// The request each worker sends.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Workload {
    /// ListDouDizhuPlays: free lead of a 20-card landlord hand.
    ListPlays,
    /// SuggestDouDizhuPlay: the landlord's first lead (heuristic mode).
    SuggestPlay,
    /// SuggestDouDizhuBid on a 17-card hand.
    SuggestBid,
    /// AnalyzeMahjongHand on a 14-tile hand (shanten and ukeire per discard).
    AnalyzeMahjong,
    /// SuggestMahjongDiscard on a 1-shanten hand with 12 draws left.
    SuggestDiscard,
}

const LANDLORD_HAND: &str = "33456778899TJQKKA22X";

async fn call(workload: Workload, channel: Channel) -> tonic::Code {
    let result = match workload {
        Workload::ListPlays => DouDizhuServiceClient::new(channel)
            .list_dou_dizhu_plays(proto::ListDouDizhuPlaysRequest {
                hand: LANDLORD_HAND.into(),
                ..Default::default()
            })
            .await
            .map(drop),
        Workload::SuggestPlay => DouDizhuServiceClient::new(channel)
            .suggest_dou_dizhu_play(proto::SuggestDouDizhuPlayRequest {
                hand: LANDLORD_HAND.into(),
                seat: proto::Seat::Landlord.into(),
                landlord_cards: "KA2".into(),
                ..Default::default()
            })
            .await
            .map(drop),
        Workload::SuggestBid => DouDizhuServiceClient::new(channel)
            .suggest_dou_dizhu_bid(proto::SuggestDouDizhuBidRequest {
                hand: "3456778899TJQKA22".into(),
                ..Default::default()
            })
            .await
            .map(drop),
        Workload::AnalyzeMahjong => MahjongServiceClient::new(channel)
            .analyze_mahjong_hand(proto::AnalyzeMahjongHandRequest {
                hand: "3667m23489p34688s".into(),
                ..Default::default()
            })
            .await
            .map(drop),
        Workload::SuggestDiscard => MahjongServiceClient::new(channel)
            .suggest_mahjong_discard(proto::SuggestMahjongDiscardRequest {
                hand: "45677m456778p248s".into(),
                draws_left: Some(12),
                ..Default::default()
            })
            .await
            .map(drop),
    };
    match result {
        Ok(()) => tonic::Code::Ok,
        Err(status) => status.code(),
    }
}

/// Latency of one call and its code.
struct Sample {
    latency: Duration,
    code: tonic::Code,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cli = Cli::parse();
    let endpoint = Endpoint::from_shared(format!("http://{}", cli.addr))?
        .timeout(Duration::from_millis(cli.timeout_ms))
        .connect_timeout(Duration::from_secs(5));
    let mut channels = Vec::new();
    for _ in 0..cli.connections {
        channels.push(endpoint.connect().await?);
    }
    let started = Instant::now();
    let stop_at = started + Duration::from_secs(cli.duration_secs);
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut workers = Vec::new();
    for w in 0..cli.concurrency {
        let channel = channels[w as usize % channels.len()].clone();
        let sent = sent.clone();
        let (workload, max) = (cli.rpc, cli.max_requests);
        workers.push(tokio::spawn(async move {
            let mut samples = Vec::new();
            while Instant::now() < stop_at {
                let n = sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if max > 0 && n >= max {
                    break;
                }
                let t = Instant::now();
                let code = call(workload, channel.clone()).await;
                samples.push(Sample {
                    latency: t.elapsed(),
                    code,
                });
            }
            samples
        }));
    }
    let mut samples = Vec::new();
    for worker in workers {
        samples.extend(worker.await?);
    }
    let elapsed = started.elapsed();
    let mut latencies: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
    latencies.sort_unstable();
    let mut codes = std::collections::BTreeMap::<String, u64>::new();
    for s in &samples {
        *codes.entry(format!("{:?}", s.code)).or_default() += 1;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "rpc={:?} concurrency={} connections={} requests={} elapsed_s={:.2} rps={:.1}",
        cli.rpc,
        cli.concurrency,
        cli.connections,
        samples.len(),
        elapsed.as_secs_f64(),
        samples.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "latency_ms p50={:.3} p90={:.3} p99={:.3} max={:.3}",
        ms(percentile(&latencies, 50.0)),
        ms(percentile(&latencies, 90.0)),
        ms(percentile(&latencies, 99.0)),
        ms(latencies.last().copied().unwrap_or_default())
    );
    println!("codes {codes:?}");
    Ok(())
}
