//! Discard decisions: rank every distinct discard of a 3n+2 hand and give each its win
//! and tenpai probability (see [`super`] for the tiers and their budget).

use std::time::Instant;

use super::candidate::{Continuation, DiscardCandidate, compare_candidates, shells};
use super::clock::Clock;
use super::effort::Effort;
use super::figures;
use super::play;
use super::{DecisionError, resolve_draws};
use crate::mahjong::hand::Hand;
use crate::mahjong::probability::optimal::OptimalSolver;
use crate::mahjong::probability::plan::{PlanConfig, Planner};
use crate::mahjong::probability::shanten_judge::ShantenJudge;

/// Highest shanten (of the best discard) the plan is tried at; farther hands go straight
/// to the far tier. 3 (with [`PLAN_STATES_AT_3_SHANTEN`]) won +0.36 points of solitaire
/// play over 2 on 20,000 fresh walls (+0.15 to +0.57; BENCHMARKS.md, "The plan at
/// 3-shanten, bounded"). 4 (with the same state bound, cheap: 17,060 states at the
/// median) gained nothing: −0.01 points (−0.09 to +0.08) on 20,000 fresh walls, 71 walls
/// differing ("The plan at 4-shanten screened").
pub const PLAN_MAX_SHANTEN: i8 = 3;

/// State bound of the plan for a hand at 3-shanten (the states of every candidate of
/// one decision together; about 24 MiB with 17 draws by `Planner::bytes_per_state`, drawn
/// from the engine budget): beyond it the far tier answers.
/// Chosen on the recorded game states (BENCHMARKS.md, "The plan at 3-shanten, bounded"):
/// unbounded, the worst 3-shanten plans took 230-320 ms and the p99 of all states was
/// 101-113 ms; at 60,000 states the p99 is 57 ms and 7 of 167 3-shanten choices differ.
pub const PLAN_STATES_AT_3_SHANTEN: usize = 60_000;

/// State bound of the far tier's advance-or-throw search (about 5 MiB with 17 draws):
/// beyond it the far tier simulates instead.
pub const FAR_STATES: usize = 20_000;

// The simulated paths of the plan (512 for the best three candidates, 64 for the
// others) and the greedy rollouts (256 for the candidates that compete for the choice,
// the floor of `figures::MIN_PATHS` for the others: the shanten-raising ones, which rank
// after every keeping one, and keeping ones behind the best on shape in the far tier,
// whose figures are only reported and say so by their larger standard error) are
// `Effort::FULL`'s (`super::effort`).

/// Hands up to this shanten weigh their shanten-raising discards exactly (advance or
/// throw from one level up) and may prefer them; from farther, a raise is simulated and
/// ranks after every keeping discard (BENCHMARKS.md: raising gains nothing in play).
pub const RAISE_EXACT_UP_TO: i8 = 0;

/// The answer to a discard decision.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardAdvice {
    /// The 3n+2 hand is already a winning hand: declare it.
    pub is_winning: bool,
    /// Every distinct discard in the engine's order of preference, best first
    /// ([`compare_candidates`]).
    pub candidates: Vec<DiscardCandidate>,
    /// The draws left used (given, or the default estimate).
    pub draws_left: u32,
    /// Every candidate's figures are exact.
    pub exact: bool,
    /// States the searches evaluated.
    pub states: u64,
    /// Simulated paths and rollouts.
    pub paths: u64,
}

impl DiscardAdvice {
    /// The suggested discard (the first candidate).
    pub fn discard(&self) -> Option<crate::mahjong::tile::Tile> {
        self.candidates.first().map(|c| c.tile)
    }
}

/// Ranks every distinct discard of the 3n+2 `hand` by the probability of winning within
/// `draws_left` draws (default: the estimate of [`crate::mahjong::probability::draws`]),
/// stopping by `deadline`.
///
/// Errors: [`DecisionError::DiscardNeedsDrawnTile`] for a 3n+1 hand,
/// [`DecisionError::DrawsBeyondPool`].
pub fn suggest_discard(
    hand: &Hand,
    draws_left: Option<u32>,
    deadline: Option<Instant>,
) -> Result<DiscardAdvice, DecisionError> {
    suggest_discard_within(hand, draws_left, deadline, &Effort::FULL)
}

