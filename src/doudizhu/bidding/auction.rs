//! The bidding so far, checked against the rules (seed 002, DESIGN.md): a hand of the 17
//! cards dealt; at most two bids before this hand's (three players bid once each); each
//! bid 0 (pass) or 1..3 points, above the highest so far; a bid of 3 ends the bidding,
//! so none follows it and no bid is left to suggest after it.

use thiserror::Error;

use crate::doudizhu::card::Cards;

/// Cards dealt to each player before the bidding.
pub const DEALT: usize = 17;

/// A fault in a bidding request. Each names what is wrong; [`BidError::index`] says which
/// bid, if a bid is at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BidError {
    /// The hand is not the 17 cards dealt.
    #[error("{count} cards; a bidding hand is the 17 cards dealt")]
    HandSize {
        /// Cards given.
        count: usize,
    },
    /// Three bids or more: the bidding is over.
    #[error("{count} bids so far; with three players the bidding is over after three")]
    TooManyBids {
        /// Bids given.
        count: usize,
    },
    /// A value that is no bid.
    #[error("{bid} is no bid (0 = pass, 1..3 points)")]
    NotABid {
        /// Its index in the bids.
        index: usize,
        /// The value.
        bid: u32,
    },
    /// A bid made after a bid of 3.
    #[error("comes after a bid of 3, which ends the bidding")]
    AfterThree {
        /// Its index in the bids.
        index: usize,
    },
    /// A bid not above the highest so far.
    #[error("{bid} is not above the highest bid so far ({highest})")]
    NotAbove {
        /// Its index in the bids.
        index: usize,
        /// The bid.
        bid: u32,
        /// The highest bid before it.
        highest: u32,
    },
    /// The last bid is 3: the bidding is over, no bid is left to suggest.
    #[error("a bid of 3 ends the bidding; no bid follows it")]
    Closed {
        /// Index of the bid of 3.
        index: usize,
    },
}

impl BidError {
    /// The index of the bid at fault; `None` when the hand or the number of bids is.
    pub fn index(&self) -> Option<usize> {
        match self {
            BidError::HandSize { .. } | BidError::TooManyBids { .. } => None,
            BidError::NotABid { index, .. }
            | BidError::AfterThree { index }
            | BidError::NotAbove { index, .. }
            | BidError::Closed { index } => Some(*index),
        }
    }
}

/// A bidding still open, for the hand to bid next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction {
    /// The bids made so far, in order (0 = pass); their number is the hand's bidding
    /// position.
    pub bids: Vec<u8>,
    /// The highest of them (0 when all passed or none was made).
    pub highest: u8,
}

impl Auction {
    /// Checks `hand` and `bids` (see the module docs; the first fault found is
    /// reported, in the order the bids were made).
    pub fn check(hand: &Cards, bids: &[u32]) -> Result<Auction, BidError> {
        if hand.len() != DEALT {
            return Err(BidError::HandSize { count: hand.len() });
        }
        if bids.len() > 2 {
            return Err(BidError::TooManyBids { count: bids.len() });
        }
        let mut highest = 0u32;
        for (index, &bid) in bids.iter().enumerate() {
            if bid > 3 {
                return Err(BidError::NotABid { index, bid });
            }
            if highest == 3 {
                return Err(BidError::AfterThree { index });
            }
            if bid != 0 && bid <= highest {
                return Err(BidError::NotAbove {
                    index,
                    bid,
                    highest,
                });
            }
            highest = highest.max(bid);
        }
        if highest == 3 {
            return Err(BidError::Closed {
                index: bids.len() - 1,
            });
        }
        Ok(Auction {
            bids: bids.iter().map(|&b| b as u8).collect(),
            highest: highest as u8,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(bids: &[u32]) -> Result<Auction, BidError> {
        let hand: Cards = "3445566778899TJQK".parse().unwrap();
        Auction::check(&hand, bids)
    }

    #[test]
    fn open_biddings_pass() {
        // Seed 002: each bid above the last, passes anywhere, 3 not yet bid.
        assert_eq!(check(&[]).unwrap().highest, 0);
        assert_eq!(check(&[0, 0]).unwrap().highest, 0);
        let a = check(&[1, 2]).unwrap();
        assert_eq!((a.bids, a.highest), (vec![1, 2], 2));
        assert_eq!(check(&[2, 0]).unwrap().highest, 2);
    }

    #[test]
    fn each_rule_breach_names_its_bid() {
        assert_eq!(check(&[4]), Err(BidError::NotABid { index: 0, bid: 4 }));
        assert_eq!(
            check(&[2, 1]),
            Err(BidError::NotAbove {
                index: 1,
                bid: 1,
                highest: 2
            })
        );
        assert_eq!(
            check(&[2, 2]).unwrap_err().index(),
            Some(1),
            "equal is not above"
        );
        assert_eq!(check(&[3, 0]), Err(BidError::AfterThree { index: 1 }));
        assert_eq!(check(&[0, 3]), Err(BidError::Closed { index: 1 }));
        assert_eq!(check(&[0, 0, 0]), Err(BidError::TooManyBids { count: 3 }));
        let short: Cards = "3445566778899TJQ".parse().unwrap();
        assert_eq!(
            Auction::check(&short, &[]),
            Err(BidError::HandSize { count: 16 })
        );
    }
}
