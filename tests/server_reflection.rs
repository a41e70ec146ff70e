//! Server reflection, both protocol versions: v1 (current grpcurl, grpcui) and
//! v1alpha (grpcurl 1.8.6, the version on the package index).

mod common;

use common::{GAME_SERVICES, start_default};
use futures_util::StreamExt;
use prost::Message;

#[tokio::test]
async fn reflection_v1_lists_and_describes_the_services() {
    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

    let server = start_default().await;
    let mut client = ServerReflectionClient::new(server.channel.clone());
    let requests = vec![
        ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::ListServices(String::new())),
        },
        ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::FileContainingSymbol(
                "gameai.v1.MahjongService".to_string(),
            )),
        },
    ];
    let mut responses = client
        .server_reflection_info(futures_util::stream::iter(requests))
        .await
        .unwrap()
        .into_inner();

    let listed = match responses.next().await.unwrap().unwrap().message_response {
        Some(MessageResponse::ListServicesResponse(list)) => {
            list.service.into_iter().map(|s| s.name).collect::<Vec<_>>()
        }
        other => panic!("expected a service list, got {other:?}"),
    };
    assert_lists_every_service(listed);

    match responses.next().await.unwrap().unwrap().message_response {
        Some(MessageResponse::FileDescriptorResponse(files)) => {
            let names: Vec<String> = files
                .file_descriptor_proto
                .iter()
                .map(|b| {
                    prost_types::FileDescriptorProto::decode(b.as_slice())
                        .unwrap()
                        .name()
                        .to_string()
                })
                .collect();
            assert!(
                names.iter().any(|n| n == "gameai/v1/mahjong.proto"),
                "{names:?}"
            );
        }
        other => panic!("expected file descriptors, got {other:?}"),
    }
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn reflection_v1alpha_lists_the_services() {
    use tonic_reflection::pb::v1alpha::ServerReflectionRequest;
    use tonic_reflection::pb::v1alpha::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1alpha::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1alpha::server_reflection_response::MessageResponse;

    let server = start_default().await;
    let mut client = ServerReflectionClient::new(server.channel.clone());
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = client
        .server_reflection_info(futures_util::stream::iter(vec![request]))
        .await
        .unwrap()
        .into_inner();
    let listed = match responses.next().await.unwrap().unwrap().message_response {
        Some(MessageResponse::ListServicesResponse(list)) => {
            list.service.into_iter().map(|s| s.name).collect::<Vec<_>>()
        }
        other => panic!("expected a service list, got {other:?}"),
    };
    assert_lists_every_service(listed);
    server.shutdown().await.unwrap();
}

/// What `grpcurl list` must print, whichever reflection version it speaks: the game
/// services, health, and both reflection services, each once.
fn assert_lists_every_service(mut listed: Vec<String>) {
    let mut expected: Vec<String> = GAME_SERVICES
        .iter()
        .chain(&[
            "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection",
        ])
        .map(|s| s.to_string())
        .collect();
    listed.sort();
    expected.sort();
    assert_eq!(listed, expected);
}

/// The message types a file descriptor response defines, by full name.
fn defined_messages(files: &[Vec<u8>]) -> Vec<String> {
    files
        .iter()
        .flat_map(|b| {
            let f = prost_types::FileDescriptorProto::decode(b.as_slice()).unwrap();
            let package = f.package().to_string();
            f.message_type
                .into_iter()
                .map(move |m| format!("{package}.{}", m.name()))
        })
        .collect()
}

/// The message types defined by the files that reflection protocol version `$v` (`v1`,
/// `v1alpha`) returns for `FileContainingSymbol($symbol)` on `$channel`.
macro_rules! messages_in_file_of {
    ($v:ident, $channel:expr, $symbol:expr) => {{
        use tonic_reflection::pb::$v::ServerReflectionRequest;
        use tonic_reflection::pb::$v::server_reflection_client::ServerReflectionClient;
        use tonic_reflection::pb::$v::server_reflection_request::MessageRequest;
        use tonic_reflection::pb::$v::server_reflection_response::MessageResponse;
        let request = ServerReflectionRequest {
            host: String::new(),
            message_request: Some(MessageRequest::FileContainingSymbol($symbol.into())),
        };
        let mut responses = ServerReflectionClient::new($channel)
            .server_reflection_info(futures_util::stream::iter(vec![request]))
            .await
            .unwrap()
            .into_inner();
        match responses.next().await.unwrap().unwrap().message_response {
            Some(MessageResponse::FileDescriptorResponse(files)) => {
                defined_messages(&files.file_descriptor_proto)
            }
            other => panic!(
                "{}: expected file descriptors, got {other:?}",
                stringify!($v)
            ),
        }
    }};
}

/// Every INVALID_ARGUMENT carries a `google.rpc.BadRequest` in its details
/// (`src/service/error.rs`); a reflection client decodes it only if reflection knows the
/// type (grpcurl printed `google.rpc.BadRequest is not recognized` and raw bytes before).
#[tokio::test]
async fn reflection_resolves_the_error_detail_type_in_both_versions() {
    const SYMBOL: &str = "google.rpc.BadRequest";
    let server = start_default().await;
    let v1 = messages_in_file_of!(v1, server.channel.clone(), SYMBOL);
    assert!(v1.iter().any(|m| m == SYMBOL), "v1: {v1:?}");
    let v1alpha = messages_in_file_of!(v1alpha, server.channel.clone(), SYMBOL);
    assert!(v1alpha.iter().any(|m| m == SYMBOL), "v1alpha: {v1alpha:?}");
    server.shutdown().await.unwrap();
}
