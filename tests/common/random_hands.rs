//! Random 14-tile mahjong hands dealt from a shuffled 136-tile set, on a fixed seed: the
//! hands of `benches/mahjong_shanten.rs` and of `tests/mahjong_xiangting.rs` (which
//! includes the first of the same sequence), one dealer for both.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The first `n` hands of the sequence (seed 20261129), as counts per tile kind.
pub fn random_hands(n: usize) -> Vec<[u8; 34]> {
    let mut rng = StdRng::seed_from_u64(20_261_129);
    let mut wall: Vec<u8> = (0..136).map(|i| (i / 4) as u8).collect();
    (0..n)
        .map(|_| {
            let mut c = [0u8; 34];
            for k in 0..14 {
                let j = rng.random_range(k..136);
                wall.swap(k, j);
                c[wall[k] as usize] += 1;
            }
            c
        })
        .collect()
}
