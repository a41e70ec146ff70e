//! The gRPC server: the three game services, health, reflection (v1 and v1alpha),
//! the request limits, the metrics exporter and graceful shutdown.
//!
//! Life of a server started by [`serve`]:
//! 1. Health says `NOT_SERVING` for `""` and every game service while the start-up
//!    tasks (e.g. building the mahjong tables) run on blocking threads; the server
//!    already answers (health, reflection, and the game RPCs).
//! 2. When all start-up tasks have finished: `SERVING`.
//! 3. When the shutdown signal fires (SIGTERM / SIGINT in `main`): `NOT_SERVING`
//!    again, the listener closes, each connection gets an HTTP/2 GOAWAY, streaming
//!    calls (health `Watch`, reflection) end with `UNAVAILABLE`, and unary calls in
//!    flight are given up to the grace period to finish. Then [`serve`] returns
//!    `Ok(())` and the process exits 0, whether or not the drain finished in time.
//!
//! Layers, outermost first: metrics and tracing ([`crate::telemetry`]), undecodable
//! requests as `INVALID_ARGUMENT` ([`undecodable`]), end of streams at drain,
//! deadline, in-flight limit ([`drain_streams`], [`deadline`], [`inflight`]; the last
//! four share one shape, [`short_circuit`]).
//!
//! Reflection lists every service served, both reflection versions included, whichever
//! version the client speaks; health follows the health checking spec ([`health`]).

pub mod connections;
pub mod deadline;
pub mod drain_streams;
pub mod health;
pub mod inflight;
#[cfg(test)]
mod layer_tests;
pub mod listeners;
pub mod short_circuit;
pub mod undecodable;

pub use listeners::Listeners;

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use metrics_exporter_prometheus::PrometheusHandle;
use tokio::net::TcpListener;
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;
use tonic::server::NamedService;
use tonic::transport::server::TcpIncoming;
use tonic_health::ServingStatus;
use tonic_health::pb::health_server::HealthServer;
use tonic_health::server::HealthReporter;

use crate::proto::dou_dizhu_service_server::DouDizhuServiceServer;
use crate::proto::gomoku_service_server::GomokuServiceServer;
use crate::proto::mahjong_service_server::MahjongServiceServer;
use crate::service::doudizhu::DouDizhuApi;
use crate::service::gomoku::GomokuApi;
use crate::service::mahjong::MahjongApi;
use crate::telemetry::{self, GrpcMetricsLayer, MethodTable};
use deadline::DeadlineLayer;
use drain_streams::DrainStreamsLayer;
use inflight::InflightLimitLayer;
use undecodable::UndecodableRequestLayer;

/// Names of the game services, as health and reflection report them.
pub const GAME_SERVICES: [&str; 3] = [
    <DouDizhuServiceServer<DouDizhuApi> as NamedService>::NAME,
    <MahjongServiceServer<MahjongApi> as NamedService>::NAME,
    <GomokuServiceServer<GomokuApi> as NamedService>::NAME,
];

/// Work done once per process before the server reports `SERVING`, on a blocking
/// thread (e.g. building the mahjong tables). A task that panics makes [`serve`] shut
/// the server down and return [`ServeError::Startup`].
pub type StartupTask = Box<dyn FnOnce() + Send + 'static>;

/// The engines' start-up work: builds the mahjong winning-set tables
/// ([`crate::mahjong::tables::init`]) and records `gameai_mahjong_tables_build_seconds`
/// and `gameai_mahjong_tables_bytes`; builds the gomoku pattern tables
/// ([`crate::gomoku::patterns::init`], 3.9 MB). `main` passes these to [`serve`], so
/// health stays NOT_SERVING until the tables exist.
pub fn engine_startup_tasks() -> Vec<StartupTask> {
    vec![
        Box::new(|| {
            let stats = crate::mahjong::tables::init();
            crate::telemetry::record_mahjong_tables(stats.build_seconds, stats.bytes);
            tracing::info!(
                build_seconds = stats.build_seconds,
                bytes = stats.bytes,
                "mahjong tables built"
            );
        }),
        Box::new(|| {
            let started = std::time::Instant::now();
            let bytes = crate::gomoku::patterns::init();
            tracing::info!(
                build_seconds = started.elapsed().as_secs_f64(),
                bytes,
                "gomoku pattern tables built"
            );
        }),
    ]
}