/// [`suggest_discard`] within the work bounds `effort` (as well as the deadline).
pub fn suggest_discard_within(
    hand: &Hand,
    draws_left: Option<u32>,
    deadline: Option<Instant>,
    effort: &Effort,
) -> Result<DiscardAdvice, DecisionError> {
    let DiscardSetup {
        judge,
        h,
        pool,
        draws,
    } = DiscardSetup::of(hand, draws_left)?;
    let ranked = rank_discards_within(&judge, &h, &pool, draws, deadline, effort);
    Ok(DiscardAdvice {
        is_winning: judge.is_winning(&h),
        candidates: ranked.candidates,
        draws_left: draws,
        exact: ranked.exact,
        states: ranked.states,
        paths: ranked.paths,
    })
}

/// What every discard ranking starts from: the 3n+2 hand checked, its judge, its
/// concealed counts, the unseen pool and the draws left resolved.
pub(super) struct DiscardSetup {
    pub judge: ShantenJudge,
    pub h: [u8; 34],
    pub pool: [u8; 34],
    pub draws: u32,
}

impl DiscardSetup {
    /// Errors: [`DecisionError::DiscardNeedsDrawnTile`] for a 3n+1 hand,
    /// [`DecisionError::DrawsBeyondPool`].
    pub(super) fn of(hand: &Hand, draws_left: Option<u32>) -> Result<DiscardSetup, DecisionError> {
        let tiles = hand.concealed().len();
        if tiles % 3 != 2 {
            return Err(DecisionError::DiscardNeedsDrawnTile(tiles));
        }
        let pool = hand.unseen();
        let draws = resolve_draws(draws_left, &pool, hand.ruleset())?;
        let judge = ShantenJudge::new(hand.called(), hand.ruleset(), hand.lackable())
            .with_caps(hand.caps());
        Ok(DiscardSetup {
            judge,
            h: hand.concealed().0,
            pool,
            draws,
        })
    }
}

/// What one ranking computed.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The candidates, best first.
    pub candidates: Vec<DiscardCandidate>,
    /// Every figure exact.
    pub exact: bool,
    /// States evaluated (a search that did not fit included).
    pub states: u64,
    /// Paths simulated.
    pub paths: u64,
}

/// Every distinct discard of the 3n+2 `h` with its figures, best first: `pool` is what
/// the player cannot see, `draws` the horizon, `deadline` the work deadline.
///
/// Tiers, the first that fits: no draws left (exact, nothing to search); the optimal
/// search for short horizons; the plan (hands up to [`PLAN_MAX_SHANTEN`]); the far tier
/// (advance or throw within [`FAR_STATES`] states, else greedy rollouts).
pub fn rank_discards(
    judge: &ShantenJudge,
    h: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    deadline: Option<Instant>,
) -> Ranked {
    rank_discards_within(judge, h, pool, draws, deadline, &Effort::FULL)
}

/// [`rank_discards`] within the work bounds `effort`.
pub fn rank_discards_within(
    judge: &ShantenJudge,
    h: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    deadline: Option<Instant>,
    effort: &Effort,
) -> Ranked {
    let clock = Clock::new(deadline);
    let mut cands = shells(judge, h, pool);
    let best = cands.iter().map(|c| c.shanten).min().unwrap_or(0);
    let size: u32 = pool.iter().map(|&c| u32::from(c)).sum();
    let draws = draws.min(size);
    let mut ranked = if draws == 0 {
        for c in &mut cands {
            let tenpai = if c.shanten <= 0 { 1.0 } else { 0.0 };
            c.set_exact(0.0, tenpai, Continuation::Optimal);
        }
        Some(Ranked {
            candidates: cands.clone(),
            exact: true,
            states: 0,
            paths: 0,
        })
    } else {
        None
    };
    // States of searches that did not fit: work done all the same.
    let mut spent = 0;
    if ranked.is_none() && figures::optimal_fits(pool, draws, cands.len()) {
        ranked = optimal_tier(judge, h, pool, draws, &clock, &cands, &mut spent);
    }
    if ranked.is_none() && best <= PLAN_MAX_SHANTEN {
        ranked = plan_tier(
            judge, h, pool, draws, &clock, &cands, best, effort, &mut spent,
        );
    }
    let mut ranked =
        ranked.unwrap_or_else(|| far_tier(judge, h, pool, draws, &clock, cands, best, effort));
    ranked.states += spent;
    ranked.candidates.sort_by(compare_candidates);
    for c in &mut ranked.candidates {
        c.play = play::play_figure(c, judge.ruleset(), judge.melds(), draws);
    }
    ranked.exact = ranked
        .candidates
        .iter()
        .all(|c| c.method == super::candidate::Method::Exact);
    ranked
}

