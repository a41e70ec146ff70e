//! Called (or declared) melds: chi, pon, open kan, closed kan, added kan.

use std::fmt;

use super::error::MahjongError;
use super::tile::{RedFives, Tile, TileCounts};

/// The kind of a meld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// Three consecutive tiles of one suit, called from the left player (吃).
    Chi,
    /// Three identical tiles (碰).
    Pon,
    /// Four identical tiles called on a discard (明杠).
    OpenKan,
    /// Four identical tiles declared from the hand (暗杠).
    ClosedKan,
    /// A pon upgraded with the fourth tile (加杠).
    AddedKan,
}

impl MeldKind {
    /// Whether the meld holds four tiles.
    pub const fn is_kan(self) -> bool {
        matches!(
            self,
            MeldKind::OpenKan | MeldKind::ClosedKan | MeldKind::AddedKan
        )
    }
}

/// A validated meld: its kind and its lowest tile (the chi's first tile, the pon's or
/// kan's tile). A meld counts as one of the four melds of a regular hand whatever its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    kind: MeldKind,
    tile: Tile,
}

impl Meld {
    /// Validates `tiles` (mpsz, e.g. `"345m"`, `"0555p"`) as a meld of `kind`.
    ///
    /// Errors: parse errors of the tiles; [`MahjongError::BadChi`] unless three
    /// consecutive tiles of one numbered suit; [`MahjongError::BadPon`] unless three
    /// identical tiles; [`MahjongError::BadKan`] unless four identical tiles.
    pub fn parse(kind: MeldKind, tiles: &str) -> Result<Meld, MahjongError> {
        Meld::parse_with_red_fives(kind, tiles).map(|(meld, _)| meld)
    }

    /// [`Meld::parse`], with the red fives `tiles` marks (`"0555p"`: one).
    pub fn parse_with_red_fives(
        kind: MeldKind,
        tiles: &str,
    ) -> Result<(Meld, RedFives), MahjongError> {
        let (counts, red) = TileCounts::parse_with_red_fives(tiles)?;
        let meld = Meld::from_counts(kind, &counts).ok_or_else(|| {
            let shown = counts.to_string();
            match kind {
                MeldKind::Chi => MahjongError::BadChi(shown),
                MeldKind::Pon => MahjongError::BadPon(shown),
                _ => MahjongError::BadKan(shown),
            }
        })?;
        Ok((meld, red))
    }

    /// The meld of `kind` made of exactly `tiles`, if they form one.
    pub fn from_counts(kind: MeldKind, tiles: &TileCounts) -> Option<Meld> {
        let first = tiles.kinds().next()?;
        let ok = match kind {
            MeldKind::Chi => {
                tiles.len() == 3
                    && !first.is_honour()
                    && first.rank() <= 7
                    && tiles.0[first.index()] == 1
                    && tiles.0[first.index() + 1] == 1
                    && tiles.0[first.index() + 2] == 1
            }
            MeldKind::Pon => tiles.len() == 3 && tiles.count(first) == 3,
            _ => tiles.len() == 4 && tiles.count(first) == 4,
        };
        ok.then_some(Meld { kind, tile: first })
    }

    /// A chi starting at `first` (rank ≤ 7 of a numbered suit), if valid.
    pub fn chi(first: Tile) -> Option<Meld> {
        (!first.is_honour() && first.rank() <= 7).then_some(Meld {
            kind: MeldKind::Chi,
            tile: first,
        })
    }

    /// A pon or kan of `tile` (`kind` must not be `Chi`; a chi gives `None`).
    pub fn of_kind(kind: MeldKind, tile: Tile) -> Option<Meld> {
        (kind != MeldKind::Chi).then_some(Meld { kind, tile })
    }

    /// The kind.
    pub fn kind(&self) -> MeldKind {
        self.kind
    }

    /// The lowest tile (the chi's first tile, the pon's or kan's tile).
    pub fn tile(&self) -> Tile {
        self.tile
    }

    /// The tiles of the meld.
    pub fn tiles(&self) -> TileCounts {
        let mut out = TileCounts::EMPTY;
        let i = self.tile.index();
        match self.kind {
            MeldKind::Chi => {
                out.0[i] = 1;
                out.0[i + 1] = 1;
                out.0[i + 2] = 1;
            }
            MeldKind::Pon => out.0[i] = 3,
            _ => out.0[i] = 4,
        }
        out
    }

    /// Kuikae (喰い替え): the kinds Tenhou forbids discarding right after making this
    /// chi or pon on `called` — the called kind, and after a chi that took an end of its
    /// run the tile just beyond the other end (chi 3m with 45m: 3m and 6m; 5m with 34m:
    /// 5m and 2m; 4m into 3-4-5: 4m alone). None for kans.
    pub fn kuikae(&self, called: Tile) -> Vec<Tile> {
        match self.kind {
            MeldKind::Pon => vec![self.tile],
            MeldKind::Chi => {
                let low = self.tile;
                let beyond = if called == low && low.rank() <= 6 {
                    Tile::from_index(low.index() + 3)
                } else if called.rank() == low.rank() + 2 && low.rank() > 1 {
                    Tile::from_index(low.index() - 1)
                } else {
                    None
                };
                std::iter::once(called).chain(beyond).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.tiles().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn melds_validate_their_tiles() {
        assert_eq!(
            Meld::parse(MeldKind::Chi, "354m").unwrap().to_string(),
            "345m"
        );
        assert_eq!(
            Meld::parse(MeldKind::Pon, "505p").unwrap().to_string(),
            "555p"
        );
        assert_eq!(
            Meld::parse(MeldKind::ClosedKan, "7777z")
                .unwrap()
                .to_string(),
            "7777z"
        );
        assert_eq!(
            Meld::parse(MeldKind::Chi, "124m"),
            Err(MahjongError::BadChi("124m".into()))
        );
        assert_eq!(
            Meld::parse(MeldKind::Chi, "123z"),
            Err(MahjongError::BadChi("123z".into()))
        );
        assert_eq!(
            Meld::parse(MeldKind::Chi, "12m3p"),
            Err(MahjongError::BadChi("12m3p".into()))
        );
        assert_eq!(
            Meld::parse(MeldKind::Chi, "899m"),
            Err(MahjongError::BadChi("899m".into()))
        );
        assert_eq!(
            Meld::parse(MeldKind::Pon, "1112m"),
            Err(MahjongError::BadPon("1112m".into()))
        );
        assert_eq!(
            Meld::parse(MeldKind::AddedKan, "111m"),
            Err(MahjongError::BadKan("111m".into()))
        );
        assert_eq!(
            Meld::parse(MeldKind::Pon, ""),
            Err(MahjongError::BadPon("".into()))
        );
    }
}
