//! Point values: how much a stone of one colour at an empty point is worth, from its four
//! line patterns — the seed's (002) "importance" of a point, where a four outranks an
//! open three and combined threats (four-three, two threes) outrank both.
//!
//! The board sums these values over all empty points per colour, incrementally
//! ([`crate::gomoku::board::Board::value_sum`]); the search's static evaluation is built
//! on the two sums and its move ordering on the values of single points. The figures are
//! our own, tuned by self-play (BENCHMARKS.md); they are a heuristic score, not a
//! probability.

use std::sync::OnceLock;

use super::patterns::{Combo, LinePattern, unpack};

/// Value of one direction's pattern.
pub const fn line_value(p: LinePattern) -> i32 {
    match p {
        LinePattern::Dead | LinePattern::Overline => 0,
        LinePattern::B1 => 1,
        LinePattern::F1 => 2,
        LinePattern::B2 => 4,
        LinePattern::F2 => 12,
        LinePattern::B3 => 14,
        LinePattern::F3 => 48,
        LinePattern::B4 => 60,
        LinePattern::F4 | LinePattern::DF4 => 600,
        LinePattern::F5 => 3000,
    }
}

/// Bonus of a combined threat on top of the sum of its directions.
pub const fn combo_bonus(c: Combo) -> i32 {
    match c {
        Combo::Five | Combo::None | Combo::Forbidden => 0,
        Combo::Flex4 => 300,
        Combo::FourThree => 400,
        Combo::DoubleThreeCandidate => 60,
        Combo::ThreeThree => 200,
        Combo::FourPlus => 30,
        Combo::ThreePlus => 30,
        Combo::Block3Plus => 10,
        Combo::TwoTwo => 8,
        Combo::Four | Combo::Three | Combo::Block3 | Combo::Two => 0,
    }
}

fn value(packed: u16, forbidden: bool) -> i16 {
    let combo = Combo::of(packed, forbidden);
    if combo == Combo::Forbidden {
        return 0;
    }
    let sum: i32 = unpack(packed).iter().map(|&p| line_value(p)).sum();
    (sum + combo_bonus(combo)).min(i16::MAX as i32) as i16
}

/// The value of a point whose packed line patterns are `packed`, for a colour with
/// (`forbidden`) or without renju forbidden points. 0 for a forbidden point.
pub fn point_value(packed: u16, forbidden: bool) -> i16 {
    value_table(forbidden)[packed as usize]
}

/// A point's threat class and value for one colour, read together from its packed line
/// patterns: the board re-reads both whenever one of the point's patterns changes, with
/// one lookup ([`point_info_table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointInfo {
    /// The threat class ([`Combo::of`]).
    pub combo: Combo,
    /// The point value ([`point_value`]).
    pub value: i16,
}

/// Packed quadruples of line patterns: every `u16`.
pub const PACKED: usize = 1 << 16;

/// [`PointInfo`] by packed patterns, for a colour with (`forbidden`) or without renju
/// forbidden points; a fixed-size array, so that a `u16` indexes it unchecked.
pub fn point_info_table(forbidden: bool) -> &'static [PointInfo; PACKED] {
    static TABLES: [OnceLock<Box<[PointInfo; PACKED]>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(forbidden)].get_or_init(|| {
        let infos: Box<[PointInfo]> = (0..=u16::MAX)
            .map(|p| PointInfo {
                combo: Combo::of(p, forbidden),
                value: point_value(p, forbidden),
            })
            .collect();
        infos
            .try_into()
            .unwrap_or_else(|_| unreachable!("65,536 entries"))
    })
}

fn value_table(forbidden: bool) -> &'static [i16] {
    static TABLES: [OnceLock<Box<[i16]>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(forbidden)]
        .get_or_init(|| (0..=u16::MAX).map(|p| value(p, forbidden)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::patterns::pack;

    #[test]
    fn stronger_threats_are_worth_more() {
        use LinePattern as L;
        let v = |p: [L; 4]| point_value(pack(p), false);
        let d = L::Dead;
        assert!(v([L::F5, d, d, d]) > v([L::F4, d, d, d]));
        assert!(v([L::F4, d, d, d]) > v([L::B4, L::F3, d, d]));
        assert!(v([L::B4, L::F3, d, d]) > v([L::F3, L::F3, d, d]));
        assert!(v([L::F3, L::F3, d, d]) > v([L::B4, d, d, d]));
        assert!(v([L::B4, d, d, d]) > v([L::F3, d, d, d]));
        assert!(v([L::F3, d, d, d]) > v([L::F2, d, d, d]));
        assert_eq!(point_value(pack([L::B4, L::B4, d, d]), true), 0);
    }
}