/// The exact optimum for every candidate, or `None` if the search does not fit (within
/// a third of the budget; its states then added to `spent`).
fn optimal_tier(
    judge: &ShantenJudge,
    h: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    clock: &Clock,
    cands: &[DiscardCandidate],
    spent: &mut u64,
) -> Option<Ranked> {
    let mut solver = OptimalSolver::new(*judge, clock.at(0.33));
    let mut out = cands.to_vec();
    for c in &mut out {
        let left = without(h, c.tile.index());
        let Some((w, t)) = figures::optimal(&mut solver, &left, pool, draws) else {
            *spent += solver.states();
            return None;
        };
        c.set_exact(w, t, Continuation::Optimal);
    }
    Some(Ranked {
        candidates: out,
        exact: true,
        states: solver.states(),
        paths: 0,
    })
}

/// The plan for every shanten-keeping candidate (with its one change) and, for a tenpai
/// hand, the shanten-raising ones (advance or throw: the raise is the change); other
/// raising candidates get greedy rollouts and rank after the keeping ones. `None` if the
/// plan does not fit (within 60 % of the budget, and the effort's state bound; its states
/// then added to `spent`).
#[allow(clippy::too_many_arguments)]
fn plan_tier(
    judge: &ShantenJudge,
    h: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    clock: &Clock,
    cands: &[DiscardCandidate],
    best: i8,
    effort: &Effort,
    spent: &mut u64,
) -> Option<Ranked> {
    let mut planner = Planner::new(
        *judge,
        PlanConfig::ONE_CHANGE,
        h,
        pool,
        draws,
        clock.at(0.6),
    );
    if let Some(limit) = effort.plan_state_limit(best) {
        planner = planner.with_state_limit(limit);
    }
    let mut out = cands.to_vec();
    let mut roots = vec![None; out.len()];
    // Keeping candidates first: they are the likely choices. Breaking a tenpai hand at
    // once is worth weighing (a weak wait): advance or throw from 1-shanten is cheap.
    // Farther raises go to rollouts and rank after.
    for keep in [true, false] {
        for (c, root) in out.iter().zip(roots.iter_mut()) {
            let wanted = if keep {
                c.shanten == best
            } else {
                c.shanten > best && best <= RAISE_EXACT_UP_TO
            };
            if !wanted {
                continue;
            }
            match planner.root(h, c.tile.index(), keep) {
                Ok(Some(r)) => *root = Some(r),
                _ => {
                    *spent += planner.states();
                    return None;
                }
            }
        }
    }
    let seed = figures::seed_of(h, pool, draws);
    // The best three by the plan's value get the most paths.
    let mut order: Vec<usize> = (0..out.len()).filter(|&i| roots[i].is_some()).collect();
    order.sort_by(|&a, &b| {
        let (va, vb) = (
            planner.odds(roots[a].unwrap()),
            planner.odds(roots[b].unwrap()),
        );
        vb.win
            .total_cmp(&va.win)
            .then(vb.tenpai.total_cmp(&va.tenpai))
    });
    let mut paths = 0;
    for (rank, &i) in order.iter().enumerate() {
        let root = roots[i].unwrap();
        let max = if rank < 3 {
            effort.plan_paths.0
        } else {
            effort.plan_paths.1
        };
        paths += figures::simulate_plan(&planner, root, pool, seed, max, clock, 0.85, &mut out[i]);
        if out[i].shanten > best {
            // A raise spends the change: the plan is advance or throw from there.
            out[i].continuation = Continuation::AdvanceOrThrow;
        }
    }
    // Raising candidates of a 1- to 3-shanten hand: greedy rollouts, ranked after.
    let far: Vec<usize> = (0..out.len()).filter(|&i| roots[i].is_none()).collect();
    if !far.is_empty() {
        let hands = hands_after(h, &out, &far);
        let want = vec![effort.rollouts.1; far.len()];
        let (rolled, n) = figures::rollouts(judge, &hands, pool, draws, &want, seed, clock, 0.95);
        paths += n;
        for (&i, r) in far.iter().zip(&rolled) {
            r.write(&mut out[i]);
            out[i].rank.class = 1;
        }
    }
    Some(Ranked {
        candidates: out,
        exact: false,
        states: planner.states(),
        paths,
    })
}

