//! Seed 002's one-ply player as a Gomocup brain: in a session (where its choice is
//! forced) and as the `pbrain-oneply` process a manager runs.

/// The server and brain harness of gameai's own tests.
#[path = "../../../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::brain::Brain;
use gameai::gomocup::session::Session;
use gameai_tools::oneply::OnePly;

#[test]
fn one_empty_point_is_played_by_the_one_ply_player() {
    // 24 stones, 12 each (brain black), only 4,4 empty: the protocol's BOARD block
    // reaches the player, whose only legal move is 4,4.
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOO."];
    let mut lines = vec!["START 5".to_string(), "BOARD".to_string()];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'X' => lines.push(format!("{x},{y},1")),
                'O' => lines.push(format!("{x},{y},2")),
                _ => {}
            }
        }
    }
    lines.push("DONE".into());
    let mut session = Session::new(OnePly);
    let answers: Vec<String> = lines
        .iter()
        .flat_map(|line| session.handle(line, Instant::now()))
        .map(|reply| reply.to_string())
        .collect();
    assert_eq!(answers, ["OK", "4,4"]);
}

#[test]
fn oneply_plays_a_manager_transcript_and_ends() {
    let mut brain = Brain::start(env!("CARGO_BIN_EXE_pbrain-oneply"));
    brain.send("START 15\r\n");
    assert_eq!(brain.answer(), "OK");
    brain.send("INFO timeout_turn 1000\r\nINFO rule 0\r\nBEGIN\r\n");
    // The one-ply player opens in the centre, h8.
    assert_eq!(brain.answer(), "7,7");
    // Black (us) 7,7; white 8,7; now a BOARD where black has an open four to finish.
    brain.send(
        "BOARD\r\n3,3,1\r\n0,0,2\r\n4,3,1\r\n0,2,2\r\n5,3,1\r\n0,4,2\r\n6,3,1\r\n1,0,2\r\nDONE\r\n",
    );
    let five = brain.answer();
    assert!(five == "2,3" || five == "7,3", "{five}");
    brain.send("ABOUT\r\n");
    assert!(brain.answer().starts_with("name=\"oneply\", version="));
    let (took, after) = brain.end();
    assert!(after.is_empty(), "{after:?}");
    assert!(took < Duration::from_secs(1), "END took {took:?}");
}

/// The Gomocup driver's piped cases (issue 33), as for `pbrain-gameai`.
#[test]
fn oneply_answers_piped_input_in_one_piece_in_order() {
    common::brain::check_piped_one_piece(env!("CARGO_BIN_EXE_pbrain-oneply"));
    common::brain::check_piped_transcript(env!("CARGO_BIN_EXE_pbrain-oneply"));
}
