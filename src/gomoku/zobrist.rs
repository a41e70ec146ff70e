//! Zobrist keys: a fixed pseudo-random 64-bit key per colour and cell of the padded grid
//! (SplitMix64 of the index, so the same on every run and machine), and one for white to
//! move; a position's key is the XOR of the keys of its stones and side to move.

use super::board::CELLS;

const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys: one per colour and cell.
pub(super) static ZOBRIST: [[u64; CELLS]; 2] = {
    let mut t = [[0u64; CELLS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < CELLS {
            t[c][i] = splitmix(((c * CELLS + i) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
            i += 1;
        }
        c += 1;
    }
    t
};

/// Zobrist key of "white to move".
pub(super) const ZOBRIST_WHITE_TO_MOVE: u64 = 0x7A5C_1E3B_9D24_F681;
