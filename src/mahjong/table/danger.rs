//! P(a tile is a winning tile of a tenpai opponent): the wait shapes that could win on
//! it, each weighted ([`super::weights::WaitWeights`]) and scaled by how many copies of
//! its other tiles the player cannot see, less those the opponent is furiten on.
//!
//! For a number tile `t` of rank r: ryanmen (r+1, r+2) also waiting on r+3 and ryanmen
//! (r-2, r-1) also waiting on r-3 (each gone when that other wait is genbutsu: suji);
//! kanchan (r-1, r+1); penchan (1, 2) for a 3 and (8, 9) for a 7; shanpon on t (the
//! opponent holding two of the copies the player cannot see, weighted C(u, 2) / 3 with
//! u of them, at most 3); tanki on t (one unseen copy at least). Honours: shanpon and
//! tanki only. A shape needs its tiles: each is weighted min(u, 3) / 3 by the unseen
//! copies u of the tile (kabe: 0 when all four are visible, no-chance). A genbutsu
//! tile is 0. Then the table's modifiers: near the riichi declaration tile (matagi),
//! near an early discard from the hand (soto), an open hand's flush suit.

use crate::mahjong::tile::{KINDS, Tile};

use super::state::{Opponent, Seat, Table};
use super::weights::DangerWeights;

/// What the danger of every tile against one opponent depends on.
#[derive(Debug, Clone)]
pub struct OpponentView {
    /// Furiten kinds ([`super::safety::safe_tiles`]).
    pub safe: [bool; KINDS],
    /// The opponent's riichi declaration tile.
    pub riichi_tile: Option<Tile>,
    /// Tiles it threw from its hand early.
    pub early: Vec<Tile>,
    /// The suit of its flush (two or more melds, all in one suit or honours).
    pub flush_suit: Option<crate::mahjong::Suit>,
}

impl OpponentView {
    pub fn new(table: &Table, seat: Seat, w: &DangerWeights) -> OpponentView {
        let o = table.opponent(seat);
        OpponentView {
            safe: super::safety::safe_tiles(table, seat),
            riichi_tile: o.riichi_index().map(|k| o.river[k].tile),
            early: o
                .river
                .iter()
                .take(w.modifiers.early_discards)
                .filter(|d| !d.tsumogiri)
                .map(|d| d.tile)
                .collect(),
            flush_suit: flush_suit(o),
        }
    }
}

fn flush_suit(o: &Opponent) -> Option<crate::mahjong::Suit> {
    let open: Vec<_> = o.melds.iter().filter(|m| m.is_open()).collect();
    if open.len() < 2 {
        return None;
    }
    let mut suits = open
        .iter()
        .map(|m| m.meld.tile())
        .filter(|t| !t.is_honour())
        .map(|t| t.suit());
    let first = suits.next()?;
    suits.all(|s| s == first).then_some(first)
}

/// How much of a shape's weight its tile of `u` unseen copies allows.
fn availability(u: u8) -> f64 {
    f64::from(u.min(3)) / 3.0
}

/// P(`tile` wins for a tenpai opponent seen through `view`), with `unseen[k]` the copies
/// of kind k the player cannot see (its own hand counted as seen).
pub fn wait_probability(
    tile: Tile,
    view: &OpponentView,
    unseen: &[u8; KINDS],
    w: &DangerWeights,
) -> f64 {
    let x = tile.index();
    if view.safe[x] {
        return 0.0;
    }
    let ww = &w.wait;
    let u = unseen[x].min(3);
    let pairs = f64::from(u * u.saturating_sub(1) / 2) / 3.0;
    if tile.is_honour() {
        let tanki = if u > 0 { ww.tanki_honour } else { 0.0 };
        return (ww.shanpon * pairs + tanki).min(1.0);
    }
    let r = tile.rank() as usize;
    let at = |rank: usize| x + rank - r;
    let avail = |ranks: &[usize]| {
        ranks
            .iter()
            .map(|&k| availability(unseen[at(k)]))
            .product::<f64>()
    };
    let mut p = ww.shanpon * pairs + if u > 0 { ww.tanki_number } else { 0.0 };
    if r <= 6 && !view.safe[at(r + 3)] {
        p += ww.ryanmen * avail(&[r + 1, r + 2]);
    }
    if r >= 4 && !view.safe[at(r - 3)] {
        p += ww.ryanmen * avail(&[r - 2, r - 1]);
    }
    if (2..=8).contains(&r) {
        p += ww.kanchan * avail(&[r - 1, r + 1]);
    }
    if r == 3 {
        p += ww.penchan * avail(&[1, 2]);
    }
    if r == 7 {
        p += ww.penchan * avail(&[8, 9]);
    }
    (p * modifier(tile, view, w)).min(1.0)
}

