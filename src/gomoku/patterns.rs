//! Line patterns: what a stone of one colour placed at a point makes in one direction,
//! and how the four directions combine into one threat class per point.
//!
//! # Model
//!
//! The seed (002) keeps, for each point, side and direction, the pattern a stone there
//! would make (five, four, open three, ...), and reads combined threats from the four
//! entries (two fours, four-three, two threes). We do the same with a table lookup:
//!
//! - A **line key** holds the 10 cells around a point in one direction (5 on each side,
//!   2 bits each: empty, black, white, wall) — a 20-bit number that the board updates
//!   incrementally ([`crate::gomoku::board`]). Five cells on each side are enough: every
//!   five through the point lies within 4 cells of it, and one more cell tells a five
//!   from an overline.
//! - [`LineTable`] maps a key to a [`LinePattern`] for black; white reads the same table
//!   with the colours of the key swapped ([`swap_colors`]). There is one table per
//!   [`LineRule`] (what a long run means), built once per process on first use.
//! - [`Combo::of`] combines the four directions' patterns into one [`Combo`] (five,
//!   flex four, four-three, ...), by one lookup in a 65,536-entry table.
//!
//! # The patterns (for a stone of colour C placed at the centre)
//!
//! - `F5`: a winning run through the centre; `OL`: a run of six or more that does not
//!   win (forbidden for black under RENJU, harmless under STANDARD).
//! - Five points: empty cells that would complete a winning run through the centre.
//!   Two five points five cells apart (`.XXXX.`) are a straight four, `F4`; two that are
//!   not (`X.XXX.X`, two fours in one line) are `DF4`; one is a four, `B4`.
//! - Otherwise the pattern is read one move ahead: `F3` if one more stone makes `F4`
//!   (an open three), `B3` if one more makes `B4`, `F2`/`B2` if one more makes `F3`/`B3`,
//!   `F1`/`B1` if one more makes `F2`/`B2`, else `DEAD`. Under [`LineRule::RenjuBlack`]
//!   the extra stone may not itself make an overline or two fours in the line, since
//!   black could not play it; whether it is forbidden through the *other* directions is
//!   the board's recursive check ([`crate::gomoku::board::Board::forbidden`]).

use std::sync::OnceLock;

use super::point::Color;
use super::rules::Rule;

/// What a stone placed at a point makes in one direction, weakest first. See the
/// [module docs](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LinePattern {
    /// No five is possible through the point in this line.
    Dead = 0,
    /// A run of six or more that is not a win.
    Overline = 1,
    /// One more stone makes `B2`.
    B1 = 2,
    /// One more stone makes `F2`.
    F1 = 3,
    /// A blocked two: one more stone makes `B3`.
    B2 = 4,
    /// An open two: one more stone makes an open three.
    F2 = 5,
    /// A blocked three: one more stone makes a four.
    B3 = 6,
    /// An open three: one more stone makes a straight four.
    F3 = 7,
    /// A four: one five point.
    B4 = 8,
    /// A straight four: two five points at the two ends of four stones.
    F4 = 9,
    /// Two fours in one line (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`).
    DF4 = 10,
    /// A winning run.
    F5 = 11,
}

impl LinePattern {
    const ALL: [LinePattern; 12] = [
        LinePattern::Dead,
        LinePattern::Overline,
        LinePattern::B1,
        LinePattern::F1,
        LinePattern::B2,
        LinePattern::F2,
        LinePattern::B3,
        LinePattern::F3,
        LinePattern::B4,
        LinePattern::F4,
        LinePattern::DF4,
        LinePattern::F5,
    ];

    /// The pattern of code `c` (0..=11); `Dead` for anything else.
    pub const fn from_code(c: u8) -> LinePattern {
        if (c as usize) < Self::ALL.len() {
            Self::ALL[c as usize]
        } else {
            LinePattern::Dead
        }
    }

    /// How many fours the pattern counts as, for the double-four rule.
    pub const fn fours(self) -> u32 {
        match self {
            LinePattern::B4 | LinePattern::F4 => 1,
            LinePattern::DF4 => 2,
            _ => 0,
        }
    }
}

/// What a long run means in a line, for one colour: the three tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// Five or more wins (FREESTYLE, and white under RENJU).
    Long,
    /// Exactly five wins; longer runs are harmless (STANDARD).
    Exact,
    /// Exactly five wins; longer runs and two fours in a line are forbidden (black
    /// under RENJU).
    RenjuBlack,
}

