//! The table as the player sees it: winds, sticks, scores, dora indicators, the live
//! wall, and every seat's river and melds. Built by the caller (the service), checked
//! once by [`super::check`], then only read.

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::strategy::From;
use crate::mahjong::tile::{RedFives, Tile, TileCounts};

/// One discard in a river.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Discard {
    pub tile: Tile,
    /// Written `0m` / `0p` / `0s`.
    pub red: bool,
    /// Drawn and thrown at once (ツモ切り); false: from the hand (手出し).
    pub tsumogiri: bool,
    /// The discard that declared riichi.
    pub riichi: bool,
    /// Taken by a call: its copy is counted in the caller's meld, not here.
    pub called: bool,
}

#[cfg(test)]
impl Discard {
    /// A river of plain discards for test tables: all `tsumogiri` or all from the hand,
    /// none red, none declaring riichi, none called.
    pub(crate) fn river(tiles: &[&str], tsumogiri: bool) -> Vec<Discard> {
        tiles
            .iter()
            .map(|s| Discard {
                tile: s.parse().unwrap(),
                red: false,
                tsumogiri,
                riichi: false,
                called: false,
            })
            .collect()
    }
}

/// A meld at the table with the tile taken and whom from (relative to its owner);
/// `source` is `None` for a closed kan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableMeld {
    pub meld: Meld,
    pub red: RedFives,
    pub source: Option<(Tile, From)>,
}

impl TableMeld {
    /// Whether the meld opens the hand (every kind but the closed kan).
    pub fn is_open(&self) -> bool {
        self.meld.kind() != MeldKind::ClosedKan
    }
}

/// Another seat.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Opponent {
    pub score: i32,
    /// Flagged as the dealer by the caller (must agree with the seat winds).
    pub dealer: bool,
    pub river: Vec<Discard>,
    pub melds: Vec<TableMeld>,
    pub riichi: bool,
}

impl Opponent {
    /// The index in its river of the discard that declared riichi.
    pub fn riichi_index(&self) -> Option<usize> {
        self.river.iter().position(|d| d.riichi)
    }

    /// Whether some meld opens the hand.
    pub fn is_open(&self) -> bool {
        self.melds.iter().any(TableMeld::is_open)
    }
}

/// Where an opponent sits, in the order they play after the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    /// Shimocha (下家), next to play: opponents\[0\].
    Right = 0,
    /// Toimen (対面): opponents\[1\].
    Across = 1,
    /// Kamicha (上家), plays just before the player: opponents\[2\].
    Left = 2,
}

impl Seat {
    pub const ALL: [Seat; 3] = [Seat::Right, Seat::Across, Seat::Left];

    /// The seat whose discard a `From` names, seen from the player.
    pub const fn of(from: From) -> Seat {
        match from {
            From::Right => Seat::Right,
            From::Across => Seat::Across,
            From::Left => Seat::Left,
        }
    }
}

/// The table at one decision of the player (seat 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// `1z`..`4z`.
    pub round_wind: Tile,
    /// The player's, `1z`..`4z` (`1z` deals).
    pub seat_wind: Tile,
    pub honba: u32,
    pub riichi_sticks: u32,
    pub score: i32,
    pub dora_indicators: Vec<Tile>,
    pub dora_red: RedFives,
    /// Tiles left in the live wall: the draws all seats together can still make.
    pub live_wall: u32,
    /// The player's river.
    pub river: Vec<Discard>,
    /// Right, across, left.
    pub opponents: Vec<Opponent>,
    /// The player discards right after its own chi or pon (its last meld), no draw.
    pub after_call: bool,
}

#[cfg(test)]
impl Table {
    /// A test table: East round, the player South (not the dealer) with 25,000 points,
    /// one dora `indicator`, 60 tiles in the live wall, empty rivers, no melds.
    pub(crate) fn south_seat(indicator: &str) -> Table {
        Table {
            round_wind: "1z".parse().unwrap(),
            seat_wind: "2z".parse().unwrap(),
            honba: 0,
            riichi_sticks: 0,
            score: 25_000,
            dora_indicators: vec![indicator.parse().unwrap()],
            dora_red: Default::default(),
            live_wall: 60,
            river: vec![],
            opponents: vec![
                Opponent::default(),
                Opponent::default(),
                Opponent::default(),
            ],
            after_call: false,
        }
    }
}

impl Table {
    /// The player's seat wind as 0..=3 (East = 0).
    pub fn seat_index(&self) -> usize {
        self.seat_wind.rank() as usize - 1
    }

    /// Whether the player deals.
    pub fn player_deals(&self) -> bool {
        self.seat_index() == 0
    }

    /// The opponent who deals, if the player does not: the seats after the player hold
    /// the next winds, so East sits `3 - seat` places after the player.
    pub fn dealer_seat(&self) -> Option<Seat> {
        match self.seat_index() {
            1 => Some(Seat::Left),
            2 => Some(Seat::Across),
            3 => Some(Seat::Right),
            _ => None,
        }
    }

    /// An opponent's seat wind (`1z`..`4z`).
    pub fn wind_of(&self, seat: Seat) -> Tile {
        let index = (self.seat_index() + seat as usize + 1) % 4;
        Tile::from_index(27 + index).expect("a wind")
    }

    pub fn opponent(&self, seat: Seat) -> &Opponent {
        &self.opponents[seat as usize]
    }

    /// Whether the player has declared riichi (a riichi mark in its own river).
    pub fn player_in_riichi(&self) -> bool {
        self.river.iter().any(|d| d.riichi)
    }

    /// Every tile the player sees outside its own hand and melds: the dora indicators,
    /// every river's uncalled discards and the opponents' melds. `leave_out` is a discard
    /// not to count (the tile on offer at a call, which the call engine counts itself).
    pub fn visible(&self, leave_out: Option<Tile>) -> TileCounts {
        let mut seen = TileCounts::EMPTY;
        for &t in &self.dora_indicators {
            seen.add(t);
        }
        let rivers = std::iter::once(&self.river).chain(self.opponents.iter().map(|o| &o.river));
        for d in rivers.flatten().filter(|d| !d.called) {
            seen.add(d.tile);
        }
        for m in self.opponents.iter().flat_map(|o| &o.melds) {
            seen = seen.plus(&m.meld.tiles());
        }
        if let Some(t) = leave_out {
            seen.remove(t);
        }
        seen
    }

    /// The player's draws left once it has discarded: the live wall is drawn in turn
    /// from the right-hand player on, so the player draws every fourth tile from the
    /// fourth: `live_wall / 4`.
    pub fn draws_left_after_discard(&self) -> u32 {
        self.live_wall / 4
    }

    /// The player's draws left if it lets a discard from `from` go: play goes on with
    /// the discarder's right-hand neighbour, so the player's first draw is tile 0 (the
    /// discard came from the left), 1 (across) or 2 (right) of the wall, then every
    /// fourth.
    pub fn draws_left_after_offer(&self, from: From) -> u32 {
        let first = match from {
            From::Left => 0,
            From::Across => 1,
            From::Right => 2,
        };
        if self.live_wall > first {
            (self.live_wall - first).div_ceil(4)
        } else {
            0
        }
    }
}
