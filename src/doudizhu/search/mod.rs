//! The search (the default of `SuggestDouDizhuPlay`): determinized sampling
//! ("perfect-information Monte Carlo") with inference, an exact endgame solver and a
//! cooperative playout policy.
//!
//! **Model.** The unseen cards are dealt to the two other seats as the history implies
//! ([`worlds`]: hard constraints, plus an inference model under which a seat that passed
//! when it could have beaten a play cheaply is less likely to hold the cards that beat
//! it). Each such deal (a *world*) is a perfect-information game. A candidate play is
//! worth the weighted share of worlds its side wins after it, each world finished by
//! perfect play when it can be proven ([`solver`]) and by the playout policy otherwise
//! ([`playout`]).
//!
//! **Algorithm.**
//! 1. Candidates: every legal play (and the pass) when there are at most
//!    [`SearchConfig::all_moves_max`]; otherwise the heuristic policy's best
//!    [`SearchConfig::candidates`] ([`crate::doudizhu::strategy`]), the pass included
//!    when it is legal.
//! 2. Worlds: every split of the unseen cards, weighted, when there are at most
//!    [`worlds::ENUMERATE_WORLDS`]; otherwise worlds drawn one at a time by
//!    sampling-importance-resampling.
//! 3. In each world every candidate is played. When at most
//!    [`SearchConfig::solve_cards`] cards remain the rest is solved exactly (a node cap
//!    per solve; the table is shared by all candidates and worlds of the decision and
//!    draws from the engine memory budget). Otherwise, or when the cap is hit, the
//!    world is played out by the playout policy, which hands over to the solver once at
//!    most [`SearchConfig::playout_solve_cards`] cards remain (with a smaller cap).
//! 4. The candidate with the highest weighted share of won worlds is chosen; ties keep
//!    the heuristic's order.
//!
//! **Exactness.** The answer is *exact* when every split was enumerated and every
//! candidate solved in every world: the shares are then the exact probabilities under
//! the model, for perfect-information play from here. It is *proven* (a win, or a loss
//! whatever is played) when in addition every world agrees: a double-dummy result, true
//! for every deal the history allows, assuming the rest is played knowing all hands.
//!
//! **Time.** The search stops at its deadline, keeping 5 % of the time left (at most
//! 5 ms) for answering; the clock is read every 64 solver nodes and before every
//! playout move, and a world not finished for every candidate is not counted. With no
//! world finished the heuristic's answer stands (`exact: false`).

pub mod learned;
pub mod playout;
pub mod position;
pub mod solver;
pub mod worlds;

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use self::learned::Model;
use self::playout::{Playout, Style};
use self::position::{LANDLORD, Position};
use self::solver::{Solver, Stop};
use self::worlds::{Inference, Worlds};
use super::groups::pack;
use super::movegen::legal_plays;
use super::play::Play;
use super::state::GameState;
use super::strategy::{PlayDecision, Scored, decide_play};
use crate::memory_budget::MemoryBudget;

/// The search's settings; [`SearchConfig::default`] is what the service uses.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Heuristic candidates compared when there are many legal plays.
    pub candidates: usize,
    /// Every legal play is a candidate when there are at most this many (pass included).
    pub all_moves_max: usize,
    /// Solve exactly when at most this many cards remain after the candidate.
    pub solve_cards: usize,
    /// Node cap of one such solve.
    pub solve_nodes: u64,
    /// During a playout, solve once at most this many cards remain.
    pub playout_solve_cards: usize,
    /// Node cap of that solve.
    pub playout_solve_nodes: u64,
    /// The inference model of the worlds.
    pub inference: Inference,
    /// The playout policy's parameters.
    pub playout: Style,
    /// Also try what the heuristic leaves out on principle: every bomb and the rocket
    /// when following, every group of the hand's best decomposition when leading. Off
    /// by default until a match shows it helps (`examples/doudizhu_match.rs`, player
    /// `wide`).
    pub wide: bool,
    /// A sampled candidate stops being tried when the leader's paired lead over it
    /// exceeds this many standard errors (see `prune`); `f64::INFINITY` never prunes
    /// on the lead.
    pub prune_z: f64,
    /// Most worlds per decision (the deadline usually ends the search first; a cap makes
    /// a search reproducible whatever the machine's load, for tests and matches).
    pub max_worlds: u32,
    /// Playout moves after which a playout not yet finished or solved is cut and scored
    /// by the learned evaluation ([`learned`]: the world then counts as the landlord's
    /// win probability it predicts, not as 0 or 1); `None` plays every playout out.
    pub eval_cut: Option<u32>,
    /// The memory budget the solver's table draws from.
    pub memory: &'static MemoryBudget,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            candidates: 8,
            all_moves_max: 12,
            solve_cards: 16,
            solve_nodes: 20_000,
            playout_solve_cards: 12,
            playout_solve_nodes: 4_000,
            inference: Inference::DEFAULT,
            playout: Style::DEFAULT,
            wide: false,
            prune_z: PRUNE_Z,
            max_worlds: u32::MAX,
            eval_cut: None,
            memory: MemoryBudget::global(),
        }
    }
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct SearchDecision {
    /// The decision (scores are the weighted share of worlds won, 0..1).
    pub decision: PlayDecision,
    /// Solver nodes and playout moves visited.
    pub nodes: u64,
    /// Every split enumerated and every candidate solved exactly in every world.
    pub exact: bool,
    /// Worlds evaluated (each for every candidate still tried).
    pub worlds: u32,
    /// The worlds each entry of `decision.ranked` was tried in, in the same order: its
    /// score is its share over them (fewer than `worlds` once pruned). Empty when no
    /// world was searched (the heuristic's answer, or a play that goes out).
    pub tried: Vec<u32>,
    /// `Some(true)`: the suggestion wins in every world (perfect-information play);
    /// `Some(false)`: every legal play loses in every world; `None`: not proven.
    pub proven: Option<bool>,
    /// The engine memory budget refused the solver's table a growth.
    pub memory_refused: bool,
}

