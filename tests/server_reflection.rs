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
    for name in GAME_SERVICES.iter().chain(&["grpc.health.v1.Health"]) {
        assert!(listed.iter().any(|s| s == name), "{name} not in {listed:?}");
    }

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
    for name in GAME_SERVICES.iter().chain(&["grpc.health.v1.Health"]) {
        assert!(listed.iter().any(|s| s == name), "{name} not in {listed:?}");
    }
    server.shutdown().await.unwrap();
}
