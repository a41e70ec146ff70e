//! SIGTERM during sustained load (issue 12, "Drain"): the real binary, several clients
//! calling back to back on their own connections, fast Dou Dizhu calls and slow gomoku
//! searches mixed. After the signal: no call the server accepted fails, new connections
//! are refused while the drain runs, and the process exits 0 within the grace period.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{BinaryServer, channel_to, never_sent, wait_serving};
use gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient;
use gameai::proto::gomoku_service_client::GomokuServiceClient;
use gameai::proto::{GomokuPosition, ListDouDizhuPlaysRequest, SuggestGomokuMoveRequest};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tonic::Code;

/// `--shutdown-grace-secs`: longer than any call here (the slow ones take at most 3 s).
const GRACE_SECS: u64 = 6;

/// The slow calls' budget. Their length is set by it, not by the engine's speed: the
/// gomoku search starts no new iteration after half the budget and stops at the whole
/// (`gomoku::search::Limits`), and three stones in the opening hold no forced win for it
/// to prove early. So a slow call lasts 1.5 to 3 s on any machine.
const SLOW_BUDGET_MS: u32 = 3000;

/// How long after a slow call was sent the signal comes: the call then has at least
/// 1.5 s - 200 ms left, well past the 300 ms at which the test looks for the drain.
const SIGNAL_AFTER_SLOW_SENT: Duration = Duration::from_millis(200);

/// How long before the signal a call may have begun and still not have been written to
/// its connection when the drain closed it (the fast calls take about a millisecond).
const RACE_BEFORE_SIGNAL: Duration = Duration::from_millis(250);

/// Whether the call failed because its channel could not connect (connection refused):
/// it never reached the server.
fn connect_refused(status: &tonic::Status) -> bool {
    let mut source = std::error::Error::source(status);
    while let Some(error) = source {
        if let Some(io) = error.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::ConnectionRefused
        {
            return true;
        }
        source = error.source();
    }
    false
}

/// One call as its client saw it.
#[derive(Debug)]
struct Call {
    began: Instant,
    ended: Instant,
    result: Result<(), tonic::Status>,
}

/// Calls back to back until a call fails or `stop` passes. `slow`: gomoku searches of
/// [`SLOW_BUDGET_MS`], each announced on `sent` as it is sent; else Dou Dizhu move lists
/// (about a millisecond).
async fn caller(
    channel: tonic::transport::Channel,
    slow: bool,
    stop: Instant,
    sent: mpsc::UnboundedSender<Instant>,
) -> Vec<Call> {
    let mut gomoku = GomokuServiceClient::new(channel.clone());
    let mut doudizhu = DouDizhuServiceClient::new(channel);
    let mut calls = Vec::new();
    while Instant::now() < stop {
        let began = Instant::now();
        let result = if slow {
            let _ = sent.send(began);
            gomoku
                .suggest_gomoku_move(SuggestGomokuMoveRequest {
                    position: Some(GomokuPosition {
                        moves: "h8i9h9".into(),
                        ..Default::default()
                    }),
                    budget_ms: SLOW_BUDGET_MS,
                    ..Default::default()
                })
                .await
                .map(drop)
        } else {
            doudizhu
                .list_dou_dizhu_plays(ListDouDizhuPlaysRequest {
                    hand: "3445566778899TJQKA2X".into(),
                    ..Default::default()
                })
                .await
                .map(drop)
        };
        let failed = result.is_err();
        calls.push(Call {
            began,
            ended: Instant::now(),
            result,
        });
        if failed {
            break;
        }
    }
    calls
}

