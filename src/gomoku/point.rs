//! Points and stone colours, in the notation of DESIGN.md: a column letter from `a`
//! (left) and a row number from `1` (bottom), so `h8` is the centre of 15x15.
//!
//! Columns run `a..v` on the largest board (22x22); the letter `i` is a column like any
//! other (Gomocup and Piskvork number columns without skipping letters). Parsing accepts
//! upper case; printing is lower case, and the two round-trip.

use std::fmt;
use std::str::FromStr;

use super::error::GomokuError;

/// The smallest board side the engine accepts.
pub const MIN_SIZE: usize = 5;
/// The largest board side the engine accepts.
pub const MAX_SIZE: usize = 22;
/// The default board side (renju and standard gomoku).
pub const DEFAULT_SIZE: usize = 15;

/// A stone colour, also the side to move. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other colour.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white (an index into per-colour arrays).
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The colour of index 0 (black) or 1 (white).
    pub const fn from_index(i: usize) -> Color {
        if i == 0 { Color::Black } else { Color::White }
    }

    /// The side to move when black has `black` stones and white `white` in a game played
    /// from the empty board, black first: black with equal counts, white when black has
    /// one more; `None` for counts no such game reaches.
    pub const fn to_move_with(black: usize, white: usize) -> Option<Color> {
        if black == white {
            Some(Color::Black)
        } else if black == white + 1 {
            Some(Color::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A point of the board: column `x` (0 = `a`, left) and row `y` (0 = row `1`, bottom).
///
/// A `Point` alone does not know the board size; [`Point::parse_on`] checks it against
/// one. Values are `0..MAX_SIZE` on each axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0 = `a`.
    pub x: u8,
    /// Row, 0 = row `1` (bottom).
    pub y: u8,
}

impl Point {
    /// The point at column `x`, row `y` (both 0-based). Panics never; callers check the
    /// board size.
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// Whether the point lies on a board of side `size`.
    pub const fn on_board(self, size: usize) -> bool {
        (self.x as usize) < size && (self.y as usize) < size
    }

    /// Parses one point and checks that it lies on a board of side `size`.
    pub fn parse_on(text: &str, size: usize) -> Result<Point, GomokuError> {
        let p: Point = text.parse()?;
        if !p.on_board(size) {
            return Err(GomokuError::OffBoard {
                point: p.to_string(),
                size,
            });
        }
        Ok(p)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, u32::from(self.y) + 1)
    }
}

impl FromStr for Point {
    type Err = GomokuError;

    /// `"h8"`, `"H8"`, `"a1"` .. `"v22"`. The text must be exactly one point.
    fn from_str(text: &str) -> Result<Point, GomokuError> {
        let mut points = parse_sequence(text)?;
        match (points.pop(), points.is_empty()) {
            (Some(p), true) => Ok(p),
            _ => Err(GomokuError::NotOnePoint(text.to_string())),
        }
    }
}

/// Parses a move sequence such as `"h8i9h9"` (no separators needed; spaces and commas
/// are allowed between points). Points are not checked against a board size.
pub fn parse_sequence(text: &str) -> Result<Vec<Point>, GomokuError> {
    let bytes = text.as_bytes();
    let mut points = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b' ' || b == b',' || b == b'\t' || b == b'\n' {
            i += 1;
            continue;
        }
        let letter = b.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            let c = text[i..].chars().next().unwrap_or('?');
            return Err(GomokuError::BadColumn(c));
        }
        let x = letter - b'a';
        if usize::from(x) >= MAX_SIZE {
            return Err(GomokuError::ColumnTooFar(letter as char));
        }
        let start = i + 1;
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end == start {
            return Err(GomokuError::MissingRow(letter as char));
        }
        let digits = &text[start..end];
        let row: usize = digits.parse().unwrap_or(usize::MAX);
        if row == 0 || row > MAX_SIZE {
            return Err(GomokuError::BadRow(format!("{}{digits}", letter as char)));
        }
        points.push(Point::new(x, (row - 1) as u8));
        i = end;
    }
    Ok(points)
}

/// Formats points as one string, `"h8i9h9"`.
pub fn format_sequence(points: &[Point]) -> String {
    points.iter().map(Point::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for x in 0..MAX_SIZE as u8 {
            for y in 0..MAX_SIZE as u8 {
                let p = Point::new(x, y);
                assert_eq!(p.to_string().parse::<Point>().unwrap(), p);
            }
        }
        assert_eq!(Point::new(7, 7).to_string(), "h8");
        assert_eq!("A1".parse::<Point>().unwrap(), Point::new(0, 0));
        assert_eq!("v22".parse::<Point>().unwrap(), Point::new(21, 21));
    }

    #[test]
    fn sequences_parse_without_separators() {
        let pts = parse_sequence("h8i9h10 j11,a1").unwrap();
        assert_eq!(format_sequence(&pts), "h8i9h10j11a1");
    }

    #[test]
    fn faults_are_named() {
        assert_eq!(
            parse_sequence("h8?").unwrap_err().to_string(),
            "'?' is not a column letter"
        );
        assert_eq!(
            parse_sequence("z1").unwrap_err().to_string(),
            "column 'z' is beyond the largest board (a..v)"
        );
        assert_eq!(
            parse_sequence("h").unwrap_err().to_string(),
            "column 'h' has no row number after it"
        );
        assert_eq!(
            parse_sequence("h0").unwrap_err().to_string(),
            "'h0' has no such row (rows are 1..22)"
        );
        assert_eq!(
            Point::parse_on("p1", 15).unwrap_err().to_string(),
            "point p1 is off the 15x15 board"
        );
        assert!("h8h9".parse::<Point>().is_err());
    }
}
