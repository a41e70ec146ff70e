//! Test harness: a real gameai server on ephemeral ports (in-process, or the real
//! binary for signal tests), a tonic channel to it, and its `/metrics`.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use gameai::server::{self, Listeners, ServeError, ServerConfig, StartupTask};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

pub mod brain;

/// The load generator's client: raw unary calls, transparent retry. Included by path
/// (as the tools crate's tests include this harness): `gameai-tools` depends on
/// `gameai`, so `gameai`'s tests cannot depend on it.
#[path = "../../crates/gameai-tools/src/loadgen/client.rs"]
pub mod loadgen_client;
/// Whether tonic failed a call that never left the client (the server never saw it).
#[allow(unused_imports)]
pub use loadgen_client::never_sent;

/// The three game services, as health and reflection name them.
pub const GAME_SERVICES: [&str; 3] = [
    "gameai.v1.DouDizhuService",
    "gameai.v1.MahjongService",
    "gameai.v1.GomokuService",
];

/// A server running inside the test process.
pub struct TestServer {
    pub grpc_addr: SocketAddr,
    /// `http://127.0.0.1:PORT/metrics`
    pub metrics_url: String,
    /// A lazily connecting channel to the server.
    pub channel: Channel,
    shutdown: Option<oneshot::Sender<()>>,
    handle: Option<JoinHandle<Result<(), ServeError>>>,
}

impl TestServer {
    /// Sends the shutdown signal (as SIGTERM does in `main`) without waiting.
    pub fn signal_shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    /// Signals shutdown and waits (at most 30 s) for `serve` to return.
    pub async fn shutdown(mut self) -> Result<(), ServeError> {
        self.signal_shutdown();
        self.join().await
    }

    /// Waits (at most 30 s) for `serve` to return.
    pub async fn join(&mut self) -> Result<(), ServeError> {
        let handle = self.handle.take().expect("join called once");
        tokio::time::timeout(Duration::from_secs(30), handle)
            .await
            .expect("serve returns within 30 s")
            .expect("serve task did not panic")
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.signal_shutdown();
    }
}

/// A channel to `addr` that connects on first use.
pub fn channel_to(addr: SocketAddr) -> Channel {
    Endpoint::from_shared(format!("http://{addr}"))
        .expect("valid URI")
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy()
}

/// Starts `serve` on 127.0.0.1 with ephemeral gRPC and metrics ports.
pub async fn start_server(config: ServerConfig, startup: Vec<StartupTask>) -> TestServer {
    let listeners = Listeners::bind(
        "127.0.0.1:0".parse().unwrap(),
        Some("127.0.0.1:0".parse().unwrap()),
    )
    .await
    .expect("bind ephemeral ports");
    let grpc_addr = listeners.grpc.local_addr().unwrap();
    let metrics_addr = listeners.metrics.as_ref().unwrap().local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(server::serve(config, listeners, startup, async move {
        let _ = rx.await;
    }));
    TestServer {
        grpc_addr,
        metrics_url: format!("http://{metrics_addr}/metrics"),
        channel: channel_to(grpc_addr),
        shutdown: Some(tx),
        handle: Some(handle),
    }
}

/// Starts a server with the default config and the engines' start-up tasks (the mahjong
/// tables), and waits until it reports SERVING.
pub async fn start_default() -> TestServer {
    let server = start_server(ServerConfig::default(), server::engine_startup_tasks()).await;
    wait_serving(&server.channel, "").await;
    server
}

/// The health status of `service` (`""` = the whole server).
pub async fn health(channel: &Channel, service: &str) -> Result<ServingStatus, tonic::Status> {
    let response = HealthClient::new(channel.clone())
        .check(HealthCheckRequest {
            service: service.to_string(),
        })
        .await?;
    Ok(response.into_inner().status())
}

/// Polls health until `service` is SERVING; panics after 60 s. (Building the mahjong
/// tables takes a few seconds in a debug build, and several times that on a loaded
/// shared machine: 10 s was not enough there.) The pause between polls doubles from
/// 20 ms to 500 ms, so that a server whose stderr is a pipe nobody reads yet
/// (`BinaryServer`) is not made to write one log line per poll for a minute.
pub async fn wait_serving(channel: &Channel, service: &str) {
    let began = Instant::now();
    let mut pause = Duration::from_millis(20);
    loop {
        if let Ok(ServingStatus::Serving) = health(channel, service).await {
            return;
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "{service:?} not SERVING after 60 s"
        );
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(500));
    }
}

