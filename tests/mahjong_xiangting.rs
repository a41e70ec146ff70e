//! Shanten against an independent implementation: the `xiangting` crate (6.0.2, a
//! separate Rust implementation of the replacement number; crates.io), on random 14-tile
//! hands dealt from a shuffled 136-tile set (the hands of `benches/mahjong_shanten.rs`,
//! same seed). Both sides take the minimum over the regular form, seven pairs (distinct
//! pairs, as RIICHI counts them) and thirteen orphans: `shanten(hand, 0, RIICHI)` must
//! equal `calculate_replacement_number - 1` on every hand.
//!
//! 100,000 hands in release (`cargo test --release --test mahjong_xiangting`, which CI
//! runs); the first 10,000 of the same sequence in a debug `cargo test`.

#[path = "common/random_hands.rs"]
mod random_hands;

use gameai::mahjong::shanten::shanten;
use gameai::mahjong::{Ruleset, TileCounts};

#[test]
fn shanten_equals_xiangting_on_random_hands() {
    let n = if cfg!(debug_assertions) {
        10_000
    } else {
        100_000
    };
    let mut by_shanten = [0usize; 8];
    for h in random_hands::random_hands(n) {
        let ours = shanten(&h, 0, Ruleset::Riichi);
        let theirs = xiangting::calculate_replacement_number(&h, xiangting::PlayerCount::Four)
            .expect("a valid 14-tile hand") as i8
            - 1;
        assert_eq!(ours, theirs, "{}", TileCounts(h));
        by_shanten[(ours + 1) as usize] += 1;
    }
    // The sample spans the range (10,000 hands: 4 at 0-shanten, 260, 1,931, 4,343,
    // 2,889, 554 at 1- to 5-shanten, 19 at 6, no winning hand): every shanten from 0 to
    // 5 occurs, 1 to 5 by the hundred.
    assert!(by_shanten[1] >= 1, "{by_shanten:?}");
    for s in 1..=5 {
        assert!(by_shanten[s + 1] >= 100, "{s}-shanten: {by_shanten:?}");
    }
}
