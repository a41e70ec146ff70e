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