impl LineRule {
    /// The line rule of `color` under `rule`.
    pub const fn of(rule: Rule, color: Color) -> LineRule {
        match (rule, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => LineRule::Long,
            (Rule::Standard, _) => LineRule::Exact,
            (Rule::Renju, Color::Black) => LineRule::RenjuBlack,
        }
    }

    const fn index(self) -> usize {
        match self {
            LineRule::Long => 0,
            LineRule::Exact => 1,
            LineRule::RenjuBlack => 2,
        }
    }
}

/// Cells on each side of the centre that a line key holds.
pub const HALF: usize = 5;
/// Bits of a line key.
pub const KEY_BITS: u32 = 20;

/// The 2-bit cell values of a line key.
pub const EMPTY: u32 = 0;
/// Black stone.
pub const BLACK: u32 = 1;
/// White stone.
pub const WHITE: u32 = 2;
/// Off the board.
pub const WALL: u32 = 3;

/// The bit offset, in a line key, of the cell `offset` steps from the centre
/// (`offset` in `-5..=5`, not 0).
pub const fn key_shift(offset: i32) -> u32 {
    // Slots 0..=4 hold offsets -5..=-1, slots 5..=9 offsets 1..=5.
    let slot = if offset < 0 { offset + 5 } else { offset + 4 };
    2 * slot as u32
}

/// The key with black and white swapped (walls and empties unchanged), so that white
/// reads black's table.
pub const fn swap_colors(key: u32) -> u32 {
    ((key & 0x55555) << 1) | ((key >> 1) & 0x55555)
}

/// The pattern table of one line rule, indexed by a line key seen from black's side.
///
/// Where five or more wins ([`LineRule::Long`]) the fifth cell on each side never
/// matters (every five through the centre lies within four cells of it, and a longer
/// run wins too), so that table drops those two slots: 2^16 entries instead of 2^20,
/// small enough to stay in cache, and the board need not track the fifth cells.
#[derive(Clone, Copy, Debug)]
pub struct LineTable {
    codes: &'static [u8],
    long: bool,
}

impl LineTable {
    /// The table of `rule`, built once per process on first use.
    pub fn of(rule: LineRule) -> LineTable {
        static TABLES: [OnceLock<Box<[u8]>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        LineTable {
            codes: TABLES[rule.index()].get_or_init(|| build_line_table(rule)),
            long: rule == LineRule::Long,
        }
    }

    /// Cells on each side of the centre that matter: 4 where long runs win, else 5.
    pub const fn radius(self) -> usize {
        if self.long { 4 } else { HALF }
    }

    /// The pattern code of `key` (black's view).
    #[inline]
    pub fn code(self, key: u32) -> u8 {
        let index = if self.long { (key >> 2) & 0xFFFF } else { key };
        self.codes[index as usize]
    }

    /// The pattern of the line with key `key` (black's view) for a stone of `color`.
    pub fn pattern(self, key: u32, color: Color) -> LinePattern {
        let k = match color {
            Color::Black => key,
            Color::White => swap_colors(key),
        };
        LinePattern::from_code(self.code(k))
    }
}

/// Both colours' patterns of a line key in one byte (black in the low four bits, white
/// in the high four), for one rule: one lookup per cell and direction when the board
/// updates. Indexed like [`LineTable`]: 2^16 entries in freestyle, 2^20 otherwise.
#[derive(Clone, Copy, Debug)]
pub struct PairTable {
    codes: &'static [u8],
    long: bool,
}

impl PairTable {
    /// The table of `rule`, built once per process on first use.
    pub fn of(rule: Rule) -> PairTable {
        static TABLES: [OnceLock<Box<[u8]>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let black = LineTable::of(LineRule::of(rule, Color::Black));
        let white = LineTable::of(LineRule::of(rule, Color::White));
        let long = black.long && white.long;
        let index = match rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 2,
        };
        let codes = TABLES[index].get_or_init(|| {
            let pair = |key: u32| black.code(key) | white.code(swap_colors(key)) << 4;
            if long {
                (0..1u32 << 16).map(|k| pair(k << 2)).collect()
            } else {
                (0..1u32 << KEY_BITS).map(pair).collect()
            }
        });
        PairTable { codes, long }
    }

