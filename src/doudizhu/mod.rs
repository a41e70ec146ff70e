//! Dou Dizhu (斗地主) rules engine and decisions. Pure Rust, no gRPC types.