/// Server settings (the CLI flags of `main`, less the addresses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Requests served at once (health and reflection excluded); beyond it
    /// `RESOURCE_EXHAUSTED`. 0 = no limit.
    pub max_inflight: usize,
    /// Engine calls computed at once ([`crate::service::executor`]); 0 = 4 per core the
    /// process may use. The process has one executor: the first server started sets it.
    pub engine_threads: usize,
    /// Largest request message accepted, in bytes (encoded protobuf); a larger one is
    /// refused with `OUT_OF_RANGE` and the connection stays usable. Also the largest
    /// response sent.
    pub max_message_bytes: usize,
    /// Hard cap on each request's time; the caller's gRPC deadline may shorten it.
    pub request_budget: Duration,
    /// Work budget of a request that gives none (`budget_ms = 0`).
    pub default_budget: Duration,
    /// Work budget of a Dou Dizhu suggestion that gives none (`budget_ms = 0`): the
    /// default search's time per call.
    pub doudizhu_budget: Duration,
    /// Work budget of a Dou Dizhu bid suggestion that gives none: the simulation's time.
    pub doudizhu_bid_budget: Duration,
    /// How long calls in flight may take to finish after the shutdown signal, and
    /// after an aged connection's GOAWAY.
    pub shutdown_grace: Duration,
    /// Connections are closed gracefully (GOAWAY, calls in flight finish) after this
    /// age so that clients reconnect and spread over new replicas; one still open
    /// `shutdown_grace` later is cut ([`connections`]). `None` = never.
    pub max_connection_age: Option<Duration>,
    /// The process-wide engine memory budget in bytes
    /// ([`crate::memory_budget::MemoryBudget::global`]), set when [`serve`] starts.
    pub engine_memory_bytes: usize,
    /// Level of the one log line per call ([`telemetry::RpcLogLevel`]).
    pub rpc_log_level: telemetry::RpcLogLevel,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            max_inflight: crate::service::executor::default_max_inflight(
                crate::service::executor::default_engine_threads(),
            ),
            engine_threads: 0,
            max_message_bytes: 1024 * 1024,
            request_budget: Duration::from_millis(10_000),
            default_budget: Duration::from_millis(1_000),
            doudizhu_budget: crate::service::doudizhu::DEFAULT_BUDGET,
            doudizhu_bid_budget: crate::service::doudizhu::DEFAULT_BID_BUDGET,
            shutdown_grace: Duration::from_secs(20),
            max_connection_age: Some(Duration::from_secs(300)),
            engine_memory_bytes: crate::memory_budget::DEFAULT_LIMIT_BYTES,
            rpc_log_level: telemetry::RpcLogLevel::default(),
        }
    }
}