    /// Cells on each side of the centre that matter: 4 where long runs win for both
    /// colours, else 5.
    pub const fn radius(self) -> usize {
        if self.long { 4 } else { HALF }
    }

    /// Both codes of `key` (black's view): black's in bits 0..4, white's in 4..8.
    #[inline]
    pub fn pair(self, key: u32) -> u8 {
        let index = if self.long { (key >> 2) & 0xFFFF } else { key };
        self.codes[index as usize]
    }

    /// The pattern code of `key` (black's view) for a stone of `color` at the centre.
    #[inline]
    pub fn code(self, key: u32, color: Color) -> u8 {
        (self.pair(key) >> (4 * color.index())) & 15
    }
}

/// Builds every pattern, combination and point-value table now (the server does so at
/// start, so that no request pays for it). Returns the bytes they hold.
pub fn init() -> usize {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        PairTable::of(rule);
    }
    for forbidden in [false, true] {
        combo_table(forbidden);
        super::values::point_value(0, forbidden);
        super::values::point_info_table(forbidden);
    }
    // Line tables (2 of 2^20, 1 of 2^16), pair tables (2 of 2^20, 1 of 2^16), combo and
    // value tables (2 x 2^16 x (1 + 2) bytes), point-info tables (2 x 2^16 x 4 bytes).
    4 * (1 << KEY_BITS) + 2 * (1 << 16) + 2 * (1 << 16) * (3 + 4)
}

/// Ternary cell values of the classifier: own stone, empty, blocked (opponent or wall).
const T_EMPTY: u8 = 0;
const T_OWN: u8 = 1;
const T_BLOCKED: u8 = 2;
/// Configurations of the 10 cells around the centre: 3^10.
const CONFIGS: usize = 59_049;

fn build_line_table(rule: LineRule) -> Box<[u8]> {
    let mut memo = vec![u8::MAX; CONFIGS];
    // The ternary index of a key is the sum of its two halves' (5 slots each): one
    // lookup per half instead of a loop per key (this also keeps debug builds quick).
    let half: Vec<usize> = (0..1024u32)
        .map(|bits| {
            (0..5)
                .fold((0, 1), |(index, pow), slot| {
                    let t = match (bits >> (2 * slot)) & 3 {
                        EMPTY => T_EMPTY,
                        BLACK => T_OWN,
                        _ => T_BLOCKED,
                    };
                    (index + usize::from(t) * pow, pow * 3)
                })
                .0
        })
        .collect();
    if rule == LineRule::Long {
        // Index bits: slots 1..=8 (offsets -4..-1, 1..4); slots 0 and 9 read as empty.
        return (0..1usize << 16)
            .map(|k| {
                let key = k << 2;
                classify(half[key & 1023] + 243 * half[key >> 10], rule, &mut memo)
            })
            .collect();
    }
    let mut table = vec![0u8; 1 << KEY_BITS].into_boxed_slice();
    for (key, entry) in table.iter_mut().enumerate() {
        let index = half[key & 1023] + 243 * half[key >> 10];
        *entry = classify(index, rule, &mut memo);
    }
    table
}

/// Decodes a ternary configuration into the 11 cells of the line (centre own).
fn decode(index: usize) -> [u8; 11] {
    let mut cells = [T_EMPTY; 11];
    let mut rest = index;
    for slot in 0..10 {
        let t = (rest % 3) as u8;
        rest /= 3;
        let pos = if slot < 5 { slot } else { slot + 1 };
        cells[pos] = t;
    }
    cells[5] = T_OWN;
    cells
}

fn encode(cells: &[u8; 11]) -> usize {
    let mut index = 0;
    let mut pow = 1;
    for slot in 0..10 {
        let pos = if slot < 5 { slot } else { slot + 1 };
        index += usize::from(cells[pos]) * pow;
        pow *= 3;
    }
    index
}

/// The run of own stones through `at` (inclusive bounds).
fn run(cells: &[u8; 11], at: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (at, at);
    while lo > 0 && cells[lo - 1] == T_OWN {
        lo -= 1;
    }
    while hi < 10 && cells[hi + 1] == T_OWN {
        hi += 1;
    }
    (lo, hi)
}

