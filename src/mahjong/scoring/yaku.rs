//! The yaku of one reading: one condition per yaku, with its han closed and open.
//!
//! Tenhou's list (no local yaku, no renhou). A yakuman hand keeps only its yakuman (13
//! han each, stacking); otherwise every yaku that holds is counted. Sources: the rules
//! of the Japanese Professional Mahjong League as Tenhou applies them; the values are
//! the usual table (e.g. chinitsu 6 han closed, 5 open).

use super::input::{WinInput, is_dragon, is_wind};
use super::split::{Reading, Set, SetKind, Wait};
use crate::mahjong::tile::{Suit, Tile, TileCounts};

/// A yaku (役).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Yaku {
    Riichi,
    DoubleRiichi,
    Ippatsu,
    MenzenTsumo,
    Pinfu,
    Iipeikou,
    Tanyao,
    YakuhaiHaku,
    YakuhaiHatsu,
    YakuhaiChun,
    SeatWind,
    RoundWind,
    Haitei,
    Houtei,
    Rinshan,
    Chankan,
    Chiitoitsu,
    SanshokuDoujun,
    Ittsu,
    Chanta,
    Toitoi,
    Sanankou,
    SanshokuDoukou,
    Sankantsu,
    Shousangen,
    Honroutou,
    Ryanpeikou,
    Junchan,
    Honitsu,
    Chinitsu,
    KokushiMusou,
    Suuankou,
    Daisangen,
    Shousuushii,
    Daisuushii,
    Tsuuiisou,
    Ryuuiisou,
    Chinroutou,
    ChuurenPoutou,
    Suukantsu,
    Tenhou,
    Chiihou,
}

impl Yaku {
    /// The romanised name, lower case with underscores (`menzen_tsumo`).
    pub fn name(self) -> &'static str {
        use Yaku::*;
        match self {
            Riichi => "riichi",
            DoubleRiichi => "double_riichi",
            Ippatsu => "ippatsu",
            MenzenTsumo => "menzen_tsumo",
            Pinfu => "pinfu",
            Iipeikou => "iipeikou",
            Tanyao => "tanyao",
            YakuhaiHaku => "yakuhai_haku",
            YakuhaiHatsu => "yakuhai_hatsu",
            YakuhaiChun => "yakuhai_chun",
            SeatWind => "seat_wind",
            RoundWind => "round_wind",
            Haitei => "haitei",
            Houtei => "houtei",
            Rinshan => "rinshan",
            Chankan => "chankan",
            Chiitoitsu => "chiitoitsu",
            SanshokuDoujun => "sanshoku_doujun",
            Ittsu => "ittsu",
            Chanta => "chanta",
            Toitoi => "toitoi",
            Sanankou => "sanankou",
            SanshokuDoukou => "sanshoku_doukou",
            Sankantsu => "sankantsu",
            Shousangen => "shousangen",
            Honroutou => "honroutou",
            Ryanpeikou => "ryanpeikou",
            Junchan => "junchan",
            Honitsu => "honitsu",
            Chinitsu => "chinitsu",
            KokushiMusou => "kokushi_musou",
            Suuankou => "suuankou",
            Daisangen => "daisangen",
            Shousuushii => "shousuushii",
            Daisuushii => "daisuushii",
            Tsuuiisou => "tsuuiisou",
            Ryuuiisou => "ryuuiisou",
            Chinroutou => "chinroutou",
            ChuurenPoutou => "chuuren_poutou",
            Suukantsu => "suukantsu",
            Tenhou => "tenhou",
            Chiihou => "chiihou",
        }
    }

    /// A yakuman (13 han, stacking with other yakuman only).
    pub fn is_yakuman(self) -> bool {
        self >= Yaku::KokushiMusou
    }

    /// Han with a closed hand and with an open one (`None`: closed only).
    pub fn han(self) -> (u8, Option<u8>) {
        use Yaku::*;
        match self {
            Riichi | Ippatsu | MenzenTsumo | Pinfu | Iipeikou => (1, None),
            DoubleRiichi | Chiitoitsu => (2, None),
            Ryanpeikou => (3, None),
            Tanyao | YakuhaiHaku | YakuhaiHatsu | YakuhaiChun | SeatWind | RoundWind | Haitei
            | Houtei | Rinshan | Chankan => (1, Some(1)),
            SanshokuDoujun | Ittsu | Chanta => (2, Some(1)),
            Toitoi | Sanankou | SanshokuDoukou | Sankantsu | Shousangen | Honroutou => (2, Some(2)),
            Junchan | Honitsu => (3, Some(2)),
            Chinitsu => (6, Some(5)),
            _ => (13, Some(13)),
        }
    }
}

