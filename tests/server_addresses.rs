//! `--grpc-addr` and `--metrics-addr` take a host name as well as an IP address
//! (`localhost:50071`), as DESIGN.md's flags and every gRPC server's do.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::{channel_to, free_port, http_get, wait_serving};

#[tokio::test]
async fn the_binary_listens_on_host_name_addresses() {
    let grpc_port = free_port();
    let metrics_port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_gameai"))
        .arg("--grpc-addr")
        .arg(format!("localhost:{grpc_port}"))
        .arg("--metrics-addr")
        .arg(format!("localhost:{metrics_port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the gameai binary");
    let mut child = KillOnDrop(child);
    // `localhost` is bound on 127.0.0.1 (its IPv4 address, preferred).
    let channel = channel_to(format!("127.0.0.1:{grpc_port}").parse().unwrap());
    let serving = tokio::time::timeout(Duration::from_secs(90), wait_serving(&channel, ""));
    if serving.await.is_err() {
        panic!("not SERVING within 90 s: {:?}", child.0.try_wait());
    }
    let (code, body) = http_get(&format!("http://127.0.0.1:{metrics_port}/metrics")).await;
    assert_eq!(code, 200);
    assert!(body.contains("grpc_server_started_total"));
    child.0.kill().unwrap();
    child.0.wait().unwrap();
}

#[test]
fn an_address_without_a_port_is_refused_with_its_flag_named() {
    let output = Command::new(env!("CARGO_BIN_EXE_gameai"))
        .args(["--grpc-addr", "localhost", "--metrics-addr", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .output()
        .expect("run the gameai binary");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot resolve gRPC address") && stderr.contains("localhost"),
        "{stderr}"
    );
}

/// Kills the child if the test fails before it does.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}
