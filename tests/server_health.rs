//! gRPC health checking: NOT_SERVING while start-up work runs, SERVING after it,
//! NOT_SERVING again during the drain; game RPCs answer meanwhile.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use common::{GAME_SERVICES, health, start_server, wait_serving};
use futures_util::StreamExt;
use gameai::server::{ServeError, ServerConfig, StartupTask};
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

#[tokio::test]
async fn not_serving_until_the_slow_startup_task_finishes() {
    // A real start-up task that blocks its thread until the test releases it (as the
    // mahjong table build blocks for its duration).
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let task: StartupTask = Box::new(move || {
        release_rx.recv().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        done_tx.send(()).unwrap();
    });
    let quick: StartupTask = Box::new(|| {});
    let server = start_server(ServerConfig::default(), vec![quick, task]).await;

    // Well past the quick task, the slow one still runs: NOT_SERVING everywhere.
    tokio::time::sleep(Duration::from_millis(200)).await;
    for service in std::iter::once("").chain(GAME_SERVICES) {
        assert_eq!(
            health(&server.channel, service).await.unwrap(),
            ServingStatus::NotServing,
            "{service:?}"
        );
    }
    // The server answers meanwhile: a game RPC reaches its handler.
    let answer =
        gameai::proto::dou_dizhu_service_client::DouDizhuServiceClient::new(server.channel.clone())
            .list_dou_dizhu_plays(gameai::proto::ListDouDizhuPlaysRequest {
                hand: "33".into(),
                ..Default::default()
            })
            .await;
    if let Err(status) = answer {
        assert_ne!(status.code(), Code::Unavailable, "{status:?}");
    }

    release_tx.send(()).unwrap();
    wait_serving(&server.channel, "").await;
    // SERVING is reported only after the task ran to its end.
    assert!(done_rx.try_recv().is_ok());
    for service in GAME_SERVICES {
        assert_eq!(
            health(&server.channel, service).await.unwrap(),
            ServingStatus::Serving,
            "{service}"
        );
    }
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn unknown_service_is_not_found() {
    let server = common::start_default().await;
    let status = health(&server.channel, "gameai.v1.NoSuchService")
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    server.shutdown().await.unwrap();
}

/// The health checking spec (gRPC doc/health-checking.md): "If the requested service is
/// unknown when the call is received, the server will send a message setting the
/// serving status to SERVICE_UNKNOWN but will not terminate the call."
#[tokio::test]
async fn watch_of_an_unknown_service_streams_service_unknown_and_stays_open() {
    let mut server = common::start_default().await;
    let mut watch = HealthClient::new(server.channel.clone())
        .watch(HealthCheckRequest {
            service: "gameai.v1.NoSuchService".to_string(),
        })
        .await
        .expect("the call is accepted, not refused with NOT_FOUND")
        .into_inner();
    let first = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("a first message within 5 s")
        .unwrap()
        .unwrap();
    assert_eq!(first.status(), ServingStatus::ServiceUnknown);
    // Not terminated: nothing more (no end of stream) within 300 ms.
    assert!(
        tokio::time::timeout(Duration::from_millis(300), watch.next())
            .await
            .is_err()
    );
    // A known service's Watch is unchanged: its status first.
    let mut known = HealthClient::new(server.channel.clone())
        .watch(HealthCheckRequest {
            service: GAME_SERVICES[0].to_string(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        known.next().await.unwrap().unwrap().status(),
        ServingStatus::Serving
    );
    // At the drain the stream ends like any other (UNAVAILABLE).
    server.signal_shutdown();
    let end = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("the stream ends within 5 s of the drain")
        .expect("a final status")
        .unwrap_err();
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");
    server.join().await.unwrap();
}

#[tokio::test]
async fn watch_sees_not_serving_during_the_drain_and_the_drain_is_quick() {
    let config = ServerConfig {
        shutdown_grace: Duration::from_secs(20),
        ..ServerConfig::default()
    };
    let mut server = start_server(config, Vec::new()).await;
    wait_serving(&server.channel, "").await;

    let mut watch = HealthClient::new(server.channel.clone())
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let first = watch.next().await.unwrap().unwrap();
    assert_eq!(first.status(), ServingStatus::Serving);

    let began = std::time::Instant::now();
    server.signal_shutdown();
    let next = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("an update within 5 s")
        .unwrap()
        .unwrap();
    assert_eq!(next.status(), ServingStatus::NotServing);
    // Then the stream ends (UNAVAILABLE, "server is shutting down") instead of
    // holding the drain for the whole 20 s grace period.
    let end = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("the stream ends within 5 s")
        .expect("a final status")
        .unwrap_err();
    assert_eq!(end.code(), Code::Unavailable, "{end:?}");
    server.join().await.unwrap();
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
}

#[tokio::test]
async fn a_panicking_startup_task_stops_the_server_with_an_error() {
    let task: StartupTask = Box::new(|| panic!("table build failed"));
    let mut server = start_server(ServerConfig::default(), vec![Box::new(|| {}), task]).await;
    match server.join().await {
        Err(ServeError::Startup { index, reason }) => {
            assert_eq!(index, 1);
            assert_eq!(reason, "panicked: table build failed");
        }
        other => panic!("expected a start-up error, got {other:?}"),
    }
}
