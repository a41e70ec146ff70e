//! The winning hand and its situation, validated once before scoring.

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::tile::{COPIES, RedFives, Suit, Tile, TileCounts};

/// The situation flags of a win. Each is what its name says; [`WinInput::new`] rejects
/// combinations that cannot happen (ippatsu without riichi, rinshan on a discard, ...).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WinFlags {
    /// Won on a self-drawn tile (tsumo), not on a discard (ron).
    pub self_draw: bool,
    /// The player is in riichi.
    pub riichi: bool,
    /// The riichi was declared on the first uninterrupted turn (double riichi); implies
    /// `riichi`.
    pub double_riichi: bool,
    /// Won within one uninterrupted go-around after the riichi declaration.
    pub ippatsu: bool,
    /// Won on the replacement tile drawn after a kan (rinshan kaihou); a self-draw.
    pub rinshan: bool,
    /// Won by robbing another player's added kan (chankan); a discard win.
    pub chankan: bool,
    /// Won on the last tile of the live wall by self-draw (haitei).
    pub haitei: bool,
    /// Won on the last discard of the hand (houtei).
    pub houtei: bool,
    /// The dealer's win on the initial deal (tenhou).
    pub tenhou: bool,
    /// A non-dealer's self-drawn win on the first, uninterrupted draw (chiihou).
    pub chiihou: bool,
}

/// The request field a fault is in (the service names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreField {
    /// The concealed tiles.
    Hand,
    /// The melds.
    Melds,
    /// The winning tile.
    WinTile,
    /// The player's seat wind.
    SeatWind,
    /// The round wind.
    RoundWind,
    /// The dora indicators.
    DoraIndicators,
    /// The ura dora indicators.
    UraDoraIndicators,
    /// One of the situation flags, by its name.
    Flag(&'static str),
}

/// A fault in a scoring request, with the field it is in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ScoreError {
    /// Where the fault is.
    pub field: ScoreField,
    /// What is wrong, one line.
    pub message: String,
}

fn fault(field: ScoreField, message: impl Into<String>) -> ScoreError {
    ScoreError {
        field,
        message: message.into(),
    }
}

/// A winning hand to score: the concealed tiles (the winning tile included), the melds,
/// the winning tile, the winds, the flags, the dora indicators and the red fives held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinInput {
    /// Concealed tiles, the winning tile included.
    pub concealed: TileCounts,
    /// Called melds and closed kans.
    pub melds: Vec<Meld>,
    /// The tile that completed the hand.
    pub win_tile: Tile,
    /// The player's seat wind (`1z` East = the dealer).
    pub seat_wind: Tile,
    /// The round wind.
    pub round_wind: Tile,
    /// How the hand was won.
    pub flags: WinFlags,
    /// Dora indicators, as shown (one per kan plus the first).
    pub dora_indicators: Vec<Tile>,
    /// Ura dora indicators (counted only under riichi).
    pub ura_dora_indicators: Vec<Tile>,
    /// Red fives held, per numbered suit (man, pin, sou), in hand or melds.
    pub red_fives: RedFives,
}

