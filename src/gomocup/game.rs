//! The session's record of the game: board size, the stones in the order they were
//! given, whose each one is, and the rule from `INFO rule`.
//!
//! The record is the protocol's view (own / opponent stones in protocol coordinates);
//! colours follow from the counts, since black always moves first: with the brain to
//! move, equal counts make it black and one stone fewer makes it white.

use super::command::ProtocolPoint;
use crate::gomoku::point;
pub use crate::gomoku::{Color, Rule};

/// The protocol code's former name of [`Color`], kept for the one-ply test opponent.
pub use crate::gomoku::Color as Colour;

/// Smallest board the brain accepts: the engine's.
pub const MIN_SIZE: u32 = point::MIN_SIZE as u32;
/// Largest board the brain accepts: the engine's (Gomocup plays 15 and 20).
pub const MAX_SIZE: u32 = point::MAX_SIZE as u32;

/// Who put a stone there, from the brain's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The brain's own stone (`BOARD` field 1).
    Own,
    /// The opponent's stone (`BOARD` field 2).
    Opponent,
}

/// The rule an `INFO rule` bitmask asks for, and the bits it ignores (2 = continuous
/// game, 8 = caro, and any bit the protocol does not define): bit 4 renju, else bit 1
/// exactly five (standard), else freestyle.
pub fn rule_from_bitmask(mask: u32) -> (Rule, u32) {
    let rule = if mask & 4 != 0 {
        Rule::Renju
    } else if mask & 1 != 0 {
        Rule::Standard
    } else {
        Rule::Freestyle
    };
    (rule, mask & !(1 | 4))
}

/// The rule's name in the brain's messages.
pub fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::Freestyle => "freestyle",
        Rule::Standard => "standard (exactly five)",
        Rule::Renju => "renju",
    }
}

/// A stone with its colour, in protocol coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stone {
    /// Where it is.
    pub point: ProtocolPoint,
    /// Its colour.
    pub colour: Color,
}

/// Why a change to the record was refused. The session answers `ERROR` with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A coordinate outside the board.
    #[error("{point} is off the {size}x{size} board (coordinates run 0..{last})", last = size - 1)]
    OffBoard {
        /// The point as sent.
        point: ProtocolPoint,
        /// The board size.
        size: u32,
    },
    /// A stone on a point that already has one.
    #[error("{point} is already taken")]
    Taken {
        /// The point.
        point: ProtocolPoint,
    },
    /// A takeback of an empty point.
    #[error("{point} has no stone to take back")]
    NoStone {
        /// The point.
        point: ProtocolPoint,
    },
    /// Stone counts that cannot occur with the brain to move.
    #[error(
        "{own} own and {opponent} opponent stones cannot occur with the brain to move \
         (own must equal opponent's, brain black, or be one fewer, brain white)"
    )]
    StoneCounts {
        /// The brain's stones.
        own: usize,
        /// The opponent's stones.
        opponent: usize,
    },
    /// No empty point is left.
    #[error("the board is full")]
    Full,
}

/// The board as the session knows it.
#[derive(Clone, Debug)]
pub struct Game {
    size: u32,
    grid: Vec<Option<Owner>>,
    order: Vec<(ProtocolPoint, Owner)>,
}

