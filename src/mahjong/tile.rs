//! The 34 tile kinds and the mpsz notation (DESIGN.md, "Notation").
//!
//! Index order: `1m..9m` = 0..8, `1p..9p` = 9..17, `1s..9s` = 18..26, `1z..7z` = 27..33
//! (East, South, West, North, White, Green, Red). A red five (`0m`, `0p`, `0s`) is read as
//! a five; [`RedFives`] counts them where the rules need to know. Suit letters are read in
//! either case (`"123M"` is `"123m"`), as the other games read their notation. Output is
//! canonical: suits in the order m p s z, ranks ascending, each suit letter once
//! (`"123m456p789s1122z"`).

use std::fmt;
use std::str::FromStr;

use super::error::MahjongError;

/// Number of tile kinds.
pub const KINDS: usize = 34;

/// Copies of each kind in a set.
pub const COPIES: u8 = 4;

/// A tile kind, `0..34` in the order `1m..9m, 1p..9p, 1s..9s, 1z..7z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(pub u8);

/// A suit: characters (`m`, 萬), dots (`p`, 筒), bamboo (`s`, 索) or honours (`z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Characters, `m`.
    Man = 0,
    /// Dots, `p`.
    Pin = 1,
    /// Bamboo, `s`.
    Sou = 2,
    /// Honour tiles, `z`.
    Honour = 3,
}

impl Suit {
    /// All four suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Man, Suit::Pin, Suit::Sou, Suit::Honour];

    /// The mpsz letter.
    pub const fn letter(self) -> char {
        match self {
            Suit::Man => 'm',
            Suit::Pin => 'p',
            Suit::Sou => 's',
            Suit::Honour => 'z',
        }
    }

    /// The suit of an mpsz letter (either case), if it is one.
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c {
            'm' | 'M' => Some(Suit::Man),
            'p' | 'P' => Some(Suit::Pin),
            's' | 'S' => Some(Suit::Sou),
            'z' | 'Z' => Some(Suit::Honour),
            _ => None,
        }
    }

    /// Index of the suit's first tile kind (0, 9, 18, 27).
    pub const fn first_index(self) -> usize {
        self as usize * 9
    }

    /// Number of ranks: 9 for a numbered suit, 7 for honours.
    pub const fn ranks(self) -> usize {
        match self {
            Suit::Honour => 7,
            _ => 9,
        }
    }
}

impl Tile {
    /// Tile from suit and rank (1-based; 1..=9, honours 1..=7). `None` out of range.
    pub const fn new(suit: Suit, rank: u8) -> Option<Tile> {
        if rank == 0 || rank as usize > suit.ranks() {
            return None;
        }
        Some(Tile((suit.first_index() + rank as usize - 1) as u8))
    }

    /// Tile from its index `0..34`. `None` out of range.
    pub const fn from_index(index: usize) -> Option<Tile> {
        if index < KINDS {
            Some(Tile(index as u8))
        } else {
            None
        }
    }

    /// The index `0..34`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The suit.
    pub const fn suit(self) -> Suit {
        match self.0 / 9 {
            0 => Suit::Man,
            1 => Suit::Pin,
            2 => Suit::Sou,
            _ => Suit::Honour,
        }
    }

    /// The rank, 1-based (1..=9, honours 1..=7).
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// An honour tile (wind or dragon).
    pub const fn is_honour(self) -> bool {
        self.0 >= 27
    }

    /// A terminal (1 or 9 of a numbered suit) or an honour: the thirteen-orphans kinds.
    pub const fn is_terminal_or_honour(self) -> bool {
        self.is_honour() || self.rank() == 1 || self.rank() == 9
    }

    /// All 34 kinds in index order.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..KINDS as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
    }
}

impl FromStr for Tile {
    type Err = MahjongError;

