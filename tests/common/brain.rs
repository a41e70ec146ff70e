//! A Gomocup brain as a process, driven as a manager drives it: commands on its stdin,
//! answers read from its stdout by a thread of their own.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A running brain with a thread that forwards its output lines.
pub struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Brain {
    pub fn start(exe: &str) -> Brain {
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

    pub fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not MESSAGE / DEBUG.
    pub fn answer(&self) -> String {
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
    pub fn end(mut self) -> (Duration, Vec<String>) {
        let sent = Instant::now();
        self.send("END\r\n");
        let status = self.child.wait().unwrap();
        let took = sent.elapsed();
        assert!(status.success(), "{status}");
        (took, self.lines.try_iter().collect())
    }
}