/// Decides with the default settings until `deadline` (see the module docs).
pub fn decide(st: &GameState, deadline: Instant) -> SearchDecision {
    decide_with(st, deadline, &SearchConfig::default())
}

/// Decides with `cfg` until `deadline`: candidates, then the worlds, then the verdict
/// (see the module docs).
pub fn decide_with(st: &GameState, deadline: Instant, cfg: &SearchConfig) -> SearchDecision {
    let deadline = answer_by(deadline);
    search_from(st, decide_play(st), deadline, cfg)
}

/// [`decide_with`] when the caller already has the heuristic's decision for `st`
/// ([`decide_play`], e.g. computed first as the fallback answer).
pub fn decide_after(
    st: &GameState,
    heuristic: PlayDecision,
    deadline: Instant,
    cfg: &SearchConfig,
) -> SearchDecision {
    search_from(st, heuristic, answer_by(deadline), cfg)
}

/// The stages after the heuristic, until `deadline` (the margin already taken).
fn search_from(
    st: &GameState,
    heuristic: PlayDecision,
    deadline: Instant,
    cfg: &SearchConfig,
) -> SearchDecision {
    let legal = legal_moves(st);
    let (cands, all_moves) = candidates(st, &heuristic, &legal, cfg);
    if let Some(out) = legal
        .iter()
        .flatten()
        .find(|p| p.card_count() == st.hand.len())
    {
        return goes_out(*out, &cands, heuristic);
    }
    if cands.len() <= 1 {
        return unsearched(heuristic, 0, true, false);
    }
    let tally = play_worlds(st, &cands, deadline, cfg);
    if tally.count == 0 {
        return unsearched(heuristic, tally.nodes, false, tally.memory_refused);
    }
    verdict(heuristic, &cands, all_moves, &tally)
}

/// The instant the worlds stop: `deadline` less 5 % of the time left (at most 5 ms) for
/// the verdict and the reply.
fn answer_by(deadline: Instant) -> Instant {
    let left = deadline.saturating_duration_since(Instant::now());
    deadline - (left / 20).min(Duration::from_millis(5))
}

/// Every legal play of the seat to move, and the pass (`None`) when it may pass.
fn legal_moves(st: &GameState) -> Vec<Option<Play>> {
    let to_beat = st.to_beat.map(|(p, _)| p);
    let mut legal: Vec<Option<Play>> = legal_plays(&st.hand, to_beat.as_ref(), &st.rules)
        .into_iter()
        .map(Some)
        .collect();
    if to_beat.is_some() {
        legal.push(None);
    }
    legal
}

/// The same play (same cards, or both passes).
fn same(a: &Option<Play>, b: &Option<Play>) -> bool {
    a.map(|p| p.cards) == b.map(|p| p.cards)
}

