//! Requests whose bytes do not decode (issue 12, "Malformed protobuf answers
//! INTERNAL"): every method answers `INVALID_ARGUMENT` naming the request type, the
//! metrics count `InvalidArgument`, and the server keeps serving.
//!
//! The requests are raw HTTP/2 gRPC requests sent through a tonic `Channel` (a tower
//! service of `http::Request`), so the bytes, the 5-byte gRPC frame header included,
//! are exactly what a broken client would send. The expected reasons are prost's and
//! tonic's own texts (see `src/server/undecodable.rs`): if a release rewords them this
//! test fails rather than the server silently answering `INTERNAL` again.

mod common;

use bytes::Bytes;
use common::{fetch_metrics, metric_value, start_default};
use http_body_util::{BodyExt, Full};
use tonic::transport::Channel;
use tonic::{Code, Status};
use tower::ServiceExt;

/// Every unary and server-streaming method with its request type and a request whose
/// first string field holds the bytes `34\xff\xfe5` (invalid UTF-8).
const METHODS: &[(&str, &str, &[u8])] = &[
    (
        "/gameai.v1.DouDizhuService/ListDouDizhuPlays",
        "gameai.v1.ListDouDizhuPlaysRequest",
        // field 1 (hand), length 5
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.DouDizhuService/SuggestDouDizhuPlay",
        "gameai.v1.SuggestDouDizhuPlayRequest",
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.DouDizhuService/SuggestDouDizhuBid",
        "gameai.v1.SuggestDouDizhuBidRequest",
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.MahjongService/SuggestMahjongDiscard",
        "gameai.v1.SuggestMahjongDiscardRequest",
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.MahjongService/SuggestMahjongCall",
        "gameai.v1.SuggestMahjongCallRequest",
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.MahjongService/AnalyzeMahjongHand",
        "gameai.v1.AnalyzeMahjongHandRequest",
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.GomokuService/SuggestGomokuMove",
        "gameai.v1.SuggestGomokuMoveRequest",
        // field 1 (position), length 7: field 2 (moves), length 5
        b"\x0a\x07\x12\x0534\xff\xfe5",
    ),
    (
        "/gameai.v1.GomokuService/AnalyzeGomokuPosition",
        "gameai.v1.AnalyzeGomokuPositionRequest",
        b"\x0a\x07\x12\x0534\xff\xfe5",
    ),
    (
        "/grpc.health.v1.Health/Check",
        "grpc.health.v1.HealthCheckRequest",
        // field 1 (service)
        b"\x0a\x0534\xff\xfe5",
    ),
    (
        "/grpc.health.v1.Health/Watch",
        "grpc.health.v1.HealthCheckRequest",
        b"\x0a\x0534\xff\xfe5",
    ),
];

/// A gRPC length-prefixed message: flag 0 (not compressed), 4-byte big-endian length.
fn frame(message: &[u8]) -> Vec<u8> {
    let mut out = vec![0];
    out.extend_from_slice(&(message.len() as u32).to_be_bytes());
    out.extend_from_slice(message);
    out
}

/// POSTs `body` (raw bytes, frame header included) to `path` and returns the gRPC
/// status, from the headers (trailers-only answer) or the trailers.
async fn raw_call(channel: &Channel, path: &str, body: Vec<u8>) -> Status {
    let request = http::Request::builder()
        .method("POST")
        .uri(format!("http://localhost{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(tonic::body::Body::new(Full::new(Bytes::from(body))))
        .unwrap();
    let response = channel.clone().oneshot(request).await.expect("HTTP answer");
    assert_eq!(response.status(), http::StatusCode::OK);
    if let Some(status) = Status::from_header_map(response.headers()) {
        return status;
    }
    let collected = response.into_body().collect().await.expect("body");
    let trailers = collected.trailers().expect("trailers").clone();
    Status::from_header_map(&trailers).expect("grpc-status trailer")
}

#[tokio::test]
async fn undecodable_requests_are_invalid_argument_for_every_method() {
    let server = start_default().await;
    let channel = &server.channel;
    for &(path, input_type, bad_utf8) in METHODS {
        // (what was sent, prost's / tonic's reason after "... as TYPE: ")
        let short = input_type.rsplit('.').next().unwrap();
        let utf8_reason = if path.contains("Gomoku") {
            // Innermost first, as prost prints its location stack.
            "GomokuPosition.moves: ".to_string()
                + short
                + ".position: invalid string value: data is not UTF-8 encoded"
        } else {
            let field = if path.contains("Health") {
                "service"
            } else {
                "hand"
            };
            format!("{short}.{field}: invalid string value: data is not UTF-8 encoded")
        };
        let cases: Vec<(&str, Vec<u8>, String)> = vec![
            ("invalid UTF-8", frame(bad_utf8), utf8_reason),
            // A key whose varint has its continuation bit set and then ends.
            ("truncated varint", frame(b"\x80"), "invalid varint".into()),
            // The first key, 0x07, has wire type 7, which does not exist (prost checks
            // it before the field number, 0, which does not exist either).
            (
                "random bytes",
                frame(b"\x07\x9c\x13\xe2\x5a"),
                "invalid wire type value: 7".into(),
            ),
            (
                "no message",
                Vec::new(),
                "the request body holds no message (no gRPC length-prefixed frame)".into(),
            ),
            (
                "truncated frame",
                frame(b"\x0a\x0233")[..5 + 2].to_vec(),
                "the request body ends inside a message (its gRPC frame is truncated)".into(),
            ),
        ];
        for (what, body, reason) in cases {
            let status = raw_call(channel, path, body).await;
            assert_eq!(
                status.code(),
                Code::InvalidArgument,
                "{path}, {what}: {status:?}"
            );
            assert_eq!(
                status.message(),
                format!("request could not be decoded as {input_type}: {reason}"),
                "{path}, {what}"
            );
        }
    }

    // Counted as the caller's fault, never as Internal.
    let text = fetch_metrics(&server.metrics_url).await;
    for &(path, _, _) in METHODS {
        let (service, method) = path[1..].split_once('/').unwrap();
        let labels = [("grpc_service", service), ("grpc_method", method)];
        let count = |code| {
            let mut l = labels.to_vec();
            l.push(("grpc_code", code));
            metric_value(&text, "grpc_server_handled_total", &l).unwrap_or(0.0)
        };
        assert_eq!(count("InvalidArgument"), 5.0, "{path}\n{text}");
        assert_eq!(count("Internal"), 0.0, "{path}");
    }

    // Only tonic's decode answers are rewritten: an unknown method is still
    // UNIMPLEMENTED, and a request that decodes reaches validation as usual.
    let status = raw_call(
        channel,
        "/gameai.v1.DouDizhuService/NoSuchMethod",
        frame(b"\x80"),
    )
    .await;
    assert_eq!(status.code(), Code::Unimplemented, "{status:?}");
    let hand_31 = frame(b"\x0a\x0231"); // ListDouDizhuPlays { hand: "31" }
    let status = raw_call(
        channel,
        "/gameai.v1.DouDizhuService/ListDouDizhuPlays",
        hand_31,
    )
    .await;
    common::assert_invalid_argument(&status, "hand", "character '1' at position 2 is not a card");

    // The same connection serves a good request right after.
    let good = frame(b"\x0a\x0234"); // ListDouDizhuPlays { hand: "34" }
    let status = raw_call(
        channel,
        "/gameai.v1.DouDizhuService/ListDouDizhuPlays",
        good,
    )
    .await;
    assert_eq!(status.code(), Code::Ok, "{status:?}");
}
