//! The methods a server serves, read from the descriptor sets that reflection serves
//! too: name, streaming kind and request type, keyed by the HTTP/2 path
//! `/SERVICE/METHOD`. The metrics layer labels its series from it (and pre-registers
//! them), the undecodable-request layer names the request type, the drain layer finds
//! the streams.

use std::collections::HashMap;

use prost::Message;

/// The streaming kind of a method, spelled as go-grpc-prometheus's `grpc_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrpcType {
    Unary,
    ClientStream,
    ServerStream,
    BidiStream,
}

impl GrpcType {
    /// `unary`, `client_stream`, `server_stream` or `bidi_stream`.
    pub fn as_str(self) -> &'static str {
        match self {
            GrpcType::Unary => "unary",
            GrpcType::ClientStream => "client_stream",
            GrpcType::ServerStream => "server_stream",
            GrpcType::BidiStream => "bidi_stream",
        }
    }
}

/// One RPC method the server serves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodInfo {
    /// Fully qualified service name, e.g. `gameai.v1.MahjongService`.
    pub service: String,
    /// Method name, e.g. `SuggestMahjongDiscard`.
    pub method: String,
    pub grpc_type: GrpcType,
    /// Fully qualified name of the request message, e.g.
    /// `gameai.v1.SuggestMahjongDiscardRequest` (empty when unknown).
    pub input_type: String,
}

/// The methods the server serves, keyed by HTTP/2 path `/SERVICE/METHOD`.
#[derive(Clone, Debug, Default)]
pub struct MethodTable {
    by_path: HashMap<String, MethodInfo>,
}

impl MethodTable {
    /// Builds the table from encoded `FileDescriptorSet`s (as served by reflection).
    /// Errors when a set does not decode.
    pub fn from_descriptor_sets(sets: &[&[u8]]) -> Result<Self, prost::DecodeError> {
        let mut table = Self::default();
        for set in sets {
            let fds = prost_types::FileDescriptorSet::decode(*set)?;
            for file in &fds.file {
                let package = file.package();
                for service in &file.service {
                    let service_name = if package.is_empty() {
                        service.name().to_string()
                    } else {
                        format!("{package}.{}", service.name())
                    };
                    for method in &service.method {
                        let grpc_type = match (method.client_streaming(), method.server_streaming())
                        {
                            (false, false) => GrpcType::Unary,
                            (true, false) => GrpcType::ClientStream,
                            (false, true) => GrpcType::ServerStream,
                            (true, true) => GrpcType::BidiStream,
                        };
                        table.add(MethodInfo {
                            service: service_name.clone(),
                            method: method.name().to_string(),
                            grpc_type,
                            input_type: method.input_type().trim_start_matches('.').to_string(),
                        });
                    }
                }
            }
        }
        Ok(table)
    }

    /// Adds one method whose request type is not known.
    pub fn insert(&mut self, service: &str, method: &str, grpc_type: GrpcType) {
        self.add(MethodInfo {
            service: service.to_string(),
            method: method.to_string(),
            grpc_type,
            input_type: String::new(),
        });
    }

    /// Adds one method, served at `/SERVICE/METHOD`.
    pub fn add(&mut self, info: MethodInfo) {
        self.by_path
            .insert(format!("/{}/{}", info.service, info.method), info);
    }

    /// The method served at `path`, if any.
    pub fn get(&self, path: &str) -> Option<&MethodInfo> {
        self.by_path.get(path)
    }

    /// Number of methods.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    /// Every method, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &MethodInfo> {
        self.by_path.values()
    }

    /// True when there are no methods.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_table_reads_streaming_kinds_from_descriptors() {
        let table = MethodTable::from_descriptor_sets(&[
            crate::proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
        ])
        .unwrap();
        // 3 + 3 + 2 game methods, Check + Watch (+ List in newer health protos), one
        // reflection method.
        let discard = table
            .get("/gameai.v1.MahjongService/SuggestMahjongDiscard")
            .unwrap();
        assert_eq!(discard.service, "gameai.v1.MahjongService");
        assert_eq!(discard.method, "SuggestMahjongDiscard");
        assert_eq!(discard.grpc_type, GrpcType::Unary);
        assert_eq!(discard.input_type, "gameai.v1.SuggestMahjongDiscardRequest");
        assert_eq!(
            table.get("/grpc.health.v1.Health/Watch").unwrap().grpc_type,
            GrpcType::ServerStream
        );
        assert_eq!(
            table
                .get("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo")
                .unwrap()
                .grpc_type,
            GrpcType::BidiStream
        );
        assert!(table.get("/gameai.v1.MahjongService/Nope").is_none());
    }
}