    /// Exactly one tile in mpsz, e.g. `"5p"`, `"0s"` (a red five, read as `5s`), `"7z"`.
    fn from_str(s: &str) -> Result<Tile, MahjongError> {
        let counts: TileCounts = s.parse()?;
        let mut tiles = counts.tiles();
        match (tiles.next(), tiles.next()) {
            (Some(t), None) => Ok(t),
            _ => Err(MahjongError::NotOneTile(s.to_string())),
        }
    }
}

/// A multiset of tiles: copies of each of the 34 kinds (`[u8; 34]`, index order as
/// [`Tile`]). Parsed from and printed as mpsz. The parser enforces at most 4 copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TileCounts(pub [u8; KINDS]);

impl Default for TileCounts {
    fn default() -> TileCounts {
        TileCounts::EMPTY
    }
}

impl TileCounts {
    /// The empty multiset.
    pub const EMPTY: TileCounts = TileCounts([0; KINDS]);

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| c as usize).sum()
    }

    /// No tiles at all.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// Copies of `tile`.
    pub fn count(&self, tile: Tile) -> u8 {
        self.0[tile.index()]
    }

    /// Adds one copy of `tile` (saturating at 255).
    pub fn add(&mut self, tile: Tile) {
        self.0[tile.index()] = self.0[tile.index()].saturating_add(1);
    }

    /// Removes one copy of `tile`; `false` (and no change) if there is none.
    pub fn remove(&mut self, tile: Tile) -> bool {
        let c = &mut self.0[tile.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }

    /// Every tile, one item per copy, in index order.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::all().flat_map(move |t| std::iter::repeat_n(t, self.0[t.index()] as usize))
    }

    /// The distinct kinds present, in index order.
    pub fn kinds(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::all().filter(move |t| self.0[t.index()] > 0)
    }

    /// Element-wise sum of two multisets (saturating).
    pub fn plus(&self, other: &TileCounts) -> TileCounts {
        let mut out = *self;
        for (o, &c) in out.0.iter_mut().zip(other.0.iter()) {
            *o = o.saturating_add(c);
        }
        out
    }

    /// The first kind with more than 4 copies, as an error.
    pub fn check_copies(&self) -> Result<(), MahjongError> {
        match Tile::all().find(|t| self.count(*t) > COPIES) {
            Some(tile) => Err(MahjongError::TooManyCopies {
                tile,
                count: self.count(tile) as usize,
            }),
            None => Ok(()),
        }
    }
}

impl From<[u8; KINDS]> for TileCounts {
    fn from(counts: [u8; KINDS]) -> TileCounts {
        TileCounts(counts)
    }
}

impl fmt::Display for TileCounts {
    /// Canonical mpsz: suits m p s z, ranks ascending, each suit letter once; `""` when
    /// empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for suit in Suit::ALL {
            let start = suit.first_index();
            let mut any = false;
            for rank in 0..suit.ranks() {
                for _ in 0..self.0[start + rank] {
                    write!(f, "{}", rank + 1)?;
                    any = true;
                }
            }
            if any {
                write!(f, "{}", suit.letter())?;
            }
        }
        Ok(())
    }
}

/// Red fives (`0m`, `0p`, `0s`) among some tiles, per numbered suit (m, p, s). The
/// counts ([`TileCounts`]) read a red five as a five; this keeps what the notation marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RedFives(pub [u8; 3]);

impl RedFives {
    /// No red fives.
    pub const NONE: RedFives = RedFives([0; 3]);

    /// Red fives of `suit` (0 for honours).
    pub const fn count(&self, suit: Suit) -> u8 {
        match suit {
            Suit::Honour => 0,
            _ => self.0[suit as usize],
        }
    }

    /// The red fives left after throwing `tile` while `fives_kept` fives of its suit stay
    /// with the player: a player throws the plain five while it holds one, so the red one
    /// goes only when it has more red fives than fives kept.
    pub fn after_throwing(self, tile: Tile, fives_kept: usize) -> RedFives {
        let mut out = self;
        if !tile.is_honour()
            && tile.rank() == 5
            && usize::from(self.count(tile.suit())) > fives_kept
        {
            out.0[tile.suit() as usize] -= 1;
        }
        out
    }

