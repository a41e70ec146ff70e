//! Gomoku (五子棋). Pure Rust, no gRPC types. Not implemented yet.
