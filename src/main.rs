//! `gameai`: the gRPC server binary. Every flag can also be set through the
//! environment variable named in `--help` (`GAMEAI_*`); a flag wins over its variable.

#[cfg(target_os = "linux")]
mod allocator;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use gameai::server::{self, Listeners, ServerConfig};
use gameai::service::executor::{default_engine_threads, default_max_inflight};
use gameai::telemetry::{self, LogFormat, RpcLogLevel};

/// gRPC service giving game backends expert decisions for Dou Dizhu, mahjong and
/// gomoku. Health: grpc.health.v1.Health; reflection v1 and v1alpha; Prometheus
/// metrics at http://METRICS_ADDR/metrics. Exits 0 after SIGTERM / SIGINT once calls in
/// flight have finished (or the grace period has passed).
#[derive(Debug, Parser)]
#[command(name = "gameai", version, about)]
struct Cli {
    /// Address the gRPC server listens on (plaintext HTTP/2): IP:PORT or HOST:PORT
    /// (a host name is resolved at start, an IPv4 address preferred).
    #[arg(long, env = "GAMEAI_GRPC_ADDR", default_value = "0.0.0.0:50051")]
    grpc_addr: String,

    /// Address of the Prometheus exporter (GET /metrics): IP:PORT or HOST:PORT.
    #[arg(long, env = "GAMEAI_METRICS_ADDR", default_value = "0.0.0.0:9090")]
    metrics_addr: String,

    /// Log format on stderr: text for people, json (one object per line) for log
    /// pipelines.
    #[arg(long, env = "GAMEAI_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,

    /// Log filter, tracing EnvFilter syntax: a level (error, warn, info, debug,
    /// trace) or directives such as "gameai=debug,info". Logs never block a request:
    /// when stderr does not keep up, lines are dropped and counted
    /// (gameai_log_lines_dropped_total).
    #[arg(long, env = "GAMEAI_LOG_LEVEL", default_value = "info")]
    log_level: String,

    /// Log lines held in memory while stderr does not keep up; beyond them lines are
    /// dropped (and counted in gameai_log_lines_dropped_total) rather than block.
    #[arg(long, env = "GAMEAI_LOG_QUEUE_LINES", default_value_t = telemetry::logging::DEFAULT_LOG_QUEUE_LINES as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    log_queue_lines: u64,

    /// Level of the one line logged per RPC ("rpc finished"); off = none. Calls that
    /// end INTERNAL, UNKNOWN or DATA_LOSS are logged at warn whatever this says. Set
    /// debug to keep busy servers' logs for everything else.
    #[arg(long, env = "GAMEAI_RPC_LOG_LEVEL", value_enum, default_value = "info")]
    rpc_log_level: RpcLogLevel,

    /// Requests admitted at once, health and reflection excluded; beyond it a call is
    /// answered RESOURCE_EXHAUSTED at once. Those beyond --engine-threads wait for an
    /// engine thread, the wait counting against their deadline. Default: 2 x
    /// --engine-threads (a call waits at most about one work budget). 0 = no limit.
    #[arg(long, env = "GAMEAI_MAX_INFLIGHT")]
    max_inflight: Option<usize>,

    /// Engine calls (searches, DPs) computed at once, each on its own thread at a
    /// lower priority than the network, time-sharing the cores; further admitted calls
    /// wait for a thread, the wait counting against their work budget. 0 = 4 per core
    /// this process may use (in a container without a CPU limit: the node's, so set it
    /// to 4 x the CPU request).
    #[arg(long, env = "GAMEAI_ENGINE_THREADS", default_value_t = 0)]
    engine_threads: usize,

    /// Largest request (and response) message in bytes; a larger request is refused
    /// with OUT_OF_RANGE and the server keeps serving.
    #[arg(long, env = "GAMEAI_MAX_MESSAGE_BYTES", default_value_t = 1024 * 1024)]
    max_message_bytes: usize,

    /// Server-side cap on each request in milliseconds: at the earliest of this and
    /// the caller's gRPC deadline the call ends with DEADLINE_EXCEEDED. Engines are
    /// told the deadline so that searches stop in time.
    #[arg(long, env = "GAMEAI_REQUEST_BUDGET_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    request_budget_ms: u64,

    /// Work budget in milliseconds of a request whose budget_ms is 0 (searches use
    /// up to this much time); capped by --request-budget-ms and the caller's deadline.
    #[arg(long, env = "GAMEAI_DEFAULT_BUDGET_MS", default_value_t = 1_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    default_budget_ms: u64,

