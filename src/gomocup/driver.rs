//! The brain's two threads: a reader that takes lines off the input as they come, and
//! the session that answers them in order.
//!
//! The reader timestamps every line when it is read (a turn's time counts from then),
//! sends it down a channel, and sets the session's stop flag itself when the line is
//! `END` or the input closes, so that a search in progress ends at once even though the
//! session is busy. Lines that arrive while the player thinks wait in the channel; none
//! is dropped.
//!
//! Every command before `END` is answered, in order, even when `END` has already been
//! read (input that arrives in one piece, or `END` while the player thinks): the stop
//! flag only cuts the player's thinking short, so a move asked for after the flag is
//! set is the player's immediate choice. The session's answer to `END` itself is
//! nothing, and nothing is written after it (the protocol: "the brain should not write
//! anything to output after the END command"). A manager that closed our output after
//! `END` is no error.
//!
//! A player that does not stop soon after `END` is not waited for: with an `end_grace`
//! (the binaries use [`END_GRACE`]) the reader thread ends the process itself once the
//! session has answered nothing after `END` or the end of input while the process used
//! that much CPU time, well within the second the protocol gives a brain to terminate
//! (or, a player blocked without using CPU, [`IDLE_WALL_FACTOR`] times that in wall
//! time). Queued commands answered
//! quickly one after another keep the process alive until the last is written.
//!
//! Lines may end in CR LF, LF or CR (the protocol allows all three). A line longer than
//! [`MAX_LINE_BYTES`] is cut there; no command is that long.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::command::{Command, parse_command};
use super::player::Player;
use super::session::Session;

/// The longest input line kept; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long the binaries let the session go without answering after `END` before the
/// process exits regardless (the protocol: a brain slower than about a second is
/// killed). A player that honours the stop flag answers in far less; the slowest
/// answer that is not a search is `START`'s (the engine's tables, some hundreds of
/// milliseconds on a loaded machine in a debug build), which input in one piece puts
/// after `END` has been read.
pub const END_GRACE: Duration = Duration::from_millis(900);

/// Runs a brain: reads commands from `input` until `END` or end of input, writes the
/// answers to `output` (flushing after each command's answer), every command before
/// `END` answered in order. Returns when the session has ended; errors are those of
/// writing the output before `END`. With `end_grace`, the process exits by itself if the
/// session has answered nothing for that long after `END` (see the module docs); tests
/// pass `None`.
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
    let handled = Arc::new(AtomicU64::new(0));
    let progress = Arc::clone(&handled);
    let (lines, queue) = mpsc::channel();
    let reader = thread::Builder::new()
        .name("gomocup-reader".into())
        .spawn(move || {
            read_lines(input, &lines, &stop);
            if let Some(grace) = end_grace {
                wait_for_idle(&progress, grace);
                // Still here: the session has answered nothing for `grace` since END.
                std::process::exit(0);
            }
        })?;
    let stop = session.stop_flag();
    for (received, line) in queue {
        let replies = session.handle(&line, received);
        let written = write_replies(&mut output, &replies);
        handled.fetch_add(1, Ordering::Relaxed);
        if let Err(error) = written {
            // Once END is read (or the input closed) the manager may have closed our
            // output too: not an error of the brain's.
            return if stop.load(Ordering::Relaxed) {
                Ok(())
            } else {
                Err(error)
            };
        }
        if session.ended() {
            break;
        }
    }
    // The reader may be blocked on input that never comes; it ends with the process.
    drop(reader);
    Ok(())
}

/// Writes `replies` one per line, then flushes.
fn write_replies<W: Write, T: std::fmt::Display>(output: &mut W, replies: &[T]) -> io::Result<()> {
    for reply in replies {
        writeln!(output, "{reply}")?;
    }
    output.flush()
}

/// Returns once the session has answered nothing while the process spent `grace` of
/// CPU time (a player computing on, deaf to the stop flag), or for
/// [`IDLE_WALL_FACTOR`] x `grace` of wall time (a player blocked). CPU time, not wall
/// time, because a quick answer on a machine loaded by other processes can take longer
/// than `grace` of wall time: on one loaded to 9 on 2 cores, a debug build's `BEGIN`
/// after `END` (the player's immediate choice) once took over 900 ms, and the process
/// exited before writing it.
fn wait_for_idle(handled: &AtomicU64, grace: Duration) {
    wait_for_idle_by(handled, grace, process_cpu_time);
}

/// [`wait_for_idle`] with the CPU clock given (tests give a stopped one).
fn wait_for_idle_by(handled: &AtomicU64, grace: Duration, process_cpu_time: impl Fn() -> Duration) {
    let poll = grace / 9;
    let mut seen = handled.load(Ordering::Relaxed);
    let mut since = (process_cpu_time(), Instant::now());
    loop {
        thread::sleep(poll);
        let now = handled.load(Ordering::Relaxed);
        if now != seen {
            seen = now;
            since = (process_cpu_time(), Instant::now());
            continue;
        }
        let (cpu, wall) = since;
        if process_cpu_time().saturating_sub(cpu) >= grace
            || wall.elapsed() >= grace * IDLE_WALL_FACTOR
        {
            return;
        }
    }
}

/// How many times the grace, in wall time, a session that answers nothing and uses no
/// CPU (blocked) is given before the process exits.
pub const IDLE_WALL_FACTOR: u32 = 10;

/// The CPU time this process has used, all threads (Linux: `CLOCK_PROCESS_CPUTIME_ID`;
/// elsewhere the wall clock since the first call, which makes the grace a wall-time one).
fn process_cpu_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec through a valid pointer.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
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

    #[test]
    fn a_session_that_computes_without_answering_is_given_up_after_its_grace_of_cpu() {
        // A thread burns CPU (a player deaf to the stop flag) while nothing is answered:
        // the wait ends, and not before the process has spent the grace in CPU time.
        let burning = Arc::new(AtomicBool::new(true));
        let flag = Arc::clone(&burning);
        let burner = thread::spawn(move || {
            let mut x = 0u64;
            while flag.load(Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
            }
        });
        let grace = Duration::from_millis(60);
        let cpu = process_cpu_time();
        wait_for_idle(&AtomicU64::new(0), grace);
        let spent = process_cpu_time() - cpu;
        burning.store(false, Ordering::Relaxed);
        burner.join().unwrap();
        assert!(spent >= grace, "{spent:?}");
    }

    #[test]
    fn a_blocked_session_is_given_up_after_the_wall_time_cap() {
        let grace = Duration::from_millis(20);
        let started = Instant::now();
        // No CPU spent (a stopped clock: the other tests of this process do use some).
        wait_for_idle_by(&AtomicU64::new(0), grace, || Duration::ZERO);
        assert!(started.elapsed() >= grace * IDLE_WALL_FACTOR);
    }

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