fn wins(rule: LineRule, len: usize) -> bool {
    match rule {
        LineRule::Long => len >= 5,
        LineRule::Exact | LineRule::RenjuBlack => len == 5,
    }
}

/// The pattern code of configuration `index` (see the module docs), memoised.
fn classify(index: usize, rule: LineRule, memo: &mut [u8]) -> u8 {
    if memo[index] != u8::MAX {
        return memo[index];
    }
    let mut cells = decode(index);
    let (lo, hi) = run(&cells, 5);
    let len = hi - lo + 1;
    let code = if len >= 5 {
        if wins(rule, len) {
            LinePattern::F5
        } else {
            LinePattern::Overline
        }
    } else {
        // Five points: empty cells within 4 of the centre completing a win through it.
        let mut five_points = [0usize; 9];
        let mut n = 0;
        for q in 1..=9 {
            if cells[q] != T_EMPTY {
                continue;
            }
            cells[q] = T_OWN;
            let (lo, hi) = run(&cells, q);
            if lo <= 5 && 5 <= hi && wins(rule, hi - lo + 1) {
                five_points[n] = q;
                n += 1;
            }
            cells[q] = T_EMPTY;
        }
        match n {
            0 => one_move_ahead(&mut cells, rule, memo),
            1 => LinePattern::B4,
            2 if five_points[1] - five_points[0] == 5 => LinePattern::F4,
            _ => LinePattern::DF4,
        }
    };
    memo[index] = code as u8;
    code as u8
}

/// The pattern of a line without five points, read one stone ahead.
fn one_move_ahead(cells: &mut [u8; 11], rule: LineRule, memo: &mut [u8]) -> LinePattern {
    let mut best = LinePattern::Dead;
    for q in 1..=9 {
        if cells[q] != T_EMPTY {
            continue;
        }
        cells[q] = T_OWN;
        let after = if rule == LineRule::RenjuBlack && {
            let (lo, hi) = run(cells, q);
            hi - lo + 1 > 5
        } {
            // Black cannot play an overline.
            LinePattern::Dead
        } else {
            LinePattern::from_code(classify(encode(cells), rule, memo))
        };
        cells[q] = T_EMPTY;
        let step = match after {
            LinePattern::F4 => LinePattern::F3,
            LinePattern::DF4 if rule != LineRule::RenjuBlack => LinePattern::F3,
            LinePattern::B4 => LinePattern::B3,
            // Black's in-line double four is forbidden, but it still holds a four.
            LinePattern::DF4 => LinePattern::B3,
            LinePattern::F3 => LinePattern::F2,
            LinePattern::B3 => LinePattern::B2,
            LinePattern::F2 => LinePattern::F1,
            LinePattern::B2 => LinePattern::B1,
            _ => LinePattern::Dead,
        };
        best = best.max(step);
    }
    best
}

/// The threat class of a point for one colour: its four directions combined, strongest
/// first. The search hands out moves by class ([`crate::gomoku::search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Combo {
    /// Makes a winning run.
    Five = 0,
    /// Black under RENJU may not play here (overline or double-four; a five is never
    /// forbidden).
    Forbidden = 1,
    /// Two fours or a straight four: two five points the opponent cannot both take.
    Flex4 = 2,
    /// Black under RENJU: two or more open threes by the line patterns; whether the
    /// point is forbidden needs the recursive check
    /// ([`crate::gomoku::board::Board::forbidden`]).
    DoubleThreeCandidate = 3,
    /// A four and an open three.
    FourThree = 4,
    /// A four and a blocked three or open two.
    FourPlus = 5,
    /// A four.
    Four = 6,
    /// Two open threes (not black under RENJU).
    ThreeThree = 7,
    /// An open three and a blocked three or open two.
    ThreePlus = 8,
    /// An open three.
    Three = 9,
    /// Two blocked threes, or a blocked three and an open two.
    Block3Plus = 10,
    /// Two open twos.
    TwoTwo = 11,
    /// A blocked three.
    Block3 = 12,
    /// An open two.
    Two = 13,
    /// Nothing above.
    None = 14,
}

/// Number of [`Combo`] classes.
pub const COMBOS: usize = 15;

