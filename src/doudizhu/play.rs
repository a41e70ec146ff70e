//! Play kinds (牌型), classification of a card set into its readings, and comparison.
//!
//! Source: seed 002 (rules list near its end) and DESIGN.md "Rule decisions"; the
//! default ruleset is DouZero's (Zha et al., ICML 2021, `douzero` 1.1.0 `MovesGener`).
//! A card set can have several readings: `555666777888` is a trio chain of 4, an
//! airplane of 3 with `888` as single wings (main rank 8) and one with `555` as wings
//! (main rank 7). [`classify`] returns them all; [`default_reading`] picks the one used
//! when a play to beat carries no explicit kind.

use std::fmt;

use super::card::{Cards, MAX_HAND_CARDS, Rank};
use super::error::DouDizhuError;

/// The 14 kinds of play, in the order of the proto `PlayKind` enum (which is also the
/// first key of the stable play order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// One card (单牌).
    Single,
    /// Two cards of a rank (对牌).
    Pair,
    /// Three cards of a rank (三张).
    Trio,
    /// A trio with one single kicker of another rank (三带一).
    TrioWithSingle,
    /// A trio with one pair kicker of another rank (三带二).
    TrioWithPair,
    /// 5..12 consecutive singles within 3..A (单顺).
    Chain,
    /// 3..10 consecutive pairs within 3..A (双顺).
    PairChain,
    /// 2..6 consecutive trios within 3..A (三顺).
    TrioChain,
    /// 2..5 consecutive trios with one single kicker (wing) per trio (飞机带单翅膀).
    AirplaneWithSingles,
    /// 2..4 consecutive trios with one pair kicker per trio, pairwise distinct ranks
    /// (飞机带对翅膀).
    AirplaneWithPairs,
    /// Four of a rank with two single kickers (四带二单).
    FourWithTwoSingles,
    /// Four of a rank with two pair kickers of two different ranks (四带二对).
    FourWithTwoPairs,
    /// Four of a rank (炸弹).
    Bomb,
    /// Both jokers (火箭 / 王炸).
    Rocket,
}

impl Kind {
    /// All kinds in the stable order.
    pub const ALL: [Kind; 14] = [
        Kind::Single,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioWithSingle,
        Kind::TrioWithPair,
        Kind::Chain,
        Kind::PairChain,
        Kind::TrioChain,
        Kind::AirplaneWithSingles,
        Kind::AirplaneWithPairs,
        Kind::FourWithTwoSingles,
        Kind::FourWithTwoPairs,
        Kind::Bomb,
        Kind::Rocket,
    ];

    /// Whether the kind beats every non-bomb play (bomb or rocket).
    pub const fn is_bomb(self) -> bool {
        matches!(self, Kind::Bomb | Kind::Rocket)
    }

    /// DouZero's type number (`douzero.env.move_detector`): 1 single, 2 pair, 3 trio,
    /// 4 bomb, 5 rocket, 6 trio+single, 7 trio+pair, 8 chain, 9 pair chain, 10 trio
    /// chain, 11 airplane+singles, 12 airplane+pairs, 13 four+two singles, 14 four+two
    /// pairs.
    pub const fn douzero_type(self) -> u8 {
        match self {
            Kind::Single => 1,
            Kind::Pair => 2,
            Kind::Trio => 3,
            Kind::Bomb => 4,
            Kind::Rocket => 5,
            Kind::TrioWithSingle => 6,
            Kind::TrioWithPair => 7,
            Kind::Chain => 8,
            Kind::PairChain => 9,
            Kind::TrioChain => 10,
            Kind::AirplaneWithSingles => 11,
            Kind::AirplaneWithPairs => 12,
            Kind::FourWithTwoSingles => 13,
            Kind::FourWithTwoPairs => 14,
        }
    }

    /// The field's English name, e.g. "airplane with single wings".
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioWithSingle => "trio with single",
            Kind::TrioWithPair => "trio with pair",
            Kind::Chain => "chain",
            Kind::PairChain => "pair chain",
            Kind::TrioChain => "trio chain",
            Kind::AirplaneWithSingles => "airplane with single wings",
            Kind::AirplaneWithPairs => "airplane with pair wings",
            Kind::FourWithTwoSingles => "four with two singles",
            Kind::FourWithTwoPairs => "four with two pairs",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Rule variants. `Default` is DouZero's ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Whether both jokers together may serve as two single kickers (of a trio-chain
    /// airplane or of four-with-two). DouZero: true; RLCard: false. A single joker is
    /// always a valid single kicker.
    pub rocket_as_kickers: bool,
}

