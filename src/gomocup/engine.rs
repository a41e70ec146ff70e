//! The engine of `src/gomoku/` behind the protocol: [`EnginePlayer`], the player of
//! `pbrain-gameai`.
//!
//! Coordinates: protocol `X,Y` has Y counted from the top, the engine's [`Point`] from
//! the bottom, so on an N x N board protocol `(x, y)` is `Point::new(x, N - 1 - y)`
//! (on 15x15, `7,7` is `h8`, `0,0` is `a15`).

use crate::gomoku::{Board, Color, GomokuError, Point, Rule as EngineRule};

use super::command::ProtocolPoint;
use super::game::{Colour, Rule};
use super::player::ThinkRequest;

/// Protocol point -> engine point on a `size` board (the caller checked it is on it).
pub fn to_engine(point: ProtocolPoint, size: u32) -> Point {
    Point::new(point.x as u8, (size - 1 - point.y) as u8)
}

/// Engine point -> protocol point on a `size` board.
pub fn to_protocol(point: Point, size: u32) -> ProtocolPoint {
    ProtocolPoint {
        x: u32::from(point.x),
        y: size - 1 - u32::from(point.y),
    }
}

/// The engine's rule for the protocol's.
pub fn engine_rule(rule: Rule) -> EngineRule {
    match rule {
        Rule::Freestyle => EngineRule::Freestyle,
        Rule::Standard => EngineRule::Standard,
        Rule::Renju => EngineRule::Renju,
    }
}

/// The engine's colour for the protocol's.
pub fn engine_colour(colour: Colour) -> Color {
    match colour {
        Colour::Black => Color::Black,
        Colour::White => Color::White,
    }
}

/// The engine's board for a request: its stones (any order), rule and side to move.
/// Errors are the engine's (a game already over, stone counts, ...).
pub fn board_for(request: &ThinkRequest<'_>) -> Result<Board, GomokuError> {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for stone in request.stones {
        let point = to_engine(stone.point, request.size);
        match stone.colour {
            Colour::Black => black.push(point),
            Colour::White => white.push(point),
        }
    }
    Board::from_stones(
        request.size as usize,
        engine_rule(request.rule),
        &black,
        &white,
        engine_colour(request.to_move),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomocup::game::Stone;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    #[test]
    fn protocol_rows_count_from_the_top_engine_rows_from_the_bottom() {
        // DESIGN.md: h8 is the centre of 15x15, a1 the lower-left corner.
        assert_eq!(
            to_engine(ProtocolPoint { x: 7, y: 7 }, 15).to_string(),
            "h8"
        );
        assert_eq!(
            to_engine(ProtocolPoint { x: 0, y: 0 }, 15).to_string(),
            "a15"
        );
        assert_eq!(
            to_engine(ProtocolPoint { x: 0, y: 19 }, 20).to_string(),
            "a1"
        );
        assert_eq!(
            to_engine(ProtocolPoint { x: 21, y: 0 }, 22).to_string(),
            "v22"
        );
        for size in [5, 15, 20, 22] {
            for x in 0..size {
                for y in 0..size {
                    let p = ProtocolPoint { x, y };
                    assert_eq!(to_protocol(to_engine(p, size), size), p);
                }
            }
        }
    }

    #[test]
    fn the_board_has_the_requests_stones_rule_and_side() {
        let stones = [
            Stone {
                point: ProtocolPoint { x: 7, y: 7 },
                colour: Colour::Black,
            },
            Stone {
                point: ProtocolPoint { x: 8, y: 6 },
                colour: Colour::White,
            },
        ];
        let stop = AtomicBool::new(false);
        let request = ThinkRequest {
            size: 15,
            rule: Rule::Renju,
            stones: &stones,
            to_move: Colour::Black,
            deadline: Instant::now(),
            budget: Duration::ZERO,
            memory_bytes: None,
            stop: &stop,
        };
        let board = board_for(&request).unwrap();
        assert_eq!(board.rule(), EngineRule::Renju);
        assert_eq!(board.to_move(), Color::Black);
        assert_eq!(board.stone("h8".parse().unwrap()), Some(Color::Black));
        assert_eq!(board.stone("i9".parse().unwrap()), Some(Color::White));
        assert_eq!(board.stone_count(), 2);
    }
}