impl Combo {
    const ALL: [Combo; COMBOS] = [
        Combo::Five,
        Combo::Forbidden,
        Combo::Flex4,
        Combo::DoubleThreeCandidate,
        Combo::FourThree,
        Combo::FourPlus,
        Combo::Four,
        Combo::ThreeThree,
        Combo::ThreePlus,
        Combo::Three,
        Combo::Block3Plus,
        Combo::TwoTwo,
        Combo::Block3,
        Combo::Two,
        Combo::None,
    ];

    /// The class of code `c`.
    pub const fn from_code(c: u8) -> Combo {
        if (c as usize) < COMBOS {
            Self::ALL[c as usize]
        } else {
            Combo::None
        }
    }

    /// The class of a point whose four line patterns are `packed` (4 bits each,
    /// direction 0 lowest), for a colour with (`forbidden = true`) or without renju
    /// forbidden points.
    pub fn of(packed: u16, forbidden: bool) -> Combo {
        Combo::from_code(combo_table(forbidden)[packed as usize])
    }

    /// Whether the class makes at least a four (a five point for the next move).
    pub const fn is_four(self) -> bool {
        matches!(
            self,
            Combo::Five | Combo::Flex4 | Combo::FourThree | Combo::FourPlus | Combo::Four
        )
    }
}

/// The 65,536-entry combination table (one `Combo` code per packed quadruple).
fn combo_table(forbidden: bool) -> &'static [u8] {
    static TABLES: [OnceLock<Box<[u8]>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(forbidden)].get_or_init(|| {
        (0..=u16::MAX)
            .map(|packed| combine(unpack(packed), forbidden) as u8)
            .collect()
    })
}

/// The four patterns of a packed quadruple.
pub fn unpack(packed: u16) -> [LinePattern; 4] {
    std::array::from_fn(|d| LinePattern::from_code(((packed >> (4 * d)) & 15) as u8))
}

/// Packs four patterns, direction 0 in the lowest 4 bits.
pub fn pack(patterns: [LinePattern; 4]) -> u16 {
    patterns
        .iter()
        .enumerate()
        .fold(0, |acc, (d, p)| acc | (*p as u16) << (4 * d))
}

