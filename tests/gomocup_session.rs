//! The Gomocup protocol session against transcripts: what the manager sends (`>`) and
//! what the brain must answer (`<`), per the protocol text (piskvork's "new protocol";
//! its own examples are used where it gives them). The players here are test players
//! with an obvious rule (first empty point in reading order), so that every expected
//! move can be worked out by hand. (The one-ply player, where its choice is forced:
//! `crates/gameai-tools/tests/pbrain_oneply.rs`.)

use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use gameai::gomocup::command::ProtocolPoint;
use gameai::gomocup::driver;
use gameai::gomocup::game::{Color, Rule, Stone};
use gameai::gomocup::player::{Choice, Player, ThinkRequest};
use gameai::gomocup::session::{PROCESS_MEMORY_BYTES, Session};

/// What a test player saw in its last request.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    size: u32,
    rule: Rule,
    to_move: Color,
    stones: Vec<Stone>,
    budget: Duration,
    memory_bytes: Option<usize>,
}

/// Plays the first empty point in reading order (row 0 first) and records the request.
#[derive(Clone, Default)]
struct FirstEmpty {
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Player for FirstEmpty {
    fn about(&self) -> Vec<(&'static str, String)> {
        vec![("name", "first-empty".into()), ("version", "1".into())]
    }

    fn check_size(&self, size: u32) -> Result<(), String> {
        if size == 7 {
            Err("seven is unlucky".into())
        } else {
            Ok(())
        }
    }

    fn choose(&mut self, request: &ThinkRequest<'_>) -> Result<Choice, String> {
        self.seen.lock().unwrap().push(Seen {
            size: request.size,
            rule: request.rule,
            to_move: request.to_move,
            stones: request.stones.to_vec(),
            budget: request.budget,
            memory_bytes: request.memory_bytes,
        });
        for y in 0..request.size {
            for x in 0..request.size {
                let point = ProtocolPoint { x, y };
                if request.stones.iter().all(|s| s.point != point) {
                    return Ok(Choice {
                        point,
                        messages: vec![format!("chose {point}")],
                    });
                }
            }
        }
        Err("no empty point".into())
    }
}

/// Runs a transcript: `> line` is sent (a bare `>` sends an empty line), `< line` must
/// be the next line written.
/// Returns the session for further checks.
fn transcript<P: Player>(player: P, script: &str) -> Session<P> {
    let mut session = Session::new(player);
    let mut pending: Vec<String> = Vec::new();
    for (n, line) in script.lines().map(str::trim).enumerate() {
        if let Some(input) = line.strip_prefix('>') {
            let input = input.strip_prefix(' ').unwrap_or(input);
            assert!(
                pending.is_empty(),
                "line {n}: unanswered output {pending:?}"
            );
            pending = session
                .handle(input, Instant::now())
                .iter()
                .map(ToString::to_string)
                .collect();
            pending.reverse();
        } else if let Some(expected) = line.strip_prefix("< ") {
            assert_eq!(pending.pop().as_deref(), Some(expected), "line {n}");
        } else {
            assert!(
                line.is_empty(),
                "line {n}: transcript lines start with '> ' or '< '"
            );
        }
    }
    assert!(
        pending.is_empty(),
        "unexpected output at the end: {pending:?}"
    );
    session
}

fn p(x: u32, y: u32) -> ProtocolPoint {
    ProtocolPoint { x, y }
}

#[test]
fn the_protocols_own_examples() {
    // START 20 / OK; TURN 10,10 / a move; the BOARD example (two stones each, so the
    // brain is black); ABOUT.
    let player = FirstEmpty::default();
    let seen = player.seen.clone();
    let session = transcript(
        player,
        "
        > START 20
        < OK
        > TURN 10,10
        < MESSAGE chose 0,0
        < 0,0
        > RESTART
        < OK
        > BOARD
        > 10,10,1
        > 10,11,2
        > 11,11,1
        > 9,10,2
        > DONE
        < MESSAGE chose 0,0
        < 0,0
        > ABOUT
        < name=\"first-empty\", version=\"1\"
        > END
    ",
    );
    assert!(session.ended());
    let seen = seen.lock().unwrap();
    assert_eq!(
        seen[0].to_move,
        Color::Black.opponent(),
        "after TURN the brain is white"
    );
    assert_eq!(
        seen[0].stones,
        [Stone {
            point: p(10, 10),
            colour: Color::Black
        }]
    );
    assert_eq!(seen[1].to_move, Color::Black);
    assert_eq!(
        seen[1].stones,
        [
            Stone {
                point: p(10, 10),
                colour: Color::Black
            },
            Stone {
                point: p(10, 11),
                colour: Color::White
            },
            Stone {
                point: p(11, 11),
                colour: Color::Black
            },
            Stone {
                point: p(9, 10),
                colour: Color::White
            },
        ],
        "BOARD stones keep their order (renju requires move order)"
    );
    assert_eq!(seen[1].size, 20);
}

#[test]
fn a_game_from_begin_keeps_both_sides_stones() {
    let player = FirstEmpty::default();
    let seen = player.seen.clone();
    let session = transcript(
        player,
        "
        > START 15
        < OK
        > BEGIN
        < MESSAGE chose 0,0
        < 0,0
        > TURN 1,0
        < MESSAGE chose 2,0
        < 2,0
        > TURN 3,0
        < MESSAGE chose 4,0
        < 4,0
    ",
    );
    let game = session.game().unwrap();
    assert_eq!(game.stones_placed(), 5);
    let last = seen.lock().unwrap().last().unwrap().clone();
    assert_eq!(last.to_move, Color::Black);
    assert_eq!(
        last.stones
            .iter()
            .filter(|s| s.colour == Color::White)
            .count(),
        2
    );
}

#[test]
fn info_reaches_the_player_as_rule_budget_and_memory() {
    let player = FirstEmpty::default();
    let seen = player.seen.clone();
    transcript(
        player,
        "
        > INFO timeout_match 300000
        > INFO timeout_turn 1000
        > INFO max_memory 83886080
        > INFO rule 4
        > INFO game_type 1
        > INFO folder /tmp/brains
        > INFO evaluate 3,3
        > INFO ponder 1
        > START 15
        < OK
        > INFO time_left 300000
        > BEGIN
        < MESSAGE chose 0,0
        < 0,0
        > INFO time_left 6000
        > TURN 7,7
        < MESSAGE chose 1,0
        < 1,0
    ",
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0].rule, Rule::Renju);
    // 1 s per move less its reserve (30 ms + 5 %) = 920 ms; the match share is
    // (300000 - 2000) / 40 = 7450 ms, larger.
    assert_eq!(seen[0].budget, Duration::from_millis(920));
    // 6 s left after one move: (6000 - 170) / 39 = 149 ms.
    assert_eq!(seen[1].budget, Duration::from_millis(149));
    assert_eq!(
        seen[0].memory_bytes,
        Some((83_886_080 - PROCESS_MEMORY_BYTES) as usize)
    );
}

