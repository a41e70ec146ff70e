//! Accepted gRPC connections: counted, and cut at `max_connection_age` plus its grace.
//!
//! # Connection ageing, and why the grace is here and not in tonic
//!
//! `--max-connection-age-secs` makes clients reconnect (and so spread over new
//! replicas): at that age the server starts a graceful close, RFC 9113 §6.8's pattern
//! that h2 implements, GOAWAY with the largest stream id and a PING, then, once the
//! PING is acknowledged (every stream the client opened before has arrived), a second
//! GOAWAY with the last stream processed; the calls in flight finish and the
//! connection closes. gRPC's A9 adds `MAX_CONNECTION_AGE_GRACE`: a connection still
//! open that long after the GOAWAY is closed by force.
//!
//! tonic 0.14.9 offers both (`Server::max_connection_age`, `max_connection_age_grace`)
//! but, with a grace set, never starts the graceful close: its
//! `connection_timeout_future` sleeps the age, then the grace, and only then returns
//! `ForcefulShutdown`, so the connection is dropped at age + grace with no GOAWAY at
//! all, killing whatever call is in flight (the kernel answers the client's next frame
//! with a RST). That is what a Python grpcio client saw as `UNAVAILABLE: Stream removed
//! (Socket closed)`: with `--max-connection-age-secs 3` and the 20 s grace, a loop of
//! 120 ms calls on one channel failed once per 23 s connection (3 of 708 calls in
//! 90 s); `tcpdump` showed FIN then RST and no GOAWAY frame. tonic's own client fails
//! the same way; short calls just rarely straddle the cut.
//!
//! So the server gives tonic the age alone (it then closes gracefully, and 714 calls in
//! 90 s over 30 connections all succeeded) and enforces the grace itself:
//! [`TrackedConnection`] wraps each accepted socket and, at age + grace, fails its
//! reads and writes, which ends the connection as a forced close would
//! (`gameai_grpc_connections_cut_total`). Unary calls are bounded by
//! `--request-budget-ms`, well under the default grace, so in practice only a
//! long-lived stream (health `Watch`, reflection) is ever cut.
//!
//! Metrics: `gameai_grpc_connections` (open now), `gameai_grpc_connections_accepted_total`,
//! `gameai_grpc_connections_cut_total`.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::{Stream, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;
use tonic::transport::server::{Connected, TcpConnectInfo, TcpIncoming};

use crate::telemetry::{CONNECTIONS_ACCEPTED_TOTAL, CONNECTIONS_CUT_TOTAL, CONNECTIONS_OPEN};

/// The accepted sockets of `incoming` as [`TrackedConnection`]s, each cut `cut_after`
/// its acceptance (`None`: never).
pub fn track(
    incoming: TcpIncoming,
    cut_after: Option<Duration>,
) -> impl Stream<Item = io::Result<TrackedConnection>> {
    metrics::gauge!(CONNECTIONS_OPEN).increment(0.0);
    metrics::counter!(CONNECTIONS_ACCEPTED_TOTAL).increment(0);
    metrics::counter!(CONNECTIONS_CUT_TOTAL).increment(0);
    incoming.map(move |accepted| accepted.map(|socket| TrackedConnection::new(socket, cut_after)))
}

/// One accepted TCP connection: counted in `gameai_grpc_connections` while it lives;
/// once `cut_after` has passed, every read and write fails with `TimedOut`, which
/// makes the HTTP/2 connection end (see the [module docs](self)).
#[derive(Debug)]
pub struct TrackedConnection {
    socket: TcpStream,
    cut_at: Option<Pin<Box<Sleep>>>,
    cut: bool,
}

impl TrackedConnection {
    fn new(socket: TcpStream, cut_after: Option<Duration>) -> Self {
        metrics::counter!(CONNECTIONS_ACCEPTED_TOTAL).increment(1);
        metrics::gauge!(CONNECTIONS_OPEN).increment(1.0);
        Self {
            socket,
            cut_at: cut_after.map(|after| Box::pin(tokio::time::sleep(after))),
            cut: false,
        }
    }

    /// True once the cut time has passed (and registers the waker until then, so that
    /// an idle connection is woken to be cut).
    fn poll_cut(&mut self, cx: &mut Context<'_>) -> bool {
        if !self.cut
            && let Some(cut_at) = self.cut_at.as_mut()
            && cut_at.as_mut().poll(cx).is_ready()
        {
            self.cut = true;
            metrics::counter!(CONNECTIONS_CUT_TOTAL).increment(1);
            tracing::debug!("connection cut: older than max connection age plus its grace");
        }
        self.cut
    }
}

fn cut_error() -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        "connection older than max connection age plus its grace",
    )
}

impl Drop for TrackedConnection {
    fn drop(&mut self) {
        metrics::gauge!(CONNECTIONS_OPEN).decrement(1.0);
    }
}

impl Connected for TrackedConnection {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.socket.connect_info()
    }
}

impl AsyncRead for TrackedConnection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.poll_cut(cx) {
            return Poll::Ready(Err(cut_error()));
        }
        Pin::new(&mut this.socket).poll_read(cx, buf)
    }
}

impl AsyncWrite for TrackedConnection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.poll_cut(cx) {
            return Poll::Ready(Err(cut_error()));
        }
        Pin::new(&mut this.socket).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.poll_cut(cx) {
            return Poll::Ready(Err(cut_error()));
        }
        Pin::new(&mut this.socket).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.socket.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().socket).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().socket).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    #[tokio::test]
    async fn reads_and_writes_fail_once_the_cut_time_has_passed() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut client = TcpStream::connect(addr).await.unwrap();
        let (socket, _) = listener.accept().await.unwrap();
        let mut conn = TrackedConnection::new(socket, Some(Duration::from_millis(200)));

        client.write_all(b"ping").await.unwrap();
        let mut buf = [0u8; 4];
        conn.read_exact(&mut buf).await.unwrap();
        assert_eq!(&buf, b"ping");
        conn.write_all(b"pong").await.unwrap();

        // An idle read is woken by the cut, not left pending.
        let began = std::time::Instant::now();
        let err = conn.read(&mut buf).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(began.elapsed() < Duration::from_secs(5));
        assert_eq!(
            conn.write(b"x").await.unwrap_err().kind(),
            io::ErrorKind::TimedOut
        );
    }
}
