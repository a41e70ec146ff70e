//! Mahjong (麻将) analysis and decisions. Pure Rust, no gRPC types.
//!
//! - [`tile`]: the 34 kinds, mpsz notation, [`TileCounts`] (a hand as `[u8; 34]`);
//! - [`meld`]: chi, pon and the three kans;
//! - [`rules`]: rulesets GENERAL, SICHUAN, RIICHI (DESIGN.md);
//! - [`tables`]: winning-set distance tables, built once per process (seed 003);
//! - [`caps`]: copies held in the player's melds cap what the hand may still use;
//! - [`shanten`](mod@shanten): shanten per form and winning-hand detection;
//! - [`ukeire`]: effective tiles with their unseen copies;
//! - [`hand`]: a validated hand (concealed tiles, melds, visible tiles, ruleset);
//! - [`probability`]: exact win / tenpai probability within the draws left (issue 6);
//! - [`strategy`]: discard and call decisions by that probability;
//! - [`table`]: the four-player table: the other seats' rivers and melds, checked.

pub mod caps;
pub mod error;
pub mod hand;
pub mod meld;
pub mod merge;
pub mod probability;
pub mod rules;
pub mod scoring;
pub mod shanten;
pub mod strategy;
pub mod table;
pub mod tables;
pub mod tile;
pub mod ukeire;

pub use error::MahjongError;
pub use hand::Hand;
pub use meld::{Meld, MeldKind};
pub use rules::Ruleset;
pub use shanten::{ShantenForms, is_winning, shanten, shanten_forms, shanten_regular};
pub use tables::TableStats;
pub use tile::{Suit, Tile, TileCounts};
