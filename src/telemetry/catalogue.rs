//! The metric catalogue: the name of every metric the server exports, its help text,
//! and the figures copied into the recorder at each scrape. The `grpc_server_*` names
//! and help texts are go-grpc-prometheus's; the `gameai_*` ones are ours. Whoever
//! records a metric names it through a constant here, so that a dashboard query and
//! the code that feeds it can be found from one list (`.ci/check_deploy.py` keeps a
//! copy of the names the dashboard and alerts may use).

/// Upper bounds of the `grpc_server_handling_seconds` buckets: 0.25 ms to 2.5 s.
pub const HANDLING_SECONDS_BUCKETS: &[f64] = &[
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// Counter of RPCs started.
pub const STARTED_TOTAL: &str = "grpc_server_started_total";
/// Counter of RPCs completed, by code.
pub const HANDLED_TOTAL: &str = "grpc_server_handled_total";
/// Counter of request messages received (read whole from the request body), as
/// go-grpc-prometheus counts them: 1 per unary call that reached the server.
pub const MSG_RECEIVED_TOTAL: &str = "grpc_server_msg_received_total";
/// Counter of response messages sent: 1 per unary call answered OK, 0 per error
/// (a trailers-only answer carries none), one per message of a stream.
pub const MSG_SENT_TOTAL: &str = "grpc_server_msg_sent_total";
/// Histogram of RPC latency in seconds, from the request's arrival to the end of the
/// response.
pub const HANDLING_SECONDS: &str = "grpc_server_handling_seconds";
/// Gauge of requests currently holding a slot of the in-flight limit.
pub const INFLIGHT_REQUESTS: &str = "gameai_inflight_requests";
/// Counter of requests refused with `RESOURCE_EXHAUSTED` by the in-flight limit.
pub const REQUESTS_SHED_TOTAL: &str = "gameai_requests_shed_total";
/// Gauge: seconds the mahjong tables took to build at start-up.
pub const MAHJONG_TABLES_BUILD_SECONDS: &str = "gameai_mahjong_tables_build_seconds";
/// Gauge: bytes held by the mahjong tables.
pub const MAHJONG_TABLES_BYTES: &str = "gameai_mahjong_tables_bytes";
/// Gauge: engine calls computing now (at most `--engine-threads`).
pub const ENGINE_CALLS_RUNNING: &str = "gameai_engine_calls_running";
/// Gauge: admitted calls waiting for an engine thread.
pub const ENGINE_CALLS_WAITING: &str = "gameai_engine_calls_waiting";
/// Gauge: bytes of the process-wide engine memory budget reserved now.
pub const ENGINE_MEMORY_USED_BYTES: &str = "gameai_engine_memory_used_bytes";
/// Gauge: bytes of the engine memory budget held by the spare buffers finished mahjong
/// plans leave for the next ([`crate::mahjong::probability::buffer_pool`]); part of
/// [`ENGINE_MEMORY_USED_BYTES`].
pub const ENGINE_MEMORY_POOLED_BYTES: &str = "gameai_engine_memory_pooled_bytes";
/// Gauge: the process-wide engine memory budget (`--engine-memory-mb`).
pub const ENGINE_MEMORY_LIMIT_BYTES: &str = "gameai_engine_memory_limit_bytes";
/// Counter: growths of engine memory refused because the budget was spent.
pub const ENGINE_MEMORY_REFUSALS_TOTAL: &str = "gameai_engine_memory_refusals_total";
/// Gauge: gRPC connections open now.
pub const CONNECTIONS_OPEN: &str = "gameai_grpc_connections";
/// Counter: gRPC connections accepted.
pub const CONNECTIONS_ACCEPTED_TOTAL: &str = "gameai_grpc_connections_accepted_total";
/// Counter: gRPC connections cut because they outlived the max connection age plus its
/// grace (`crate::server::connections`).
pub const CONNECTIONS_CUT_TOTAL: &str = "gameai_grpc_connections_cut_total";
/// Counter: log lines dropped because the log queue was full ([`super::logging`]).
pub const LOG_LINES_DROPPED_TOTAL: &str = "gameai_log_lines_dropped_total";
/// Gauge: the handlers' recent wake-up delay, which the deadlines keep as extra margin
/// (`crate::service::wake_delay`).
pub const HANDLER_WAKE_DELAY_SECONDS: &str = "gameai_handler_wake_delay_seconds";

/// Registers the help text (and unit) of every metric above with the recorder.
pub(super) fn describe_metrics() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(STARTED_TOTAL, "Total number of RPCs started on the server.");
    describe_counter!(
        HANDLED_TOTAL,
        "Total number of RPCs completed on the server, regardless of success or failure."
    );
    describe_counter!(
        MSG_RECEIVED_TOTAL,
        "Total number of RPC stream messages received on the server."
    );
    describe_counter!(
        MSG_SENT_TOTAL,
        "Total number of gRPC stream messages sent by the server."
    );
    describe_histogram!(
        HANDLING_SECONDS,
        Unit::Seconds,
        "Histogram of response latency (seconds) of gRPC that had been application-level handled by the server."
    );
    describe_gauge!(
        INFLIGHT_REQUESTS,
        "RPCs currently holding a slot of the in-flight limit (health and reflection excluded)."
    );
    describe_counter!(
        REQUESTS_SHED_TOTAL,
        "RPCs refused with RESOURCE_EXHAUSTED because the in-flight limit was reached."
    );
    describe_gauge!(
        MAHJONG_TABLES_BUILD_SECONDS,
        Unit::Seconds,
        "Time taken to build the mahjong winning-set tables at start-up."
    );
    describe_gauge!(
        MAHJONG_TABLES_BYTES,
        Unit::Bytes,
        "Memory held by the mahjong winning-set tables."
    );
    describe_gauge!(
        ENGINE_CALLS_RUNNING,
        "Engine calls computing now (at most --engine-threads)."
    );
    describe_gauge!(
        ENGINE_CALLS_WAITING,
        "Admitted calls waiting for an engine thread (their wait counts against their work budget)."
    );
    describe_gauge!(
        ENGINE_MEMORY_USED_BYTES,
        Unit::Bytes,
        "Bytes of the process-wide engine memory budget reserved by requests in flight and by spare buffers kept for the next (gameai_engine_memory_pooled_bytes)."
    );
    describe_gauge!(
        ENGINE_MEMORY_POOLED_BYTES,
        Unit::Bytes,
        "Bytes of the engine memory budget held by spare buffers of finished mahjong plans, kept for the next call (freed when a call needs the memory)."
    );
    describe_gauge!(
        ENGINE_MEMORY_LIMIT_BYTES,
        Unit::Bytes,
        "The process-wide engine memory budget (--engine-memory-mb)."
    );
    describe_gauge!(CONNECTIONS_OPEN, "gRPC (HTTP/2) connections open now.");
    describe_counter!(
        CONNECTIONS_ACCEPTED_TOTAL,
        "gRPC (HTTP/2) connections accepted."
    );
    describe_counter!(
        CONNECTIONS_CUT_TOTAL,
        "gRPC connections closed by force because they outlived the max connection age plus its grace."
    );
    describe_counter!(
        LOG_LINES_DROPPED_TOTAL,
        "Log lines dropped because stderr did not keep up and the log queue was full."
    );
    describe_gauge!(
        HANDLER_WAKE_DELAY_SECONDS,
        Unit::Seconds,
        "Recent delay between an awaited event (engine answer, answer due) and the handler running (2nd largest of the last 64), kept by the deadlines as extra margin."
    );
    describe_counter!(
        ENGINE_MEMORY_REFUSALS_TOTAL,
        "Engine memory growths refused because the budget was spent (the request degraded to an estimate)."
    );
}

/// Copies the figures kept outside the recorder into their metrics: the engine memory
/// budget's and the dropped log lines (called on every scrape, so they are as fresh
/// as the scrape).
pub fn record_at_scrape() {
    let budget = crate::memory_budget::MemoryBudget::global();
    metrics::gauge!(ENGINE_MEMORY_USED_BYTES).set(budget.used() as f64);
    let pooled = crate::mahjong::probability::buffer_pool::BufferPool::global().bytes();
    metrics::gauge!(ENGINE_MEMORY_POOLED_BYTES).set(pooled as f64);
    metrics::gauge!(ENGINE_MEMORY_LIMIT_BYTES).set(budget.limit() as f64);
    metrics::counter!(ENGINE_MEMORY_REFUSALS_TOTAL).absolute(budget.refusals());
    metrics::counter!(LOG_LINES_DROPPED_TOTAL).absolute(super::logging::log_lines_dropped());
}

/// Records the mahjong table figures (build time in seconds, size in bytes).
pub fn record_mahjong_tables(build_seconds: f64, bytes: usize) {
    metrics::gauge!(MAHJONG_TABLES_BUILD_SECONDS).set(build_seconds);
    metrics::gauge!(MAHJONG_TABLES_BYTES).set(bytes as f64);
}