/// Why [`serve`] failed.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("gRPC transport failed: {0}")]
    Transport(#[from] tonic::transport::Error),
    #[error("reflection descriptors are invalid: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("descriptor set does not decode: {0}")]
    Descriptors(#[from] prost::DecodeError),
    #[error("start-up task {index} failed: {reason}")]
    Startup { index: usize, reason: String },
}

/// The methods served, from the descriptor sets that reflection serves too.
pub fn method_table() -> Result<MethodTable, prost::DecodeError> {
    MethodTable::from_descriptor_sets(&[
        crate::proto::FILE_DESCRIPTOR_SET,
        tonic_health::pb::FILE_DESCRIPTOR_SET,
        tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
        tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
    ])
}

/// The descriptor sets reflection serves (both versions): the services, and the
/// `google.rpc` error detail types, so that a reflection client (grpcurl) decodes the
/// `google.rpc.BadRequest` of an INVALID_ARGUMENT instead of printing it as undecodable
/// bytes.
///
/// Both reflection protocols' own descriptors too: each reflection service lists the
/// services of its registered files, and adds only its own protocol's, so without the
/// other's a client (grpcurl 1.8 speaks v1alpha) would not learn that the other
/// version is served.
const REFLECTED: [&[u8]; 5] = [
    crate::proto::FILE_DESCRIPTOR_SET,
    tonic_health::pb::FILE_DESCRIPTOR_SET,
    tonic_types::pb::FILE_DESCRIPTOR_SET,
    tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
    tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
];

/// A reflection builder with [`REFLECTED`] registered.
fn reflection_builder() -> tonic_reflection::server::Builder<'static> {
    REFLECTED.iter().fold(
        tonic_reflection::server::Builder::configure(),
        |builder, set| builder.register_encoded_file_descriptor_set(set),
    )
}

/// Serves gRPC on `listeners.grpc` (and `/metrics` on `listeners.metrics`) until
/// `shutdown` completes and the drain has ended (or the grace period passed).
///
/// `startup` tasks run at once, each on its own blocking thread; health reports
/// `SERVING` when all have finished. Returns `Ok(())` after a shutdown, or
/// [`ServeError::Startup`] (after shutting down) when a start-up task panicked.
pub async fn serve(
    config: ServerConfig,
    listeners: Listeners,
    startup: Vec<StartupTask>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let methods = Arc::new(method_table()?);
    let metrics_handle = prepare_process(&config);
    let (reporter, health) = health::health_service();
    set_health(&reporter, ServingStatus::NotServing).await;

    // `draining` turns true when the shutdown begins. `startup_failed` carries the
    // index and panic of a failed start-up task. `shutting_down` orders the health
    // updates of start-up and shutdown: once shutdown has said NOT_SERVING, a late
    // end of start-up must not say SERVING.
    let (draining_tx, draining_rx) = watch::channel(false);
    let (startup_failed_tx, startup_failed_rx) = watch::channel(None::<(usize, String)>);
    let shutting_down = Arc::new(tokio::sync::Mutex::new(false));

    let metrics_stop = spawn_metrics_exporter(listeners.metrics, metrics_handle);
    let startup_runner = spawn_startup(
        startup,
        reporter.clone(),
        shutting_down.clone(),
        startup_failed_tx,
    );
    let signal = shutdown_sequence(
        shutdown,
        reporter,
        shutting_down,
        startup_failed_rx.clone(),
        draining_tx,
    );
    let server = grpc_server(
        &config,
        &methods,
        health,
        draining_rx.clone(),
        listeners.grpc,
        signal,
    )?;
    let drained = run_until_drained(server, draining_rx, config.shutdown_grace).await;

    startup_runner.abort();
    let _ = metrics_stop.send(());
    drained?;
    let failure = startup_failed_rx.borrow().clone();
    match failure {
        Some((index, reason)) => Err(ServeError::Startup { index, reason }),
        None => Ok(()),
    }
}

/// Sets what the process shares between servers: the engine memory budget, the engine
/// executor, and the metrics recorder with the series that must exist before their
/// first change. Returns the recorder's handle for the exporter.
fn prepare_process(config: &ServerConfig) -> PrometheusHandle {
    crate::memory_budget::MemoryBudget::global().set_limit(config.engine_memory_bytes);
    let engine_threads = crate::service::executor::configure(config.engine_threads);
    tracing::info!(
        engine_threads,
        max_inflight = config.max_inflight,
        "engine executor"
    );
    // The recorder first: series registered before it would go nowhere.
    let handle = telemetry::prometheus_handle();
    metrics::gauge!(telemetry::ENGINE_CALLS_RUNNING).increment(0.0);
    metrics::gauge!(telemetry::ENGINE_CALLS_WAITING).increment(0.0);
    metrics::gauge!(telemetry::HANDLER_WAKE_DELAY_SECONDS).increment(0.0);
    // Export the limit's series from the start (at 0), not from the first shed call.
    metrics::counter!(telemetry::REQUESTS_SHED_TOTAL).increment(0);
    metrics::gauge!(telemetry::INFLIGHT_REQUESTS).increment(0.0);
    handle
}

