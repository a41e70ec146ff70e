//! Kuikae (喰い替え, swap-calling): the discards forbidden right after the player's own
//! chi or pon, as Tenhou (and riichienv's Tenhou rules) forbid them: the kind of the
//! tile called, and after a chi that took an end of its run, the tile just beyond the
//! other end (chi 3m with 45m: 3m and 6m; 4m into 3-4-5: 4m alone).

use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::tile::Tile;

use super::state::{Seat, Table};

/// The tile a chi took: the left-hand player's last discard, marked called.
pub fn chi_called_tile(table: &Table) -> Option<Tile> {
    let left = table.opponent(Seat::Left);
    left.river.last().filter(|d| d.called).map(|d| d.tile)
}

/// The kinds the player may not discard now (empty unless `table.after_call`).
pub fn forbidden(table: &Table, melds: &[Meld]) -> Vec<Tile> {
    if !table.after_call {
        return Vec::new();
    }
    let Some(last) = melds.last() else {
        return Vec::new();
    };
    let called = match last.kind() {
        MeldKind::Pon => last.tile(),
        MeldKind::Chi => match chi_called_tile(table) {
            Some(t) => t,
            None => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    last.kuikae(called)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::meld::MeldKind;
    use crate::mahjong::table::state::{Discard, Opponent};

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn table_after_chi_of(called: &str) -> Table {
        let mut left = Opponent::default();
        left.river.push(Discard {
            tile: t(called),
            red: false,
            tsumogiri: false,
            riichi: false,
            called: true,
        });
        Table {
            round_wind: t("1z"),
            seat_wind: t("2z"),
            honba: 0,
            riichi_sticks: 0,
            score: 25_000,
            dora_indicators: vec![],
            dora_red: Default::default(),
            live_wall: 60,
            river: vec![],
            opponents: vec![Opponent::default(), Opponent::default(), left],
            after_call: true,
        }
    }

    #[test]
    fn tenhou_kuikae() {
        let chi = |s: &str| Meld::parse(MeldKind::Chi, s).unwrap();
        // 3m called with 45m: 3m itself and 6m (the suji swap) are forbidden.
        assert_eq!(
            forbidden(&table_after_chi_of("3m"), &[chi("345m")]),
            vec![t("3m"), t("6m")]
        );
        // 5m called with 34m: 5m and 2m.
        assert_eq!(
            forbidden(&table_after_chi_of("5m"), &[chi("345m")]),
            vec![t("5m"), t("2m")]
        );
        // 4m called into 3-4-5 (kanchan): 4m alone.
        assert_eq!(
            forbidden(&table_after_chi_of("4m"), &[chi("345m")]),
            vec![t("4m")]
        );
        // 7s called with 89s: nothing beyond 9, 7s alone.
        assert_eq!(
            forbidden(&table_after_chi_of("7s"), &[chi("789s")]),
            vec![t("7s")]
        );
        // 3p called with 12p: 3p and nothing below 1.
        assert_eq!(
            forbidden(&table_after_chi_of("3p"), &[chi("123p")]),
            vec![t("3p")]
        );
        // A pon: its kind.
        let pon = Meld::parse(MeldKind::Pon, "777z").unwrap();
        assert_eq!(forbidden(&table_after_chi_of("1m"), &[pon]), vec![t("7z")]);
        // Not right after a call: nothing.
        let mut later = table_after_chi_of("3m");
        later.after_call = false;
        assert!(forbidden(&later, &[chi("345m")]).is_empty());
    }
}
