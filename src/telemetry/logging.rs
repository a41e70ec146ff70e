//! Logs on stderr that never hold up a request.
//!
//! Every call logs one line (`rpc finished`, see [`super::GrpcMetricsLayer`]). Written
//! synchronously, a slow or unread stderr (a full pipe, a stalled log collector, a
//! terminal on hold) blocks whichever thread logs, and with it request handling: a
//! server whose stderr pipe nobody read stopped answering after about 300 calls (the
//! pipe's 64 KiB). So the subscriber writes into a bounded in-memory queue of
//! `queue_lines` lines ([`DEFAULT_LOG_QUEUE_LINES`]) (`tracing-appender`'s non-blocking writer, lossy) that one
//! thread, `gameai-log`, copies to stderr. When the queue is full a line is dropped,
//! never waited for, and counted: [`log_lines_dropped`], exported at each scrape as
//! `gameai_log_lines_dropped_total`. The queue is flushed when the [`LogGuard`] of
//! [`init_tracing`] is dropped at the end of `main`; that waits at most about 1.1 s,
//! so a stalled stderr cannot hold the exit either.
//!
//! The per-call line's level is [`RpcLogLevel`] (`--rpc-log-level`), so that a busy
//! deployment can keep `info` for everything else and move the call lines to `debug`
//! (or turn them off) without losing the server-fault lines, which are always `WARN`.

use std::sync::OnceLock;

use tracing::Level;
use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};

/// Default length of the log queue (`--log-queue-lines`): 8192 lines, about 2 MiB of
/// JSON lines (about 250 bytes each), enough to ride out a stall of a few seconds at a
/// few thousand calls per second.
pub const DEFAULT_LOG_QUEUE_LINES: usize = 8192;

/// Log output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, span fields included (for log pipelines).
    Json,
}

/// Level of the one line logged per call (`rpc finished`). Calls that end with a code
/// that means a fault of the server (`INTERNAL`, `UNKNOWN`, `DATA_LOSS`) are logged at
/// `WARN` whatever this says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RpcLogLevel {
    /// No line for calls that end without a server fault.
    Off,
    Error,
    Warn,
    #[default]
    Info,
    Debug,
    Trace,
}

impl RpcLogLevel {
    /// The tracing level, `None` for [`RpcLogLevel::Off`].
    pub fn level(self) -> Option<Level> {
        match self {
            RpcLogLevel::Off => None,
            RpcLogLevel::Error => Some(Level::ERROR),
            RpcLogLevel::Warn => Some(Level::WARN),
            RpcLogLevel::Info => Some(Level::INFO),
            RpcLogLevel::Debug => Some(Level::DEBUG),
            RpcLogLevel::Trace => Some(Level::TRACE),
        }
    }
}

/// Keeps the log writer's thread alive; dropping it flushes the queue to stderr
/// (waiting at most about 1.1 s). Hold it until the process exits.
#[must_use = "dropping the guard stops the log writer"]
pub struct LogGuard {
    _worker: Option<WorkerGuard>,
}

static DROPPED: OnceLock<ErrorCounter> = OnceLock::new();

/// Installs the global tracing subscriber, writing to stderr through the non-blocking
/// queue (see the [module docs](self)).
///
/// `filter` is an `EnvFilter` directive such as `info` or `gameai=debug,info`;
/// `queue_lines` the queue's length in lines (at least 1). Errors when the directive
/// does not parse; a second call (a subscriber is already installed) is a no-op whose
/// guard holds nothing.
pub fn init_tracing(
    format: LogFormat,
    filter: &str,
    queue_lines: usize,
) -> Result<LogGuard, Box<dyn std::error::Error>> {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)?;
    let (writer, worker) = NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(queue_lines.max(1))
        .thread_name("gameai-log")
        .finish(std::io::stderr());
    let dropped = writer.error_counter();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
    if installed.is_err() {
        return Ok(LogGuard { _worker: None });
    }
    let _ = DROPPED.set(dropped);
    Ok(LogGuard {
        _worker: Some(worker),
    })
}

/// Log lines dropped because the queue was full, since the process started (0 when
/// [`init_tracing`] has not installed the writer).
pub fn log_lines_dropped() -> u64 {
    DROPPED.get().map_or(0, |c| c.dropped_lines() as u64)
}

/// Logs the `rpc finished` line of a call at `level` (none for `None`) in `span`.
pub(super) fn rpc_finished(span: &tracing::Span, level: Option<Level>) {
    match level {
        None => {}
        Some(Level::ERROR) => tracing::error!(parent: span, "rpc finished"),
        Some(Level::WARN) => tracing::warn!(parent: span, "rpc finished"),
        Some(Level::INFO) => tracing::info!(parent: span, "rpc finished"),
        Some(Level::DEBUG) => tracing::debug!(parent: span, "rpc finished"),
        Some(_) => tracing::trace!(parent: span, "rpc finished"),
    }
}