impl WinInput {
    /// Validates a winning hand and its situation.
    ///
    /// Faults, each with its field: a hand whose size does not fit the melds (14 tiles
    /// counting 3 per meld); a winning tile not in the hand; a fifth copy across hand,
    /// melds and indicators; winds that are not `1z..4z`; more than one red five of a
    /// suit or a red five without a five of its suit; riichi with an open meld; and
    /// flags that cannot go together (see [`WinFlags`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        concealed: TileCounts,
        melds: Vec<Meld>,
        win_tile: Tile,
        seat_wind: Tile,
        round_wind: Tile,
        flags: WinFlags,
        dora_indicators: Vec<Tile>,
        ura_dora_indicators: Vec<Tile>,
        red_fives: RedFives,
    ) -> Result<WinInput, ScoreError> {
        let input = WinInput {
            concealed,
            melds,
            win_tile,
            seat_wind,
            round_wind,
            flags,
            dora_indicators,
            ura_dora_indicators,
            red_fives,
        };
        input.check_shape()?;
        input.check_copies()?;
        input.check_winds()?;
        input.check_red_fives()?;
        input.check_flags()?;
        Ok(input)
    }

    /// The dealer sits East.
    pub fn is_dealer(&self) -> bool {
        self.seat_wind == EAST
    }

    /// No meld was called from another player (closed kans keep a hand closed).
    pub fn is_closed(&self) -> bool {
        self.melds.iter().all(|m| m.kind() == MeldKind::ClosedKan)
    }

    /// Every tile of the hand: concealed tiles and all four tiles of each kan.
    pub fn all_tiles(&self) -> TileCounts {
        self.melds
            .iter()
            .fold(self.concealed, |acc, m| acc.plus(&m.tiles()))
    }

    fn check_shape(&self) -> Result<(), ScoreError> {
        if self.melds.len() > 4 {
            return Err(fault(
                ScoreField::Melds,
                format!("{} melds; a hand has at most 4", self.melds.len()),
            ));
        }
        let want = 14 - 3 * self.melds.len();
        if self.concealed.len() != want {
            return Err(fault(
                ScoreField::Hand,
                format!(
                    "{} concealed tiles with {} melds; a winning hand has {} (14 counting 3 \
                     per meld, the winning tile included)",
                    self.concealed.len(),
                    self.melds.len(),
                    want
                ),
            ));
        }
        if self.concealed.count(self.win_tile) == 0 {
            return Err(fault(
                ScoreField::WinTile,
                format!("winning tile {} is not in the hand", self.win_tile),
            ));
        }
        Ok(())
    }

    fn check_copies(&self) -> Result<(), ScoreError> {
        let mut seen = self.all_tiles();
        if let Err(e) = seen.check_copies() {
            return Err(fault(ScoreField::Melds, e.to_string()));
        }
        for (field, list) in [
            (ScoreField::DoraIndicators, &self.dora_indicators),
            (ScoreField::UraDoraIndicators, &self.ura_dora_indicators),
        ] {
            if list.len() > 5 {
                return Err(fault(
                    field,
                    format!("{} indicators; there are at most 5", list.len()),
                ));
            }
            for &t in list {
                seen.add(t);
                if seen.count(t) > COPIES {
                    return Err(fault(
                        field,
                        format!("indicator {t} would be a fifth copy of {t} with the hand"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_winds(&self) -> Result<(), ScoreError> {
        for (field, t) in [
            (ScoreField::SeatWind, self.seat_wind),
            (ScoreField::RoundWind, self.round_wind),
        ] {
            if !is_wind(t) {
                return Err(fault(field, format!("{t} is not a wind (1z..4z)")));
            }
        }
        Ok(())
    }

    fn check_red_fives(&self) -> Result<(), ScoreError> {
        let all = self.all_tiles();
        for (i, suit) in [Suit::Man, Suit::Pin, Suit::Sou].into_iter().enumerate() {
            let five = Tile::new(suit, 5).expect("five of a numbered suit");
            let red = self.red_fives.0[i];
            if red > 1 {
                return Err(fault(
                    ScoreField::Hand,
                    format!("{red} red fives of {}; a set has one", suit.letter()),
                ));
            }
            if red > all.count(five) {
                return Err(fault(
                    ScoreField::Hand,
                    format!(
                        "a red five of {} without a {five} in hand or melds",
                        suit.letter()
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_flags(&self) -> Result<(), ScoreError> {
        let f = &self.flags;
        let no_melds = self.melds.is_empty();
        let rules: [(&'static str, bool, &str); 12] = [
            (
                "riichi",
                f.riichi && !self.is_closed(),
                "riichi with an open meld",
            ),
            (
                "double_riichi",
                f.double_riichi && !f.riichi,
                "double riichi without riichi",
            ),
            ("ippatsu", f.ippatsu && !f.riichi, "ippatsu without riichi"),
            (
                "rinshan",
                f.rinshan && !f.self_draw,
                "rinshan on a discard (it is a self-draw)",
            ),
            ("rinshan", f.rinshan && no_melds, "rinshan without a kan"),
            (
                "chankan",
                f.chankan && f.self_draw,
                "chankan by self-draw (it robs a kan)",
            ),
            (
                "haitei",
                f.haitei && !f.self_draw,
                "haitei on a discard (houtei is the discard win)",
            ),
            (
                "houtei",
                f.houtei && f.self_draw,
                "houtei by self-draw (haitei is the self-draw win)",
            ),
            (
                "haitei",
                f.haitei && f.rinshan,
                "haitei on a replacement tile",
            ),
            (
                "houtei",
                f.houtei && f.chankan,
                "houtei and chankan together (a robbed kan is not a discard)",
            ),
            (
                "tenhou",
                f.tenhou && !(f.self_draw && no_melds && self.is_dealer()),
                "tenhou is the dealer's self-drawn win on the deal, with no meld",
            ),
            (
                "chiihou",
                f.chiihou && !(f.self_draw && no_melds && !self.is_dealer()),
                "chiihou is a non-dealer's self-drawn win on the first draw, with no meld",
            ),
        ];
        if let Some((name, _, why)) = rules.iter().find(|(_, bad, _)| *bad) {
            return Err(fault(ScoreField::Flag(name), why.to_string()));
        }
        if (f.tenhou || f.chiihou) && (f.riichi || f.rinshan || f.haitei) {
            let name = if f.tenhou { "tenhou" } else { "chiihou" };
            return Err(fault(
                ScoreField::Flag(name),
                format!("{name} (a first-draw win) cannot follow riichi, a kan or the last tile"),
            ));
        }
        Ok(())
    }
}

/// East, the dealer's seat wind.
pub const EAST: Tile = Tile(27);

/// A wind (`1z..4z`).
pub fn is_wind(t: Tile) -> bool {
    (27..31).contains(&t.index())
}

/// A dragon (`5z..7z`).
pub fn is_dragon(t: Tile) -> bool {
    t.index() >= 31
}
