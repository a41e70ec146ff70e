//! Payment: han and fu to basic points, the limits, and who pays what.
//!
//! Basic points are fu x 2^(2 + han), capped at mangan (2,000) from 5 han or when the
//! product exceeds 2,000 (no kiriage: 4 han 30 fu is 1,920); haneman 3,000 at 6-7 han,
//! baiman 4,000 at 8-10, sanbaiman 6,000 at 11-12, yakuman 8,000 at 13 or more (counted
//! yakuman) or per yakuman. A discard win is paid by the discarder: 4x basic (6x for the
//! dealer); a self-draw is paid by all: the dealer pays 2x basic and each other 1x to a
//! non-dealer, each pays 2x to the dealer. Each payment is rounded up to 100. Honba and
//! riichi sticks are not included.

/// The limit a hand reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Limit {
    None,
    Mangan,
    Haneman,
    Baiman,
    Sanbaiman,
    /// A counted (kazoe) yakuman: 13 han or more without a yakuman.
    CountedYakuman,
    /// One or more yakuman (the number of them).
    Yakuman(u8),
}

/// Who pays what, before honba and riichi sticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payment {
    /// A discard win: the discarder pays all.
    Ron {
        /// From the discarder.
        from_discarder: u32,
    },
    /// A self-draw by the dealer: each of the three others pays the same.
    DealerTsumo {
        /// From each non-dealer.
        from_each: u32,
    },
    /// A self-draw by a non-dealer.
    NonDealerTsumo {
        /// From the dealer.
        from_dealer: u32,
        /// From each of the two other non-dealers.
        from_each_non_dealer: u32,
    },
}

impl Payment {
    /// What the winner receives in all.
    pub fn total(&self) -> u32 {
        match *self {
            Payment::Ron { from_discarder } => from_discarder,
            Payment::DealerTsumo { from_each } => 3 * from_each,
            Payment::NonDealerTsumo {
                from_dealer,
                from_each_non_dealer,
            } => from_dealer + 2 * from_each_non_dealer,
        }
    }
}

/// The limit and basic points of `han` and `fu` (`yakuman`: the hand's han are
/// 13 per yakuman).
pub fn basic_points(han: u8, fu: u8, yakuman: bool) -> (Limit, u32) {
    if yakuman {
        let count = (han / 13).max(1);
        return (Limit::Yakuman(count), 8000 * u32::from(count));
    }
    let plain = u32::from(fu) << (2 + u32::from(han.min(13)));
    match han {
        13.. => (Limit::CountedYakuman, 8000),
        11..=12 => (Limit::Sanbaiman, 6000),
        8..=10 => (Limit::Baiman, 4000),
        6..=7 => (Limit::Haneman, 3000),
        5 => (Limit::Mangan, 2000),
        _ if plain > 2000 => (Limit::Mangan, 2000),
        _ => (Limit::None, plain),
    }
}

/// The limit and the payment of a win.
pub fn pay(han: u8, fu: u8, yakuman: bool, dealer: bool, self_draw: bool) -> (Limit, Payment) {
    let (limit, basic) = basic_points(han, fu, yakuman);
    let up = |x: u32| x.div_ceil(100) * 100;
    let payment = match (self_draw, dealer) {
        (false, false) => Payment::Ron {
            from_discarder: up(4 * basic),
        },
        (false, true) => Payment::Ron {
            from_discarder: up(6 * basic),
        },
        (true, true) => Payment::DealerTsumo {
            from_each: up(2 * basic),
        },
        (true, false) => Payment::NonDealerTsumo {
            from_dealer: up(2 * basic),
            from_each_non_dealer: up(basic),
        },
    };
    (limit, payment)
}
