//! The error model of the gRPC surface: how validation faults and engine failures
//! become `tonic::Status` values.
//!
//! Bad input is `INVALID_ARGUMENT` whose message names the field and the fault
//! (`"hand: card '1' is not a rank"`) and whose details carry a
//! `google.rpc.BadRequest` with one field violation, so that clients in any language
//! can point at the field without parsing the message.

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// `INVALID_ARGUMENT` for one bad request field.
///
/// `field` is the request field's path as in the proto (`"hand"`, `"melds[2].tiles"`,
/// `"position.moves"`); `reason` says what is wrong with it. The message is
/// `"FIELD: REASON"`, and the details hold a `google.rpc.BadRequest` with the single
/// field violation `{field, description: reason}`.
pub fn invalid_argument(field: &str, reason: impl std::fmt::Display) -> Status {
    let reason = reason.to_string();
    let mut details = ErrorDetails::new();
    details.add_bad_request_violation(field, reason.clone());
    Status::with_error_details(Code::InvalidArgument, format!("{field}: {reason}"), details)
}

/// `UNIMPLEMENTED` for an RPC whose engine has not been built into this server.
///
/// `method` is the RPC's name (`"SuggestDouDizhuPlay"`), `capability` what is missing
/// (`"the Dou Dizhu decision engine"`). Message: `"METHOD: CAPABILITY is not built yet"`.
pub fn unimplemented(method: &str, capability: &str) -> Status {
    Status::unimplemented(format!("{method}: {capability} is not built yet"))
}

/// `INTERNAL` for a failure that is the server's fault, never the caller's (e.g. an
/// engine task that panicked). The message says what failed; the process keeps running.
pub fn internal(what: impl std::fmt::Display) -> Status {
    Status::internal(format!("internal error: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_argument_names_field_and_carries_a_bad_request_violation() {
        let status = invalid_argument("hand", "card '1' is not a rank");
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(status.message(), "hand: card '1' is not a rank");
        let bad_request = status
            .get_details_bad_request()
            .expect("google.rpc.BadRequest in the details");
        assert_eq!(bad_request.field_violations.len(), 1);
        assert_eq!(bad_request.field_violations[0].field, "hand");
        assert_eq!(
            bad_request.field_violations[0].description,
            "card '1' is not a rank"
        );
    }

    #[test]
    fn unimplemented_names_the_missing_capability() {
        let status = unimplemented("SuggestDouDizhuPlay", "the Dou Dizhu decision engine");
        assert_eq!(status.code(), Code::Unimplemented);
        assert_eq!(
            status.message(),
            "SuggestDouDizhuPlay: the Dou Dizhu decision engine is not built yet"
        );
    }
}
