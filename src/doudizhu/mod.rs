//! Dou Dizhu (斗地主) rules engine and decisions. Pure Rust, no gRPC types.

pub mod groups;
pub mod state;
pub mod strategy;
pub mod value;
