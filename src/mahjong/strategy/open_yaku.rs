//! Under RIICHI an open hand wins only with a yaku: which calls keep one within reach.
//!
//! A call is kept when, after it, the hand still has one of the yaku an open hand can
//! make without rebuilding itself (the Tenhou rules of DESIGN.md: open tanyao allowed):
//! - yakuhai: a pon or kan of a yakuhai tile, or a pair of one left in the hand;
//! - tanyao: every meld of simples (2..8) and at most one terminal or honour left in the
//!   hand (it can be the discard that follows the call);
//! - honitsu / chinitsu: every meld in one suit or honours, and at most one tile of the
//!   other two suits left in the hand;
//! - toitoi: every meld a pon or kan, and the hand already holding pairs or triplets
//!   for all the sets it still needs but one.
//!
//! Yakuhai tiles are the dragons, and the round and seat winds when the table gives
//! them ([`Yakuhai`]). Hands whose melds are implied (not listed) are not judged: their
//! tiles are unknown. Other open yaku (chanta, ittsu, sanshoku, ...) are left out: the
//! engine passes on calls that only they would justify.

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::tile::{KINDS, Suit, Tile};

/// The tiles whose pon (or pair) is a yaku.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Yakuhai([bool; KINDS]);

impl Yakuhai {
    /// The three dragons (5z 6z 7z): a yaku at every seat.
    pub fn dragons() -> Yakuhai {
        let mut y = [false; KINDS];
        y[31..34].fill(true);
        Yakuhai(y)
    }

    /// The dragons and the given round and seat winds.
    pub fn with_winds(round: Tile, seat: Tile) -> Yakuhai {
        let mut y = Yakuhai::dragons();
        y.0[round.index()] = true;
        y.0[seat.index()] = true;
        y
    }

    pub fn contains(&self, tile: Tile) -> bool {
        self.0[tile.index()]
    }
}

fn is_simple(t: Tile) -> bool {
    !t.is_terminal_or_honour()
}

/// Whether an open hand with `melds` (the new call included) and the concealed tiles
/// `after` (before the discard that follows) keeps a reachable yaku.
pub fn keeps_yaku(melds: &[Meld], after: &[u8; KINDS], yakuhai: &Yakuhai) -> bool {
    let tiles = || {
        after
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, &c)| (Tile(i as u8), c))
    };
    let yakuhai_meld = melds
        .iter()
        .any(|m| m.kind() != MeldKind::Chi && yakuhai.contains(m.tile()));
    let yakuhai_pair = tiles().any(|(t, c)| c >= 2 && yakuhai.contains(t));
    if yakuhai_meld || yakuhai_pair {
        return true;
    }
    let meld_tiles = |m: &Meld| m.tiles().kinds().collect::<Vec<_>>();
    let tanyao = melds
        .iter()
        .all(|m| meld_tiles(m).into_iter().all(is_simple))
        && tiles()
            .filter(|(t, _)| !is_simple(*t))
            .map(|(_, c)| u32::from(c))
            .sum::<u32>()
            <= 1;
    if tanyao {
        return true;
    }
    let flush = [Suit::Man, Suit::Pin, Suit::Sou].into_iter().any(|suit| {
        let in_suit = |t: Tile| t.suit() == suit || t.is_honour();
        melds.iter().all(|m| in_suit(m.tile()))
            && tiles()
                .filter(|(t, _)| !in_suit(*t))
                .map(|(_, c)| u32::from(c))
                .sum::<u32>()
                <= 1
    });
    if flush {
        return true;
    }
    let sets_needed = 5usize.saturating_sub(melds.len());
    melds.iter().all(|m| m.kind() != MeldKind::Chi)
        && tiles().filter(|(_, c)| *c >= 2).count() + 1 >= sets_needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::tile::TileCounts;

    fn counts(s: &str) -> [u8; KINDS] {
        s.parse::<TileCounts>().unwrap().0
    }

    fn pon(s: &str) -> Meld {
        Meld::parse(MeldKind::Pon, s).unwrap()
    }

    #[test]
    fn issue_32_pon_of_5m_leaves_no_yaku() {
        // 55m456p789s2346s7z pons 5m: 456p 789s 2346s 7z remain. No yakuhai pair (one
        // 7z), 9s and 7z are two non-simples (no tanyao), three suits (no flush), no
        // pairs (no toitoi).
        assert!(!keeps_yaku(
            &[pon("555m")],
            &counts("456p789s2346s7z"),
            &Yakuhai::dragons()
        ));
    }

    #[test]
    fn each_yaku_keeps_a_call() {
        let d = Yakuhai::dragons();
        // A pon of red dragons.
        assert!(keeps_yaku(&[pon("777z")], &counts("19m456p789s23s1z"), &d));
        // A pair of white dragons left.
        assert!(keeps_yaku(&[pon("555m")], &counts("19m456p789s55z"), &d));
        // Tanyao: all simples but the 9s that goes next.
        assert!(keeps_yaku(&[pon("555m")], &counts("456p678s2346s9s"), &d));
        // Honitsu in sou.
        assert!(keeps_yaku(&[pon("555s")], &counts("123s789s2346s1m"), &d));
        // Toitoi: pairs for three of the four sets still needed.
        assert!(keeps_yaku(
            &[pon("555s"), pon("999m")],
            &counts("11p22s33m4z"),
            &d
        ));
        // A seat wind counts only when the table says so.
        assert!(!keeps_yaku(&[pon("222z")], &counts("19m456p789s23s"), &d));
        let south = Yakuhai::with_winds("1z".parse().unwrap(), "2z".parse().unwrap());
        assert!(keeps_yaku(
            &[pon("222z")],
            &counts("19m456p789s23s"),
            &south
        ));
    }
}
