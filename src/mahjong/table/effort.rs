//! How much the solitaire engine computes for a discard at the table (issue 32's latency
//! goal: p99 <= 100 ms per decision, one call at a time).
//!
//! The table ranks the discards by expected points ([`super::decision`]), where a
//! discard's win probability `W` enters only its own figure, through its push term,
//! which is nondecreasing in `W` (a larger chance of winning is never worth fewer
//! points). So before anything is searched the candidates are rated twice from their
//! shanten alone (microseconds), every `W` at 0 and every `W` at 1:
//!
//! - When no discard keeps the hand tenpai (the riichi decision weighs a tenpai
//!   discard's own chance) and every candidate's figures are the same both times, no
//!   win probability can change a figure or the order: pushing is worth nothing even
//!   for a sure win, and the hand folds. The engine computes no probability: the
//!   candidates say [`Method::NotNeeded`] and come in the shape order (shanten, then
//!   ukeire, [`strategy::discard_by_shape`]), which is the order the table keeps for
//!   discards of equal expected points, where the full computation would keep the win
//!   probabilities' order. Everything else of the answer is the full computation's.
//! - Otherwise the solitaire engine ranks the discards within [`Effort::TABLE`]: a
//!   bounded number of states and paths whatever the deadline, a fraction of a
//!   solitaire request's ([`Effort::FULL`]).
//!
//! Both rely on one property of [`super::decision::advise`]: each figure depends on its
//! own candidate's `W` only, and does not decrease with it.

use std::time::Instant;

use crate::mahjong::Hand;
use crate::mahjong::strategy::{self, DecisionError, DiscardAdvice, Effort, Method};

use super::decision::{Candidate, advise};
use super::state::Table;

/// The solitaire advice a discard at `table` needs (see the module docs): the shape
/// ranking marked [`Method::NotNeeded`] when no win probability can change the table's
/// answer, else the engine's ranking within [`Effort::TABLE`] and `deadline`.
///
/// Errors: those of [`strategy::suggest_discard`].
pub fn discard_at_table(
    hand: &Hand,
    table: &Table,
    deadline: Option<Instant>,
) -> Result<DiscardAdvice, DecisionError> {
    let draws = table.draws_left_after_discard();
    let shape = strategy::discard_by_shape(hand, Some(draws))?;
    if !win_matters(table, hand, &shape) {
        return Ok(not_needed(shape));
    }
    strategy::suggest_discard_within(hand, Some(draws), deadline, &Effort::TABLE)
}

/// Whether some win probability could change the table's figures, order or riichi on
/// the candidates of `shape` (their shanten; their figures are not read).
pub fn win_matters(table: &Table, hand: &Hand, shape: &DiscardAdvice) -> bool {
    if shape.is_winning || shape.candidates.iter().any(|c| c.shanten <= 0) {
        return true;
    }
    // A discard's win probability lies between 0 and its most: 0 when the draws left
    // cannot complete the hand (a hand `s` steps from tenpai needs `s + 1` draws; the
    // engine then answers exactly 0), else 1. This path saves the engine's work where
    // the hand cannot win any more (a far hand late in the hand), and where it folds even
    // with a sure win: a hand in stages (`race::Outlook`) wins nothing in its first
    // `shanten` turns, while its discards deal in from the first.
    let most = |shanten: i8| {
        if i64::from(shape.draws_left) <= i64::from(shanten) {
            0.0
        } else {
            1.0
        }
    };
    let rated = |bound: &dyn Fn(i8) -> f64| {
        let candidates: Vec<Candidate> = shape
            .candidates
            .iter()
            .map(|c| Candidate {
                tile: c.tile,
                win: bound(c.shanten),
                shanten: c.shanten,
                computed: true,
            })
            .collect();
        advise(table, hand, &candidates, shape.draws_left)
    };
    let (never, surely) = (rated(&|_| 0.0), rated(&most));
    never.figures != surely.figures || never.order != surely.order || never.riichi != surely.riichi
}