/// The mean of [`wait_probability`] over the tiles the player cannot see, each kind
/// weighted by its unseen copies: the danger of a tile still to be drawn (what a player
/// who pushes throws, or a hand tile as dangerous). 0 when nothing is unseen.
pub fn mean_wait_probability(view: &OpponentView, unseen: &[u8; KINDS], w: &DangerWeights) -> f64 {
    let copies: u32 = unseen.iter().map(|&u| u32::from(u)).sum();
    if copies == 0 {
        return 0.0;
    }
    let total: f64 = (0..KINDS)
        .filter(|&k| unseen[k] > 0)
        .map(|k| f64::from(unseen[k]) * wait_probability(Tile(k as u8), view, unseen, w))
        .sum();
    total / f64::from(copies)
}

fn modifier(tile: Tile, view: &OpponentView, w: &DangerWeights) -> f64 {
    let m = &w.modifiers;
    let near = |other: Tile| {
        other.suit() == tile.suit()
            && other != tile
            && (other.rank() as i32 - tile.rank() as i32).abs() <= 2
    };
    let mut f = 1.0;
    if view.riichi_tile.is_some_and(near) {
        f *= m.riichi_matagi;
    }
    if view.early.iter().any(|&e| near(e)) {
        f *= m.early_near;
    }
    if let Some(suit) = view.flush_suit {
        f *= if tile.suit() == suit {
            m.flush_suit
        } else {
            m.flush_other
        };
    }
    f
}

#[cfg(test)]
mod tests {
    //! Hand-worked cases against the priors (the first version of the weights file,
    //! kept here so that the cases do not move when the shipped file is refitted):
    //! ryanmen 0.04, kanchan 0.02, penchan 0.015, shanpon 0.025 (three unseen copies),
    //! tanki 0.005 (numbers) / 0.02 (honours), matagi 1.3.
    use super::*;
    use crate::mahjong::table::state::{Discard, Opponent};
    use crate::mahjong::tile::TileCounts;

