//! Each opponent's state as a threat: P(tenpai now) and what its win would cost the
//! player who deals in.
//!
//! - Tenpai: 1 in riichi; 1 with four open melds (a single tile left); otherwise a
//!   logistic in its discards so far, its open melds and the run of drawn-and-thrown
//!   tiles that ends its river (a hand that stopped changing), weights in
//!   [`super::weights::TenpaiWeights`].
//! - Value: by kind of hand (riichi, closed, open), plus each dora visible in its
//!   melds, times the dealer factor when it deals, plus the honba.

use crate::mahjong::scoring::dora::dora_of;

use super::state::{Seat, Table};
use super::weights::DangerWeights;

pub fn tenpai_probability(table: &Table, seat: Seat, w: &DangerWeights) -> f64 {
    let o = table.opponent(seat);
    let open = o.melds.iter().filter(|m| m.is_open()).count();
    if o.riichi || open >= 4 {
        return 1.0;
    }
    let streak = o
        .river
        .iter()
        .rev()
        .take_while(|d| d.tsumogiri)
        .count()
        .min(6);
    let t = &w.tenpai;
    let logit = t.intercept
        + t.per_discard * o.river.len() as f64
        + t.per_open_meld * open as f64
        + t.per_tsumogiri_streak * streak as f64;
    1.0 / (1.0 + (-logit).exp())
}

/// Expected points the player pays if it deals into `seat`.
pub fn win_value(table: &Table, seat: Seat, w: &DangerWeights) -> f64 {
    let o = table.opponent(seat);
    let v = &w.value;
    let dora: Vec<_> = table.dora_indicators.iter().map(|&i| dora_of(i)).collect();
    let shown: usize = o
        .melds
        .iter()
        .map(|m| {
            dora.iter()
                .map(|&d| usize::from(m.meld.tiles().count(d)))
                .sum::<usize>()
        })
        .sum();
    let base = if o.riichi {
        v.riichi
    } else if o.is_open() {
        v.open
    } else {
        v.closed
    };
    let dealer = if table.dealer_seat() == Some(seat) {
        v.dealer_factor
    } else {
        1.0
    };
    (base + v.per_dora_shown * shown as f64) * dealer + v.per_honba * f64::from(table.honba)
}