/// The yaku of a reading with their han; only yakuman when there is one.
pub fn yaku(input: &WinInput, reading: &Reading) -> Vec<(Yaku, u8)> {
    let closed = input.is_closed();
    let with_han = |list: Vec<Yaku>| -> Vec<(Yaku, u8)> {
        list.into_iter()
            .filter_map(|y| {
                let (c, o) = y.han();
                if closed { Some(c) } else { o }.map(|h| (y, h))
            })
            .collect()
    };
    let yakuman = yakuman(input, reading);
    if !yakuman.is_empty() {
        return with_han(yakuman);
    }
    let mut list = situational(input);
    list.extend(shape_yaku(input, reading));
    with_han(list)
}

/// Yaku of how the hand was won, whatever its shape.
fn situational(input: &WinInput) -> Vec<Yaku> {
    let f = &input.flags;
    let mut out = Vec::new();
    if f.double_riichi {
        out.push(Yaku::DoubleRiichi);
    } else if f.riichi {
        out.push(Yaku::Riichi);
    }
    let checks = [
        (f.ippatsu, Yaku::Ippatsu),
        (f.self_draw && input.is_closed(), Yaku::MenzenTsumo),
        (f.haitei, Yaku::Haitei),
        (f.houtei, Yaku::Houtei),
        (f.rinshan, Yaku::Rinshan),
        (f.chankan, Yaku::Chankan),
    ];
    out.extend(checks.iter().filter(|(ok, _)| *ok).map(|&(_, y)| y));
    out
}

/// Yaku of the tiles and their reading.
fn shape_yaku(input: &WinInput, reading: &Reading) -> Vec<Yaku> {
    let all = input.all_tiles();
    let mut out = Vec::new();
    if all.kinds().all(|t| !t.is_terminal_or_honour()) {
        out.push(Yaku::Tanyao);
    }
    out.extend(flush(&all));
    match reading {
        Reading::SevenPairs { .. } => {
            out.push(Yaku::Chiitoitsu);
            if all.kinds().all(Tile::is_terminal_or_honour) {
                out.push(Yaku::Honroutou);
            }
        }
        Reading::Regular { sets, pair, wait } => {
            out.extend(regular_yaku(input, &all, sets, *pair, *wait));
        }
        Reading::ThirteenOrphans { .. } => {}
    }
    out
}

/// Honitsu (one suit and honours) or chinitsu (one suit only).
fn flush(all: &TileCounts) -> Option<Yaku> {
    let suits: Vec<Suit> = [Suit::Man, Suit::Pin, Suit::Sou]
        .into_iter()
        .filter(|&s| all.kinds().any(|t| t.suit() == s))
        .collect();
    let honours = all.kinds().any(Tile::is_honour);
    match (suits.len(), honours) {
        (1, false) => Some(Yaku::Chinitsu),
        (1, true) => Some(Yaku::Honitsu),
        _ => None,
    }
}

/// Pinfu's condition: a closed hand of four sequences, a pair of no value and a
/// two-sided wait. Fu reads it too (a pinfu self-draw is 20 fu), also under a yakuman,
/// whose fu has no value but picks among equal readings as the oracle does.
pub fn pinfu_shape(input: &WinInput, sets: &[Set], pair: Tile, wait: Wait) -> bool {
    input.is_closed()
        && sets.iter().all(|s| s.kind == SetKind::Sequence)
        && wait == Wait::Ryanmen
        && !is_value_pair(input, pair)
}

