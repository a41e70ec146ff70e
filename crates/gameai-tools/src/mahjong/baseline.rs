//! The plain baseline the solitaire harness compares the engine with: the discard that
//! leaves the lowest shanten, then the most useful copies the player cannot see, then the
//! lowest tile (the order of [`gameai::mahjong::ukeire::discards`]).

use gameai::mahjong::hand::Hand;
use gameai::mahjong::tile::Tile;
use gameai::mahjong::ukeire;

/// The baseline's discard of a 3n+2 `hand` (`None` for an empty hand).
pub fn baseline_discard(hand: &Hand) -> Option<Tile> {
    let ranked = ukeire::discards(
        &hand.concealed().0,
        hand.called(),
        hand.ruleset(),
        hand.lackable(),
        &hand.caps(),
        &hand.unseen(),
    );
    ranked.first().map(|d| d.discard)
}