/// The candidates, heuristic's order first (step 1 of the module docs), and whether they
/// are every legal move.
fn candidates(
    st: &GameState,
    heuristic: &PlayDecision,
    legal: &[Option<Play>],
    cfg: &SearchConfig,
) -> (Vec<Option<Play>>, bool) {
    let mut cands: Vec<Option<Play>> = Vec::new();
    let push = |cands: &mut Vec<Option<Play>>, p: Option<Play>| {
        if !cands.iter().any(|c| same(c, &p)) {
            cands.push(p);
        }
    };
    let all_moves = legal.len() <= cfg.all_moves_max;
    for s in &heuristic.ranked {
        if !all_moves && cands.len() == cfg.candidates {
            break;
        }
        push(&mut cands, s.play);
    }
    if all_moves {
        for p in legal {
            push(&mut cands, *p);
        }
        return (cands, true);
    }
    if st.to_beat.is_some() && !cands.contains(&None) {
        cands.push(None);
    }
    if cfg.wide {
        // What the heuristic leaves out on principle: bombs and the rocket when
        // following, the groups of the hand's best decomposition when leading.
        let extra: Vec<Option<Play>> = match st.to_beat {
            Some(_) => legal
                .iter()
                .filter(|p| p.is_some_and(|p| p.kind.is_bomb()))
                .copied()
                .collect(),
            None => heuristic
                .evaluation
                .groups
                .iter()
                .filter(|g| legal.iter().any(|p| same(p, &Some(**g))))
                .map(|g| Some(*g))
                .collect(),
        };
        for p in extra {
            push(&mut cands, p);
        }
    }
    (cands, false)
}

/// The answer when the seat can play its whole hand: going out wins whatever the others
/// hold.
fn goes_out(out: Play, cands: &[Option<Play>], heuristic: PlayDecision) -> SearchDecision {
    let ranked = std::iter::once(Scored {
        play: Some(out),
        score: 1.0,
    })
    .chain(
        cands
            .iter()
            .filter(|c| !same(c, &Some(out)))
            .map(|c| Scored {
                play: *c,
                score: 0.0,
            }),
    )
    .collect();
    SearchDecision {
        decision: PlayDecision {
            play: Some(out),
            ranked,
            evaluation: heuristic.evaluation,
            reason: format!(
                "goes out with {} ({}): a win whatever the others hold",
                out.cards, out.kind
            ),
        },
        nodes: 0,
        exact: true,
        worlds: 0,
        tried: Vec::new(),
        proven: Some(true),
        memory_refused: false,
    }
}

/// The heuristic's answer, no world searched (one candidate, or no world finished).
fn unsearched(
    heuristic: PlayDecision,
    nodes: u64,
    exact: bool,
    memory_refused: bool,
) -> SearchDecision {
    SearchDecision {
        decision: heuristic,
        nodes,
        exact,
        worlds: 0,
        tried: Vec::new(),
        proven: None,
        memory_refused,
    }
}

/// What the worlds said of each candidate (step 3 of the module docs).
struct Tally {
    /// Per candidate: the weight of the worlds it won, of those it was tried in, whether
    /// it won all of them, any of them, and whether it is still tried (not pruned).
    won: Vec<f64>,
    weight_of: Vec<f64>,
    all_win: Vec<bool>,
    any_win: Vec<bool>,
    active: Vec<bool>,
    /// Per world, each candidate's result: 1 won, 0 lost (a share in between when the
    /// learned evaluation scored a cut playout), `NOT_TRIED` once pruned.
    rows: Vec<Vec<f32>>,
    /// Worlds finished for every candidate still tried.
    count: u32,
    /// Every split enumerated (not sampled), ...
    enumerated: bool,
    /// ... and all of them finished, every candidate solved exactly in each.
    exact: bool,
    nodes: u64,
    memory_refused: bool,
}

impl Tally {
    fn new(n: usize, enumerated: bool) -> Tally {
        Tally {
            won: vec![0.0; n],
            weight_of: vec![0.0; n],
            all_win: vec![true; n],
            any_win: vec![false; n],
            active: vec![true; n],
            rows: Vec::new(),
            count: 0,
            enumerated,
            exact: enumerated,
            nodes: 0,
            memory_refused: false,
        }
    }

    /// Counts one finished world of weight `weight`.
    fn add(&mut self, results: &[f32], weight: f64) {
        for (i, &r) in results.iter().enumerate() {
            if r == NOT_TRIED {
                continue;
            }
            self.won[i] += weight * f64::from(r);
            self.weight_of[i] += weight;
            self.all_win[i] &= r == 1.0;
            self.any_win[i] |= r > 0.0;
        }
        self.rows.push(results.to_vec());
        self.count += 1;
    }

    /// The weighted share of the worlds candidate `i` won.
    fn share(&self, i: usize) -> f64 {
        if self.weight_of[i] > 0.0 {
            self.won[i] / self.weight_of[i]
        } else {
            0.0
        }
    }
}