/// GETs `url` (plain `http://HOST:PORT/PATH`) with HTTP/1.0 and returns (status code,
/// body).
pub async fn http_get(url: &str) -> (u16, String) {
    let rest = url.strip_prefix("http://").expect("http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let request = format!("GET {path} HTTP/1.0\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    tokio::time::timeout(
        Duration::from_secs(10),
        stream.read_to_string(&mut response),
    )
    .await
    .expect("metrics answer within 10 s")
    .unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("HTTP response");
    let code = head.split(' ').nth(1).unwrap().parse().unwrap();
    (code, body.to_string())
}

/// The Prometheus text of a `/metrics` URL (asserts HTTP 200).
pub async fn fetch_metrics(url: &str) -> String {
    let (code, body) = http_get(url).await;
    assert_eq!(code, 200, "GET {url}");
    body
}

/// The value of the series `name` whose labels include all of `labels`, summed over
/// the matching series; `None` when no series matches.
pub fn metric_value(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let mut found = None;
    for line in text.lines() {
        let Some(rest) = line.strip_prefix(name) else {
            continue;
        };
        if !(rest.starts_with('{') || rest.starts_with(' ')) {
            continue;
        }
        if labels
            .iter()
            .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")))
        {
            let value: f64 = rest.rsplit(' ').next().unwrap().parse().unwrap();
            found = Some(found.unwrap_or(0.0) + value);
        }
    }
    found
}

/// A free TCP port on 127.0.0.1 (bound, then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The real `gameai` binary, running as a child process on free ports.
pub struct BinaryServer {
    pub child: Child,
    pub grpc_addr: SocketAddr,
    pub metrics_url: String,
    pub channel: Channel,
}

impl BinaryServer {
    /// Starts the binary with `args` (and `envs`) on free ports; stderr (the logs) is
    /// piped. Does not wait for SERVING. Call inside a tokio runtime context (the
    /// channel needs one).
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> Self {
        let grpc_addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let metrics_addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        // The channel first: if it panics (no runtime), no child is left behind.
        let channel = channel_to(grpc_addr);
        // Cargo names the binary only to gameai's own tests; the tools crate, which
        // includes this harness, runs in-process servers only.
        let Some(exe) = option_env!("CARGO_BIN_EXE_gameai") else {
            panic!("only gameai's own tests start the gameai binary");
        };
        let child = Command::new(exe)
            .arg("--grpc-addr")
            .arg(grpc_addr.to_string())
            .arg("--metrics-addr")
            .arg(metrics_addr.to_string())
            .args(args)
            .envs(envs.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the gameai binary");
        Self {
            child,
            grpc_addr,
            metrics_url: format!("http://{metrics_addr}/metrics"),
            channel,
        }
    }

    /// Sends SIGTERM to the child.
    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM failed");
    }

    /// Waits up to `limit` for the child to exit.
    pub fn wait_exit(&mut self, limit: Duration) -> ExitStatus {
        let began = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                began.elapsed() < limit,
                "gameai did not exit within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Reads the child's stderr as it comes, on a thread, so that the pipe never fills;
    /// the thread returns everything read once the child has exited. (Then
    /// [`BinaryServer::stderr`] returns nothing.)
    pub fn read_stderr_continuously(&mut self) -> std::thread::JoinHandle<String> {
        let mut err = self.child.stderr.take().expect("stderr not taken yet");
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
            text
        })
    }

    /// Everything the child wrote to stderr (call after it exited).
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            std::io::Read::read_to_string(&mut err, &mut text).unwrap();
        }
        text
    }
}

impl Drop for BinaryServer {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The hand of [`slow_call`]: a 14-tile hand with no two tiles related (six-shanten),
/// whose every discard leaves an exact win-probability computation far longer than the
/// tests' 300 ms checkpoints, so the engine runs until its budget or state bound.
pub const SLOW_HAND: &str = "147m258p369s12345z";

/// A `SuggestMahjongDiscard` that takes the engine a long time (budget 3000 ms).
pub async fn slow_call(
    channel: &Channel,
) -> Result<tonic::Response<gameai::proto::SuggestMahjongDiscardResponse>, tonic::Status> {
    gameai::proto::mahjong_service_client::MahjongServiceClient::new(channel.clone())
        .suggest_mahjong_discard(slow_request())
        .await
}

/// The request of [`slow_call`].
pub fn slow_request() -> gameai::proto::SuggestMahjongDiscardRequest {
    gameai::proto::SuggestMahjongDiscardRequest {
        hand: SLOW_HAND.to_string(),
        budget_ms: 3000,
        ..Default::default()
    }
}

/// Asserts the error model of `src/service/error.rs`: `INVALID_ARGUMENT`, message
/// `"FIELD: REASON"`, and exactly one `google.rpc.BadRequest` field violation naming
/// `field`.
pub fn assert_invalid_argument(status: &tonic::Status, field: &str, reason: &str) {
    use tonic_types::StatusExt;
    assert_eq!(status.code(), tonic::Code::InvalidArgument, "{status:?}");
    assert_eq!(status.message(), format!("{field}: {reason}"));
    let bad = status
        .get_details_bad_request()
        .expect("BadRequest details");
    assert_eq!(bad.field_violations.len(), 1, "{bad:?}");
    assert_eq!(bad.field_violations[0].field, field);
}
