//! The default number of draws left when the caller does not say.

use crate::mahjong::rules::Ruleset;

/// Tiles the three other players hold concealed, assumed when estimating the wall: 3 x 13
/// (their melds are visible, so this slightly overstates their hands once they call).
pub const OTHER_HANDS: u32 = 39;

/// Unseen tiles of the dead wall under RIICHI: 14 minus the dora indicator, which the
/// caller lists in `visible`. GENERAL and SICHUAN play the wall to the end (0).
pub const fn dead_wall(ruleset: Ruleset) -> u32 {
    match ruleset {
        Ruleset::Riichi => 13,
        Ruleset::General | Ruleset::Sichuan => 0,
    }
}

/// Estimate of the draws the player still makes, from the unseen pool size `unseen`:
/// the live wall is what is unseen minus the others' concealed hands
/// ([`OTHER_HANDS`]) and the dead wall ([`dead_wall`]), and the player draws one tile in
/// four of it: `floor((unseen - 39 - dead) / 4)`, at least 0.
///
/// At the first discard of a riichi game (136 - 14 in hand - 1 indicator = 121 unseen)
/// this gives `(121 - 39 - 13) / 4 = 17`, the figure mahjong-cpp and Mortal use for a
/// fresh hand; GENERAL gives 20 and SICHUAN 13 at the same point.
pub fn default_draws_left(unseen: u32, ruleset: Ruleset) -> u32 {
    unseen.saturating_sub(OTHER_HANDS + dead_wall(ruleset)) / 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_hands_get_the_usual_figures() {
        // 136 tiles - 14 in hand - 1 dora indicator.
        assert_eq!(default_draws_left(121, Ruleset::Riichi), 17);
        // 136 - 14 = 122: (122 - 39) / 4 = 20.
        assert_eq!(default_draws_left(122, Ruleset::General), 20);
        // 108 - 14 = 94: (94 - 39) / 4 = 13.
        assert_eq!(default_draws_left(94, Ruleset::Sichuan), 13);
        assert_eq!(default_draws_left(30, Ruleset::General), 0);
    }
}
