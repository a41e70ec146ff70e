//! The manager's commands: one line of input parsed into a [`Command`].
//!
//! Source: the Gomocup "new protocol" (Petr Laštovička, piskvork, the version of
//! 2023-03-20). Commands are case-insensitive here (the protocol lets a brain choose;
//! managers send upper case), surrounding white space is ignored, and parameters are
//! separated from the command word by white space. Coordinates are `X,Y`, 0-based, X the
//! column and Y the row counted from the top.
//!
//! The lines between `BOARD` (or `SWAP2BOARD`) and `DONE` are not commands: the session
//! reads them with [`parse_board_line`] / [`parse_point`] instead.

use std::fmt;

/// A point in protocol coordinates: `x` the column from the left, `y` the row from the
/// top, both from 0. Range checks against the board size are the session's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProtocolPoint {
    /// Column, 0 = leftmost.
    pub x: u32,
    /// Row, 0 = top.
    pub y: u32,
}

impl fmt::Display for ProtocolPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// One `INFO` key with its value. Keys the brain does not use are kept as
/// [`Info::Other`] so that the session can ignore them, as the protocol asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: milliseconds per move; 0 = play as fast as possible.
    TimeoutTurn(u64),
    /// `timeout_match`: milliseconds for the whole match; 0 = no limit.
    TimeoutMatch(u64),
    /// `time_left`: milliseconds left for the match; may be negative; 2147483647 means
    /// unlimited.
    TimeLeft(i64),
    /// `max_memory`: bytes; 0 = no limit.
    MaxMemory(u64),
    /// `rule`: bitmask, 1 = exactly five, 2 = continuous game, 4 = renju, 8 = caro.
    Rule(u32),
    /// `game_type`: 0 human opponent, 1 brain, 2 tournament, 3 network tournament.
    GameType(u32),
    /// `folder`: a folder for persistent files (unused).
    Folder(String),
    /// `evaluate X,Y`: the mouse position (debug builds only; ignored).
    Evaluate(String),
    /// A key the protocol does not define, or a defined key whose value did not parse;
    /// `problem` says which. The session reports it with the next non-INFO answer.
    Other {
        /// The key as sent.
        key: String,
        /// The value as sent.
        value: String,
        /// Why it was not understood, when the key is known.
        problem: Option<String>,
    },
}

/// One command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`: a new empty square board.
    Start(u32),
    /// `RECTSTART width,height`: a new rectangular board.
    RectStart(u32, u32),
    /// `RESTART`: a new empty board of the same size.
    Restart,
    /// `BEGIN`: play the first move on the empty board.
    Begin,
    /// `TURN x,y`: the opponent played here; answer with a move.
    Turn(ProtocolPoint),
    /// `BOARD`: a whole position follows, one `x,y,field` line each, ended by `DONE`.
    Board,
    /// `INFO key value`.
    Info(Info),
    /// `END`: terminate at once, without output.
    End,
    /// `ABOUT`: one line `name="..", version="..", ...`.
    About,
    /// `TAKEBACK x,y`: remove the stone at this point (undo).
    Takeback(ProtocolPoint),
    /// `PLAY x,y`: the manager imposes our move (the answer to a `SUGGEST`).
    Play(ProtocolPoint),
    /// `SWAP2BOARD`: the swap2 opening stage; point lines follow, ended by `DONE`.
    Swap2Board,
    /// Anything else: answered `UNKNOWN`. Holds the command word as sent.
    Unknown(String),
}

/// A known command whose parameters are wrong. The session answers `ERROR` with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The command needs a parameter that is missing.
    #[error("{command}: missing parameter, expected {expected}")]
    Missing {
        /// The command word.
        command: &'static str,
        /// What the parameter should look like.
        expected: &'static str,
    },
    /// A parameter that does not parse.
    #[error("{command}: '{given}' is not {expected}")]
    Malformed {
        /// The command word.
        command: &'static str,
        /// The parameter as sent.
        given: String,
        /// What the parameter should look like.
        expected: &'static str,
    },
}

/// Parses one non-empty line (a command). Returns `None` for an empty or blank line,
/// which the protocol says to ignore.
pub fn parse_command(line: &str) -> Option<Result<Command, ParseError>> {
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    let parsed = match upper.as_str() {
        "START" => parse_size("START", rest).map(Command::Start),
        "RECTSTART" => {
            parse_pair("RECTSTART", rest, "WIDTH,HEIGHT").map(|(w, h)| Command::RectStart(w, h))
        }
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => parse_point_param("TURN", rest).map(Command::Turn),
        "BOARD" => Ok(Command::Board),
        "INFO" => Ok(Command::Info(parse_info(rest))),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "TAKEBACK" => parse_point_param("TAKEBACK", rest).map(Command::Takeback),
        "PLAY" => parse_point_param("PLAY", rest).map(Command::Play),
        "SWAP2BOARD" => Ok(Command::Swap2Board),
        _ => Ok(Command::Unknown(word.to_string())),
    };
    Some(parsed)
}

