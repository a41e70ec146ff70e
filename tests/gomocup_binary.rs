//! The Gomocup brain `pbrain-gameai` as a process: what a manager sees on the pipes.
//! (The one-ply opponent `pbrain-oneply` is tested with the tools,
//! `crates/gameai-tools/tests/pbrain_oneply.rs`, with the same piped cases.)

mod common;

use std::thread;
use std::time::Duration;

use common::brain::{Brain, is_move};

/// `BOARD` lines for a move sequence in the project's notation (black first), from the
/// view of the brain to move: its stones are field 1.
fn board_block(size: u32, moves: &str) -> String {
    let points = gameai::gomoku::point::parse_sequence(moves).unwrap();
    let own_parity = points.len() % 2; // the brain moves next, so it made moves of this parity
    let mut text = String::from("BOARD\r\n");
    for (i, p) in points.iter().enumerate() {
        let field = if i % 2 == own_parity { 1 } else { 2 };
        text += &format!("{},{},{field}\r\n", p.x, size - 1 - u32::from(p.y));
    }
    text + "DONE\r\n"
}

/// The protocol point of a point in the project's notation.
fn protocol(size: u32, name: &str) -> String {
    let p: gameai::gomoku::Point = name.parse().unwrap();
    format!("{},{}", p.x, size - 1 - u32::from(p.y))
}

#[test]
fn gameai_blocks_the_four_of_the_public_bug_report() {
    // The case from other engines' bug reports: freestyle, black to move after
    // these 20 moves must block white's four at e7.
    let mut brain = Brain::start(env!("CARGO_BIN_EXE_pbrain-gameai"));
    brain.send("START 15\r\nINFO timeout_turn 500\r\nINFO rule 0\r\n");
    assert_eq!(brain.answer(), "OK");
    brain.send(&board_block(
        15,
        "h8h7i7g9h6g5g7i6g8f8f6e5f5j10i10i11k9h10j12l10",
    ));
    assert_eq!(brain.answer(), protocol(15, "e7"));
    let (took, after) = brain.end();
    assert!(
        after.is_empty() && took < Duration::from_secs(1),
        "{took:?} {after:?}"
    );
}

#[test]
fn gameai_takes_a_five_and_plays_the_last_empty_point() {
    let mut brain = Brain::start(env!("CARGO_BIN_EXE_pbrain-gameai"));
    brain.send("START 15\r\nINFO timeout_turn 300\r\n");
    assert_eq!(brain.answer(), "OK");
    // Black h8 i8 j8 k8 against white h9 i9 j9 k9, black to move: l8 or g8 wins.
    brain.send(&board_block(15, "h8h9i8i9j8j9k8k9"));
    let five = brain.answer();
    assert!(
        five == protocol(15, "g8") || five == protocol(15, "l8"),
        "{five}"
    );
    // 5x5 with only e1 empty (24 stones, 12 each, no five): the brain must take it.
    brain.send("RESTART\r\n");
    assert_eq!(brain.answer(), "OK");
    brain.send("START 5\r\n");
    assert_eq!(brain.answer(), "OK");
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOO."];
    let mut block = String::from("BOARD\r\n");
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'X' => block += &format!("{x},{y},1\r\n"),
                'O' => block += &format!("{x},{y},2\r\n"),
                _ => {}
            }
        }
    }
    brain.send(&(block + "DONE\r\n"));
    assert_eq!(brain.answer(), "4,4");
    // Full now: a further TURN has no point to take, and no point to answer.
    brain.send("TURN 4,4\r\n");
    assert_eq!(brain.answer(), "ERROR TURN 4,4: 4,4 is already taken");
    brain.end();
}

#[test]
fn gameai_ends_at_once_when_end_comes_while_it_thinks() {
    let mut brain = Brain::start(env!("CARGO_BIN_EXE_pbrain-gameai"));
    brain.send("START 20\r\nINFO timeout_turn 30000\r\nINFO timeout_match 0\r\n");
    assert_eq!(brain.answer(), "OK");
    // A quiet middle game: 30 s of thinking ahead.
    brain.send(&board_block(20, "j10k11k10j11l9i12h13m8l11l10"));
    thread::sleep(Duration::from_millis(300));
    let (took, after) = brain.end();
    // The BOARD is answered (its search cut short: a move, issue 33), then nothing.
    let answers: Vec<&String> = after.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(
        answers.len(),
        1,
        "the BOARD's move and nothing else: {after:?}"
    );
    assert!(is_move(answers[0], 20), "{after:?}");
    assert!(took < Duration::from_secs(1), "END took {took:?}");
}

/// The issue 33 cases: input in one piece, END read before the first command is
/// answered; every command is still answered, in order.
#[test]
fn piped_input_in_one_piece_gets_every_answer_in_order() {
    common::brain::check_piped_one_piece(env!("CARGO_BIN_EXE_pbrain-gameai"));
}

/// A longer transcript in one piece, without END (the input just closes): each
/// command's answer, in order, as the protocol states them.
#[test]
fn a_whole_transcript_in_one_piece_is_answered_in_order() {
    common::brain::check_piped_transcript(env!("CARGO_BIN_EXE_pbrain-gameai"));
}