#[test]
fn sigterm_under_load_fails_no_accepted_call_and_refuses_new_connections() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _entered = runtime.enter();
    let grace = GRACE_SECS.to_string();
    let mut server = BinaryServer::start(
        &[
            "--log-format",
            "json",
            "--shutdown-grace-secs",
            &grace,
            "--log-queue-lines",
            "1000000",
        ],
        &[],
    );
    let logs = server.read_stderr_continuously();
    let addr = server.grpc_addr;
    let server = Arc::new(Mutex::new(server));
    let (calls, signalled, refused_while_draining) = runtime.block_on({
        let server = server.clone();
        async move {
            wait_serving(&channel_to(addr), "").await;
            // Six callers, each on its own connection: four fast, two slow.
            let stop = Instant::now() + Duration::from_secs(10);
            let (sent_tx, mut sent) = mpsc::unbounded_channel();
            let mut callers = JoinSet::new();
            for i in 0..6 {
                callers.spawn(caller(channel_to(addr), i >= 4, stop, sent_tx.clone()));
            }
            drop(sent_tx);
            // Load for a second, then signal shortly after the next slow call is sent.
            tokio::time::sleep(Duration::from_millis(1000)).await;
            while sent.try_recv().is_ok() {}
            let slow_sent = sent.recv().await.expect("the slow callers are calling");
            tokio::time::sleep_until((slow_sent + SIGNAL_AFTER_SLOW_SENT).into()).await;
            let signalled = Instant::now();
            server.lock().unwrap().sigterm();
            // While the slow calls drain (the one just sent has over a second left), a
            // new connection is refused.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let alive =
                |s: &Mutex<BinaryServer>| s.lock().unwrap().child.try_wait().unwrap().is_none();
            assert!(
                alive(&server),
                "the drain outlasts 300 ms: slow calls are in flight"
            );
            let connect = tokio::net::TcpStream::connect(addr).await;
            let refused =
                matches!(&connect, Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused);
            assert!(
                alive(&server),
                "still draining after the connection attempt"
            );
            let calls: Vec<Call> = callers.join_all().await.into_iter().flatten().collect();
            (calls, signalled, refused)
        }
    });
    let mut server = Arc::try_unwrap(server).ok().unwrap().into_inner().unwrap();
    let status = server.wait_exit(Duration::from_secs(GRACE_SECS + 10));
    let exited = signalled.elapsed();
    let logs = logs.join().unwrap();

    assert_eq!(status.code(), Some(0), "{logs}");
    assert!(
        exited < Duration::from_secs(GRACE_SECS),
        "exit {exited:?} after SIGTERM, grace {GRACE_SECS} s"
    );
    assert!(
        refused_while_draining,
        "a new connection after SIGTERM must be refused"
    );

    // The drain was exercised: slow calls were in flight at the signal, and finished.
    let straddling: Vec<&Call> = calls
        .iter()
        .filter(|c| c.began < signalled && c.ended > signalled)
        .collect();
    assert!(straddling.len() >= 2, "{straddling:?}");
    for call in &calls {
        match &call.result {
            Ok(()) => {}
            // A call begun before the signal was accepted and must succeed, unless it
            // was begun in the last moments before it and never reached the server: the
            // drain's GOAWAY closed its connection before the request was written, and
            // the channel's reconnect was refused (seen once in a full `cargo test` on
            // the loaded 2-core VM). The server's own log below still shows every call
            // it handled ended OK.
            Err(status) if call.began < signalled => assert!(
                signalled - call.began < RACE_BEFORE_SIGNAL
                    && (never_sent(status) || connect_refused(status)),
                "accepted call failed: {status:?}, begun {:?} before the signal",
                signalled - call.began
            ),
            // After it, a call may only be turned away unseen: its connection refused
            // (UNAVAILABLE) or never sent on a connection that got its GOAWAY.
            Err(status) => assert!(
                status.code() == Code::Unavailable || never_sent(status),
                "a call after SIGTERM failed otherwise than being turned away: {status:?}"
            ),
        }
    }
    let ok = calls.iter().filter(|c| c.result.is_ok()).count();
    assert!(ok >= 40, "{ok} calls OK: the load was sustained");

    // The server's own account (one log line per call, flushed at exit): every game
    // call it handled ended OK, and it handled exactly the calls the clients saw OK.
    let handled: Vec<serde_json::Value> = logs
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|l| {
            l["fields"]["message"] == "rpc finished"
                && l["span"]["rpc.method"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("/gameai.v1."))
        })
        .collect();
    let not_ok: Vec<_> = handled
        .iter()
        .filter(|l| l["span"]["grpc.code"] != "OK")
        .collect();
    assert!(not_ok.is_empty(), "{not_ok:?}");
    assert_eq!(
        handled.len(),
        ok,
        "server-side lines vs client-side OK calls"
    );
    let turned_away: Vec<String> = calls
        .iter()
        .filter_map(|c| c.result.as_ref().err())
        .map(|s| format!("{:?} {}", s.code(), s.message()))
        .collect();
    eprintln!(
        "{} calls ({ok} OK, {} straddling the signal), exit {exited:?} after SIGTERM, \
         turned away after it: {turned_away:?}",
        calls.len(),
        straddling.len()
    );
}