/// Plays every candidate still tried in world after world until the deadline, the
/// world cap, the end of the enumerated splits, or a single candidate left (steps 2 and
/// 3 of the module docs). A world the deadline cuts short is not counted.
fn play_worlds(
    st: &GameState,
    cands: &[Option<Play>],
    deadline: Instant,
    cfg: &SearchConfig,
) -> Tally {
    let mut search = Search {
        cfg: *cfg,
        deadline,
        solver: Solver::new(st.rules, Some(deadline), cfg.memory),
        playout: Playout::with_style(st.rules, cfg.playout, cfg.memory),
        moves: 0,
        features: Vec::new(),
    };
    let worlds = Worlds::new(st, cfg.inference);
    let all = worlds.enumerate();
    let mut rng = SmallRng::seed_from_u64(pack(st.hand.counts()) ^ (st.passes.len() as u64) << 50);
    let mut tally = Tally::new(cands.len(), all.is_some());
    let mut next = 0usize;
    let mut results = Vec::with_capacity(cands.len());
    'worlds: loop {
        if Instant::now() >= deadline || tally.count >= cfg.max_worlds {
            tally.exact &= all.as_ref().is_some_and(|l| next >= l.len());
            break;
        }
        let (hands, weight) = match &all {
            Some(list) => {
                let Some(w) = list.get(next) else { break };
                next += 1;
                (w.hands, w.weight)
            }
            None => (worlds.sample(&mut rng), 1.0),
        };
        if weight <= 0.0 {
            continue;
        }
        results.clear();
        for (c, &on) in cands.iter().zip(&tally.active) {
            if !on {
                results.push(NOT_TRIED);
                continue;
            }
            match search.value_of(&hands, st, c.as_ref()) {
                Some((w, was_exact)) => {
                    tally.exact &= was_exact;
                    results.push(w);
                }
                None => {
                    tally.exact = false;
                    break 'worlds;
                }
            }
        }
        tally.add(&results, weight);
        if all.is_none() && tally.count >= PRUNE_AFTER && tally.count.is_multiple_of(PRUNE_EVERY) {
            prune(
                &tally.rows,
                &tally.won,
                &tally.weight_of,
                cfg.prune_z,
                &mut tally.active,
            );
            if tally.active.iter().filter(|&&a| a).count() == 1 {
                break;
            }
        }
    }
    tally.nodes = search.solver.nodes() + search.moves;
    tally.memory_refused = search.solver.memory_refused();
    tally
}

/// The candidates ranked by share (step 4 of the module docs), the proof if any, and the
/// reason.
fn verdict(
    heuristic: PlayDecision,
    cands: &[Option<Play>],
    all_moves: bool,
    tally: &Tally,
) -> SearchDecision {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    // Candidates still in the race first; stable, so ties keep the candidate order (the
    // heuristic's first).
    order.sort_by(|&a, &b| {
        tally.active[b]
            .cmp(&tally.active[a])
            .then(tally.share(b).total_cmp(&tally.share(a)))
    });
    let ranked: Vec<Scored> = order
        .iter()
        .map(|&i| Scored {
            play: cands[i],
            score: tally.share(i),
        })
        .collect();
    let tried = order
        .iter()
        .map(|&i| tally.rows.iter().filter(|r| r[i] != NOT_TRIED).count() as u32)
        .collect();
    let best = order[0];
    let proven = if !tally.exact {
        None
    } else if tally.all_win[best] {
        Some(true)
    } else if all_moves && !tally.any_win.iter().any(|&w| w) {
        Some(false)
    } else {
        None
    };
    let reason = reason(cands[best], ranked[0].score, proven, tally);
    SearchDecision {
        decision: PlayDecision {
            play: cands[best],
            ranked,
            evaluation: heuristic.evaluation,
            reason,
        },
        nodes: tally.nodes,
        exact: tally.exact,
        worlds: tally.count,
        tried,
        proven,
        memory_refused: tally.memory_refused,
    }
}

/// The reason a person reads for the search's choice `best` of share `score`.
fn reason(best: Option<Play>, score: f64, proven: Option<bool>, tally: &Tally) -> String {
    let count = tally.count;
    let play_text = match best {
        Some(p) => format!("playing {}", p.cards),
        None => "passing".to_string(),
    };
    match proven {
        Some(true) => format!(
            "{play_text} wins in every one of the {count} possible deal(s) of the unseen cards (each solved exactly)"
        ),
        Some(false) => format!(
            "every play loses in all {count} possible deal(s) of the unseen cards (each solved exactly); {play_text}"
        ),
        None => format!(
            "{play_text} wins {:.0}% of {count} {} world(s) ({})",
            score * 100.0,
            if tally.enumerated {
                "enumerated"
            } else {
                "sampled"
            },
            if tally.exact {
                "each solved exactly"
            } else {
                "solved or played out"
            }
        ),
    }
}