fn combine(p: [LinePattern; 4], forbidden: bool) -> Combo {
    use LinePattern as L;
    let count = |x: L| p.iter().filter(|&&q| q == x).count();
    if count(L::F5) > 0 {
        return Combo::Five;
    }
    let fours: u32 = p.iter().map(|q| q.fours()).sum();
    let f4 = count(L::F4) + count(L::DF4);
    let b4 = count(L::B4);
    let f3 = count(L::F3);
    let b3 = count(L::B3);
    let f2 = count(L::F2);
    if forbidden {
        if count(L::Overline) > 0 || fours >= 2 {
            return Combo::Forbidden;
        }
        if f3 >= 2 {
            return Combo::DoubleThreeCandidate;
        }
    }
    if f4 > 0 || fours >= 2 {
        return Combo::Flex4;
    }
    if b4 > 0 {
        return if f3 > 0 {
            Combo::FourThree
        } else if b3 + f2 > 0 {
            Combo::FourPlus
        } else {
            Combo::Four
        };
    }
    if f3 >= 2 {
        return Combo::ThreeThree;
    }
    if f3 == 1 {
        return if b3 + f2 > 0 {
            Combo::ThreePlus
        } else {
            Combo::Three
        };
    }
    if b3 >= 2 || (b3 == 1 && f2 > 0) {
        return Combo::Block3Plus;
    }
    if f2 >= 2 {
        return Combo::TwoTwo;
    }
    if b3 == 1 {
        return Combo::Block3;
    }
    if f2 == 1 {
        return Combo::Two;
    }
    Combo::None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of a line written as 11 characters, centre at index 5 (which must be
    /// `x`): `x` black, `o` white, `.` empty, `#` wall.
    fn key(line: &str) -> u32 {
        let b = line.as_bytes();
        assert_eq!(b.len(), 11);
        assert_eq!(b[5], b'x');
        let mut k = 0;
        for (i, &c) in b.iter().enumerate() {
            if i == 5 {
                continue;
            }
            let v = match c {
                b'.' => EMPTY,
                b'x' => BLACK,
                b'o' => WHITE,
                b'#' => WALL,
                _ => panic!("bad cell {c}"),
            };
            k |= v << key_shift(i as i32 - 5);
        }
        k
    }

    fn pat(rule: LineRule, line: &str) -> LinePattern {
        LineTable::of(rule).pattern(key(line), Color::Black)
    }

    #[test]
    fn fives_and_overlines() {
        // "xxxxx" through the centre: a five under every rule.
        assert_eq!(pat(LineRule::Long, "...xxxxx..."), LinePattern::F5);
        assert_eq!(pat(LineRule::RenjuBlack, "...xxxxx..."), LinePattern::F5);
        // Six in a row: a win in freestyle, an overline otherwise.
        assert_eq!(pat(LineRule::Long, "..xxxxxx..."), LinePattern::F5);
        assert_eq!(pat(LineRule::Exact, "..xxxxxx..."), LinePattern::Overline);
        assert_eq!(
            pat(LineRule::RenjuBlack, "..xxxxxx..."),
            LinePattern::Overline
        );
    }

    #[test]
    fn fours() {
        assert_eq!(pat(LineRule::Long, "...xxxx...."), LinePattern::F4);
        assert_eq!(pat(LineRule::Long, "..oxxxx...."), LinePattern::B4);
        assert_eq!(pat(LineRule::Long, "...x.xxx..."), LinePattern::B4);
        // ".xxxx." next to a black stone: its left five point makes six.
        assert_eq!(pat(LineRule::Long, ".x.xxxx...."), LinePattern::F4);
        assert_eq!(pat(LineRule::RenjuBlack, ".x.xxxx...."), LinePattern::B4);
        // Two fours in one line.
        assert_eq!(pat(LineRule::RenjuBlack, ".x.xxx.x..."), LinePattern::DF4);
        assert_eq!(pat(LineRule::RenjuBlack, ".xx.xx.xx.."), LinePattern::DF4);
        assert_eq!(pat(LineRule::RenjuBlack, ".xxx.x.xxx."), LinePattern::DF4);
        assert_eq!(pat(LineRule::Long, "###xxxx...."), LinePattern::B4);
    }

    #[test]
    fn threes_and_twos() {
        assert_eq!(pat(LineRule::Long, "...xxx....."), LinePattern::F3);
        assert_eq!(pat(LineRule::Long, "...x.xx...."), LinePattern::F3);
        // "o.xxx.o": both straight-four points leave a four blocked on one side.
        assert_eq!(pat(LineRule::Long, "..o.xxx.o.."), LinePattern::B3);
        assert_eq!(pat(LineRule::Long, "....oxxx..."), LinePattern::B3);
        // "x..xxx..x": each straight-four point leaves a four one of whose five points
        // makes six. Black under RENJU has only a blocked three; in freestyle six wins.
        assert_eq!(pat(LineRule::RenjuBlack, "x..xxx..x.."), LinePattern::B3);
        assert_eq!(pat(LineRule::Long, "x..xxx..x.."), LinePattern::F3);
        // Only the right side is spoiled: the left straight four still stands.
        assert_eq!(pat(LineRule::RenjuBlack, "...xxx..x.."), LinePattern::F3);
        assert_eq!(pat(LineRule::Long, "....xx....."), LinePattern::F2);
        assert_eq!(pat(LineRule::Long, "....ox....."), LinePattern::B1);
        assert_eq!(pat(LineRule::Long, "..o.xxo...."), LinePattern::Dead);
    }

    #[test]
    fn combos() {
        use LinePattern as L;
        let c = |p: [L; 4], f| Combo::of(pack(p), f);
        assert_eq!(c([L::B4, L::F3, L::Dead, L::Dead], false), Combo::FourThree);
        assert_eq!(c([L::B4, L::B4, L::Dead, L::Dead], false), Combo::Flex4);
        assert_eq!(c([L::B4, L::B4, L::Dead, L::Dead], true), Combo::Forbidden);
        assert_eq!(
            c([L::F3, L::F3, L::Dead, L::Dead], true),
            Combo::DoubleThreeCandidate
        );
        assert_eq!(c([L::F3, L::F3, L::F5, L::Dead], true), Combo::Five);
        assert_eq!(
            c([L::Overline, L::F3, L::Dead, L::Dead], false),
            Combo::Three
        );
        assert_eq!(
            unpack(pack([L::F5, L::B1, L::DF4, L::Dead])),
            [L::F5, L::B1, L::DF4, L::Dead]
        );
    }
}
