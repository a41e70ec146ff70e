//! The danger model's parameters: one data file, `danger_weights.json` beside this
//! module, compiled in and read once. Its format is documented in [`super`] (the fitting
//! tool of the arena writes the same file).

use std::sync::OnceLock;

use serde::Deserialize;

/// The weights of each wait shape: P(the opponent, tenpai, waits on the tile through
/// that shape), when the shape's tiles are all available.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitWeights {
    pub ryanmen: f64,
    pub kanchan: f64,
    pub penchan: f64,
    pub shanpon: f64,
    pub tanki_number: f64,
    pub tanki_honour: f64,
}

/// Factors applied to a tile's wait probability.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modifiers {
    /// Tiles within 2 of the riichi declaration tile (same suit).
    pub riichi_matagi: f64,
    /// Tiles within 2 of a tile the opponent threw from its hand early.
    pub early_near: f64,
    /// How many of the first discards count as early.
    pub early_discards: usize,
    /// Two or more melds, all in one suit (or honours): that suit, and the others.
    pub flush_suit: f64,
    pub flush_other: f64,
}

/// The logistic tenpai model of an opponent not in riichi.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenpaiWeights {
    pub intercept: f64,
    pub per_discard: f64,
    pub per_open_meld: f64,
    pub per_tsumogiri_streak: f64,
}

/// What an opponent's win costs the player who deals in, in points.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueWeights {
    pub riichi: f64,
    pub closed: f64,
    pub open: f64,
    pub per_dora_shown: f64,
    pub dealer_factor: f64,
    pub per_honba: f64,
}

/// The push-or-fold constants ([`super::race`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushWeights {
    /// P(a tenpai opponent wins in one turn, on its own draw or another player's
    /// discard, the player's excepted).
    pub threat_win_per_turn: f64,
    /// The part of another player's win the player pays without dealing in (its
    /// self-draws: a share of their payment), as a fraction of that win's value.
    pub tsumo_share: f64,
    pub riichi_bonus_han: f64,
    /// A waiting hand's wins on others' discards per self-drawn win, per turn: the
    /// solitaire win probability `W` counts self-draws only ([`super::race::Outlook`]).
    pub ron_factor: f64,
    /// The largest solitaire win probability the model takes from the engine.
    pub win_cap: f64,
}

/// The whole file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DangerWeights {
    pub version: u32,
    pub source: String,
    pub wait: WaitWeights,
    pub modifiers: Modifiers,
    pub tenpai: TenpaiWeights,
    pub value: ValueWeights,
    pub push: PushWeights,
}

const FILE: &str = include_str!("danger_weights.json");

/// The compiled-in weights (the file is checked by a test, so parsing cannot fail in
/// a build that passed its tests).
pub fn weights() -> &'static DangerWeights {
    static WEIGHTS: OnceLock<DangerWeights> = OnceLock::new();
    WEIGHTS.get_or_init(|| serde_json::from_str(FILE).expect("danger_weights.json parses (tested)"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_weights_file_parses() {
        let w: super::DangerWeights = serde_json::from_str(super::FILE).unwrap();
        assert_eq!(w.version, 1);
        assert!(w.wait.ryanmen > 0.0 && w.wait.ryanmen < 1.0);
    }
}
