//! Requests that cannot be decoded are the caller's fault: `INVALID_ARGUMENT`, not
//! tonic's `INTERNAL`.
//!
//! tonic answers a request whose bytes are not its message type (invalid UTF-8 in a
//! string field, a truncated varint, random bytes; `tonic_prost::ProstCodec` maps
//! every `prost::DecodeError` to `INTERNAL` after the table of gRPC's
//! `doc/statuscodes.md`), a request with no message at all, and a request whose body
//! ends inside a message, with `INTERNAL`. That code means "a bug of ours" to every
//! dashboard and to the paging error-ratio alert (`deploy/prometheus/alerts.yml`), and
//! tells the caller nothing it can act on. [`UndecodableRequestLayer`] rewrites those
//! answers, for every method the server knows (the game services, health and
//! reflection alike), into `INVALID_ARGUMENT` with a message that names the request
//! type and keeps prost's reason:
//!
//! ```text
//! request could not be decoded as gameai.v1.ListDouDizhuPlaysRequest:
//!     ListDouDizhuPlaysRequest.hand: invalid string value: data is not UTF-8 encoded
//! ```
//!
//! Where: tonic builds these answers in `tonic::server::Grpc::unary` and
//! `server_streaming` (`map_request_unary`: the decoder's error, "Missing request
//! message.", and `Streaming`'s "Unexpected EOF decoding stream.") before any handler
//! runs, as trailers-only responses (`grpc-status` in the headers). This layer sits
//! between the metrics layer and the services, so the calls are counted as
//! `InvalidArgument`. A layer rather than a codec of our own in the generated
//! services: a codec would not reach health and reflection, whose services tonic
//! generates, nor the two errors that arise outside the codec. It recognises tonic's
//! messages by their text; `tests/undecodable_requests.rs` pins each one, so a tonic
//! release that rewords them fails the tests instead of silently answering
//! `INTERNAL` again.
//!
//! Left to tonic: the compressed-flag errors (gRPC's compression spec requires
//! `INTERNAL` for them) and the bidirectional reflection stream, whose handler ends
//! the stream without an error when a message does not decode.
//!
//! A [`ShortCircuit`] layer that never refuses at once: it rewrites the answer.

use std::sync::Arc;

use tonic::{Code, Status};

use super::short_circuit::{HttpResponse, ShortCircuit, ShortCircuitLayer};
use crate::telemetry::{MethodTable, grpc_status_code};

/// Rewrites tonic's `INTERNAL` answers to undecodable requests into
/// `INVALID_ARGUMENT`. See the [module docs](self).
pub type UndecodableRequestLayer = ShortCircuitLayer<UndecodableRequest>;

impl UndecodableRequestLayer {
    /// A layer for the methods of `methods` (their request types name the message).
    pub fn new(methods: Arc<MethodTable>) -> Self {
        Self::with_policy(UndecodableRequest { methods })
    }
}

/// The policy of [`UndecodableRequestLayer`].
#[derive(Clone, Debug)]
pub struct UndecodableRequest {
    methods: Arc<MethodTable>,
}

impl ShortCircuit for UndecodableRequest {
    /// The request type of a known method.
    type State = Option<String>;

    fn admit<B>(&self, req: &mut http::Request<B>) -> Result<Self::State, Status> {
        Ok(self
            .methods
            .get(req.uri().path())
            .map(|m| m.input_type.clone()))
    }

    fn respond(input_type: Self::State, response: HttpResponse) -> HttpResponse {
        if let Some(input_type) = input_type
            && grpc_status_code(response.headers()) == Some(Code::Internal)
            && let Some(status) = Status::from_header_map(response.headers())
            && let Some(reason) = undecodable_reason(status.message())
        {
            let message = format!("request could not be decoded as {input_type}: {reason}");
            return Status::invalid_argument(message).into_http();
        }
        response
    }
}

/// The reason to give when `message` is one of tonic's messages for a request it could
/// not decode; `None` for any other `INTERNAL` (a real fault of ours stays `INTERNAL`).
pub fn undecodable_reason(message: &str) -> Option<String> {
    if let Some(reason) = message.strip_prefix("failed to decode Protobuf message: ") {
        return Some(reason.to_string());
    }
    match message {
        "Missing request message." => {
            Some("the request body holds no message (no gRPC length-prefixed frame)".into())
        }
        "Unexpected EOF decoding stream." => {
            Some("the request body ends inside a message (its gRPC frame is truncated)".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_tonic_decode_messages_are_rewritten() {
        assert_eq!(
            undecodable_reason(
                "failed to decode Protobuf message: ListDouDizhuPlaysRequest.hand: invalid string value: data is not UTF-8 encoded"
            )
            .as_deref(),
            Some("ListDouDizhuPlaysRequest.hand: invalid string value: data is not UTF-8 encoded")
        );
        assert!(undecodable_reason("Missing request message.").is_some());
        assert!(undecodable_reason("Unexpected EOF decoding stream.").is_some());
        // Our own INTERNAL answers (src/service/error.rs) are left alone.
        assert_eq!(
            undecodable_reason("internal error: engine task failed: panicked"),
            None
        );
    }
}