#[test]
fn zero_turn_time_means_answer_at_once() {
    let player = FirstEmpty::default();
    let seen = player.seen.clone();
    transcript(
        player,
        "
        > INFO timeout_turn 0
        > START 15
        < OK
        > BEGIN
        < MESSAGE chose 0,0
        < 0,0
    ",
    );
    assert_eq!(seen.lock().unwrap()[0].budget, Duration::ZERO);
}

#[test]
fn info_problems_are_reported_before_the_next_answer() {
    // The protocol: the brain waits with the problem until the first non-INFO command.
    transcript(FirstEmpty::default(), "
        > INFO rule 2
        > INFO timeout_turn soon
        > START 15
        < MESSAGE rule 2: bits 2 (2 continuous game, 8 caro) are not supported and ignored; playing freestyle
        < MESSAGE INFO timeout_turn soon ignored: 'soon' is not a number of milliseconds
        < OK
        > INFO max_memory 1000
        > BEGIN
        < MESSAGE max_memory 1000 bytes leaves nothing for the search beyond the process's own 25165824 bytes; searching with the least memory
        < MESSAGE chose 0,0
        < 0,0
    ");
}

#[test]
fn sizes_the_brain_does_not_play_are_errors() {
    transcript(
        FirstEmpty::default(),
        "
        > START 4
        < ERROR unsupported size 4: the brain plays boards of 5..22
        > START 23
        < ERROR unsupported size 23: the brain plays boards of 5..22
        > START 7
        < ERROR unsupported size 7: seven is unlucky
        > RECTSTART 30,20
        < ERROR RECTSTART 30,20: rectangular boards are not supported, only square ones (5..22)
        > RECTSTART 15,15
        < OK
    ",
    );
}

#[test]
fn commands_before_start_are_errors_not_crashes() {
    transcript(
        FirstEmpty::default(),
        "
        > BEGIN
        < ERROR BEGIN before START: no board size yet
        > TURN 1,1
        < ERROR TURN before START: no board size yet
        > RESTART
        < ERROR RESTART before START: no board size yet
        > BOARD
        > 1,1,1
        > DONE
        < ERROR BOARD before START: no board size yet
        > START 15
        < OK
    ",
    );
}

#[test]
fn bad_moves_from_the_manager_are_errors_and_change_nothing() {
    let session = transcript(
        FirstEmpty::default(),
        "
        > START 15
        < OK
        > TURN 15,0
        < ERROR TURN 15,0: 15,0 is off the 15x15 board (coordinates run 0..14)
        > TURN 3
        < ERROR TURN: '3' is not two numbers X,Y
        > TURN 7,7
        < MESSAGE chose 0,0
        < 0,0
        > TURN 0,0
        < ERROR TURN 0,0: 0,0 is already taken
        > TURN 7,8
        < MESSAGE chose 1,0
        < 1,0
    ",
    );
    assert_eq!(session.game().unwrap().stones_placed(), 4);
}

#[test]
fn begin_on_a_board_with_stones_is_an_error() {
    transcript(
        FirstEmpty::default(),
        "
        > START 15
        < OK
        > TURN 7,7
        < MESSAGE chose 0,0
        < 0,0
        > BEGIN
        < ERROR BEGIN: the board already has 2 stones; BEGIN opens an empty board
    ",
    );
}

#[test]
fn board_blocks_that_cannot_be_a_position_are_errors() {
    let session = transcript(FirstEmpty::default(), "
        > START 15
        < OK
        > TURN 7,7
        < MESSAGE chose 0,0
        < 0,0
        > BOARD
        > 1,1,1
        > 1,1,2
        > DONE
        < ERROR BOARD: 1,1 is already taken
        > BOARD
        > 1,1,1
        > 16,1,2
        > DONE
        < ERROR BOARD: 16,1 is off the 15x15 board (coordinates run 0..14)
        > BOARD
        > 1,1,1
        > 2,2,4
        > DONE
        < ERROR BOARD: '2,2,4' is not a line X,Y,FIELD with FIELD 1, 2 or 3
        > BOARD
        > 1,1,3
        > DONE
        < ERROR BOARD: 1,1,3: field 3 (continuous game) is not supported
        > BOARD
        > 1,1,1
        > 2,2,1
        > 3,3,2
        > DONE
        < ERROR no move: 2 own and 1 opponent stones cannot occur with the brain to move (own must equal opponent's, brain black, or be one fewer, brain white)
    ");
    // The refused blocks left the earlier position in place except the last, whose
    // stones are a position but not one with the brain to move.
    assert_eq!(session.game().unwrap().stones_placed(), 3);
}

#[test]
fn a_full_board_gets_a_clear_no_move() {
    // 5x5 filled: 12 own, 13 opponent stones (the brain would be white), no point left.
    let mut script = String::from("> START 5\n< OK\n> BOARD\n");
    for i in 0..25u32 {
        let field = if i % 2 == 0 { 2 } else { 1 };
        script += &format!("> {},{},{field}\n", i % 5, i / 5);
    }
    script += "> DONE\n< ERROR no move: the board is full\n";
    transcript(FirstEmpty::default(), &script);
}

#[test]
fn takeback_play_and_unknown_commands() {
    let session = transcript(
        FirstEmpty::default(),
        "
        > START 15
        < OK
        > TURN 7,7
        < MESSAGE chose 0,0
        < 0,0
        > TAKEBACK 0,0
        < OK
        > TAKEBACK 0,0
        < ERROR TAKEBACK 0,0: 0,0 has no stone to take back
        > PLAY 8,8
        < 8,8
        > PLAY 8,8
        < ERROR PLAY 8,8: 8,8 is already taken
        > SUGGEST 1,1
        < UNKNOWN 'SUGGEST' is not a command this brain knows
        > SWAP2BOARD
        > 7,7
        > 8,7
        > 9,9
        > DONE
        < UNKNOWN SWAP2BOARD is not supported (the swap2 opening rule); use BOARD openings
        >
        > TURN 6,6
        < MESSAGE chose 0,0
        < 0,0
    ",
    );
    assert_eq!(session.game().unwrap().stones_placed(), 4);
}

#[test]
fn nothing_is_answered_after_end() {
    let session = transcript(
        FirstEmpty::default(),
        "
        > START 15
        < OK
        > END
        > BEGIN
        > ABOUT
    ",
    );
    assert!(session.ended());
    assert!(session.stop_flag().load(Ordering::Relaxed));
}

/// Thinks until its deadline or the stop flag, then plays the first empty point; counts
/// how long it thought.
#[derive(Clone, Default)]
struct UntilDeadline {
    thought: Arc<Mutex<Vec<Duration>>>,
}

impl Player for UntilDeadline {
    fn about(&self) -> Vec<(&'static str, String)> {
        vec![("name", "until-deadline".into())]
    }

    fn check_size(&self, _size: u32) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, request: &ThinkRequest<'_>) -> Result<Choice, String> {
        let began = Instant::now();
        while Instant::now() < request.deadline && !request.stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(1));
        }
        self.thought.lock().unwrap().push(began.elapsed());
        FirstEmpty::default().choose(request).map(|c| Choice {
            messages: vec![],
            ..c
        })
    }
}