impl Rules {
    /// DouZero's rules (the default).
    pub const DOUZERO: Rules = Rules {
        rocket_as_kickers: true,
    };
    /// RLCard's rules: the rocket may not be split into kickers.
    pub const RLCARD: Rules = Rules {
        rocket_as_kickers: false,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::DOUZERO
    }
}

/// One reading of a card set as a play.
///
/// The derived `Ord` is the stable play order used everywhere: kind (proto enum order),
/// then `len`, then `main`, then `cards` (canonical string order, see [`Cards`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Play {
    /// The kind.
    pub kind: Kind,
    /// Number of consecutive ranks in the main part: 5..12 for a chain, 3..10 for a pair
    /// chain, 2..6 for a trio chain, 2..5 / 2..4 for airplanes with single / pair wings,
    /// 1 for every other kind.
    pub len: u8,
    /// The rank that decides comparison: the rank of a single / pair / trio / four, the
    /// highest rank of a chain or airplane body, `D` for the rocket.
    pub main: Rank,
    /// All cards of the play, kickers included.
    pub cards: Cards,
}

impl Play {
    /// Whether `self`, played on `other`, is legal: same kind and length with a higher
    /// main rank; a bomb beats every non-bomb and a lower bomb; the rocket beats all and
    /// nothing beats it (seed 002 rules list).
    pub fn beats(&self, other: &Play) -> bool {
        match (self.kind, other.kind) {
            (_, Kind::Rocket) => false,
            (Kind::Rocket, _) => true,
            (Kind::Bomb, Kind::Bomb) => self.main > other.main,
            (Kind::Bomb, _) => true,
            (_, Kind::Bomb) => false,
            (a, b) => a == b && self.len == other.len && self.main > other.main,
        }
    }

    /// Number of cards in the play.
    pub fn card_count(&self) -> usize {
        self.cards.len()
    }

    /// Reads `cards` as a play: with `kind`, the reading of that kind (the highest main
    /// rank if several); without, [`default_reading`]. Errors:
    /// [`DouDizhuError::NotAPlay`] when no reading exists,
    /// [`DouDizhuError::NotAReading`] when none has kind `kind`.
    pub fn read(cards: &Cards, kind: Option<Kind>, rules: &Rules) -> Result<Play, DouDizhuError> {
        let readings = classify(cards, rules);
        if readings.is_empty() {
            return Err(DouDizhuError::NotAPlay { cards: *cards });
        }
        match kind {
            None => Ok(default_reading(&readings).expect("readings are not empty")),
            Some(kind) => readings
                .iter()
                .rev()
                .find(|p| p.kind == kind)
                .copied()
                .ok_or(DouDizhuError::NotAReading {
                    cards: *cards,
                    kind,
                }),
        }
    }
}

impl fmt::Display for Play {
    /// E.g. `33344456 (airplane with single wings, main 4, len 2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, main {}, len {})",
            self.cards, self.kind, self.main, self.len
        )
    }
}

/// The reading used for a play to beat that carries no explicit kind, as DouZero reads
/// it: a trio chain before an airplane; otherwise the longest reading, then the one with
/// the highest main rank (so `3334445556667778` is the airplane of 4 ending in 7).
/// `None` for no readings. Move generation reports this same reading for each play.
pub fn default_reading(readings: &[Play]) -> Option<Play> {
    readings
        .iter()
        .find(|p| p.kind == Kind::TrioChain)
        .or_else(|| readings.iter().max_by_key(|p| (p.len, p.main)))
        .copied()
}

/// Every reading of `cards` as a play under `rules`, in the stable play order (kind,
/// len, main rank). Empty when the cards are no legal play (including the empty set and
/// anything over 20 cards). Works on counts only; at most a handful of readings.
pub fn classify(cards: &Cards, rules: &Rules) -> Vec<Play> {
    let mut out = Vec::new();
    for_each_reading(cards, rules, |p| out.push(p));
    out
}

/// Whether `rank` range `lo..=hi` has exactly `n` cards of every rank.
fn window_is(c: &[u8; Rank::COUNT], lo: usize, hi: usize, n: u8) -> bool {
    c[lo..=hi].iter().all(|&k| k == n)
}

