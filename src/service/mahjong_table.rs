//! The `table` of `SuggestMahjongDiscard` / `SuggestMahjongCall`: translation into
//! [`crate::mahjong::table::Table`] and its checks, every fault named by its path
//! (`table.opponents[1].river[3]`).

use tonic::Status;

use crate::mahjong::strategy::From;
use crate::mahjong::table::{self, Discard, InvalidTable, Opponent, OwnTiles, Table, TableMeld};
use crate::mahjong::tile::{RedFives, Tile, TileCounts};
use crate::mahjong::{Meld, MeldKind, Ruleset};
use crate::proto;
use crate::service::error::invalid_argument;

/// The table of a request, checked against the player's own tiles (and, at a call, the
/// tile on offer).
pub fn table_from_proto(
    t: &proto::MahjongTable,
    own: OwnTiles<'_>,
    ruleset: Ruleset,
    offer: Option<(Tile, From)>,
) -> Result<Table, Status> {
    let table = Table {
        round_wind: one_tile("table.round_wind", &t.round_wind)?,
        seat_wind: one_tile("table.seat_wind", &t.seat_wind)?,
        honba: t.honba,
        riichi_sticks: t.riichi_sticks,
        score: t.score,
        dora_indicators: Vec::new(),
        dora_red: RedFives::NONE,
        live_wall: t.live_wall_tiles,
        river: river_from_proto("table.river", &t.river)?,
        opponents: t
            .opponents
            .iter()
            .enumerate()
            .map(|(i, o)| opponent_from_proto(i, o))
            .collect::<Result<_, _>>()?,
        after_call: t.after_call,
    };
    let (dora, dora_red) = TileCounts::parse_with_red_fives(&t.dora_indicators)
        .map_err(|e| invalid_argument("table.dora_indicators", e))?;
    let table = Table {
        dora_indicators: indicators_in_order(&t.dora_indicators, &dora),
        dora_red,
        ..table
    };
    table::check(&table, own, ruleset, offer).map_err(|InvalidTable { field, error }| {
        invalid_argument(&format!("table.{field}"), error)
    })?;
    Ok(table)
}

fn one_tile(field: &str, text: &str) -> Result<Tile, Status> {
    text.parse().map_err(|e| invalid_argument(field, e))
}

/// The indicators in the order written (the counts lose the order; the kinds are the
/// same).
fn indicators_in_order(text: &str, counts: &TileCounts) -> Vec<Tile> {
    let mut out = Vec::with_capacity(counts.len());
    let mut pending = Vec::new();
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            pending.push(d as u8);
        } else if let Some(suit) = crate::mahjong::Suit::from_letter(c) {
            for d in pending.drain(..) {
                let rank = if d == 0 { 5 } else { d };
                out.extend(Tile::new(suit, rank));
            }
        }
    }
    debug_assert_eq!(out.len(), counts.len());
    out
}

fn opponent_from_proto(i: usize, o: &proto::MahjongOpponent) -> Result<Opponent, Status> {
    Ok(Opponent {
        score: o.score,
        dealer: o.dealer,
        river: river_from_proto(&format!("table.opponents[{i}].river"), &o.river)?,
        melds: o
            .melds
            .iter()
            .enumerate()
            .map(|(j, m)| meld_from_proto(&format!("table.opponents[{i}].melds[{j}]"), m))
            .collect::<Result<_, _>>()?,
        riichi: o.riichi,
    })
}

fn river_from_proto(
    field: &str,
    river: &[proto::MahjongRiverTile],
) -> Result<Vec<Discard>, Status> {
    river
        .iter()
        .enumerate()
        .map(|(j, d)| {
            let field = format!("{field}[{j}]");
            let (counts, red) = TileCounts::parse_with_red_fives(&d.tile)
                .map_err(|e| invalid_argument(&format!("{field}.tile"), e))?;
            let tile = match (counts.len(), counts.kinds().next()) {
                (1, Some(tile)) => tile,
                _ => {
                    return Err(invalid_argument(
                        &format!("{field}.tile"),
                        crate::mahjong::MahjongError::NotOneTile(d.tile.clone()),
                    ));
                }
            };
            Ok(Discard {
                tile,
                red: red != RedFives::NONE,
                tsumogiri: d.tsumogiri,
                riichi: d.riichi,
                called: d.called,
            })
        })
        .collect()
}

fn meld_from_proto(field: &str, m: &proto::MahjongCalledMeld) -> Result<TableMeld, Status> {
    let kind = match proto::MeldKind::try_from(m.kind) {
        Ok(proto::MeldKind::Chi) => MeldKind::Chi,
        Ok(proto::MeldKind::Pon) => MeldKind::Pon,
        Ok(proto::MeldKind::OpenKan) => MeldKind::OpenKan,
        Ok(proto::MeldKind::ClosedKan) => MeldKind::ClosedKan,
        Ok(proto::MeldKind::AddedKan) => MeldKind::AddedKan,
        _ => {
            return Err(invalid_argument(
                &format!("{field}.kind"),
                format!("{} is not a meld kind", m.kind),
            ));
        }
    };
    let (meld, red) = Meld::parse_with_red_fives(kind, &m.tiles)
        .map_err(|e| invalid_argument(&format!("{field}.tiles"), e))?;
    let from = match proto::From::try_from(m.from) {
        Ok(proto::From::Unspecified) => None,
        Ok(proto::From::Left) => Some(From::Left),
        Ok(proto::From::Across) => Some(From::Across),
        Ok(proto::From::Right) => Some(From::Right),
        Err(_) => {
            return Err(invalid_argument(
                &format!("{field}.from"),
                format!("{} is not a From value", m.from),
            ));
        }
    };
    let called = if m.called_tile.is_empty() {
        None
    } else {
        Some(one_tile(&format!("{field}.called_tile"), &m.called_tile)?)
    };
    // The pairing of called tile and source is the table check's (a closed kan called
    // from someone, a call from nobody); here only the parts' own syntax.
    let source = match (called, from) {
        (Some(t), Some(f)) => Some((t, f)),
        (None, None) => None,
        (None, Some(_)) if kind == MeldKind::ClosedKan => {
            return Err(invalid_argument(
                &format!("{field}.from"),
                table::TableError::ClosedKanCalled,
            ));
        }
        (None, Some(_)) => {
            return Err(invalid_argument(
                &format!("{field}.called_tile"),
                table::TableError::NoCalledTile,
            ));
        }
        (Some(_), None) if kind == MeldKind::ClosedKan => {
            return Err(invalid_argument(
                &format!("{field}.called_tile"),
                table::TableError::ClosedKanWithCalledTile,
            ));
        }
        (Some(_), None) => {
            return Err(invalid_argument(
                &format!("{field}.from"),
                table::TableError::CalledFromNobody,
            ));
        }
    };
    Ok(TableMeld { meld, red, source })
}
