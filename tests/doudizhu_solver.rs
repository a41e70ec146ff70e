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

// ---- The search's exact answers (enumerated worlds, each solved) ---------------------

use gameai::doudizhu::search::worlds::Inference;
use gameai::doudizhu::search::{SearchConfig, decide_with};
use gameai::doudizhu::state::{GameState, Observation, Seat};
use std::time::{Duration, Instant};

/// A random deal played by random legal moves until at most `left` cards remain in all
/// (the history is consistent by construction); the observation of the seat to move.
fn random_endgame_observation(
    rng: &mut SmallRng,
    left: usize,
) -> Option<(Observation, [Cards; 3])> {
    let rules = Rules::default();
    let mut deck: Vec<char> = "3456789TJQKA2".chars().flat_map(|c| [c; 4]).collect();
    deck.push('X');
    deck.push('D');
    deck.shuffle(rng);
    let s: String = deck.iter().collect();
    let mut hands: [Cards; 3] = [
        s[..20].parse().unwrap(),
        s[20..37].parse().unwrap(),
        s[37..].parse().unwrap(),
    ];
    let bottom: Cards = s[17..20].parse().unwrap();
    let mut history: Vec<Cards> = Vec::new();
    let mut last: Option<(Play, usize)> = None;
    while hands.iter().map(Cards::len).sum::<usize>() > left {
        let turn = history.len() % 3;
        let to_beat = last.filter(|&(_, by)| by != turn).map(|(p, _)| p);
        let plays = match &to_beat {
            None => legal_leads(&hands[turn], &rules),
            Some(t) => legal_follows(&hands[turn], t, &rules),
        };
        // Prefer long plays so that the game gets to its end quickly.
        let choice = if to_beat.is_some() && (plays.is_empty() || rng.random_bool(0.3)) {
            None
        } else {
            let longest = plays.iter().map(|p| p.card_count()).max()?;
            let long: Vec<&Play> = plays
                .iter()
                .filter(|p| p.card_count() + 2 >= longest)
                .collect();
            Some(**long.choose(rng)?)
        };
        match choice {
            None => history.push(Cards::EMPTY),
            Some(p) => {
                hands[turn] = hands[turn].checked_sub(&p.cards)?;
                history.push(p.cards);
                last = Some((p, turn));
                if hands[turn].is_empty() {
                    return None;
                }
            }
        }
    }
    let seat = Seat::from_index(history.len());
    Some((
        Observation {
            hand: hands[seat.index()],
            seat,
            landlord_cards: bottom,
            history,
            rules,
        },
        hands,
    ))
}

/// Every way to deal `pool` to the two other seats (sizes `n1`, `n2`), as multisets,
/// with `forced` cards (the landlord's known bottom cards) going to seat `forced_to`.
fn all_deals(
    pool: &Cards,
    n1: usize,
    o1: usize,
    forced: &Cards,
    forced_to: usize,
) -> Vec<(Cards, Cards)> {
    let free = pool.checked_sub(forced).expect("forced cards are unseen");
    let need1 = n1 - if forced_to == o1 { forced.len() } else { 0 };
    let ranks: Vec<(usize, u8)> = free
        .counts()
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(r, &n)| (r, n))
        .collect();
    let mut out = Vec::new();
    let mut pick = vec![0u8; ranks.len()];
    fn rec(
        ranks: &[(usize, u8)],
        i: usize,
        need: usize,
        pick: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
    ) {
        if i == ranks.len() {
            if need == 0 {
                out.push(pick.clone());
            }
            return;
        }
        for k in 0..=ranks[i].1.min(need as u8) {
            pick[i] = k;
            rec(ranks, i + 1, need - k as usize, pick, out);
        }
    }
    let mut picks = Vec::new();
    rec(&ranks, 0, need1, &mut pick, &mut picks);
    for p in picks {
        let mut a = [0u8; 15];
        for (j, &(r, _)) in ranks.iter().enumerate() {
            a[r] = p[j];
        }
        let first = Cards::from_counts(a).unwrap();
        let second = free.checked_sub(&first).unwrap();
        let (mut h1, mut h2) = (first, second);
        if forced_to == o1 {
            h1 = h1.checked_add(forced).unwrap();
        } else {
            h2 = h2.checked_add(forced).unwrap();
        }
        out.push((h1, h2));
    }
    out
}

#[test]
fn exact_search_answers_equal_brute_force_over_every_deal() {
    // Uniform worlds, so that every candidate's score is the plain share of deals won,
    // which the brute force computes deal by deal.
    let cfg = SearchConfig {
        inference: Inference::UNIFORM,
        ..SearchConfig::default()
    };
    let rules = Rules::default();
    let mut rng = SmallRng::seed_from_u64(99);
    let (mut checked, mut proven_win, mut proven_loss) = (0, 0, 0);
    for _ in 0..400 {
        let Some((obs, _)) = random_endgame_observation(&mut rng, 9) else {
            continue;
        };
        let st = GameState::derive(&obs).expect("a played-out history is consistent");
        let d = decide_with(&st, Instant::now() + Duration::from_secs(30), &cfg);
        if !d.exact || d.worlds == 0 {
            continue;
        }
        let me = st.seat.index();
        let (o1, o2) = ((me + 1) % 3, (me + 2) % 3);
        let forced = if me == 0 {
            Cards::EMPTY
        } else {
            st.landlord_known
        };
        let deals = all_deals(&st.unseen, st.cards_left[o1] as usize, o1, &forced, 0);
        assert_eq!(deals.len() as u32, d.worlds, "{obs:?}");
        let last = st.to_beat.map(|(p, by)| (p, by.index()));
        for s in &d.decision.ranked {
            let mut wins = 0;
            for &(h1, h2) in &deals {
                let mut hands = [Cards::EMPTY; 3];
                hands[me] = st.hand;
                hands[o1] = h1;
                hands[o2] = h2;
                let won = match s.play {
                    Some(p) => {
                        let mut h = hands;
                        h[me] = h[me].checked_sub(&p.cards).unwrap();
                        h[me].is_empty()
                            || brute(h, (me + 1) % 3, Some((p, me)), &rules) == (me == 0)
                    }
                    None => brute(hands, (me + 1) % 3, last, &rules) == (me == 0),
                };
                wins += usize::from(won);
            }
            let share = wins as f64 / deals.len() as f64;
            assert!(
                (s.score - share).abs() < 1e-9,
                "{:?}: {} vs {share} in {obs:?}",
                s.play,
                s.score
            );
        }
        match d.proven {
            Some(true) => {
                proven_win += 1;
                assert_eq!(d.decision.ranked[0].score, 1.0);
            }
            Some(false) => {
                proven_loss += 1;
                assert!(d.decision.ranked.iter().all(|s| s.score == 0.0));
            }
            None => assert!(d.decision.ranked[0].score < 1.0),
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked} exact decisions");
    assert!(
        proven_win > 0 && proven_loss > 0,
        "{proven_win} wins, {proven_loss} losses"
    );
}
