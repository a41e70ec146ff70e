//! The exact endgame solver (`doudizhu::search::solver`) against an independent brute
//! force: a plain minimax over every legal move written here from the rules API alone
//! (`legal_leads` / `legal_follows`, themselves checked against DouZero's move
//! generator), with no memo, no pruning, no shortcut and no move ordering. On random
//! perfect-information endgames with at most 10 cards in all hands, the solver's value
//! of the position and of every move from it must equal the brute force's.

use gameai::doudizhu::search::position::Position;
use gameai::doudizhu::search::solver::{Solver, Stop};
use gameai::doudizhu::{Cards, Play, Rules, legal_follows, legal_leads};
use gameai::memory_budget::MemoryBudget;
use rand::rngs::SmallRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};

/// Brute-force minimax: whether the landlord (seat 0) wins with perfect play by both
/// sides. Every child is evaluated (no cut-off), then combined: the landlord needs one
/// winning move, a farmer one move after which the landlord loses.
fn brute(hands: [Cards; 3], turn: usize, last: Option<(Play, usize)>, rules: &Rules) -> bool {
    let free = match last {
        None => true,
        Some((_, by)) => by == turn,
    };
    let moves: Vec<Play> = if free {
        legal_leads(&hands[turn], rules)
    } else {
        legal_follows(&hands[turn], &last.unwrap().0, rules)
    };
    let mut landlord_wins_after: Vec<bool> = Vec::new();
    for m in &moves {
        let mut h = hands;
        h[turn] = h[turn]
            .checked_sub(&m.cards)
            .expect("a legal play is in hand");
        if h[turn].is_empty() {
            landlord_wins_after.push(turn == 0);
        } else {
            landlord_wins_after.push(brute(h, (turn + 1) % 3, Some((*m, turn)), rules));
        }
    }
    if !free {
        landlord_wins_after.push(brute(hands, (turn + 1) % 3, last, rules));
    }
    if turn == 0 {
        landlord_wins_after.iter().any(|&w| w)
    } else {
        landlord_wins_after.iter().all(|&w| w)
    }
}

/// A random endgame: three non-empty hands with at most `max_cards` in all, a random seat
/// to move and, half of the time, a play to beat made by another seat from cards no hand
/// holds.
fn random_endgame(rng: &mut SmallRng, max_cards: usize, rules: &Rules) -> Position {
    let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
    deck.push('X');
    deck.push('D');
    deck.shuffle(rng);
    let total = rng.random_range(3..=max_cards);
    let a = rng.random_range(1..=total - 2);
    let b = rng.random_range(1..=total - a - 1);
    let sizes = [a, b, total - a - b];
    let mut at = 0;
    let mut hands = [Cards::EMPTY; 3];
    for (s, &n) in sizes.iter().enumerate() {
        let text: String = deck[at..at + n].iter().collect();
        hands[s] = text.parse().expect("deck cards parse");
        at += n;
    }
    let turn = rng.random_range(0..3);
    let last = if rng.random_bool(0.5) {
        let n = rng.random_range(1..=6);
        let rest: String = deck[at..at + n].iter().collect();
        let plays = legal_leads(&rest.parse().expect("deck cards parse"), rules);
        let p = *plays.choose(rng).expect("cards have a lead");
        let by = (turn + rng.random_range(1..3)) % 3;
        Some((p, by))
    } else {
        None
    };
    Position { hands, turn, last }
}

#[test]
fn solver_equals_brute_force_on_600_random_endgames() {
    let rules = Rules::default();
    let mut rng = SmallRng::seed_from_u64(20261130);
    let budget = MemoryBudget::leak(64 << 20);
    let mut landlord_wins = 0;
    let mut moves_checked = 0;
    for case in 0..600 {
        // A fresh solver every few cases, so that both a cold and a warm table are used.
        let mut solver = Solver::new(rules, None, budget);
        let pos = random_endgame(&mut rng, 10, &rules);
        let want = brute(pos.hands, pos.turn, pos.last, &rules);
        let got = solver
            .landlord_wins(&pos, 10_000_000)
            .expect("no cap is hit");
        assert_eq!(got, want, "case {case}: {pos:?}");
        landlord_wins += usize::from(want);
        // Every move from the position, the pass included.
        let mut moves: Vec<Option<Play>> = match pos.to_beat() {
            None => legal_leads(&pos.hands[pos.turn], &rules)
                .into_iter()
                .map(Some)
                .collect(),
            Some(t) => legal_follows(&pos.hands[pos.turn], &t, &rules)
                .into_iter()
                .map(Some)
                .collect(),
        };
        if pos.to_beat().is_some() {
            moves.push(None);
        }
        for m in &moves {
            let next = pos.after(m.as_ref());
            let mover_landlord = pos.turn == 0;
            let want = if next.hands[pos.turn].is_empty() {
                true
            } else {
                brute(next.hands, next.turn, next.last, &rules) == mover_landlord
            };
            let got = solver
                .mover_wins_with(&pos, m.as_ref(), 10_000_000)
                .expect("no cap is hit");
            assert_eq!(got, want, "case {case}, move {m:?}: {pos:?}");
            moves_checked += 1;
        }
    }
    // Both outcomes occur often enough for the comparison to mean something.
    assert!((150..450).contains(&landlord_wins), "{landlord_wins}");
    assert!(moves_checked > 1000, "{moves_checked}");
}

#[test]
fn node_cap_stops_without_storing_a_guess() {
    // Solves cut short after a handful of nodes store nothing unproven: the same solver,
    // asked again without a cap, still agrees with the brute force.
    let rules = Rules::default();
    let mut rng = SmallRng::seed_from_u64(11);
    let budget = MemoryBudget::leak(64 << 20);
    let mut stopped = 0;
    for _ in 0..100 {
        let pos = random_endgame(&mut rng, 10, &rules);
        let mut solver = Solver::new(rules, None, budget);
        for cap in [3, 10, 30] {
            if solver.landlord_wins(&pos, cap) == Err(Stop::NodeCap) {
                stopped += 1;
            }
        }
        let want = brute(pos.hands, pos.turn, pos.last, &rules);
        assert_eq!(solver.landlord_wins(&pos, 10_000_000), Ok(want), "{pos:?}");
    }
    assert!(stopped > 50, "the caps were hit {stopped} times");
}

#[test]
fn a_refused_budget_keeps_the_solver_exact() {
    // A budget too small for the first table growth: the solver runs without a table
    // and still agrees with the brute force.
    let rules = Rules::default();
    let budget = MemoryBudget::leak(1024);
    let mut rng = SmallRng::seed_from_u64(7);
    let mut refused = false;
    for _ in 0..40 {
        let mut solver = Solver::new(rules, None, budget);
        let pos = random_endgame(&mut rng, 9, &rules);
        let want = brute(pos.hands, pos.turn, pos.last, &rules);
        assert_eq!(solver.landlord_wins(&pos, 10_000_000), Ok(want));
        assert_eq!(solver.table_len(), 0);
        refused |= solver.memory_refused();
        assert_eq!(budget.used(), 0);
    }
    assert!(refused, "some solve wanted a table");
}