/// A candidate's result in a world after it was pruned.
const NOT_TRIED: f32 = -1.0;
/// Sampled worlds before candidates may be pruned, and how often it is tried.
const PRUNE_AFTER: u32 = 16;
const PRUNE_EVERY: u32 = 8;
/// A candidate is pruned when the leader's paired lead over it exceeds this many
/// standard errors.
const PRUNE_Z: f64 = 2.0;
/// ... or when it has done exactly as the leader in this many worlds (the heuristic's
/// order, which breaks such ties, already prefers the leader).
const PRUNE_SAME: usize = 32;

/// Successive pruning of sampled candidates: each one that the leader (highest share,
/// ties to the earlier candidate) beats clearly in the worlds both were tried in, or
/// matches in every one of many worlds, stops being tried.
fn prune(rows: &[Vec<f32>], won: &[f64], weight_of: &[f64], z: f64, active: &mut [bool]) {
    let share = |i: usize| won[i] / weight_of[i].max(f64::MIN_POSITIVE);
    let Some(best) = (0..active.len())
        .filter(|&i| active[i])
        .reduce(|a, b| if share(b) > share(a) { b } else { a })
    else {
        return;
    };
    for c in 0..active.len() {
        if c == best || !active[c] {
            continue;
        }
        let d: Vec<f64> = rows
            .iter()
            .filter(|r| r[best] != NOT_TRIED && r[c] != NOT_TRIED)
            .map(|r| f64::from(r[best] - r[c]))
            .collect();
        let n = d.len() as f64;
        if d.len() < PRUNE_AFTER as usize {
            continue;
        }
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let clearly_worse = mean > 0.0 && mean > z * (var / n).sqrt();
        let same = d.len() >= PRUNE_SAME && d.iter().all(|&x| x == 0.0) && best < c;
        if clearly_worse || same {
            active[c] = false;
        }
    }
}

/// Solver and playout state shared across the worlds of one decision.
struct Search {
    cfg: SearchConfig,
    deadline: Instant,
    solver: Solver,
    playout: Playout,
    moves: u64,
    /// Scratch space of the learned evaluation's features.
    features: Vec<f32>,
}

impl Search {
    /// Plays `cand` for the seat to move in world `hands` and finishes the game: `Some((the
    /// mover's side's result: 1 won, 0 lost, or the learned evaluation's win probability
    /// for a cut playout, solved exactly))`, `None` when the deadline passed.
    fn value_of(
        &mut self,
        hands: &[crate::doudizhu::Cards; 3],
        st: &GameState,
        cand: Option<&Play>,
    ) -> Option<(f32, bool)> {
        let me = st.seat.index();
        let root = Position {
            hands: *hands,
            turn: me,
            last: st.to_beat.map(|(p, by)| (p, by.index())),
        };
        let mut pos = root.after(cand);
        if pos.hands[me].is_empty() {
            return Some((1.0, true));
        }
        let mine = |landlord_wins: bool| f32::from(u8::from(landlord_wins == (me == LANDLORD)));
        if pos.total_cards() <= self.cfg.solve_cards {
            match self.solver.landlord_wins(&pos, self.cfg.solve_nodes) {
                Ok(lw) => return Some((mine(lw), true)),
                Err(Stop::Deadline) => return None,
                Err(Stop::NodeCap) => {}
            }
        }
        let mut tried_solve = false;
        let mut played = 0u32;
        loop {
            if !tried_solve && pos.total_cards() <= self.cfg.playout_solve_cards {
                tried_solve = true;
                match self
                    .solver
                    .landlord_wins(&pos, self.cfg.playout_solve_nodes)
                {
                    Ok(lw) => return Some((mine(lw), false)),
                    Err(Stop::Deadline) => return None,
                    Err(Stop::NodeCap) => {}
                }
            }
            if self.cfg.eval_cut.is_some_and(|cut| played >= cut) {
                let lw = Model::shipped().landlord_wins(
                    &pos,
                    self.playout.evaluator(),
                    &st.rules,
                    &mut self.features,
                );
                return Some((if me == LANDLORD { lw } else { 1.0 - lw }, false));
            }
            played += 1;
            self.moves += 1;
            if Instant::now() >= self.deadline {
                return None;
            }
            let p = self.playout.choose(&pos);
            let next = pos.after(p.as_ref());
            if next.hands[pos.turn].is_empty() {
                return Some((mine(pos.turn == LANDLORD), false));
            }
            pos = next;
        }
    }
}