/// The shape ranking, its candidates marked as not needing figures.
fn not_needed(mut shape: DiscardAdvice) -> DiscardAdvice {
    for c in &mut shape.candidates {
        c.method = Method::NotNeeded;
    }
    shape
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::rules::Ruleset;
    use crate::mahjong::strategy::suggest_discard;
    use crate::mahjong::table::state::{Discard, Opponent};
    use crate::mahjong::tile::Tile;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    fn river(tiles: &[&str]) -> Vec<Discard> {
        Discard::river(tiles, false)
    }

    /// Turn 3 of an East round, the player South (the left-hand player deals), 60 tiles
    /// in the live wall (15 draws); across declared riichi with 8m when `riichi`.
    fn table(riichi: bool) -> Table {
        table_with_wall(riichi, 60)
    }

    /// [`table`] with `live_wall` tiles left in the live wall.
    fn table_with_wall(riichi: bool, live_wall: u32) -> Table {
        let mut across = Opponent {
            score: 24_000,
            river: river(&["9p", "8m"]),
            riichi,
            ..Default::default()
        };
        across.river[1].riichi = riichi;
        Table {
            round_wind: t("1z"),
            seat_wind: t("2z"),
            honba: 0,
            riichi_sticks: u32::from(riichi),
            score: 25_000,
            dora_indicators: vec![t("3s")],
            dora_red: Default::default(),
            live_wall,
            river: river(&["3z", "1s"]),
            opponents: vec![
                Opponent {
                    score: 25_000,
                    river: river(&["7z", "6z"]),
                    ..Default::default()
                },
                across,
                Opponent {
                    score: 25_000,
                    dealer: true,
                    river: river(&["4z", "1p", "2p"]),
                    ..Default::default()
                },
            ],
            after_call: false,
        }
    }

    /// The README's far cheap hand (3-shanten at best, no dora, no yaku in sight).
    const FAR: &str = "1368m2479p1368s55z";

    fn hand_at(table: &Table, tiles: &str) -> Hand {
        let visible = table.visible(None);
        Hand::new(tiles.parse().unwrap(), vec![], visible, Ruleset::Riichi).unwrap()
    }

    fn far_hand(table: &Table) -> Hand {
        hand_at(table, FAR)
    }

    fn rated(table: &Table, hand: &Hand, advice: &DiscardAdvice) -> super::super::TableAdvice {
        let candidates: Vec<Candidate> = advice.candidates.iter().map(Candidate::from).collect();
        advise(table, hand, &candidates, advice.draws_left)
    }

    #[test]
    fn a_fold_computes_no_win_probability_and_loses_nothing_by_it() {
        // Across is in riichi, the hand is three steps from tenpai and 12 tiles are left
        // in the live wall: 3 draws, one short of the 4 a 3-shanten hand needs to win, so
        // the table folds whatever the engine would say. No state is searched, no path
        // simulated, and every candidate says why its probabilities are 0. (With 15
        // draws it no longer folds "whatever": the race of session 35 pushes a sure win.)
        let table = table_with_wall(true, 12);
        let hand = far_hand(&table);
        let cheap = discard_at_table(&hand, &table, None).unwrap();
        assert_eq!((cheap.states, cheap.paths), (0, 0));
        assert!(
            cheap
                .candidates
                .iter()
                .all(|c| c.method == Method::NotNeeded && c.win_probability == 0.0)
        );
        // The full computation (the solitaire engine's figures for every discard,
        // without bounds) rated by the same table model gives every discard the same
        // figures, and the same expected points in the same order: only discards of
        // equal points may come in another order.
        let full = suggest_discard(&hand, Some(table.draws_left_after_discard()), None).unwrap();
        // The engine's own figures for this hand: 0 for every discard (the hand cannot
        // be completed in 3 draws), as the bound said.
        assert!(full.candidates.iter().all(|c| c.win_probability == 0.0));
        let (cheap_rated, full_rated) = (rated(&table, &hand, &cheap), rated(&table, &hand, &full));
        for (i, c) in cheap.candidates.iter().enumerate() {
            let j = full
                .candidates
                .iter()
                .position(|f| f.tile == c.tile)
                .unwrap();
            assert_eq!(cheap_rated.figures[i], full_rated.figures[j], "{}", c.tile);
        }
        let points = |r: &super::super::TableAdvice| -> Vec<f64> {
            r.order
                .iter()
                .map(|&i| r.figures[i].expected_points)
                .collect()
        };
        assert_eq!(points(&cheap_rated), points(&full_rated));
        assert!(!cheap_rated.riichi && !full_rated.riichi);
    }

    #[test]
    fn a_quiet_table_computes_the_win_probabilities_within_the_table_effort() {
        // Nobody threatens: the far hand pushes, and its win probabilities order the
        // discards; so do a farther one's (1469m 258p 369s 1357z: six shanten, the far
        // tier's rollouts). The engine computes them within the table's bounds, whatever
        // the (absent) deadline: at most the plan's states at the hand's shanten (a plan
        // that does not fit is counted) and the far tier's, at most `max_paths` paths.
        let table = table(false);
        for (tiles, shanten) in [(FAR, 3), ("1469m258p369s1357z", 6)] {
            let hand = hand_at(&table, tiles);
            let advice = discard_at_table(&hand, &table, None).unwrap();
            assert!(
                advice
                    .candidates
                    .iter()
                    .all(|c| matches!(c.method, Method::Simulated | Method::Exact)),
                "{tiles}"
            );
            let best = advice.candidates.iter().map(|c| c.shanten).min().unwrap();
            assert_eq!(best, shanten, "{tiles}");
            let effort = Effort::TABLE;
            let plan = if best <= 3 {
                effort.plan_state_limit(best).unwrap()
            } else {
                0
            };
            let states = (plan + effort.far_states) as u64;
            assert!(advice.states <= states, "{tiles}: {} states", advice.states);
            assert!(advice.paths > 0, "{tiles}");
            let paths = effort.max_paths(advice.candidates.len());
            assert!(advice.paths <= paths, "{tiles}: {} paths", advice.paths);
        }
    }
}