    /// Element-wise sum (saturating).
    pub fn plus(&self, other: &RedFives) -> RedFives {
        let mut out = *self;
        for (o, &c) in out.0.iter_mut().zip(other.0.iter()) {
            *o = o.saturating_add(c);
        }
        out
    }
}

impl TileCounts {
    /// Parses mpsz (as [`FromStr`]) and counts the red fives it marks.
    ///
    /// Errors: as [`FromStr`].
    pub fn parse_with_red_fives(s: &str) -> Result<(TileCounts, RedFives), MahjongError> {
        let mut counts = [0u8; KINDS];
        let mut red = RedFives::NONE;
        let mut pending = String::new();
        for c in s.chars() {
            if c.is_ascii_digit() {
                // Bounded: every pending digit becomes a tile, and a fifth copy of any
                // kind is rejected, so more than 36 pending digits is always an error.
                if pending.len() >= 36 + 4 {
                    return Err(too_many_pending(&pending));
                }
                pending.push(c);
            } else if let Some(suit) = Suit::from_letter(c) {
                if pending.is_empty() {
                    return Err(MahjongError::SuitWithoutDigits(c));
                }
                for d in pending.bytes().map(|b| b - b'0') {
                    let rank = match (suit, d) {
                        (Suit::Honour, 0 | 8 | 9) => return Err(MahjongError::NoSuchHonour(d)),
                        (_, 0) => {
                            red.0[suit as usize] += 1;
                            5
                        }
                        (_, r) => r,
                    };
                    let tile = Tile::new(suit, rank).expect("rank checked above");
                    let slot = &mut counts[tile.index()];
                    *slot += 1;
                    if *slot > COPIES {
                        return Err(MahjongError::TooManyCopies {
                            tile,
                            count: *slot as usize,
                        });
                    }
                }
                pending.clear();
            } else if c.is_whitespace() {
                continue;
            } else {
                return Err(MahjongError::UnknownSuit(c));
            }
        }
        if !pending.is_empty() {
            return Err(MahjongError::MissingSuit(pending));
        }
        Ok((TileCounts(counts), red))
    }
}

impl FromStr for TileCounts {
    type Err = MahjongError;

    /// mpsz: groups of digits each followed by its suit letter (`"123m456p789s1122z"`,
    /// the letter in either case); white space between tiles is ignored; `0m/0p/0s` are
    /// red fives, counted as fives.
    ///
    /// Errors: [`MahjongError::UnknownSuit`] for any other character,
    /// [`MahjongError::MissingSuit`] for trailing digits, [`MahjongError::SuitWithoutDigits`],
    /// [`MahjongError::NoSuchHonour`] for `0z`/`8z`/`9z`, [`MahjongError::TooManyCopies`]
    /// for a fifth copy. Linear in the input, never panics.
    fn from_str(s: &str) -> Result<TileCounts, MahjongError> {
        TileCounts::parse_with_red_fives(s).map(|(counts, _)| counts)
    }
}