/// Hands beyond the plan: advance or throw for the shanten-keeping candidates within
/// the effort's far states ([`FAR_STATES`] in full; exact figures), else greedy rollouts
/// ranked by shanten and ukeire first; the shanten-raising candidates always get greedy
/// rollouts and rank after the keeping ones.
#[allow(clippy::too_many_arguments)]
fn far_tier(
    judge: &ShantenJudge,
    h: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    clock: &Clock,
    mut out: Vec<DiscardCandidate>,
    best: i8,
    effort: &Effort,
) -> Ranked {
    let mut planner = Planner::new(
        *judge,
        PlanConfig::ADVANCE_OR_THROW,
        h,
        pool,
        draws,
        clock.at(0.5),
    )
    .with_state_limit(effort.far_states);
    let mut exact = vec![false; out.len()];
    let mut fits = true;
    for (c, e) in out.iter_mut().zip(exact.iter_mut()) {
        if c.shanten != best || !fits {
            continue;
        }
        match planner.root(h, c.tile.index(), false) {
            Ok(Some(root)) => {
                let odds = planner.odds(root);
                c.set_exact(odds.win, odds.tenpai, Continuation::AdvanceOrThrow);
                *e = true;
            }
            _ => fits = false,
        }
    }
    if !fits {
        exact.fill(false);
    }
    let rest: Vec<usize> = (0..out.len()).filter(|&i| !exact[i]).collect();
    let hands = hands_after(h, &out, &rest);
    // Ranked by shape first, only the keeping candidates with the most ukeire compete.
    let widest = rest
        .iter()
        .filter(|&&i| out[i].shanten == best)
        .map(|&i| out[i].ukeire.total)
        .max();
    let want: Vec<u64> = rest
        .iter()
        .map(|&i| {
            if out[i].shanten == best && Some(out[i].ukeire.total) == widest {
                effort.rollouts.0
            } else {
                effort.rollouts.1
            }
        })
        .collect();
    let seed = figures::seed_of(h, pool, draws);
    let (rolled, paths) = figures::rollouts(judge, &hands, pool, draws, &want, seed, clock, 0.95);
    for (&i, r) in rest.iter().zip(&rolled) {
        r.write(&mut out[i]);
        if out[i].shanten == best {
            out[i].rank.by_shape = true;
        } else {
            out[i].rank.class = 1;
        }
    }
    Ranked {
        candidates: out,
        exact: false,
        states: planner.states(),
        paths,
    }
}

/// The 3n+1 hand left after discarding tile `index` from the 3n+2 hand `h`.
fn without(h: &[u8; 34], index: usize) -> [u8; 34] {
    let mut left = *h;
    left[index] -= 1;
    left
}

/// The hands left after each candidate `out[i]` for `i` in `which`.
fn hands_after(h: &[u8; 34], out: &[DiscardCandidate], which: &[usize]) -> Vec<[u8; 34]> {
    which
        .iter()
        .map(|&i| without(h, out[i].tile.index()))
        .collect()
}
