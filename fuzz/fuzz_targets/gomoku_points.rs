//! Gomoku notation and positions: a point on every board size, a move sequence, and the
//! board built from it under each rule. Whatever parses prints back to itself; a board
//! from a sequence either builds or says why (never a panic), and when it builds it
//! holds those stones with the side to move the sequence's parity gives.
#![no_main]
use gameai::gomoku::point::{format_sequence, parse_sequence};
use gameai::gomoku::{Board, Color, Point, Rule};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    // Sizes 0..=24: the valid 5..=22 and the invalid ones around them.
    let size = usize::from(first % 25);
    if let Ok(p) = Point::parse_on(text, size) {
        assert!(p.on_board(size));
        assert_eq!(Point::parse_on(&p.to_string(), size).ok(), Some(p));
    }
    let Ok(moves) = parse_sequence(text) else {
        return;
    };
    assert_eq!(
        parse_sequence(&format_sequence(&moves)).ok(),
        Some(moves.clone())
    );
    let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju][usize::from(first / 25) % 3];
    if let Ok(board) = Board::from_moves(size, rule, &moves) {
        assert_eq!(board.stone_count(), moves.len());
        let expected = if moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(board.to_move(), expected);
        for (i, &p) in moves.iter().enumerate() {
            let colour = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(board.stone(p), Some(colour));
        }
    }
});
