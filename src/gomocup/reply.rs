//! The brain's answers, one output line each.

use std::fmt;

use super::command::ProtocolPoint;

/// One line the brain writes. `Display` gives the line without its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`: the answer to `START`, `RECTSTART`, `RESTART`, `TAKEBACK`.
    Ok,
    /// `X,Y`: our move.
    Move(ProtocolPoint),
    /// `ERROR message`: a known command the brain cannot cope with.
    Error(String),
    /// `UNKNOWN message`: a command the brain does not implement.
    Unknown(String),
    /// `MESSAGE text`: for the user; sent just before an answer.
    Message(String),
    /// `DEBUG text`: for the author; not shown in tournaments.
    Debug(String),
    /// The `ABOUT` line: `key="value"` pairs separated by `, `.
    About(Vec<(&'static str, String)>),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Move(point) => write!(f, "{point}"),
            Reply::Error(message) => write!(f, "ERROR {}", one_line(message)),
            Reply::Unknown(message) => write!(f, "UNKNOWN {}", one_line(message)),
            Reply::Message(message) => write!(f, "MESSAGE {}", one_line(message)),
            Reply::Debug(message) => write!(f, "DEBUG {}", one_line(message)),
            Reply::About(pairs) => {
                for (i, (key, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    // The value is quoted; a quote inside it would end it early.
                    write!(f, "{key}=\"{}\"", one_line(value).replace('"', "'"))?;
                }
                Ok(())
            }
        }
    }
}

/// The protocol forbids a line break inside a message.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_as_the_protocol_spells_them() {
        assert_eq!(Reply::Ok.to_string(), "OK");
        assert_eq!(
            Reply::Move(ProtocolPoint { x: 11, y: 10 }).to_string(),
            "11,10"
        );
        assert_eq!(
            Reply::Error("unsupported size".into()).to_string(),
            "ERROR unsupported size"
        );
        assert_eq!(Reply::Unknown("no".into()).to_string(), "UNKNOWN no");
        assert_eq!(Reply::Message("a\nb".into()).to_string(), "MESSAGE a b");
        assert_eq!(Reply::Debug("x".into()).to_string(), "DEBUG x");
        // The protocol's ABOUT example: name="SomeBrain", version="1.0", ...
        let about = Reply::About(vec![
            ("name", "SomeBrain".into()),
            ("version", "1.0".into()),
            ("author", "Nymand".into()),
            ("country", "USA".into()),
        ]);
        assert_eq!(
            about.to_string(),
            r#"name="SomeBrain", version="1.0", author="Nymand", country="USA""#
        );
    }
}