    fn weights() -> DangerWeights {
        serde_json::from_str(
            r#"{"version": 1, "source": "priors",
            "wait": {"ryanmen": 0.04, "kanchan": 0.02, "penchan": 0.015, "shanpon": 0.025,
                     "tanki_number": 0.005, "tanki_honour": 0.02},
            "modifiers": {"riichi_matagi": 1.3, "early_near": 0.8, "early_discards": 6,
                          "flush_suit": 1.6, "flush_other": 0.4},
            "tenpai": {"intercept": -4.0, "per_discard": 0.22, "per_open_meld": 0.9,
                       "per_tsumogiri_streak": 0.15},
            "value": {"riichi": 6400, "closed": 5000, "open": 3800, "per_dora_shown": 1600,
                      "dealer_factor": 1.5, "per_honba": 300},
            "push": {"threat_win_per_turn": 0.1, "tsumo_share": 0.15,
                     "riichi_bonus_han": 1.7, "ron_factor": 0.8, "win_cap": 0.9}}"#,
        )
        .unwrap()
    }

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn river(tiles: &[&str]) -> Vec<Discard> {
        Discard::river(tiles, true)
    }

    /// A table where the opponent across declared riichi with its last discard
    /// (`declared`), after `before`.
    fn riichi_across(before: &[&str], declared: &str) -> Table {
        let mut across = Opponent {
            riichi: true,
            river: river(before),
            ..Default::default()
        };
        let mut d = river(&[declared]);
        d[0].riichi = true;
        across.river.extend(d);
        Table {
            round_wind: t("1z"),
            seat_wind: t("1z"),
            honba: 0,
            riichi_sticks: 1,
            score: 25_000,
            dora_indicators: vec![],
            dora_red: Default::default(),
            live_wall: 50,
            river: vec![],
            opponents: vec![Opponent::default(), across, Opponent::default()],
            after_call: false,
        }
    }

    /// Unseen copies with `seen` (mpsz) visible or held; the tile rated is held once.
    fn unseen(seen: &str) -> [u8; KINDS] {
        let seen: TileCounts = seen.parse().unwrap();
        let mut u = [4u8; KINDS];
        for (i, c) in seen.0.iter().enumerate() {
            u[i] -= c;
        }
        u
    }

    fn danger(table: &Table, tile: &str, seen: &str) -> f64 {
        let w = weights();
        let view = OpponentView::new(table, Seat::Across, &w);
        wait_probability(t(tile), &view, &unseen(seen), &w)
    }

    #[test]
    fn genbutsu_is_zero() {
        // Across threw 5p itself: it is furiten on 5p.
        let table = riichi_across(&["5p", "1z"], "9m");
        assert_eq!(danger(&table, "5p", "5p"), 0.0);
    }

    #[test]
    fn a_tile_passed_after_riichi_is_zero() {
        // Across declared with its 2nd discard and threw one more; the left-hand
        // player played after it twice (m + 1 = 2): its last two discards are
        // riichi-furiten for across, the one before them is not.
        let mut table = riichi_across(&["1z"], "9m");
        table.opponents[1].river.extend(river(&["2z"]));
        table.opponents[2].river = river(&["3p", "4s", "6m"]);
        assert_eq!(danger(&table, "4s", "4s"), 0.0);
        assert_eq!(danger(&table, "6m", "6m"), 0.0);
        assert!(danger(&table, "3p", "3p") > 0.0);
    }

    #[test]
    fn suji_is_safer_than_no_suji_against_riichi() {
        let table = riichi_across(&["2p", "1z"], "9m");
        // 6p, no suji, nothing else visible: two ryanmen (4-5, 7-8) 0.08, kanchan 5-7
        // 0.02, shanpon 0.025, tanki 0.005 = 0.13 (Tenhou's ~12-13 % for a no-suji
        // middle tile against riichi).
        assert!((danger(&table, "6p", "6p") - 0.13).abs() < 1e-9);
        // 5p, half suji (2p thrown: the 3-4 ryanmen waiting 2-5 is furiten): 0.04 +
        // 0.02 + 0.025 + 0.005 = 0.09.
        assert!((danger(&table, "5p", "5p") - 0.09).abs() < 1e-9);
        // Both sides: 2p and 8p thrown leave 5p only kanchan, shanpon, tanki: 0.05.
        let both = riichi_across(&["2p", "8p"], "9m");
        assert!((danger(&both, "5p", "5p") - 0.05).abs() < 1e-9);
    }

    #[test]
    fn no_chance_and_the_last_honour() {
        let table = riichi_across(&["1z", "2z"], "3z");
        // 9p: ryanmen 7-8 (0.04) + shanpon + tanki (0.03) = 0.07 ...
        assert!((danger(&table, "9p", "9p") - 0.07).abs() < 1e-9);
        // ... but with all four 8p visible no 7-8 shape exists (no-chance): 0.03.
        assert!((danger(&table, "9p", "8888p9p") - 0.03).abs() < 1e-9);
        // The fourth 6z (three visible, the player holds the last): no wait at all.
        assert_eq!(danger(&table, "6z", "6666z"), 0.0);
        // A 6z none visible: shanpon 0.025 + tanki 0.02 = 0.045; two visible: tanki
        // only, 0.02.
        assert!((danger(&table, "6z", "6z") - 0.045).abs() < 1e-9);
        assert!((danger(&table, "6z", "666z") - 0.02).abs() < 1e-9);
    }

    #[test]
    fn matagi_of_the_declaration_tile_is_more_dangerous() {
        // Declared with 5s: 4s (no suji) is 0.04 + 0.04 + 0.02 + 0.03 = 0.13 times 1.3.
        let table = riichi_across(&["1z", "2z"], "5s");
        assert!((danger(&table, "4s", "4s") - 0.13 * 1.3).abs() < 1e-9);
    }

    #[test]
    fn the_mean_danger_weights_each_unseen_copy() {
        // Only 1z (three copies) and 5m (one copy) unseen, nothing genbutsu. 1z: shanpon
        // 0.025 x C(3,2)/3 = 0.025, tanki 0.02: 0.045. 5m: one copy, so no shanpon; its
        // neighbours all seen, so no ryanmen or kanchan; tanki 0.005. The mean over the
        // four unseen copies: (3 x 0.045 + 0.005) / 4 = 0.035.
        let w = weights();
        let view = OpponentView {
            safe: [false; KINDS],
            riichi_tile: None,
            early: vec![],
            flush_suit: None,
        };
        let mut u = [0u8; KINDS];
        u[t("1z").index()] = 3;
        u[t("5m").index()] = 1;
        let mean = mean_wait_probability(&view, &u, &w);
        assert!((mean - 0.035).abs() < 1e-12, "{mean}");
        assert_eq!(mean_wait_probability(&view, &[0; KINDS], &w), 0.0);
    }
}
