//! The consistency checks of a [`Table`] against the player's hand: each fault names
//! the field at fault as a path inside the table (`opponents[1].river[3]`), so that the
//! API can name it (`table.opponents[1].river[3]`).
//!
//! Checked, in this order: the winds; three opponents; one dealer, agreeing with the
//! seat winds; dora indicators (at most 5, none without dora); the live wall (at most
//! the ruleset's start); each river (riichi marks, tsumogiri after riichi) and each
//! opponent's melds (the tile called and whom from, no riichi with an open hand); the
//! copies of every kind across hand, melds, dora indicators, rivers and melds in that
//! order (a fifth copy names the field where it appears, likewise a second red five
//! under RIICHI); the rivers' lengths against the draws and calls made; at a call, the
//! offered tile as the discarder's last discard.

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::rules::Ruleset;
use crate::mahjong::strategy::From;
use crate::mahjong::tile::{COPIES, RedFives, Tile, TileCounts};

use super::state::{Discard, Seat, Table};

/// The player's own tiles, counted with the table's.
#[derive(Debug, Clone, Copy)]
pub struct OwnTiles<'a> {
    pub concealed: &'a TileCounts,
    pub concealed_red: RedFives,
    pub melds: &'a [Meld],
    pub melds_red: RedFives,
}

/// What is wrong with a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("{0} is not a wind (1z..4z)")]
    NotAWind(Tile),
    #[error("{0} opponents given; a table has exactly 3 (right, across, left)")]
    OpponentCount(usize),
    #[error("a second dealer: {0}")]
    TwoDealers(&'static str),
    #[error("this seat's wind is {wind}, not East: the dealer is {dealer}")]
    WrongDealer { wind: Tile, dealer: &'static str },
    #[error("{0} dora indicators; at most 5 (one and four kan dora)")]
    TooManyDoraIndicators(usize),
    #[error("{0} has no dora")]
    NoDora(Ruleset),
    #[error("{given} tiles; a {ruleset} hand starts with {start} in the live wall")]
    LiveWallTooLarge {
        given: u32,
        start: u32,
        ruleset: Ruleset,
    },
    #[error("{0} has no riichi")]
    NoRiichi(Ruleset),
    #[error("a second riichi declaration in one river")]
    SecondRiichiDiscard,
    #[error("riichi is set but no discard of the river declared it")]
    RiichiWithoutDeclaration,
    #[error("a discard declares riichi but riichi is not set")]
    DeclarationWithoutRiichi,
    #[error("a discard after riichi must be the tile drawn (tsumogiri)")]
    HandChangedAfterRiichi,
    #[error("riichi with an open meld")]
    RiichiWithOpenHand,
    #[error("a closed kan is not called from anyone")]
    ClosedKanCalled,
    #[error("a called meld must say whom it was called from")]
    CalledFromNobody,
    #[error("a chi is called from the left only")]
    ChiNotFromLeft,
    #[error("{called} is not one of the meld's tiles")]
    CalledTileNotInMeld { called: Tile },
    #[error("a closed kan has no called tile")]
    ClosedKanWithCalledTile,
    #[error("a called meld must name the tile it took")]
    NoCalledTile,
    #[error("{0} melds; a seat has at most 4")]
    TooManyMelds(usize),
    #[error("{0}")]
    Tiles(#[from] crate::mahjong::MahjongError),
    #[error(
        "a discard beyond the turns: {draws} draws and {calls} calls made so far allow \
         at most {allowed} discards in one river"
    )]
    RiverTooLong {
        draws: u32,
        calls: u32,
        allowed: u32,
    },
    #[error(
        "{discards} discards on the table but only {draws} draws and {calls} calls made \
         ({start} tiles at the start less {live_wall} left)"
    )]
    DiscardsBeyondDraws {
        discards: u32,
        draws: u32,
        calls: u32,
        start: u32,
        live_wall: u32,
    },
    #[error(
        "after_call needs the player's last meld to be a chi or pon (for a chi, taken from \
         the left-hand player's last discard, marked called) and a discard to make"
    )]
    AfterCallWithoutCall,
    #[error("after_call is for SuggestMahjongDiscard, not at a call")]
    AfterCallAtOffer,
    #[error("the offered tile {offered} is not this seat's last discard (uncalled)")]
    OfferNotLastDiscard { offered: Tile },
}

