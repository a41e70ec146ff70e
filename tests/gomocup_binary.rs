//! The Gomocup brains as processes: what a manager sees on the pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A running brain with a thread that forwards its output lines.
struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Brain {
    fn start(exe: &str) -> Brain {
        let mut child = Command::new(exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("brain starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not MESSAGE / DEBUG.
    fn answer(&self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer");
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    /// Sends END; returns how long the process took to exit and what it wrote after.
    fn end(mut self) -> (Duration, Vec<String>) {
        let sent = Instant::now();
        self.send("END\r\n");
        let status = self.child.wait().unwrap();
        let took = sent.elapsed();
        assert!(status.success(), "{status}");
        (took, self.lines.try_iter().collect())
    }
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
    assert!(after.is_empty(), "nothing after END: {after:?}");
    assert!(took < Duration::from_secs(1), "END took {took:?}");
}