/// Serves `/metrics` on `listener` (if any) until the returned sender is used or
/// dropped: the exporter runs until [`serve`] returns, so the drain is scraped too.
fn spawn_metrics_exporter(
    listener: Option<TcpListener>,
    handle: PrometheusHandle,
) -> oneshot::Sender<()> {
    let (stop, stopped) = oneshot::channel::<()>();
    if let Some(listener) = listener {
        tracing::info!(addr = ?listener.local_addr().ok(), "serving Prometheus metrics at /metrics");
        tokio::spawn(telemetry::serve_metrics(listener, handle, async move {
            let _ = stopped.await;
        }));
    }
    stop
}

/// Runs the start-up tasks; then health says SERVING (unless the shutdown has begun),
/// or a failed task is reported on `failed`.
fn spawn_startup(
    startup: Vec<StartupTask>,
    reporter: HealthReporter,
    shutting_down: Arc<tokio::sync::Mutex<bool>>,
    failed: watch::Sender<Option<(usize, String)>>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        match run_startup(startup).await {
            Ok(()) => {
                let shutting_down = shutting_down.lock().await;
                if !*shutting_down {
                    set_health(&reporter, ServingStatus::Serving).await;
                    tracing::info!("start-up finished: SERVING");
                }
            }
            Err((index, reason)) => {
                tracing::error!(index, reason, "start-up task failed: shutting down");
                let _ = failed.send(Some((index, reason)));
            }
        }
    })
}

/// The future that begins the shutdown: on `shutdown` or a failed start-up task,
/// health says NOT_SERVING, then `draining` turns true. The gRPC server stops
/// accepting when it completes.
async fn shutdown_sequence(
    shutdown: impl Future<Output = ()> + Send + 'static,
    reporter: HealthReporter,
    shutting_down: Arc<tokio::sync::Mutex<bool>>,
    mut startup_failed: watch::Receiver<Option<(usize, String)>>,
    draining: watch::Sender<bool>,
) {
    tokio::select! {
        _ = shutdown => tracing::info!("shutdown signal: NOT_SERVING, draining"),
        // false: the start-up runner ended without failing; wait for `shutdown`.
        true = async { startup_failed.wait_for(Option::is_some).await.is_ok() } => {}
    }
    let mut shutting_down = shutting_down.lock().await;
    *shutting_down = true;
    set_health(&reporter, ServingStatus::NotServing).await;
    drop(shutting_down);
    let _ = draining.send(true);
}