/// Starts the driver on a pipe; returns the writer for commands, the output reader
/// thread's result, and the driver's thread.
fn spawn_driver<P: Player + Send + 'static>(
    player: P,
) -> (
    std::io::PipeWriter,
    thread::JoinHandle<Vec<String>>,
    thread::JoinHandle<()>,
) {
    let (input_reader, input_writer) = std::io::pipe().unwrap();
    let (mut output_reader, output_writer) = std::io::pipe().unwrap();
    let driver =
        thread::spawn(move || driver::run(player, input_reader, output_writer, None).unwrap());
    let output = thread::spawn(move || {
        let mut text = String::new();
        output_reader.read_to_string(&mut text).unwrap();
        text.lines().map(str::to_string).collect()
    });
    (input_writer, output, driver)
}

#[test]
fn end_while_thinking_stops_the_search_and_answers_before_ending() {
    let player = UntilDeadline::default();
    let thought = player.thought.clone();
    let (mut input, output, driver) = spawn_driver(player);
    // A 60 s turn: without the stop flag the player would think for about a minute.
    input
        .write_all(b"INFO timeout_turn 60000\r\nSTART 15\r\nBEGIN\r\n")
        .unwrap();
    thread::sleep(Duration::from_millis(100));
    let sent_end = Instant::now();
    input.write_all(b"END\r\n").unwrap();
    driver.join().unwrap();
    assert!(
        sent_end.elapsed() < Duration::from_secs(5),
        "END took {:?}",
        sent_end.elapsed()
    );
    drop(input);
    // The BEGIN read before END is answered (its thinking cut short), then nothing:
    // every command before END gets its answer (issue 33).
    let out = output.join().unwrap();
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0], "OK");
    assert!(
        out[1]
            .split_once(',')
            .is_some_and(|(x, y)| x.parse::<u32>().is_ok() && y.parse::<u32>().is_ok()),
        "a move: {out:?}"
    );
    assert!(thought.lock().unwrap()[0] < Duration::from_secs(5));
}

