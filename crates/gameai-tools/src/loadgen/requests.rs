//! Request files: one gRPC call per line, the request in the proto3 JSON mapping.
//!
//! A line of `bench/requests/*.jsonl` is one JSON object, either an *envelope*
//!
//! ```json
//! {"method": "gameai.v1.DouDizhuService/ListDouDizhuPlays", "tag": "lead/opening", "request": {"hand": "33456778899TJQKKA22X"}}
//! ```
//!
//! or a *bare request* (`{"hand": "..."}`), whose method then comes from `--method`.
//! `method` is the full name as grpcurl writes it (`package.Service/Method`) or the
//! method's name alone when that is unique (`ListDouDizhuPlays`). `request` is exactly
//! what `grpcurl -d` takes: field names as in the proto or in lowerCamelCase, enum
//! values by name (`"SEAT_LANDLORD"`) or number, 64-bit integers as strings or numbers.
//! `tag` (optional) labels the state ("endgame", "shanten/4") so that reports can be
//! broken down by it. Empty lines and lines starting with `//` are skipped. Any other
//! key of an envelope is kept out of the request (room for provenance such as `seed`).
//!
//! Each request is validated against the contract and encoded once, at load time, so
//! the load loop only sends bytes.

use std::path::Path;

use bytes::Bytes;
use prost::Message;
use prost_reflect::{DescriptorPool, DeserializeOptions, DynamicMessage, MethodDescriptor};

/// The health check every run can use as its floor.
pub const HEALTH_CHECK: &str = "grpc.health.v1.Health/Check";

/// One call to make: which method, its encoded request, and a label.
#[derive(Clone, Debug)]
pub struct Call {
    /// `/package.Service/Method`, the HTTP/2 path.
    pub path: String,
    /// `Method` alone, for reports.
    pub method: String,
    /// The label of the line, `""` when it has none.
    pub tag: String,
    /// The request, protobuf-encoded.
    pub body: Bytes,
}

/// Every message and service the server speaks: the gameai contract and
/// `grpc.health.v1`.
pub fn descriptor_pool() -> Result<DescriptorPool, String> {
    let mut pool = DescriptorPool::new();
    for set in [
        gameai::proto::FILE_DESCRIPTOR_SET,
        tonic_health::pb::FILE_DESCRIPTOR_SET,
    ] {
        pool.decode_file_descriptor_set(set)
            .map_err(|e| format!("descriptor set: {e}"))?;
    }
    Ok(pool)
}

/// The method named `name`: `package.Service/Method`, `/package.Service/Method` or a
/// unique `Method`.
pub fn find_method(pool: &DescriptorPool, name: &str) -> Result<MethodDescriptor, String> {
    let name = name.trim_start_matches('/');
    let mut found = Vec::new();
    for service in pool.services() {
        for method in service.methods() {
            let full = format!("{}/{}", service.full_name(), method.name());
            if full == name || method.name() == name {
                found.push(method);
            }
        }
    }
    match found.len() {
        1 => Ok(found.pop().unwrap()),
        0 => Err(format!(
            "no method {name:?} in the contract (e.g. gameai.v1.MahjongService/SuggestMahjongDiscard)"
        )),
        _ => Err(format!(
            "method name {name:?} is ambiguous; give Service/Method"
        )),
    }
}

/// Encodes `json` (the proto3 JSON mapping) as a request of `method`. Unknown fields
/// are an error, so a typo in a hand-edited file is caught at load time.
pub fn encode_json(method: &MethodDescriptor, json: &serde_json::Value) -> Result<Call, String> {
    let options = DeserializeOptions::new().deny_unknown_fields(true);
    let message = DynamicMessage::deserialize_with_options(method.input(), json, &options)
        .map_err(|e| format!("not a {}: {e}", method.input().full_name()))?;
    Ok(Call {
        path: format!("/{}/{}", method.parent_service().full_name(), method.name()),
        method: method.name().to_string(),
        tag: String::new(),
        body: Bytes::from(message.encode_to_vec()),
    })
}

/// Parses one line of a request file; `Ok(None)` for blank and comment lines.
///
/// `default_method` is the method of bare lines (`--method`).
pub fn parse_line(
    pool: &DescriptorPool,
    line: &str,
    default_method: Option<&MethodDescriptor>,
) -> Result<Option<Call>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with("//") {
        return Ok(None);
    }
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    let envelope = object.contains_key("method") && object.contains_key("request");
    if !envelope {
        let method = default_method.ok_or(
            "a bare request needs --method (or write {\"method\": ..., \"request\": ...})",
        )?;
        return encode_json(method, &value).map(Some);
    }
    let name = object["method"]
        .as_str()
        .ok_or("\"method\" must be a string")?;
    let method = find_method(pool, name)?;
    let mut call = encode_json(&method, &object["request"])?;
    if let Some(tag) = object.get("tag") {
        call.tag = tag.as_str().ok_or("\"tag\" must be a string")?.to_string();
    }
    Ok(Some(call))
}

/// Every call of a request file, in file order. Errors name the file and line.
pub fn load_file(
    pool: &DescriptorPool,
    path: &Path,
    default_method: Option<&MethodDescriptor>,
) -> Result<Vec<Call>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut calls = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(pool, line, default_method) {
            Ok(Some(call)) => calls.push(call),
            Ok(None) => {}
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(calls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_and_bare_lines_encode_as_the_generated_types_do() {
        let pool = descriptor_pool().unwrap();
        let line = r#"{"method": "ListDouDizhuPlays", "tag": "lead", "request": {"hand": "334455", "lastPlayKind": "PLAY_KIND_PAIR", "last_play": "33"}}"#;
        let call = parse_line(&pool, line, None).unwrap().unwrap();
        assert_eq!(call.path, "/gameai.v1.DouDizhuService/ListDouDizhuPlays");
        assert_eq!(call.tag, "lead");
        let expected = gameai::proto::ListDouDizhuPlaysRequest {
            hand: "334455".into(),
            last_play: "33".into(),
            last_play_kind: gameai::proto::PlayKind::Pair as i32,
            rules: None,
        };
        assert_eq!(call.body, expected.encode_to_vec());

        let method = find_method(&pool, HEALTH_CHECK).unwrap();
        let bare = parse_line(&pool, "{}", Some(&method)).unwrap().unwrap();
        assert_eq!(bare.path, "/grpc.health.v1.Health/Check");
        assert!(bare.body.is_empty());
        assert!(parse_line(&pool, "// a comment", None).unwrap().is_none());
    }

    #[test]
    fn typos_and_unknown_methods_are_load_errors() {
        let pool = descriptor_pool().unwrap();
        let typo = r#"{"method": "ListDouDizhuPlays", "request": {"hnad": "33"}}"#;
        assert!(parse_line(&pool, typo, None).unwrap_err().contains("hnad"));
        let unknown = r#"{"method": "NoSuchMethod", "request": {}}"#;
        assert!(parse_line(&pool, unknown, None).is_err());
        assert!(parse_line(&pool, r#"{"hand": "33"}"#, None).is_err());
    }
}