    /// Work budget in milliseconds of a SuggestDouDizhuPlay whose budget_ms is 0: the
    /// default search's time per call. Capped by --request-budget-ms and the caller's
    /// deadline.
    #[arg(long, env = "GAMEAI_DOUDIZHU_BUDGET_MS", default_value_t = 50,
          value_parser = clap::value_parser!(u64).range(1..))]
    doudizhu_budget_ms: u64,

    /// Work budget in milliseconds of a SuggestDouDizhuBid whose budget_ms is 0: the
    /// bid simulation's time. Capped like --doudizhu-budget-ms.
    #[arg(long, env = "GAMEAI_DOUDIZHU_BID_BUDGET_MS", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..))]
    doudizhu_bid_budget_ms: u64,

    /// After SIGTERM / SIGINT: seconds that calls in flight may take to finish before
    /// the process exits anyway (exit code 0 either way). Keep it below Kubernetes'
    /// terminationGracePeriodSeconds minus the preStop delay.
    #[arg(long, env = "GAMEAI_SHUTDOWN_GRACE_SECS", default_value_t = 20)]
    shutdown_grace_secs: u64,

    /// Seconds after which a client connection is closed gracefully (HTTP/2 GOAWAY;
    /// calls in flight finish) so that clients reconnect and new replicas get their
    /// share of long-lived gRPC connections. A connection still open
    /// --shutdown-grace-secs later is closed by force. 0 = never.
    #[arg(long, env = "GAMEAI_MAX_CONNECTION_AGE_SECS", default_value_t = 300)]
    max_connection_age_secs: u64,

    /// Process-wide engine memory budget in MiB: the search state of all requests in
    /// flight together (mahjong DP, Dou Dizhu endgame solver, gomoku hash table). A
    /// request that cannot get memory answers with an estimate that says so
    /// (exact: false). Keep it about half the container's memory limit
    /// (deploy/README.md).
    #[arg(long, env = "GAMEAI_ENGINE_MEMORY_MB", default_value_t = 512,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    engine_memory_mb: u64,
}

impl Cli {
    fn engine_threads_or_default(&self) -> usize {
        match self.engine_threads {
            0 => default_engine_threads(),
            n => n,
        }
    }

    fn server_config(&self) -> ServerConfig {
        ServerConfig {
            max_inflight: self
                .max_inflight
                .unwrap_or_else(|| default_max_inflight(self.engine_threads_or_default())),
            engine_threads: self.engine_threads_or_default(),
            max_message_bytes: self.max_message_bytes,
            request_budget: Duration::from_millis(self.request_budget_ms),
            default_budget: Duration::from_millis(self.default_budget_ms),
            doudizhu_budget: Duration::from_millis(self.doudizhu_budget_ms),
            doudizhu_bid_budget: Duration::from_millis(self.doudizhu_bid_budget_ms),
            shutdown_grace: Duration::from_secs(self.shutdown_grace_secs),
            max_connection_age: (self.max_connection_age_secs > 0)
                .then(|| Duration::from_secs(self.max_connection_age_secs)),
            engine_memory_bytes: (self.engine_memory_mb as usize) << 20,
            rpc_log_level: self.rpc_log_level,
        }
    }
}

/// A future that completes on SIGTERM or SIGINT (Ctrl-C). The handlers are installed
/// here, before the future is first polled, so that a signal arriving during start-up
/// is not lost (and does not kill the process with the default action).
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => tracing::info!("SIGTERM received"),
            _ = int.recv() => tracing::info!("SIGINT received"),
        }
    })
}

/// A future that completes on Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("Ctrl-C received");
    })
}

#[cfg(target_os = "linux")]
#[global_allocator]
static GLOBAL: allocator::Allocator = allocator::Allocator {};

#[tokio::main]
async fn main() -> ExitCode {
    // Before the first engine call starts the engine threads (src/allocator.rs).
    #[cfg(target_os = "linux")]
    gameai::service::executor::on_engine_thread_start(
        allocator::engine_threads_share_an_arena_of_their_own,
    );
    let cli = Cli::parse();
    // Held to the end of main: dropping it flushes the log queue (at most ~1 s).
    let _log_guard =
        match telemetry::init_tracing(cli.log_format, &cli.log_level, cli.log_queue_lines as usize)
        {
            Ok(guard) => guard,
            Err(e) => {
                eprintln!("gameai: --log-level {:?}: {e}", cli.log_level);
                return ExitCode::from(2);
            }
        };
    let shutdown = match shutdown_signal() {
        Ok(shutdown) => shutdown,
        Err(e) => {
            tracing::error!(error = %e, "cannot install signal handlers");
            return ExitCode::FAILURE;
        }
    };
    let listeners = match Listeners::bind_named(&cli.grpc_addr, Some(&cli.metrics_addr)).await {
        Ok(listeners) => listeners,
        Err(e) => {
            tracing::error!(error = %e, "cannot start");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(config = ?cli, "gameai starting");
    match server::serve(
        cli.server_config(),
        listeners,
        server::engine_startup_tasks(),
        shutdown,
    )
    .await
    {
        Ok(()) => {
            tracing::info!("gameai stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            tracing::error!(error = %e, "gameai failed");
            ExitCode::FAILURE
        }
    }
}
