//! Riichi hand scoring: whether a complete hand may win, and what it is worth.
//!
//! The rules are those of the riichienv simulator's Tenhou preset, which are Tenhou's
//! (DESIGN.md "Rule decisions"): a win needs at least one yaku (dora are not yaku);
//! open tanyao (kuitan) counts; three red fives are dora; no kiriage mangan (4 han 30 fu
//! and 3 han 60 fu stay 7,700 / 11,600 for a non-dealer); no double yakuman for the
//! "pure" forms (a thirteen-wait thirteen orphans, a single-wait four concealed
//! triplets, a nine-wait nine gates and big four winds are each one yakuman), but
//! different yakuman stack; 13 han or more without a yakuman is a counted (kazoe)
//! yakuman; no renhou, no local yaku. Where these choices matter the tests cite the
//! rule, and `tools/mahjong/score_oracle.py` checks the whole pipeline against PyPI
//! `mahjong`'s `HandCalculator` set to the same options.
//!
//! Scoring is a pipeline of named stages, one file each, in the order a player counts:
//! - [`input`]: the winning hand and its situation (winds, riichi, self-draw, the rarer
//!   flags, dora indicators, red fives), validated once;
//! - [`split`]: every reading of the hand — each way to split the concealed tiles into
//!   sets and a pair, with each place the winning tile can sit (which fixes the wait and
//!   whether a triplet completed on a discard is open), seven pairs, thirteen orphans;
//! - [`yaku`]: the yaku of one reading, one condition per yaku;
//! - [`fu`]: the minipoints of one reading;
//! - [`dora`]: dora from the indicators, red fives, ura dora under riichi;
//! - [`payment`]: han and fu to the basic points, the limits, and who pays what.
//!
//! [`score`] values every reading and keeps the one worth most (then the one with a
//! yakuman, then most han, then most fu): a hand is always scored in its most valuable
//! interpretation, and a hand that is a yakuman is that yakuman, not a counted yakuman
//! of the same value (`03344455666777s` self-drawn is four concealed triplets, not 14
//! han of chinitsu, tanyao, iipeikou, riichi, tsumo and dora).

pub mod dora;
pub mod fu;
pub mod input;
pub mod payment;
pub mod split;
pub mod yaku;

pub use input::{ScoreError, ScoreField, WinFlags, WinInput};
pub use payment::{Limit, Payment};
pub use split::{Reading, Wait};
pub use yaku::Yaku;

/// Why a complete-looking request cannot be a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoWin {
    /// The tiles (with the melds) form no winning hand: not four sets and a pair, seven
    /// distinct pairs or thirteen orphans.
    NotComplete,
    /// The hand is complete but has no yaku (dora are not yaku).
    NoYaku,
}

impl NoWin {
    /// A one-line reason for a caller.
    pub fn reason(self) -> &'static str {
        match self {
            NoWin::NotComplete => {
                "the tiles do not form a winning hand (four sets and a pair, seven distinct \
                 pairs or thirteen orphans)"
            }
            NoWin::NoYaku => "the hand is complete but has no yaku (dora are not yaku)",
        }
    }
}

/// A scored win: the reading kept, its yaku, han, fu, dora and payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Score {
    /// The reading of the hand the score is for.
    pub reading: Reading,
    /// Each yaku with its han (13 per yakuman); dora are not listed here.
    pub yaku: Vec<(Yaku, u8)>,
    /// Dora from the indicators (0 for a yakuman hand).
    pub dora: u8,
    /// Red fives (0 for a yakuman hand).
    pub red_dora: u8,
    /// Ura dora, counted only under riichi (0 for a yakuman hand).
    pub ura_dora: u8,
    /// Total han: yaku plus dora (13 per yakuman for yakuman hands).
    pub han: u8,
    /// Fu, rounded up to 10 (25 for seven pairs, 0 for thirteen orphans); yakuman hands
    /// carry theirs too, though it does not change their value.
    pub fu: u8,
    /// The limit reached, if any.
    pub limit: Limit,
    /// Who pays what, before honba and riichi sticks.
    pub payment: Payment,
}

impl Score {
    /// What the winner receives, before honba and riichi sticks.
    pub fn points(&self) -> u32 {
        self.payment.total()
    }

    /// The number of yakuman (0 for a hand without one).
    pub fn yakuman(&self) -> u8 {
        self.yaku.iter().filter(|(y, _)| y.is_yakuman()).count() as u8
    }
}

/// Scores a validated winning hand: its best reading, or why it cannot win.
pub fn score(input: &WinInput) -> Result<Score, NoWin> {
    let readings = split::readings(input);
    if readings.is_empty() {
        return Err(NoWin::NotComplete);
    }
    readings
        .into_iter()
        .filter_map(|reading| score_reading(input, reading))
        .max_by_key(|s| (s.points(), s.yakuman(), s.han, s.fu))
        .ok_or(NoWin::NoYaku)
}

/// Values one reading: its yaku, then (unless a yakuman) dora and fu, then the payment.
/// `None` when the reading has no yaku.
fn score_reading(input: &WinInput, reading: Reading) -> Option<Score> {
    let yaku = yaku::yaku(input, &reading);
    if yaku.is_empty() {
        return None;
    }
    let yaku_han: u32 = yaku.iter().map(|&(_, h)| u32::from(h)).sum();
    let is_yakuman = yaku.iter().any(|(y, _)| y.is_yakuman());
    let fu = fu::fu(input, &reading);
    let (dora, red_dora, ura_dora) = if is_yakuman {
        (0, 0, 0)
    } else {
        let counts = dora::count(input);
        (counts.dora, counts.red, counts.ura)
    };
    let han = (yaku_han + u32::from(dora) + u32::from(red_dora) + u32::from(ura_dora))
        .min(u32::from(u8::MAX)) as u8;
    let (limit, payment) = payment::pay(
        han,
        fu,
        is_yakuman,
        input.is_dealer(),
        input.flags.self_draw,
    );
    Some(Score {
        reading,
        yaku,
        dora,
        red_dora,
        ura_dora,
        han,
        fu,
        limit,
        payment,
    })
}