/// A fault and the field it is in, as a path inside the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {error}")]
pub struct InvalidTable {
    pub field: String,
    pub error: TableError,
}

fn fault(field: impl Into<String>, error: impl Into<TableError>) -> InvalidTable {
    InvalidTable {
        field: field.into(),
        error: error.into(),
    }
}

/// The tiles in the live wall when a hand starts, before the dealer's first draw:
/// the set less 4 x 13 dealt, less the 14-tile dead wall under RIICHI.
pub const fn live_wall_at_start(ruleset: Ruleset) -> u32 {
    let dealt = ruleset.tile_count() as u32 - 52;
    match ruleset {
        Ruleset::Riichi => dealt - 14,
        _ => dealt,
    }
}

const SEAT_NAMES: [&str; 3] = [
    "opponents[0] (right)",
    "opponents[1] (across)",
    "opponents[2] (left)",
];

/// Checks `table` with the player's own tiles; at a call, `offer` is the tile on offer
/// and whose discard it is.
pub fn check(
    table: &Table,
    own: OwnTiles<'_>,
    ruleset: Ruleset,
    offer: Option<(Tile, From)>,
) -> Result<(), InvalidTable> {
    check_winds(table)?;
    if table.opponents.len() != 3 {
        return Err(fault(
            "opponents",
            TableError::OpponentCount(table.opponents.len()),
        ));
    }
    check_dealer(table)?;
    check_dora_and_wall(table, ruleset)?;
    check_river("river", &table.river, table.player_in_riichi(), ruleset)?;
    if table.player_in_riichi() && own.melds.iter().any(|m| m.kind() != MeldKind::ClosedKan) {
        return Err(fault("river", TableError::RiichiWithOpenHand));
    }
    for (i, o) in table.opponents.iter().enumerate() {
        check_river(
            &format!("opponents[{i}].river"),
            &o.river,
            o.riichi,
            ruleset,
        )?;
        check_melds(i, table, ruleset)?;
    }
    check_copies(table, own, ruleset)?;
    check_turns(table, own, ruleset)?;
    if let Some((tile, from)) = offer {
        check_offer(table, tile, from)?;
    }
    check_after_call(table, own, offer.is_some())
}

/// `after_call`: a chi or pon last among the player's melds, the chi's tile the left
/// player's last discard (called), a hand that discards, and no offer.
fn check_after_call(table: &Table, own: OwnTiles<'_>, at_offer: bool) -> Result<(), InvalidTable> {
    if !table.after_call {
        return Ok(());
    }
    if at_offer {
        return Err(fault("after_call", TableError::AfterCallAtOffer));
    }
    let ok = own.concealed.len() % 3 == 2
        && match own.melds.last().map(|m| (m.kind(), m)) {
            Some((MeldKind::Pon, _)) => true,
            Some((MeldKind::Chi, m)) => {
                super::kuikae::chi_called_tile(table).is_some_and(|t| m.tiles().count(t) > 0)
            }
            _ => false,
        };
    if ok {
        Ok(())
    } else {
        Err(fault("after_call", TableError::AfterCallWithoutCall))
    }
}

fn check_winds(table: &Table) -> Result<(), InvalidTable> {
    let is_wind = |t: Tile| t.is_honour() && t.rank() <= 4;
    if !is_wind(table.round_wind) {
        return Err(fault("round_wind", TableError::NotAWind(table.round_wind)));
    }
    if !is_wind(table.seat_wind) {
        return Err(fault("seat_wind", TableError::NotAWind(table.seat_wind)));
    }
    Ok(())
}

