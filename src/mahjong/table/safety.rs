//! Genbutsu (現物): the tiles an opponent cannot win on now, by furiten.
//!
//! - Its own river: any wait it has thrown makes it furiten (a discard counts even if
//!   someone called it away).
//! - In riichi: every tile anyone threw after its declaration and it let go (riichi
//!   furiten lasts the hand).
//! - Not in riichi: the tiles thrown since its last discard (temporary furiten until its
//!   next turn): the last discard of each seat that played after it and before the
//!   player.
//!
//! Who threw after whom is read from the rivers' lengths in turn order (right, across,
//! left, then the player); calls that skip turns blur it, a documented approximation.

use crate::mahjong::tile::KINDS;

use super::state::{Discard, Seat, Table};

/// For each kind, whether the opponent at `seat` is furiten on it.
pub fn safe_tiles(table: &Table, seat: Seat) -> [bool; KINDS] {
    let mut safe = [false; KINDS];
    let o = table.opponent(seat);
    for d in &o.river {
        safe[d.tile.index()] = true;
    }
    let mark_last = |safe: &mut [bool; KINDS], river: &[Discard], n: usize| {
        for d in &river[river.len().saturating_sub(n)..] {
            safe[d.tile.index()] = true;
        }
    };
    let after_it = |q: Seat| q as usize > seat as usize;
    match o.riichi_index() {
        Some(k) => {
            // Its own discards after the declaration: m. Seats between it and the player
            // have thrown m + 1 tiles since, the player and the seats before it m.
            let m = o.river.len() - 1 - k;
            for q in Seat::ALL.into_iter().filter(|&q| q != seat) {
                let n = if after_it(q) { m + 1 } else { m };
                mark_last(&mut safe, &table.opponent(q).river, n);
            }
            mark_last(&mut safe, &table.river, m);
        }
        None => {
            for q in Seat::ALL.into_iter().filter(|&q| after_it(q)) {
                mark_last(&mut safe, &table.opponent(q).river, 1);
            }
        }
    }
    safe
}
