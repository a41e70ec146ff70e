//! Ranks and card multisets in the notation of DESIGN.md.
//!
//! Suits play no part in Dou Dizhu (seed 002, rules list), so a hand or a play is a
//! multiset of ranks: [`Cards`] stores one count per [`Rank`]. Notation: one character
//! per card, `3 4 5 6 7 8 9 T J Q K A 2`, small (black) joker `X`, big (red) joker `D`
//! (DouZero's letters). Parsing also accepts `10` for `T`, `B` / `R` for the jokers,
//! spaces and lower case; formatting is canonical, ascending rank order (`"33344TX"`).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::error::DouDizhuError;

/// Most cards a hand (the landlord's 17 + 3) or a play can hold.
pub const MAX_HAND_CARDS: usize = 20;

/// One of the 15 ranks, by strength: index 0..=11 are `3`..`A`, 12 is `2`, 13 the small
/// joker `X`, 14 the big joker `D`. Comparing ranks compares strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

/// Rank characters by index, canonical notation.
const RANK_CHARS: [char; Rank::COUNT] = [
    '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'X', 'D',
];

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 15;
    /// The lowest rank, `3`.
    pub const THREE: Rank = Rank(0);
    /// The ace, `A`: the highest rank that may join a chain.
    pub const ACE: Rank = Rank(11);
    /// The two, `2`: above the ace, never in a chain.
    pub const TWO: Rank = Rank(12);
    /// The small (black) joker, `X`.
    pub const SMALL_JOKER: Rank = Rank(13);
    /// The big (red) joker, `D`.
    pub const BIG_JOKER: Rank = Rank(14);
    /// All ranks, weakest first.
    pub const ALL: [Rank; Rank::COUNT] = {
        let mut all = [Rank(0); Rank::COUNT];
        let mut i = 0;
        while i < Rank::COUNT {
            all[i] = Rank(i as u8);
            i += 1;
        }
        all
    };

    /// The rank with index `index` (0..=14), `None` beyond.
    pub const fn from_index(index: usize) -> Option<Rank> {
        if index < Rank::COUNT {
            Some(Rank(index as u8))
        } else {
            None
        }
    }

    /// Index 0..=14 (strength order).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Canonical character: `3`..`9`, `T`, `J`, `Q`, `K`, `A`, `2`, `X`, `D`.
    pub const fn to_char(self) -> char {
        RANK_CHARS[self.0 as usize]
    }

    /// Reads one character: the canonical ones, lower case, and `B` / `R` for the small /
    /// big joker. `None` for anything else (the two-character `10` is handled by
    /// [`Cards`] parsing and by `Rank::from_str`).
    pub const fn from_char(c: char) -> Option<Rank> {
        let index = match c.to_ascii_uppercase() {
            '3' => 0,
            '4' => 1,
            '5' => 2,
            '6' => 3,
            '7' => 4,
            '8' => 5,
            '9' => 6,
            'T' => 7,
            'J' => 8,
            'Q' => 9,
            'K' => 10,
            'A' => 11,
            '2' => 12,
            'X' | 'B' => 13,
            'D' | 'R' => 14,
            _ => return None,
        };
        Some(Rank(index))
    }

    /// Whether this is a joker (`X` or `D`).
    pub const fn is_joker(self) -> bool {
        self.0 >= Rank::SMALL_JOKER.0
    }

    /// Whether this rank may be part of a chain, pair chain, trio chain or airplane
    /// body: `3`..`A` (seed 002: 2 and jokers never join a chain).
    pub const fn can_chain(self) -> bool {
        self.0 <= Rank::ACE.0
    }

    /// How many cards of this rank a deck holds: 4, or 1 for each joker.
    pub const fn copies_in_deck(self) -> u8 {
        if self.is_joker() { 1 } else { 4 }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl FromStr for Rank {
    type Err = DouDizhuError;

    /// One rank in card notation (`"3"`.."`D`", lower case, `"10"`, `B`, `R`).
    fn from_str(s: &str) -> Result<Rank, DouDizhuError> {
        let cards = Cards::parse_any(s)?;
        let mut ranks = cards.iter();
        match (ranks.next(), ranks.next()) {
            (Some(rank), None) => Ok(rank),
            _ => Err(DouDizhuError::NotOneRank { text: s.to_owned() }),
        }
    }
}

/// A multiset of cards (a hand, a play, cards seen): one count per [`Rank`], at most 4
/// per rank and 1 per joker (one deck). `Copy`, 15 bytes.
///
/// `Ord` is the canonical string order: the ascending card sequences compared card by
/// card (a prefix first); for equal lengths, the set with more of the lowest rank where
/// the two differ comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cards {
    counts: [u8; Rank::COUNT],
}

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards {
        counts: [0; Rank::COUNT],
    };

    /// The full 54-card deck.
    pub const FULL_DECK: Cards = Cards {
        counts: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1],
    };

    /// Cards from counts per rank index. Errors: more than four of a rank
    /// ([`DouDizhuError::TooManyOfRank`]) or more than one of a joker
    /// ([`DouDizhuError::DuplicateJoker`]). Any total up to the full deck is accepted.
    pub fn from_counts(counts: [u8; Rank::COUNT]) -> Result<Cards, DouDizhuError> {
        for rank in Rank::ALL {
            let n = counts[rank.index()];
            if n > rank.copies_in_deck() {
                return Err(if rank.is_joker() {
                    DouDizhuError::DuplicateJoker { joker: rank }
                } else {
                    DouDizhuError::TooManyOfRank { rank }
                });
            }
        }
        Ok(Cards { counts })
    }

    /// Counts without the deck check; callers guarantee at most 4 per rank, 1 per joker.
    pub(crate) const fn from_counts_unchecked(counts: [u8; Rank::COUNT]) -> Cards {
        Cards { counts }
    }

    /// Parses card notation without the 20-card limit (e.g. the cards not yet seen).
    /// Same errors as [`Cards::from_str`] except [`DouDizhuError::TooManyCards`].
    pub fn parse_any(s: &str) -> Result<Cards, DouDizhuError> {
        let mut counts = [0u8; Rank::COUNT];
        let mut chars = s.chars().enumerate().peekable();
        while let Some((pos, c)) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            let rank = if c == '1' {
                match chars.peek() {
                    Some((_, '0')) => {
                        chars.next();
                        Rank(7)
                    }
                    _ => {
                        return Err(DouDizhuError::UnknownCharacter {
                            ch: c,
                            pos: pos + 1,
                        });
                    }
                }
            } else {
                Rank::from_char(c).ok_or(DouDizhuError::UnknownCharacter {
                    ch: c,
                    pos: pos + 1,
                })?
            };
            let n = &mut counts[rank.index()];
            if *n == rank.copies_in_deck() {
                return Err(if rank.is_joker() {
                    DouDizhuError::DuplicateJoker { joker: rank }
                } else {
                    DouDizhuError::TooManyOfRank { rank }
                });
            }
            *n += 1;
        }
        Ok(Cards { counts })
    }

    /// One card of `rank`.
    pub const fn single(rank: Rank) -> Cards {
        let mut counts = [0; Rank::COUNT];
        counts[rank.index()] = 1;
        Cards { counts }
    }

    /// Counts per rank index (0 = `3` .. 14 = `D`).
    pub const fn counts(&self) -> &[u8; Rank::COUNT] {
        &self.counts
    }

    /// How many cards of `rank`.
    pub const fn count(&self, rank: Rank) -> u8 {
        self.counts[rank.index()]
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&n| n as usize).sum()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&n| n == 0)
    }

    /// Whether `other` is a sub-multiset of `self` (every card of `other` is here).
    pub fn contains(&self, other: &Cards) -> bool {
        self.counts
            .iter()
            .zip(other.counts.iter())
            .all(|(&have, &need)| have >= need)
    }

    /// `self` minus `other`, `None` when `other` is not contained in `self`.
    pub fn checked_sub(&self, other: &Cards) -> Option<Cards> {
        let mut counts = self.counts;
        for (n, &m) in counts.iter_mut().zip(other.counts.iter()) {
            *n = n.checked_sub(m)?;
        }
        Some(Cards { counts })
    }

    /// `self` plus `other`, `None` when a rank would exceed the deck (4, jokers 1).
    pub fn checked_add(&self, other: &Cards) -> Option<Cards> {
        let mut counts = self.counts;
        for rank in Rank::ALL {
            let n = counts[rank.index()] + other.counts[rank.index()];
            if n > rank.copies_in_deck() {
                return None;
            }
            counts[rank.index()] = n;
        }
        Some(Cards { counts })
    }

    /// Adds `n` cards of `rank`. Errors when the rank would exceed the deck.
    pub fn add(&mut self, rank: Rank, n: u8) -> Result<(), DouDizhuError> {
        let total = self.counts[rank.index()].saturating_add(n);
        if total > rank.copies_in_deck() {
            return Err(if rank.is_joker() {
                DouDizhuError::DuplicateJoker { joker: rank }
            } else {
                DouDizhuError::TooManyOfRank { rank }
            });
        }
        self.counts[rank.index()] = total;
        Ok(())
    }

    /// Removes `n` cards of `rank`; `false` (and no change) when fewer are present.
    pub fn remove(&mut self, rank: Rank, n: u8) -> bool {
        match self.counts[rank.index()].checked_sub(n) {
            Some(left) => {
                self.counts[rank.index()] = left;
                true
            }
            None => false,
        }
    }

    /// Every card, weakest first (a rank repeated by its count).
    pub fn iter(&self) -> impl Iterator<Item = Rank> + '_ {
        Rank::ALL
            .into_iter()
            .flat_map(|rank| std::iter::repeat_n(rank, self.count(rank) as usize))
    }

    /// The ranks present with their counts, weakest first.
    pub fn ranks(&self) -> impl Iterator<Item = (Rank, u8)> + '_ {
        Rank::ALL
            .into_iter()
            .map(|rank| (rank, self.count(rank)))
            .filter(|&(_, n)| n > 0)
    }

    /// Whether both jokers (the rocket's cards) are present.
    pub const fn has_rocket(&self) -> bool {
        self.counts[13] > 0 && self.counts[14] > 0
    }
}

