//! A perfect-information position of the card-play phase: the three hands, the seat
//! to move and the play to beat. The solver ([`super::solver`]) and the playouts
//! ([`super::playout`]) work on it; a sampled world ([`super::worlds`]) becomes one.

use crate::doudizhu::card::Cards;
use crate::doudizhu::groups::minus;
use crate::doudizhu::play::Play;

/// Turn-order index of the landlord (the farmers are 1 = landlord_down, 2 = landlord_up).
pub const LANDLORD: usize = 0;

/// Whether turn-order seats `a` and `b` are on the same side.
pub const fn same_side(a: usize, b: usize) -> bool {
    a == b || (a != LANDLORD && b != LANDLORD)
}

/// The three hands (turn-order index), the seat to move and the last play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cards of each seat, turn-order index (landlord 0, down 1, up 2).
    pub hands: [Cards; 3],
    /// The seat to move.
    pub turn: usize,
    /// The last play of the round and who made it; `None`, or a play made by the seat
    /// to move (both others passed), is a free lead.
    pub last: Option<(Play, usize)>,
}

impl Position {
    /// Whether the seat to move leads freely.
    pub fn is_free(&self) -> bool {
        self.last.is_none_or(|(_, by)| by == self.turn)
    }

    /// The play to beat, `None` on a free lead.
    pub fn to_beat(&self) -> Option<Play> {
        match self.last {
            Some((p, by)) if by != self.turn => Some(p),
            _ => None,
        }
    }

    /// Who made the play to beat, `None` on a free lead.
    pub fn to_beat_by(&self) -> Option<usize> {
        match self.last {
            Some((_, by)) if by != self.turn => Some(by),
            _ => None,
        }
    }

    /// The position after the seat to move plays `play` (`None` = pass; the caller
    /// keeps it legal). The mover went out when its hand is then empty.
    pub fn after(&self, play: Option<&Play>) -> Position {
        let mut next = *self;
        if let Some(p) = play {
            next.hands[self.turn] = Cards::from_counts_unchecked(minus(
                self.hands[self.turn].counts(),
                p.cards.counts(),
            ));
            next.last = Some((*p, self.turn));
        }
        next.turn = (self.turn + 1) % 3;
        next
    }

    /// Cards left in all hands.
    pub fn total_cards(&self) -> usize {
        self.hands.iter().map(Cards::len).sum()
    }
}