/// The yaku of four sets and a pair.
fn regular_yaku(
    input: &WinInput,
    all: &TileCounts,
    sets: &[Set],
    pair: Tile,
    wait: Wait,
) -> Vec<Yaku> {
    let mut out = Vec::new();
    let closed = input.is_closed();
    let sequences: Vec<Tile> = sets
        .iter()
        .filter(|s| s.kind == SetKind::Sequence)
        .map(|s| s.tile)
        .collect();
    let triplets: Vec<Tile> = sets
        .iter()
        .filter(|s| s.is_triplet_like())
        .map(|s| s.tile)
        .collect();
    let concealed_triplets = sets
        .iter()
        .filter(|s| s.is_triplet_like() && s.concealed)
        .count();
    let quads = sets.iter().filter(|s| s.kind == SetKind::Quad).count();

    if pinfu_shape(input, sets, pair, wait) {
        out.push(Yaku::Pinfu);
    }
    if closed {
        match identical_sequence_pairs(&sequences) {
            2 => out.push(Yaku::Ryanpeikou),
            1 => out.push(Yaku::Iipeikou),
            _ => {}
        }
    }
    out.extend(value_triplets(input, &triplets));
    if three_colours(&sequences) {
        out.push(Yaku::SanshokuDoujun);
    }
    if straight(&sequences) {
        out.push(Yaku::Ittsu);
    }
    out.extend(outside_hand(sets, pair));
    if triplets.len() == 4 {
        out.push(Yaku::Toitoi);
    }
    if concealed_triplets == 3 {
        out.push(Yaku::Sanankou);
    }
    if three_colours(&triplets) {
        out.push(Yaku::SanshokuDoukou);
    }
    if quads == 3 {
        out.push(Yaku::Sankantsu);
    }
    if triplets.iter().filter(|&&t| is_dragon(t)).count() == 2 && is_dragon(pair) {
        out.push(Yaku::Shousangen);
    }
    if all.kinds().all(Tile::is_terminal_or_honour) {
        out.push(Yaku::Honroutou);
    }
    out
}

/// A pair that gives fu and breaks pinfu: a dragon, the seat wind or the round wind.
pub fn is_value_pair(input: &WinInput, pair: Tile) -> bool {
    is_dragon(pair) || pair == input.seat_wind || pair == input.round_wind
}

/// Pairs of identical sequences: 1 for iipeikou, 2 for ryanpeikou.
fn identical_sequence_pairs(sequences: &[Tile]) -> usize {
    let mut sorted = sequences.to_vec();
    sorted.sort();
    let mut pairs = 0;
    let mut i = 0;
    while i + 1 < sorted.len() {
        if sorted[i] == sorted[i + 1] {
            pairs += 1;
            i += 2;
        } else {
            i += 1;
        }
    }
    pairs
}

/// Yakuhai: a triplet or quad of a dragon, of the seat wind, of the round wind.
fn value_triplets(input: &WinInput, triplets: &[Tile]) -> Vec<Yaku> {
    let mut out = Vec::new();
    for &t in triplets {
        match t.index() {
            31 => out.push(Yaku::YakuhaiHaku),
            32 => out.push(Yaku::YakuhaiHatsu),
            33 => out.push(Yaku::YakuhaiChun),
            _ => {}
        }
        if t == input.seat_wind {
            out.push(Yaku::SeatWind);
        }
        if t == input.round_wind {
            out.push(Yaku::RoundWind);
        }
    }
    out
}

/// The same rank in all three numbered suits (sequences: same start; triplets: same
/// kind).
fn three_colours(lowest: &[Tile]) -> bool {
    (1..=9).any(|rank| {
        [Suit::Man, Suit::Pin, Suit::Sou]
            .into_iter()
            .all(|suit| Tile::new(suit, rank).is_some_and(|t| lowest.contains(&t)))
    })
}

