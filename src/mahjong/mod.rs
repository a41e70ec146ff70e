//! Mahjong (麻将) analysis and decisions. Pure Rust, no gRPC types.
