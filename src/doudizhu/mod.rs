//! Dou Dizhu (斗地主) rules engine and decisions. Pure Rust, no gRPC types.
//!
//! - [`card`]: [`Rank`] and [`Cards`] (a multiset as 15 rank counts) with the notation of
//!   DESIGN.md (`"33344TX"`).
//! - [`play`]: the 14 [`Kind`]s, [`Play`] (kind, len, main rank, cards), [`classify`]
//!   (every reading of a card set), [`Play::beats`], [`Rules`] (DouZero by default).
//! - [`movegen`]: every distinct legal lead or follow of a hand, in a stable order.
//! - [`error`]: [`DouDizhuError`], one variant per fault.
//!
//! Sources: seed 002 (rules list), DESIGN.md "Rule decisions"; the legal set is checked
//! against DouZero's move generator (`tests/doudizhu_rules.rs`).

pub mod card;
pub mod error;
pub mod movegen;
pub mod play;

pub use card::{Cards, MAX_HAND_CARDS, Rank};
pub use error::DouDizhuError;
pub use movegen::{
    for_each_follow, for_each_lead, legal_follows, legal_follows_into, legal_leads,
    legal_leads_into, legal_plays, try_for_each_follow, try_for_each_lead,
};
pub use play::{Kind, Play, Rules, classify, default_reading, for_each_reading};

// Decisions: hand value (`value`, `groups`), game state (`state`), the heuristic policy
// (`strategy`), the search (`search`: sampled worlds, exact endgame, playouts) and the
// bid simulation (`bidding`).
pub mod bidding;
pub mod groups;
pub mod search;
pub mod state;
pub mod strategy;
pub mod value;