/// Whether a line is the `DONE` that ends a `BOARD` / `SWAP2BOARD` block.
pub fn is_done(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("DONE")
}

/// One line of a `BOARD` block: `x,y,field` with field 1 (own stone), 2 (opponent's
/// stone) or 3 (continuous game: part of a winning line or a renju forbidden point).
pub fn parse_board_line(line: &str) -> Result<(ProtocolPoint, u8), ParseError> {
    let line = line.trim();
    let malformed = || ParseError::Malformed {
        command: "BOARD",
        given: line.to_string(),
        expected: "a line X,Y,FIELD with FIELD 1, 2 or 3",
    };
    let mut parts = line.split(',').map(str::trim);
    let (Some(x), Some(y), Some(field), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(malformed());
    };
    let (Ok(x), Ok(y), Ok(field)) = (x.parse(), y.parse(), field.parse::<u8>()) else {
        return Err(malformed());
    };
    if !(1..=3).contains(&field) {
        return Err(malformed());
    }
    Ok((ProtocolPoint { x, y }, field))
}

/// One `x,y` point, as in `TURN` or a `SWAP2BOARD` line.
pub fn parse_point(command: &'static str, text: &str) -> Result<ProtocolPoint, ParseError> {
    parse_pair(command, text, "two numbers X,Y").map(|(x, y)| ProtocolPoint { x, y })
}

fn parse_point_param(command: &'static str, rest: &str) -> Result<ProtocolPoint, ParseError> {
    if rest.is_empty() {
        return Err(ParseError::Missing {
            command,
            expected: "X,Y",
        });
    }
    parse_point(command, rest)
}

fn parse_size(command: &'static str, rest: &str) -> Result<u32, ParseError> {
    if rest.is_empty() {
        return Err(ParseError::Missing {
            command,
            expected: "the board size",
        });
    }
    rest.parse().map_err(|_| ParseError::Malformed {
        command,
        given: rest.to_string(),
        expected: "a board size (a whole number)",
    })
}

fn parse_pair(
    command: &'static str,
    rest: &str,
    expected: &'static str,
) -> Result<(u32, u32), ParseError> {
    if rest.is_empty() {
        return Err(ParseError::Missing { command, expected });
    }
    let malformed = || ParseError::Malformed {
        command,
        given: rest.to_string(),
        expected,
    };
    let (a, b) = rest.split_once(',').ok_or_else(malformed)?;
    match (a.trim().parse(), b.trim().parse()) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        _ => Err(malformed()),
    }
}

