//! gameai-tools: what measures gameai without being served. The load generator and
//! its request files, the mahjong solitaire harness with the policies it compares the
//! engine with, and seed 002's one-ply Gomocup opponent. The served package (`gameai`,
//! `pbrain-gameai`) never depends on this crate, so neither the image nor the served
//! binaries carry these modules or their dependencies (hdrhistogram, indicatif,
//! serde_json, prost-reflect).
//!
//! Binaries (`cargo build --release` builds them into `target/release/`): `loadgen`,
//! `bench-requests`, `mahjong-solitaire`, `mahjong-states`, `pbrain-oneply`, `doudizhu-positions`,
//! `doudizhu-fit`, `gomoku-texel` (fits the gomoku learned evaluation, [`texel`]).

pub mod doudizhu;
pub mod loadgen;
pub mod mahjong;
pub mod measure;
pub mod oneply;
pub mod texel;
