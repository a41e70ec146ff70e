//! The brain's two threads: a reader that takes lines off the input as they come, and
//! the session that answers them in order.
//!
//! The reader timestamps every line when it is read (a turn's time counts from then),
//! sends it down a channel, and sets the session's stop flag itself when the line is
//! `END` or the input closes, so that a search in progress ends at once even though the
//! session is busy. Lines that arrive while the player thinks wait in the channel; none
//! is dropped. After `END` nothing more is written (the protocol: "the brain should not
//! write anything to output after the END command").
//!
//! A player that does not stop soon after `END` is not waited for: with an `end_grace`
//! (the binaries use [`END_GRACE`]) the reader thread ends the process itself once that
//! much time has passed since `END` or the end of input, well within the second the
//! protocol gives a brain to terminate.
//!
//! Lines may end in CR LF, LF or CR (the protocol allows all three). A line longer than
//! [`MAX_LINE_BYTES`] is cut there; no command is that long.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::command::{Command, parse_command};
use super::player::Player;
use super::session::Session;

/// The longest input line kept; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long the binaries let a player take to stop after `END` before the process
/// exits regardless (the protocol: a brain slower than about a second is killed).
pub const END_GRACE: Duration = Duration::from_millis(300);

/// Runs a brain: reads commands from `input` until `END` or end of input, writes the
/// answers to `output` (flushing after each line). Returns when the session has ended;
/// errors are those of writing the output. With `end_grace`, the process exits by
/// itself if the session has not returned that long after `END` (see the module docs);
/// tests pass `None`.
pub fn run<P, R, W>(
    player: P,
    input: R,
    mut output: W,
    end_grace: Option<Duration>,
) -> io::Result<()>
where
    P: Player,
    R: Read + Send + 'static,
    W: Write,
{
    let mut session = Session::new(player);
    let stop = session.stop_flag();
    let (lines, queue) = mpsc::channel();
    let reader = thread::Builder::new()
        .name("gomocup-reader".into())
        .spawn(move || {
            read_lines(input, &lines, &stop);
            if let Some(grace) = end_grace {
                thread::sleep(grace);
                // Still here: the session has not returned since END. Exit quietly.
                std::process::exit(0);
            }
        })?;
    let stop = session.stop_flag();
    for (received, line) in queue {
        let replies = session.handle(&line, received);
        if session.ended() || stop.load(Ordering::Relaxed) {
            break;
        }
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
    }
    // The reader may be blocked on input that never comes; it ends with the process.
    drop(reader);
    Ok(())
}

/// The reader thread's loop: one message per line, stop flag on `END` or end of input.
/// Returns after `END` or at the end of input.
fn read_lines<R: Read>(input: R, lines: &mpsc::Sender<(Instant, String)>, stop: &Arc<AtomicBool>) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    while let Ok(true) = read_line(&mut input, &mut line) {
        let received = Instant::now();
        let text = String::from_utf8_lossy(&line).into_owned();
        let end = matches!(parse_command(&text), Some(Ok(Command::End)));
        if end {
            stop.store(true, Ordering::Relaxed);
        }
        if lines.send((received, text)).is_err() || end {
            return;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let _ = lines.send((Instant::now(), "END".to_string()));
}

/// Reads one line ended by CR, LF or CR LF into `line` (without the end). Returns
/// `false` at end of input with nothing read. A CR LF pair yields an empty line after
/// the text, which the session ignores like any empty line.
fn read_line<R: BufRead>(input: &mut R, line: &mut Vec<u8>) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(end) => {
                let room = MAX_LINE_BYTES.saturating_sub(line.len());
                line.extend_from_slice(&buf[..end.min(room)]);
                input.consume(end + 1);
                return Ok(true);
            }
            None => {
                let n = buf.len();
                let room = MAX_LINE_BYTES.saturating_sub(line.len());
                line.extend_from_slice(&buf[..n.min(room)]);
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut reader = BufReader::with_capacity(3, input);
        let mut out = Vec::new();
        let mut line = Vec::new();
        while read_line(&mut reader, &mut line).unwrap() {
            out.push(String::from_utf8(line.clone()).unwrap());
        }
        out
    }

    #[test]
    fn crlf_lf_and_cr_all_end_a_line() {
        // A CR LF pair yields an empty line between, which the session ignores.
        assert_eq!(
            lines(b"START 20\r\nBEGIN\nTURN 1,2\rEND"),
            ["START 20", "", "BEGIN", "TURN 1,2", "END"]
        );
        assert_eq!(lines(b""), Vec::<String>::new());
    }

    #[test]
    fn an_overlong_line_is_cut_not_kept_whole() {
        let mut input = vec![b'X'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nABOUT\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), MAX_LINE_BYTES);
        assert_eq!(got[1], "ABOUT");
    }
}