fn parse_info(rest: &str) -> Info {
    let (key, value) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let key_lower = key.to_ascii_lowercase();
    let number = |what: &str| -> Result<u64, String> {
        value
            .parse()
            .map_err(|_| format!("'{value}' is not {what}"))
    };
    let parsed: Result<Info, String> = match key_lower.as_str() {
        "timeout_turn" => number("a number of milliseconds").map(Info::TimeoutTurn),
        "timeout_match" => number("a number of milliseconds").map(Info::TimeoutMatch),
        "time_left" => value
            .parse()
            .map(Info::TimeLeft)
            .map_err(|_| format!("'{value}' is not a number of milliseconds")),
        "max_memory" => number("a number of bytes").map(Info::MaxMemory),
        "rule" => value
            .parse()
            .map(Info::Rule)
            .map_err(|_| format!("'{value}' is not a rule bitmask")),
        "game_type" => value
            .parse()
            .map(Info::GameType)
            .map_err(|_| format!("'{value}' is not a game type (0..3)")),
        "folder" => Ok(Info::Folder(value.to_string())),
        "evaluate" => Ok(Info::Evaluate(value.to_string())),
        _ => {
            return Info::Other {
                key: key.to_string(),
                value: value.to_string(),
                problem: None,
            };
        }
    };
    parsed.unwrap_or_else(|problem| Info::Other {
        key: key.to_string(),
        value: value.to_string(),
        problem: Some(problem),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        parse_command(line).expect("not blank").expect("parses")
    }

    fn p(x: u32, y: u32) -> ProtocolPoint {
        ProtocolPoint { x, y }
    }

    #[test]
    fn mandatory_commands_parse_as_the_protocol_examples_show() {
        // The examples of the protocol text: START 20, TURN 10,10, BEGIN, BOARD, END.
        assert_eq!(cmd("START 20"), Command::Start(20));
        assert_eq!(cmd("TURN 10,10"), Command::Turn(p(10, 10)));
        assert_eq!(cmd("BEGIN"), Command::Begin);
        assert_eq!(cmd("BOARD"), Command::Board);
        assert_eq!(cmd("END"), Command::End);
        assert_eq!(cmd("ABOUT"), Command::About);
        assert_eq!(cmd("RESTART"), Command::Restart);
        assert_eq!(cmd("RECTSTART 30,20"), Command::RectStart(30, 20));
        assert_eq!(cmd("TAKEBACK 9,10"), Command::Takeback(p(9, 10)));
        assert_eq!(cmd("PLAY 12,10"), Command::Play(p(12, 10)));
        assert_eq!(cmd("SWAP2BOARD"), Command::Swap2Board);
    }

    #[test]
    fn case_white_space_and_line_ends_do_not_matter() {
        assert_eq!(cmd("turn 3,4\r"), Command::Turn(p(3, 4)));
        assert_eq!(cmd("  Start   15  "), Command::Start(15));
        assert_eq!(cmd("TURN 3, 4"), Command::Turn(p(3, 4)));
        assert!(parse_command("").is_none());
        assert!(parse_command(" \r").is_none());
    }

    #[test]
    fn info_keys_of_the_protocol() {
        // The protocol's INFO example, plus every key it lists.
        assert_eq!(
            cmd("INFO timeout_match 300000"),
            Command::Info(Info::TimeoutMatch(300_000))
        );
        assert_eq!(
            cmd("INFO timeout_turn 10000"),
            Command::Info(Info::TimeoutTurn(10_000))
        );
        assert_eq!(
            cmd("INFO max_memory 83886080"),
            Command::Info(Info::MaxMemory(83_886_080))
        );
        assert_eq!(
            cmd("INFO time_left -150"),
            Command::Info(Info::TimeLeft(-150))
        );
        assert_eq!(
            cmd("INFO time_left 2147483647"),
            Command::Info(Info::TimeLeft(2_147_483_647))
        );
        assert_eq!(cmd("INFO rule 5"), Command::Info(Info::Rule(5)));
        assert_eq!(cmd("INFO game_type 1"), Command::Info(Info::GameType(1)));
        assert_eq!(
            cmd("INFO folder C:\\My Brains\\tmp"),
            Command::Info(Info::Folder("C:\\My Brains\\tmp".into()))
        );
        assert_eq!(
            cmd("INFO evaluate 3,4"),
            Command::Info(Info::Evaluate("3,4".into()))
        );
    }

    #[test]
    fn unknown_and_malformed_info_is_kept_with_its_problem() {
        assert_eq!(
            cmd("INFO ponder 1"),
            Command::Info(Info::Other {
                key: "ponder".into(),
                value: "1".into(),
                problem: None
            })
        );
        assert_eq!(
            cmd("INFO timeout_turn fast"),
            Command::Info(Info::Other {
                key: "timeout_turn".into(),
                value: "fast".into(),
                problem: Some("'fast' is not a number of milliseconds".into()),
            })
        );
    }

    #[test]
    fn bad_parameters_are_errors_that_name_the_command() {
        let err = |line: &str| parse_command(line).unwrap().unwrap_err().to_string();
        assert_eq!(err("TURN"), "TURN: missing parameter, expected X,Y");
        assert_eq!(err("TURN 10"), "TURN: '10' is not two numbers X,Y");
        assert_eq!(err("TURN -1,3"), "TURN: '-1,3' is not two numbers X,Y");
        assert_eq!(
            err("START"),
            "START: missing parameter, expected the board size"
        );
        assert_eq!(
            err("START big"),
            "START: 'big' is not a board size (a whole number)"
        );
    }

    #[test]
    fn unknown_commands_keep_their_word() {
        assert_eq!(cmd("YXSHOWINFO"), Command::Unknown("YXSHOWINFO".into()));
        assert_eq!(cmd("SUGGEST 1,2"), Command::Unknown("SUGGEST".into()));
    }

    #[test]
    fn board_lines() {
        assert_eq!(parse_board_line("10,11,2"), Ok((p(10, 11), 2)));
        assert_eq!(parse_board_line(" 0, 0, 1 "), Ok((p(0, 0), 1)));
        assert_eq!(parse_board_line("9,10,3"), Ok((p(9, 10), 3)));
        for bad in ["10,11", "10,11,4", "10,11,0", "a,b,1", "1,2,1,1"] {
            assert!(parse_board_line(bad).is_err(), "{bad}");
        }
        assert!(is_done("DONE"));
        assert!(is_done("done\r"));
        assert!(!is_done("10,10,1"));
    }
}