/// Error for a run of digits too long to be valid whatever suit letter follows.
fn too_many_pending(pending: &str) -> MahjongError {
    // Some digit occurs at least 5 times among 40 digits of 10 values (0 and 5 both
    // being fives); report it as a numbered tile of the first suit (m): the run is
    // invalid for every suit letter.
    let mut per_rank = [0usize; 10];
    for d in pending.bytes().map(|b| (b - b'0') as usize) {
        per_rank[if d == 0 { 5 } else { d }] += 1;
    }
    let (rank, count) = per_rank
        .iter()
        .enumerate()
        .max_by_key(|&(_, c)| *c)
        .map(|(r, &c)| (r as u8, c))
        .unwrap_or((1, 0));
    MahjongError::TooManyCopies {
        tile: Tile::new(Suit::Man, rank.max(1)).expect("rank 1..=9"),
        count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(s: &str) -> TileCounts {
        s.parse().unwrap()
    }

    #[test]
    fn round_trip_is_canonical() {
        assert_eq!(counts("123m456p789s1122z").to_string(), "123m456p789s1122z");
        assert_eq!(counts("1z 9m 1m").to_string(), "19m1z");
        assert_eq!(counts("0m5m").to_string(), "55m");
        assert_eq!(counts("").to_string(), "");
    }

    #[test]
    fn suit_letters_read_in_either_case() {
        // DESIGN.md's notation in upper case: the same tiles.
        assert_eq!(counts("123M456P789S1122Z"), counts("123m456p789s1122z"));
        assert_eq!(counts("1m2M").to_string(), "12m");
        assert_eq!("7Z".parse::<Tile>().unwrap(), Tile(33));
        assert_eq!(
            "M".parse::<TileCounts>(),
            Err(MahjongError::SuitWithoutDigits('M'))
        );
    }

    #[test]
    fn the_red_five_is_thrown_only_when_no_plain_five_is_kept() {
        // Holding 0m and 5m, throwing a 5m keeps one five: the plain one goes, the red
        // stays. Holding 0m alone, nothing is kept: the red goes. Other tiles and other
        // suits leave the reds alone.
        let red = RedFives([1, 1, 0]);
        let five: Tile = "5m".parse().unwrap();
        assert_eq!(red.after_throwing(five, 1), red);
        assert_eq!(red.after_throwing(five, 0), RedFives([0, 1, 0]));
        assert_eq!(red.after_throwing("5s".parse().unwrap(), 0), red);
        assert_eq!(red.after_throwing("4m".parse().unwrap(), 0), red);
    }

    #[test]
    fn red_fives_are_fives_and_counted_apart() {
        // `0` is the red five of its suit: three fives of m, one of them red; two red
        // fives of p; the plain 5s is no red five.
        let (c, red) = TileCounts::parse_with_red_fives("055m00p5s0S").unwrap();
        assert_eq!(c, counts("555m55p55s"));
        assert_eq!(red, RedFives([1, 2, 1]));
        assert_eq!(red.count(Suit::Honour), 0);
        assert_eq!(
            TileCounts::parse_with_red_fives("0z"),
            Err(MahjongError::NoSuchHonour(0))
        );
    }

    #[test]
    fn tile_indices_follow_mpsz_order() {
        assert_eq!("1m".parse::<Tile>().unwrap(), Tile(0));
        assert_eq!("9p".parse::<Tile>().unwrap(), Tile(17));
        assert_eq!("0s".parse::<Tile>().unwrap(), Tile(22));
        assert_eq!("7z".parse::<Tile>().unwrap(), Tile(33));
        for t in Tile::all() {
            assert_eq!(t.to_string().parse::<Tile>().unwrap(), t);
        }
    }

    #[test]
    fn errors_name_the_fault() {
        use MahjongError::*;
        assert_eq!("12x".parse::<TileCounts>(), Err(UnknownSuit('x')));
        assert_eq!("123".parse::<TileCounts>(), Err(MissingSuit("123".into())));
        assert_eq!("m".parse::<TileCounts>(), Err(SuitWithoutDigits('m')));
        assert_eq!("0z".parse::<TileCounts>(), Err(NoSuchHonour(0)));
        assert_eq!("8z".parse::<TileCounts>(), Err(NoSuchHonour(8)));
        assert_eq!(
            "55550p".parse::<TileCounts>(),
            Err(TooManyCopies {
                tile: Tile(13),
                count: 5
            })
        );
        assert_eq!("12m".parse::<Tile>(), Err(NotOneTile("12m".into())));
        assert!(
            "1111111111111111111111111111111111111111111"
                .parse::<TileCounts>()
                .is_err()
        );
    }
}