/// 123, 456 and 789 of one suit.
fn straight(sequences: &[Tile]) -> bool {
    [Suit::Man, Suit::Pin, Suit::Sou].into_iter().any(|suit| {
        [1, 4, 7]
            .into_iter()
            .all(|r| Tile::new(suit, r).is_some_and(|t| sequences.contains(&t)))
    })
}

/// Chanta or junchan: every set and the pair hold a terminal or an honour, with at least
/// one sequence (without one the hand is honroutou); junchan when no honour appears.
fn outside_hand(sets: &[Set], pair: Tile) -> Option<Yaku> {
    let every = sets.iter().all(Set::has_terminal_or_honour) && pair.is_terminal_or_honour();
    let any_sequence = sets.iter().any(|s| s.kind == SetKind::Sequence);
    if !every || !any_sequence {
        return None;
    }
    let honour = pair.is_honour() || sets.iter().any(|s| s.tile.is_honour());
    Some(if honour { Yaku::Chanta } else { Yaku::Junchan })
}

/// The yakuman of a reading, situational ones (tenhou, chiihou) included.
fn yakuman(input: &WinInput, reading: &Reading) -> Vec<Yaku> {
    let all = input.all_tiles();
    let mut out = Vec::new();
    if input.flags.tenhou {
        out.push(Yaku::Tenhou);
    }
    if input.flags.chiihou {
        out.push(Yaku::Chiihou);
    }
    if all.kinds().all(Tile::is_honour) {
        out.push(Yaku::Tsuuiisou);
    }
    if all.kinds().all(is_green) {
        out.push(Yaku::Ryuuiisou);
    }
    if all
        .kinds()
        .all(|t| !t.is_honour() && (t.rank() == 1 || t.rank() == 9))
    {
        out.push(Yaku::Chinroutou);
    }
    match reading {
        Reading::ThirteenOrphans { .. } => out.push(Yaku::KokushiMusou),
        Reading::SevenPairs { .. } => {}
        Reading::Regular { sets, pair, .. } => {
            let triplets: Vec<Tile> = sets
                .iter()
                .filter(|s| s.is_triplet_like())
                .map(|s| s.tile)
                .collect();
            let concealed = sets
                .iter()
                .filter(|s| s.is_triplet_like() && s.concealed)
                .count();
            let winds = triplets.iter().filter(|&&t| is_wind(t)).count();
            let dragons = triplets.iter().filter(|&&t| is_dragon(t)).count();
            if concealed == 4 {
                out.push(Yaku::Suuankou);
            }
            if dragons == 3 {
                out.push(Yaku::Daisangen);
            }
            if winds == 4 {
                out.push(Yaku::Daisuushii);
            } else if winds == 3 && is_wind(*pair) {
                out.push(Yaku::Shousuushii);
            }
            if sets.iter().filter(|s| s.kind == SetKind::Quad).count() == 4 {
                out.push(Yaku::Suukantsu);
            }
            if input.melds.is_empty() && nine_gates(&input.concealed) {
                out.push(Yaku::ChuurenPoutou);
            }
        }
    }
    out
}

/// All-green tiles: 2, 3, 4, 6, 8 of sou and the green dragon.
fn is_green(t: Tile) -> bool {
    t.index() == 32 || (t.suit() == Suit::Sou && matches!(t.rank(), 2 | 3 | 4 | 6 | 8))
}

/// Nine gates: one numbered suit holding 1112345678999 and one more of that suit.
fn nine_gates(concealed: &TileCounts) -> bool {
    let Some(first) = concealed.kinds().next() else {
        return false;
    };
    if first.is_honour() || concealed.kinds().any(|t| t.suit() != first.suit()) {
        return false;
    }
    let base = first.suit().first_index();
    const NEED: [u8; 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    (0..9).all(|r| concealed.0[base + r] >= NEED[r])
}