/// The gRPC server on `listener`: health, reflection and the game services behind the
/// layers, until `signal` completes and its connections have closed.
fn grpc_server(
    config: &ServerConfig,
    methods: &Arc<MethodTable>,
    health: HealthServer<health::HealthService>,
    draining: watch::Receiver<bool>,
    listener: TcpListener,
    signal: impl Future<Output = ()> + Send + 'static,
) -> Result<impl Future<Output = Result<(), tonic::transport::Error>> + Send, ServeError> {
    let reflection_v1 = reflection_builder().build_v1()?;
    let reflection_v1alpha = reflection_builder().build_v1alpha()?;
    let max = config.max_message_bytes;
    let doudizhu = DouDizhuServiceServer::new(DouDizhuApi::new(
        config.doudizhu_budget,
        config.doudizhu_bid_budget,
    ))
    .max_decoding_message_size(max)
    .max_encoding_message_size(max);
    let mahjong = MahjongServiceServer::new(MahjongApi::default())
        .max_decoding_message_size(max)
        .max_encoding_message_size(max);
    let gomoku = GomokuServiceServer::new(GomokuApi::default())
        .max_decoding_message_size(max)
        .max_encoding_message_size(max);

    let layers = tower::ServiceBuilder::new()
        .layer(GrpcMetricsLayer::new(methods.clone()).with_rpc_log_level(config.rpc_log_level))
        .layer(UndecodableRequestLayer::new(methods.clone()))
        .layer(DrainStreamsLayer::new(methods.clone(), draining))
        .layer(DeadlineLayer::new(
            config.request_budget,
            config.default_budget,
        ))
        .layer(InflightLimitLayer::new(config.max_inflight))
        .into_inner();

    let mut builder = tonic::transport::Server::builder();
    if let Some(age) = config.max_connection_age {
        // The age alone: with a grace too, tonic 0.14.9 never sends the GOAWAY and cuts
        // calls in flight. The grace is enforced by `connections` instead.
        builder = builder.max_connection_age(age);
    }
    let router = builder
        .layer(layers)
        .add_service(health)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(doudizhu)
        .add_service(mahjong)
        .add_service(gomoku);

    tracing::info!(addr = ?listener.local_addr().ok(), "serving gRPC");
    // TCP_NODELAY: small unary answers must not wait for Nagle and the client's delayed
    // ACK (measured by the arena: p99 49 ms without, 2.9 ms with).
    let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
    let cut_after = config
        .max_connection_age
        .map(|age| age + config.shutdown_grace);
    let incoming = connections::track(incoming, cut_after);
    Ok(router.serve_with_incoming_shutdown(incoming, signal))
}

/// Runs `server` to its end, or, once `draining` has turned true, for at most `grace`
/// more (then the remaining connections are closed by returning).
async fn run_until_drained(
    server: impl Future<Output = Result<(), tonic::transport::Error>>,
    mut draining: watch::Receiver<bool>,
    grace: Duration,
) -> Result<(), ServeError> {
    tokio::pin!(server);
    tokio::select! {
        result = &mut server => result?,
        _ = async { draining.wait_for(|d| *d).await.is_ok() } => {
            let began = Instant::now();
            match tokio::time::timeout(grace, &mut server).await {
                Ok(result) => {
                    result?;
                    tracing::info!(drain_ms = began.elapsed().as_millis() as u64, "drained");
                }
                Err(_) => tracing::warn!(
                    grace_secs = grace.as_secs_f64(),
                    "drain did not finish within the grace period; closing remaining connections"
                ),
            }
        }
    }
    Ok(())
}

/// Runs the start-up tasks concurrently on blocking threads and waits for all.
/// Errors with the index of the first task (in list order) that panicked and why.
async fn run_startup(tasks: Vec<StartupTask>) -> Result<(), (usize, String)> {
    let began = Instant::now();
    let handles: Vec<_> = tasks.into_iter().map(tokio::task::spawn_blocking).collect();
    let count = handles.len();
    for (index, handle) in handles.into_iter().enumerate() {
        if let Err(e) = handle.await {
            let reason = match e.try_into_panic() {
                Ok(panic) => crate::service::executor::panic_message(panic.as_ref())
                    .map_or_else(|| "panicked".to_string(), |m| format!("panicked: {m}")),
                Err(e) => e.to_string(),
            };
            return Err((index, reason));
        }
    }
    tracing::info!(
        tasks = count,
        elapsed_ms = began.elapsed().as_millis() as u64,
        "start-up tasks finished"
    );
    Ok(())
}

/// Sets `""` and every game service to `status`.
async fn set_health(reporter: &HealthReporter, status: ServingStatus) {
    reporter.set_service_status("", status).await;
    for name in GAME_SERVICES {
        reporter.set_service_status(name, status).await;
    }
}