/// At most one seat flagged dealer, and the one the seat winds make the dealer.
fn check_dealer(table: &Table) -> Result<(), InvalidTable> {
    let dealer = table.dealer_seat();
    let dealer_name = dealer.map_or("the player (seat wind 1z)", |s| SEAT_NAMES[s as usize]);
    let mut flagged = table.player_deals();
    for (i, o) in table.opponents.iter().enumerate() {
        if !o.dealer {
            continue;
        }
        let field = format!("opponents[{i}].dealer");
        if flagged {
            return Err(fault(field, TableError::TwoDealers(dealer_name)));
        }
        if dealer != Some(Seat::ALL[i]) {
            let wind = table.wind_of(Seat::ALL[i]);
            return Err(fault(
                field,
                TableError::WrongDealer {
                    wind,
                    dealer: dealer_name,
                },
            ));
        }
        flagged = true;
    }
    Ok(())
}

fn check_dora_and_wall(table: &Table, ruleset: Ruleset) -> Result<(), InvalidTable> {
    let n = table.dora_indicators.len();
    if n > 0 && ruleset != Ruleset::Riichi {
        return Err(fault("dora_indicators", TableError::NoDora(ruleset)));
    }
    if n > 5 {
        return Err(fault(
            "dora_indicators",
            TableError::TooManyDoraIndicators(n),
        ));
    }
    let start = live_wall_at_start(ruleset);
    if table.live_wall > start {
        return Err(fault(
            "live_wall_tiles",
            TableError::LiveWallTooLarge {
                given: table.live_wall,
                start,
                ruleset,
            },
        ));
    }
    Ok(())
}

/// One riichi mark at most, present exactly when the seat is in riichi, only under
/// RIICHI, and every later discard drawn and thrown.
fn check_river(
    field: &str,
    river: &[Discard],
    riichi: bool,
    ruleset: Ruleset,
) -> Result<(), InvalidTable> {
    let riichi_field = field.replace("river", "riichi");
    if riichi && ruleset != Ruleset::Riichi {
        return Err(fault(riichi_field, TableError::NoRiichi(ruleset)));
    }
    let mut declared = None;
    for (j, d) in river.iter().enumerate() {
        let here = format!("{field}[{j}]");
        if d.riichi {
            if ruleset != Ruleset::Riichi {
                return Err(fault(here, TableError::NoRiichi(ruleset)));
            }
            if declared.is_some() {
                return Err(fault(here, TableError::SecondRiichiDiscard));
            }
            if !riichi {
                return Err(fault(here, TableError::DeclarationWithoutRiichi));
            }
            declared = Some(j);
        } else if declared.is_some() && !d.tsumogiri {
            return Err(fault(here, TableError::HandChangedAfterRiichi));
        }
    }
    if riichi && declared.is_none() {
        return Err(fault(riichi_field, TableError::RiichiWithoutDeclaration));
    }
    Ok(())
}

fn check_melds(i: usize, table: &Table, ruleset: Ruleset) -> Result<(), InvalidTable> {
    let o = &table.opponents[i];
    if o.melds.len() > 4 {
        return Err(fault(
            format!("opponents[{i}].melds"),
            TableError::TooManyMelds(o.melds.len()),
        ));
    }
    for (j, m) in o.melds.iter().enumerate() {
        let field = |part: &str| format!("opponents[{i}].melds[{j}]{part}");
        ruleset
            .check_meld(&m.meld)
            .map_err(|e| fault(field(".tiles"), e))?;
        match (m.meld.kind(), m.source) {
            (MeldKind::ClosedKan, Some(_)) => {
                return Err(fault(field(".from"), TableError::ClosedKanCalled));
            }
            (MeldKind::ClosedKan, None) => {}
            (_, None) => return Err(fault(field(".from"), TableError::CalledFromNobody)),
            (kind, Some((called, from))) => {
                if m.meld.tiles().count(called) == 0 {
                    return Err(fault(
                        field(".called_tile"),
                        TableError::CalledTileNotInMeld { called },
                    ));
                }
                if kind == MeldKind::Chi && from != From::Left {
                    return Err(fault(field(".from"), TableError::ChiNotFromLeft));
                }
            }
        }
    }
    if o.riichi && o.is_open() {
        return Err(fault(
            format!("opponents[{i}].riichi"),
            TableError::RiichiWithOpenHand,
        ));
    }
    Ok(())
}