impl FromStr for Cards {
    type Err = DouDizhuError;

    /// Parses a hand or a play (at most 20 cards). Errors, each naming the fault:
    /// [`DouDizhuError::UnknownCharacter`], [`DouDizhuError::TooManyOfRank`],
    /// [`DouDizhuError::DuplicateJoker`], [`DouDizhuError::TooManyCards`].
    fn from_str(s: &str) -> Result<Cards, DouDizhuError> {
        let cards = Cards::parse_any(s)?;
        let count = cards.len();
        if count > MAX_HAND_CARDS {
            return Err(DouDizhuError::TooManyCards { count });
        }
        Ok(cards)
    }
}

impl fmt::Display for Cards {
    /// Canonical notation: ascending rank order, e.g. `33344TX`; empty for no cards.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in self.iter() {
            write!(f, "{}", rank.to_char())?;
        }
        Ok(())
    }
}

impl Ord for Cards {
    fn cmp(&self, other: &Cards) -> Ordering {
        self.iter().cmp(other.iter())
    }
}

impl PartialOrd for Cards {
    fn partial_cmp(&self, other: &Cards) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        s.parse().unwrap()
    }

    #[test]
    fn parse_and_format_round_trip() {
        assert_eq!(cards("33344TX").to_string(), "33344TX");
        // Input order, "10", lower case, spaces, B/R are all accepted.
        assert_eq!(cards("x 10 4 3 3 4 3").to_string(), "33344TX");
        assert_eq!(cards("rb2a").to_string(), "A2XD");
        assert_eq!(cards("").to_string(), "");
    }

    #[test]
    fn parse_errors_name_the_fault() {
        assert_eq!(
            "3451".parse::<Cards>(),
            Err(DouDizhuError::UnknownCharacter { ch: '1', pos: 4 })
        );
        assert_eq!(
            "33333".parse::<Cards>(),
            Err(DouDizhuError::TooManyOfRank { rank: Rank::THREE })
        );
        assert_eq!(
            "XB".parse::<Cards>(),
            Err(DouDizhuError::DuplicateJoker {
                joker: Rank::SMALL_JOKER
            })
        );
        assert_eq!(
            "333444555666777888999".parse::<Cards>(),
            Err(DouDizhuError::TooManyCards { count: 21 })
        );
        assert_eq!(
            "3451".parse::<Cards>().unwrap_err().to_string(),
            "character '1' at position 4 is not a card"
        );
    }

    #[test]
    fn order_is_canonical_string_order() {
        assert!(cards("3334") < cards("3335"));
        assert!(cards("4555") < cards("5556"));
        assert!(cards("33") < cards("333"));
    }

    #[test]
    fn rank_from_str() {
        assert_eq!("10".parse::<Rank>(), Ok(Rank::from_index(7).unwrap()));
        assert_eq!("r".parse::<Rank>(), Ok(Rank::BIG_JOKER));
        assert!("34".parse::<Rank>().is_err());
    }
}