impl Game {
    /// An empty `size` x `size` board. The caller checks the size against
    /// [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub fn new(size: u32) -> Game {
        Game {
            size,
            grid: vec![None; (size * size) as usize],
            order: Vec::new(),
        }
    }

    /// The board size.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Removes every stone.
    pub fn clear(&mut self) {
        self.grid.fill(None);
        self.order.clear();
    }

    fn index(&self, point: ProtocolPoint) -> Result<usize, GameError> {
        if point.x < self.size && point.y < self.size {
            Ok((point.y * self.size + point.x) as usize)
        } else {
            Err(GameError::OffBoard {
                point,
                size: self.size,
            })
        }
    }

    /// Whether `point` is on the board and empty.
    pub fn is_free(&self, point: ProtocolPoint) -> bool {
        self.index(point).is_ok_and(|i| self.grid[i].is_none())
    }

    /// Puts a stone of `owner` on `point`.
    pub fn place(&mut self, point: ProtocolPoint, owner: Owner) -> Result<(), GameError> {
        let i = self.index(point)?;
        if self.grid[i].is_some() {
            return Err(GameError::Taken { point });
        }
        self.grid[i] = Some(owner);
        self.order.push((point, owner));
        Ok(())
    }

    /// Takes the stone on `point` off the board and says whose it was.
    pub fn remove(&mut self, point: ProtocolPoint) -> Result<Owner, GameError> {
        let i = self.index(point)?;
        let owner = self.grid[i].take().ok_or(GameError::NoStone { point })?;
        self.order.retain(|&(p, _)| p != point);
        Ok(owner)
    }

    /// Number of stones of `owner`.
    pub fn count(&self, owner: Owner) -> usize {
        self.order.iter().filter(|&&(_, o)| o == owner).count()
    }

    /// Number of stones on the board.
    pub fn stones_placed(&self) -> usize {
        self.order.len()
    }

    /// Number of empty points.
    pub fn empty_points(&self) -> usize {
        self.grid.len() - self.order.len()
    }

    /// The brain's colour when it is to move, from the counts (black moves first).
    pub fn own_colour(&self) -> Result<Color, GameError> {
        let (own, opponent) = (self.count(Owner::Own), self.count(Owner::Opponent));
        match (
            Color::to_move_with(own, opponent),
            Color::to_move_with(opponent, own),
        ) {
            (Some(Color::Black), _) => Ok(Color::Black),
            (_, Some(Color::White)) => Ok(Color::White),
            _ => Err(GameError::StoneCounts { own, opponent }),
        }
    }

    /// The stones with their colours, in the order they were given (for `BOARD` under
    /// renju the protocol requires move order), given that the brain plays `own`.
    pub fn stones(&self, own: Color) -> Vec<Stone> {
        self.order
            .iter()
            .map(|&(point, owner)| Stone {
                point,
                colour: if owner == Owner::Own {
                    own
                } else {
                    own.opponent()
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u32, y: u32) -> ProtocolPoint {
        ProtocolPoint { x, y }
    }

    #[test]
    fn rule_bitmask_as_the_protocol_defines_it() {
        // 1 = exactly five, 2 = continuous, 4 = renju, 8 = caro (protocol, INFO rule).
        assert_eq!(rule_from_bitmask(0), (Rule::Freestyle, 0));
        assert_eq!(rule_from_bitmask(1), (Rule::Standard, 0));
        assert_eq!(rule_from_bitmask(4), (Rule::Renju, 0));
        assert_eq!(rule_from_bitmask(5), (Rule::Renju, 0));
        assert_eq!(rule_from_bitmask(2), (Rule::Freestyle, 2));
        assert_eq!(rule_from_bitmask(9), (Rule::Standard, 8));
    }

    #[test]
    fn colour_follows_from_the_counts() {
        let mut game = Game::new(15);
        assert_eq!(game.own_colour(), Ok(Color::Black));
        game.place(p(7, 7), Owner::Opponent).unwrap();
        assert_eq!(game.own_colour(), Ok(Color::White));
        game.place(p(8, 8), Owner::Own).unwrap();
        assert_eq!(game.own_colour(), Ok(Color::Black));
        game.place(p(9, 9), Owner::Own).unwrap();
        assert_eq!(
            game.own_colour(),
            Err(GameError::StoneCounts {
                own: 2,
                opponent: 1
            })
        );
        let stones = game.stones(Color::White);
        assert_eq!(
            stones[0],
            Stone {
                point: p(7, 7),
                colour: Color::Black
            }
        );
        assert_eq!(
            stones[2],
            Stone {
                point: p(9, 9),
                colour: Color::White
            }
        );
    }

    #[test]
    fn refusals_name_the_fault() {
        let mut game = Game::new(15);
        game.place(p(0, 0), Owner::Own).unwrap();
        assert_eq!(
            game.place(p(0, 0), Owner::Opponent)
                .unwrap_err()
                .to_string(),
            "0,0 is already taken"
        );
        assert_eq!(
            game.place(p(15, 3), Owner::Own).unwrap_err().to_string(),
            "15,3 is off the 15x15 board (coordinates run 0..14)"
        );
        assert_eq!(
            game.remove(p(1, 1)).unwrap_err().to_string(),
            "1,1 has no stone to take back"
        );
        assert_eq!(game.remove(p(0, 0)), Ok(Owner::Own));
        assert_eq!(game.stones_placed(), 0);
        assert_eq!(game.empty_points(), 225);
    }
}