/// Counts every copy in the order hand, melds, dora indicators, own river, then each
/// opponent's river and melds: the first field holding a fifth copy (or a second red
/// five under RIICHI) is at fault.
fn check_copies(table: &Table, own: OwnTiles<'_>, ruleset: Ruleset) -> Result<(), InvalidTable> {
    let mut seen = *own.concealed;
    for m in own.melds {
        seen = seen.plus(&m.tiles());
    }
    let mut red = own.concealed_red.plus(&own.melds_red);
    let mut add = |field: String, tiles: &TileCounts, more_red: RedFives| {
        ruleset
            .check_tiles(tiles)
            .map_err(|e| fault(field.clone(), e))?;
        seen = seen.plus(tiles);
        seen.check_copies().map_err(|e| fault(field.clone(), e))?;
        red = red.plus(&more_red);
        ruleset.check_red_fives(&red).map_err(|e| fault(field, e))
    };
    let mut dora = TileCounts::EMPTY;
    for &t in &table.dora_indicators {
        dora.add(t);
    }
    add("dora_indicators".into(), &dora, table.dora_red)?;
    for (j, d) in table.river.iter().enumerate().filter(|(_, d)| !d.called) {
        let mut one = TileCounts::EMPTY;
        one.add(d.tile);
        add(format!("river[{j}]"), &one, red_of(d))?;
    }
    for (i, o) in table.opponents.iter().enumerate() {
        for (j, d) in o.river.iter().enumerate().filter(|(_, d)| !d.called) {
            let mut one = TileCounts::EMPTY;
            one.add(d.tile);
            add(format!("opponents[{i}].river[{j}]"), &one, red_of(d))?;
        }
        for (j, m) in o.melds.iter().enumerate() {
            add(
                format!("opponents[{i}].melds[{j}].tiles"),
                &m.meld.tiles(),
                m.red,
            )?;
        }
    }
    debug_assert!(seen.0.iter().all(|&c| c <= COPIES));
    Ok(())
}

fn red_of(d: &Discard) -> RedFives {
    let mut red = RedFives::NONE;
    if d.red {
        red.0[d.tile.suit() as usize] = 1;
    }
    red
}

/// Discards against draws and calls. `draws` = the tiles taken from the live wall so
/// far; a chi, pon or open kan lets its caller discard without a draw. All rivers
/// together hold at most draws + calls discards; one seat's draws are at most
/// ceil(draws / 4) + calls + 1 (each call moves the turn at most one round forward for
/// a seat), so its river holds at most that plus its own calls.
fn check_turns(table: &Table, own: OwnTiles<'_>, ruleset: Ruleset) -> Result<(), InvalidTable> {
    let start = live_wall_at_start(ruleset);
    let draws = start - table.live_wall;
    let own_calls = own
        .melds
        .iter()
        .filter(|m| m.kind() != MeldKind::ClosedKan)
        .count();
    let opp_calls: usize = table
        .opponents
        .iter()
        .map(|o| o.melds.iter().filter(|m| m.is_open()).count())
        .sum();
    let calls = (own_calls + opp_calls) as u32;
    let allowed = draws.div_ceil(4) + 2 * calls + 1;
    let rivers = std::iter::once(("river".to_string(), &table.river)).chain(
        table
            .opponents
            .iter()
            .enumerate()
            .map(|(i, o)| (format!("opponents[{i}].river"), &o.river)),
    );
    let mut discards = 0u32;
    for (field, river) in rivers {
        if river.len() as u32 > allowed {
            return Err(fault(
                format!("{field}[{allowed}]"),
                TableError::RiverTooLong {
                    draws,
                    calls,
                    allowed,
                },
            ));
        }
        discards += river.len() as u32;
    }
    if discards > draws + calls {
        return Err(fault(
            "live_wall_tiles",
            TableError::DiscardsBeyondDraws {
                discards,
                draws,
                calls,
                start,
                live_wall: table.live_wall,
            },
        ));
    }
    Ok(())
}

fn check_offer(table: &Table, offered: Tile, from: From) -> Result<(), InvalidTable> {
    let seat = Seat::of(from) as usize;
    let river = &table.opponents[seat].river;
    match river.last() {
        Some(d) if d.tile == offered && !d.called => Ok(()),
        _ => Err(fault(
            format!("opponents[{seat}].river"),
            TableError::OfferNotLastDiscard { offered },
        )),
    }
}
