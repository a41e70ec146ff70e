//! Solitaire games: the single-player setting of the probability model, played for real.
//!
//! A game deals 13 tiles from a wall shuffled by a seed, then draws up to
//! [`SOLITAIRE_DRAWS`] tiles from it; after each draw the hand wins if it can (self-draw
//! only, no calls, no other players), otherwise the player discards one tile, which
//! becomes visible. The player sees its hand, its own discards and the draws left; the
//! unseen pool is exactly what the model assumes (uniform over the tiles not seen), so
//! the realised win rate of a player over many walls is the model's win probability of
//! its policy. Used by the `mahjong-solitaire` harness (decision quality, calibration)
//! and to record the decision points of real games for the speed benchmarks.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use gameai::mahjong::hand::Hand;
use gameai::mahjong::rules::Ruleset;
use gameai::mahjong::tile::{KINDS, Tile, TileCounts};

/// Draws of a solitaire game after the deal.
pub const SOLITAIRE_DRAWS: u32 = 17;

/// The tiles of a ruleset's set, shuffled by `seed` (ChaCha12 `StdRng`, so a seed gives
/// the same wall on every platform).
pub fn wall(seed: u64, ruleset: Ruleset) -> Vec<Tile> {
    let mut w: Vec<Tile> = (0..KINDS)
        .filter(|&k| ruleset.has_honours() || k < 27)
        .flat_map(|k| std::iter::repeat_n(Tile(k as u8), 4))
        .collect();
    w.shuffle(&mut StdRng::seed_from_u64(seed));
    w
}

/// One decision point of a game: the 14-tile hand (drawn tile included), the player's
/// discards so far and the draws still to come after this discard.
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionPoint {
    /// The hand and the visible tiles (the player's own discards).
    pub hand: Hand,
    /// Draws left after this discard.
    pub draws_left: u32,
}

/// What a player decided at one point.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The tile discarded.
    pub discard: Tile,
    /// The win probability the player reported for it, if it reports one.
    pub reported_win: Option<f64>,
}

/// A played game.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// The wall's seed.
    pub seed: u64,
    /// Whether the hand won.
    pub won: bool,
    /// Draws made (the winning one included).
    pub draws: u32,
    /// Every decision point with the choice made.
    pub decisions: Vec<(DecisionPoint, Choice)>,
}

/// Plays the wall of `seed` with `player` choosing every discard, [`SOLITAIRE_DRAWS`]
/// draws.
pub fn play(seed: u64, ruleset: Ruleset, player: impl FnMut(&DecisionPoint) -> Choice) -> Game {
    play_draws(seed, ruleset, SOLITAIRE_DRAWS, player)
}

/// [`play`] with `draws` draws after the deal (at most the wall's tiles beyond the
/// deal: 123 of 136, 95 of 108).
pub fn play_draws(
    seed: u64,
    ruleset: Ruleset,
    draws: u32,
    mut player: impl FnMut(&DecisionPoint) -> Choice,
) -> Game {
    let wall = wall(seed, ruleset);
    let draws = draws.min(wall.len() as u32 - 13);
    let mut hand = TileCounts::EMPTY;
    for &t in &wall[..13] {
        hand.add(t);
    }
    let mut visible = TileCounts::EMPTY;
    let mut decisions = Vec::new();
    for d in 0..draws {
        hand.add(wall[13 + d as usize]);
        let h = Hand::new(hand, Vec::new(), visible, ruleset).expect("a dealt hand is legal");
        if h.is_winning() {
            return Game {
                seed,
                won: true,
                draws: d + 1,
                decisions,
            };
        }
        let point = DecisionPoint {
            hand: h,
            draws_left: draws - d - 1,
        };
        let choice = player(&point);
        assert!(
            hand.remove(choice.discard),
            "the player discarded a tile it does not hold"
        );
        visible.add(choice.discard);
        decisions.push((point, choice));
    }
    Game {
        seed,
        won: false,
        draws,
        decisions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_is_a_full_set_and_fixed_by_its_seed() {
        let w = wall(7, Ruleset::Riichi);
        assert_eq!(w.len(), 136);
        assert_eq!(w, wall(7, Ruleset::Riichi));
        assert_ne!(w, wall(8, Ruleset::Riichi));
        assert_eq!(wall(7, Ruleset::Sichuan).len(), 108);
        let mut counts = [0; 34];
        for t in &w {
            counts[t.index()] += 1;
        }
        assert!(counts.iter().all(|&c| c == 4));
    }

    #[test]
    fn a_game_draws_seventeen_times_at_most() {
        // Always throw the drawn... the first tile of the hand: a legal, poor policy.
        let game = play(3, Ruleset::Riichi, |p| Choice {
            discard: p.hand.concealed().kinds().next().unwrap(),
            reported_win: None,
        });
        assert!(game.draws <= SOLITAIRE_DRAWS);
        assert_eq!(
            game.decisions.len() as u32,
            game.draws - u32::from(game.won)
        );
        let first = &game.decisions[0].0;
        assert_eq!(first.hand.concealed().len(), 14);
        assert_eq!(first.draws_left, 16);
        assert!(first.hand.visible().is_empty());
        if let Some((last, _)) = game.decisions.last() {
            assert_eq!(last.hand.visible().len() as u32, 16 - last.draws_left);
        }
    }
}