#[test]
fn commands_sent_while_thinking_are_queued_in_order() {
    let player = UntilDeadline::default();
    let thought = player.thought.clone();
    let (mut input, output, driver) = spawn_driver(player);
    // 200 ms turns leave 160 ms of thinking; everything is written at once, so the
    // ABOUT and the second TURN arrive while the first move is being thought about.
    input
        .write_all(b"INFO timeout_turn 200\nSTART 15\nTURN 7,7\nABOUT\nTURN 8,8\nINFO timeout_turn 100\nTURN 9,9\n")
        .unwrap();
    thread::sleep(Duration::from_millis(1500));
    input.write_all(b"END\n").unwrap();
    driver.join().unwrap();
    drop(input);
    assert_eq!(
        output.join().unwrap(),
        ["OK", "0,0", "name=\"until-deadline\"", "1,0", "2,0"]
    );
    let thought = thought.lock().unwrap();
    // Every turn's clock started when its line was read, so the queued second turn had
    // less than its 160 ms left when its thinking began.
    assert_eq!(thought.len(), 3);
    assert!(thought[0] >= Duration::from_millis(150), "{thought:?}");
    assert!(thought[1] < Duration::from_millis(150), "{thought:?}");
}

#[test]
fn input_closing_ends_the_brain_like_end() {
    let (input, output, driver) = spawn_driver(UntilDeadline::default());
    drop(input);
    driver.join().unwrap();
    assert!(output.join().unwrap().is_empty());
}

/// Answers 100 ms after its deadline, and records the budgets it was given.
#[derive(Clone, Default)]
struct Late {
    budgets: Arc<Mutex<Vec<Duration>>>,
}

impl Player for Late {
    fn about(&self) -> Vec<(&'static str, String)> {
        vec![]
    }

    fn check_size(&self, _size: u32) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, request: &ThinkRequest<'_>) -> Result<Choice, String> {
        self.budgets.lock().unwrap().push(request.budget);
        thread::sleep(
            request.deadline.saturating_duration_since(Instant::now()) + Duration::from_millis(100),
        );
        FirstEmpty::default().choose(request)
    }
}

#[test]
fn a_late_answer_shortens_the_next_budget_by_its_lateness() {
    let player = Late::default();
    let budgets = player.budgets.clone();
    let mut session = Session::new(player);
    for line in ["INFO timeout_turn 300", "START 15"] {
        session.handle(line, Instant::now());
    }
    session.handle("TURN 7,7", Instant::now());
    session.handle("TURN 8,8", Instant::now());
    let budgets = budgets.lock().unwrap();
    // 300 ms less 30 + 15 = 255 ms; then less the first answer's 100 ms (and a little).
    assert_eq!(budgets[0], Duration::from_millis(255));
    assert!(budgets[1] <= Duration::from_millis(155), "{budgets:?}");
    assert!(budgets[1] >= Duration::from_millis(100), "{budgets:?}");
}