/// Visits every reading of `cards` in the stable order without allocating.
pub fn for_each_reading(cards: &Cards, rules: &Rules, mut visit: impl FnMut(Play)) {
    let c = cards.counts();
    let n = cards.len();
    if n == 0 || n > MAX_HAND_CARDS {
        return;
    }
    let mut play = |kind: Kind, len: usize, main: usize| {
        visit(Play {
            kind,
            len: len as u8,
            main: Rank::ALL[main],
            cards: *cards,
        })
    };
    // Ranks present, their span, and the rank holding 3 / 4 cards if any.
    let lo = c.iter().position(|&k| k > 0).expect("n > 0");
    let hi = c.iter().rposition(|&k| k > 0).expect("n > 0");
    let distinct = c.iter().filter(|&&k| k > 0).count();
    let trio = c.iter().position(|&k| k == 3);
    let four = c.iter().position(|&k| k == 4);
    let rocket_ok = |rest_has_rocket: bool| rules.rocket_as_kickers || !rest_has_rocket;
    let chainable_run =
        |per: u8| hi <= Rank::ACE.index() && hi + 1 - lo == distinct && window_is(c, lo, hi, per);

    if n == 1 {
        play(Kind::Single, 1, lo);
    }
    if n == 2 && distinct == 1 {
        play(Kind::Pair, 1, lo);
    }
    if n == 3 && distinct == 1 {
        play(Kind::Trio, 1, lo);
    }
    if n == 4
        && distinct == 2
        && let Some(t) = trio
    {
        play(Kind::TrioWithSingle, 1, t);
    }
    if n == 5
        && distinct == 2
        && let Some(t) = trio
    {
        play(Kind::TrioWithPair, 1, t);
    }
    if (5..=12).contains(&n) && chainable_run(1) {
        play(Kind::Chain, n, hi);
    }
    if n >= 6 && n.is_multiple_of(2) && n / 2 >= 3 && chainable_run(2) {
        play(Kind::PairChain, n / 2, hi);
    }
    if n >= 6 && n.is_multiple_of(3) && chainable_run(3) {
        play(Kind::TrioChain, n / 3, hi);
    }
    if n.is_multiple_of(4) && (2..=5).contains(&(n / 4)) {
        let len = n / 4;
        for top in len - 1..=Rank::ACE.index() {
            let bottom = top + 1 - len;
            if !window_is(c, bottom, top, 3) {
                continue;
            }
            // Wings: everything outside the body (none inside, as the body has
            // exactly 3 of each of its ranks).
            let wings_rocket = cards.has_rocket();
            if rocket_ok(wings_rocket) {
                play(Kind::AirplaneWithSingles, len, top);
            }
        }
    }
    if n.is_multiple_of(5) && (2..=4).contains(&(n / 5)) {
        let len = n / 5;
        for top in len - 1..=Rank::ACE.index() {
            let bottom = top + 1 - len;
            if !window_is(c, bottom, top, 3) {
                continue;
            }
            let wings_are_pairs = c
                .iter()
                .enumerate()
                .all(|(r, &k)| (bottom..=top).contains(&r) || k == 0 || k == 2);
            if wings_are_pairs {
                play(Kind::AirplaneWithPairs, len, top);
            }
        }
    }
    if n == 6
        && let Some(f) = four
        && rocket_ok(cards.has_rocket())
    {
        play(Kind::FourWithTwoSingles, 1, f);
    }
    if n == 8
        && distinct == 3
        && let Some(f) = four
        && c.iter()
            .enumerate()
            .all(|(r, &k)| r == f || k == 0 || k == 2)
    {
        play(Kind::FourWithTwoPairs, 1, f);
    }
    if n == 4 && distinct == 1 {
        play(Kind::Bomb, 1, lo);
    }
    if n == 2 && cards.has_rocket() {
        play(Kind::Rocket, 1, Rank::BIG_JOKER.index());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readings(s: &str) -> Vec<String> {
        classify(&s.parse().unwrap(), &Rules::default())
            .iter()
            .map(|p| format!("{} {} {}", p.kind, p.len, p.main))
            .collect()
    }

    #[test]
    fn simple_kinds() {
        assert_eq!(readings("5"), ["single 1 5"]);
        assert_eq!(readings("XD"), ["rocket 1 D"]);
        assert_eq!(readings("3334"), ["trio with single 1 3"]);
        assert_eq!(readings("34567"), ["chain 5 7"]);
        assert_eq!(readings("334455"), ["pair chain 3 5"]);
        assert_eq!(readings("444455"), ["four with two singles 1 4"]);
        assert_eq!(readings("44445566"), ["four with two pairs 1 4"]);
        assert!(readings("33334").is_empty());
    }

    #[test]
    fn ambiguous_trio_chain() {
        // Hand-worked: 555666777888 is a trio chain of 4 and two airplanes of 3.
        assert_eq!(
            readings("555666777888"),
            [
                "trio chain 4 8",
                "airplane with single wings 3 7",
                "airplane with single wings 3 8"
            ]
        );
    }
}
