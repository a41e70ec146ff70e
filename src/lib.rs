//! gameai: a stateless gRPC service that gives game backends expert decisions for
//! Dou Dizhu, mahjong and gomoku. See `README.md` and `../shared/DESIGN.md`.
//!
//! Arrows only point down: `server -> service -> {doudizhu, mahjong, gomoku}`; the game
//! modules are pure Rust and never see gRPC types.

pub mod doudizhu;
pub mod gomocup;
pub mod gomoku;
pub mod mahjong;
pub mod memory_budget;
pub mod server;
pub mod service;
pub mod telemetry;

/// Generated protobuf and gRPC code for package `gameai.v1`.
pub mod proto {
    #![allow(clippy::all, missing_docs)]
    tonic::include_proto!("gameai.v1");

    /// Encoded `FileDescriptorSet` of `proto/`, served by gRPC reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/gameai_descriptor.bin"));
}
