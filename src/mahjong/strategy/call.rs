//! Call decisions on another player's discard: pass, chi, pon, open kan or win, each
//! option valued like a discard candidate (the same tiers and continuations).

use std::fmt;
use std::time::Instant;

use super::candidate::{Continuation, DiscardCandidate, Method};
use super::clock::Clock;
use super::discard::{PLAN_MAX_SHANTEN, rank_discards_within};
use super::effort::Effort;
use super::figures;
use super::open_yaku::{Yakuhai, keeps_yaku};
use super::{DecisionError, resolve_draws};
use crate::mahjong::caps::Caps;
use crate::mahjong::hand::Hand;
use crate::mahjong::meld::{Meld, MeldKind};
use crate::mahjong::probability::optimal::OptimalSolver;
use crate::mahjong::probability::plan::{PlanConfig, Planner};
use crate::mahjong::probability::shanten_judge::ShantenJudge;
use crate::mahjong::rules::Ruleset;
use crate::mahjong::shanten::LackableSuits;
use crate::mahjong::tile::Tile;
use crate::mahjong::ukeire::Ukeire;

/// Whose discard is on offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum From {
    /// The previous player (the only one chi may take from).
    Left,
    /// The player opposite.
    Across,
    /// The next player.
    Right,
}

/// What to do with an offered discard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallAction {
    /// Let it go.
    Pass,
    /// Call a sequence (from the left only).
    Chi,
    /// Call three of a kind.
    Pon,
    /// Call four of a kind (open kan), then draw a replacement tile.
    Kan,
    /// Win on the discard.
    Win,
}

impl fmt::Display for CallAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CallAction::Pass => "pass",
            CallAction::Chi => "chi",
            CallAction::Pon => "pon",
            CallAction::Kan => "kan",
            CallAction::Win => "win",
        })
    }
}

/// The figures of one option: a probability with its standard error, how it was
/// computed and the continuation it belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionFigures {
    /// Win probability (1 for a win on the discard).
    pub win: f64,
    /// Its standard error (0 when exact).
    pub stderr: f64,
    /// How it was computed.
    pub method: Method,
    /// The continuation it belongs to.
    pub continuation: Continuation,
}

/// The answer to a call decision.
#[derive(Debug, Clone, PartialEq)]
pub struct CallAdvice {
    /// The action.
    pub action: CallAction,
    /// The meld formed (offered tile included) for chi, pon and kan.
    pub meld: Option<Meld>,
    /// The discard after a chi or pon.
    pub discard: Option<Tile>,
    /// The chosen call's figures (for a pass: those of the best call the hand could
    /// make, `None` if it can make none).
    pub with_call: Option<OptionFigures>,
    /// Passing's figures.
    pub without_call: OptionFigures,
    /// One sentence saying why.
    pub reason: String,
    /// The draws left used.
    pub draws_left: u32,
    /// Every figure used is exact.
    pub exact: bool,
    /// States the searches evaluated.
    pub states: u64,
    /// Paths simulated.
    pub paths: u64,
}

/// Decides what to do with `offered`, discarded by the player `from`, given the 3n+1
/// `hand` (whose `visible` does not include the offered tile).
///
/// Options, each valued by the win probability within the draws with the engine's
/// continuation (as [`super::suggest_discard`] values a discard): WIN if the hand plus
/// the tile is a winning hand (every ruleset here allows winning on a discard; yaku and
/// furiten of the win are out of scope; under RIICHI a call must keep a yaku, see
/// [`suggest_call_at`]); PON with two copies in hand; open KAN with three (its
/// replacement draw counts as one more draw from the same pool); CHI from the left when
/// the ruleset has chi, for each way the hand can make the sequence. After a chi or pon
/// the best discard follows (no swap-calling restriction is modelled). The call the
/// engine values highest is taken if it beats passing by more than 1e-12; otherwise
/// PASS. The draws left are the same whichever option is taken (a call skips other
/// players' turns; not modelled). The deadline is shared out between the options.
///
/// Errors: [`DecisionError::CallNeedsWaitingHand`], [`DecisionError::OfferedFifthCopy`],
/// [`DecisionError::OfferedNotInSet`], [`DecisionError::DrawsBeyondPool`].
pub fn suggest_call(
    hand: &Hand,
    offered: Tile,
    from: From,
    draws_left: Option<u32>,
    deadline: Option<Instant>,
) -> Result<CallAdvice, DecisionError> {
    suggest_call_at(
        hand,
        offered,
        from,
        draws_left,
        deadline,
        &Yakuhai::dragons(),
    )
}

/// [`suggest_call`] with the yakuhai tiles of the player's seat (the dragons and, at a
/// table, the round and seat winds). Under RIICHI a chi, pon or kan is considered only
/// when the open hand keeps a reachable yaku ([`super::open_yaku`]).
pub fn suggest_call_at(
    hand: &Hand,
    offered: Tile,
    from: From,
    draws_left: Option<u32>,
    deadline: Option<Instant>,
    yakuhai: &Yakuhai,
) -> Result<CallAdvice, DecisionError> {
    suggest_call_within(
        hand,
        offered,
        from,
        draws_left,
        deadline,
        yakuhai,
        &Effort::FULL,
    )
}

/// [`suggest_call_at`] within the work bounds `effort` (each option valued as a discard
/// decision within them, passing and a kan with at most `effort.option_paths` paths).
pub fn suggest_call_within(
    hand: &Hand,
    offered: Tile,
    from: From,
    draws_left: Option<u32>,
    deadline: Option<Instant>,
    yakuhai: &Yakuhai,
    effort: &Effort,
) -> Result<CallAdvice, DecisionError> {
    let (pool, draws) = pool_after_offer(hand, offered, draws_left)?;
    let h = hand.concealed().0;
    let ruleset = hand.ruleset();
    let judge = ShantenJudge::new(hand.called(), ruleset, hand.lackable()).with_caps(hand.caps());
    let mut won = h;
    won[offered.index()] += 1;
    let wins = judge.is_winning(&won);
    let mut calls = call_options(&h, offered, from, ruleset);
    let mut without_yaku = None;
    if ruleset == Ruleset::Riichi && !(hand.melds().is_empty() && hand.called() > 0) {
        calls.retain(|c| {
            let melds: Vec<Meld> = hand.melds().iter().copied().chain([c.meld]).collect();
            let keeps = keeps_yaku(&melds, &c.after, yakuhai);
            if !keeps && without_yaku.is_none() {
                without_yaku = Some(format!("{} {}", c.action, c.meld));
            }
            keeps
        });
    }
    let clock = Clock::new(deadline);
    let share = 1.0 / (calls.len() + 1) as f64;
    let pass = value_hand(&judge, &h, &pool, draws, clock.at(share), effort);
    let choice = if wins {
        Choice::win(offered)
    } else {
        let (best, states, paths) =
            value_calls(hand, &calls, offered, &pool, draws, &clock, share, effort);
        Choice::between(best, &pass, offered, states, paths)
    };
    let mut advice = choice.advice(pass, draws);
    if let (CallAction::Pass, None, Some(call)) =
        (advice.action, advice.with_call.as_ref(), without_yaku)
    {
        advice.reason =
            format!("{call} would leave an open hand without a reachable yaku (riichi rules)");
    }
    Ok(advice)
}

/// The unseen pool once the offered tile is out of it, and the draws left: the checks
/// of the hand's size and of the offered tile.
pub(super) fn pool_after_offer(
    hand: &Hand,
    offered: Tile,
    draws_left: Option<u32>,
) -> Result<([u8; 34], u32), DecisionError> {
    let tiles = hand.concealed().len();
    if tiles % 3 != 1 {
        return Err(DecisionError::CallNeedsWaitingHand(tiles));
    }
    let ruleset = hand.ruleset();
    if offered.is_honour() && !ruleset.has_honours() {
        return Err(DecisionError::OfferedNotInSet {
            tile: offered,
            ruleset,
        });
    }
    let mut pool = hand.unseen();
    if pool[offered.index()] == 0 {
        return Err(DecisionError::OfferedFifthCopy(offered));
    }
    pool[offered.index()] -= 1;
    let draws = resolve_draws(draws_left, &pool, ruleset)?;
    Ok((pool, draws))
}

/// A call the hand can make on the offered tile.
struct CallOption {
    action: CallAction,
    /// The meld formed, the offered tile included.
    meld: Meld,
    /// The concealed hand after the call.
    after: [u8; 34],
}

/// The calls the 3n+1 hand `h` can make on `offered` from `from`: pon with two copies,
/// open kan with three, chi from the left (where the ruleset has it) for each way the
/// hand makes the sequence.
fn call_options(h: &[u8; 34], offered: Tile, from: From, ruleset: Ruleset) -> Vec<CallOption> {
    let x = offered.index();
    let mut calls = Vec::new();
    for (action, kind, used) in [
        (CallAction::Pon, MeldKind::Pon, 2),
        (CallAction::Kan, MeldKind::OpenKan, 3),
    ] {
        if h[x] >= used {
            let mut after = *h;
            after[x] -= used;
            if let Some(meld) = Meld::of_kind(kind, offered) {
                calls.push(CallOption {
                    action,
                    meld,
                    after,
                });
            }
        }
    }
    if from == From::Left && ruleset.allows_chi() && !offered.is_honour() {
        let rank = offered.rank() as usize;
        for first_rank in rank.saturating_sub(2).max(1)..=rank.min(7) {
            let first = x + first_rank - rank;
            let mut after = *h;
            let mut ok = true;
            for (i, c) in after.iter_mut().enumerate().skip(first).take(3) {
                if i != x {
                    if *c == 0 {
                        ok = false;
                    } else {
                        *c -= 1;
                    }
                }
            }
            if ok && let Some(meld) = Meld::chi(Tile(first as u8)) {
                calls.push(CallOption {
                    action: CallAction::Chi,
                    meld,
                    after,
                });
            }
        }
    }
    calls
}

/// Values every call option, the `k`-th by the clock's share `share * (k + 2)` (the
/// first share went to passing): the best (the first of equals), and the states and
/// paths all of them cost.
#[allow(clippy::too_many_arguments)]
fn value_calls(
    hand: &Hand,
    calls: &[CallOption],
    offered: Tile,
    pool: &[u8; 34],
    draws: u32,
    clock: &Clock,
    share: f64,
    effort: &Effort,
) -> (Option<(CallAction, Meld, Valued)>, u64, u64) {
    let ruleset = hand.ruleset();
    let (mut states, mut paths) = (0, 0);
    let mut best: Option<(CallAction, Meld, Valued)> = None;
    for (k, call) in calls.iter().enumerate() {
        let judge = ShantenJudge::new(
            hand.called() + 1,
            ruleset,
            lackable_after(hand.lackable(), ruleset, &call.meld),
        )
        .with_caps(caps_after(hand, &call.meld));
        let until = clock.at(share * (k + 2) as f64);
        let v = if call.action == CallAction::Kan {
            // The replacement draw counts as one more draw from the same pool.
            let size: u32 = pool.iter().map(|&c| u32::from(c)).sum();
            value_hand(
                &judge,
                &call.after,
                pool,
                (draws + 1).min(size),
                until,
                effort,
            )
        } else {
            // Under RIICHI (Tenhou's rules) the discard after the call may not swap.
            let forbidden = if ruleset == Ruleset::Riichi {
                call.meld.kuikae(offered)
            } else {
                Vec::new()
            };
            value_after_call(&judge, &call.after, pool, draws, until, &forbidden, effort)
        };
        states += v.states;
        paths += v.paths;
        if best.as_ref().is_none_or(|(_, _, b)| v.value > b.value) {
            best = Some((call.action, call.meld, v));
        }
    }
    (best, states, paths)
}

/// The option taken, before passing's figures join it.
struct Choice {
    action: CallAction,
    meld: Option<Meld>,
    discard: Option<Tile>,
    /// The chosen call's figures (for a pass: the best call's).
    with_call: Option<Valued>,
    reason: String,
    /// States and paths the call options cost (passing's are added by [`Choice::advice`]).
    states: u64,
    paths: u64,
}

impl Choice {
    /// A win on the offered tile.
    fn win(offered: Tile) -> Choice {
        Choice {
            action: CallAction::Win,
            meld: None,
            discard: None,
            with_call: Some(Valued {
                figures: OptionFigures {
                    win: 1.0,
                    stderr: 0.0,
                    method: Method::Exact,
                    continuation: Continuation::Optimal,
                },
                value: 1.0,
                discard: None,
                states: 0,
                paths: 0,
            }),
            reason: format!("{offered} completes the hand: win on the discard"),
            states: 0,
            paths: 0,
        }
    }

    /// The best call if it beats passing by more than 1e-12, else a pass.
    fn between(
        best: Option<(CallAction, Meld, Valued)>,
        pass: &Valued,
        offered: Tile,
        states: u64,
        paths: u64,
    ) -> Choice {
        let (action, meld, discard, with_call, reason) = match best {
            Some((action, meld, v)) if v.value > pass.value + 1e-12 => {
                let discard = v
                    .discard
                    .map(|d| format!(", discarding {d}"))
                    .unwrap_or_default();
                let reason = format!(
                    "{action} {meld}{discard} raises the win probability from {:.4} to {:.4}",
                    pass.figures.win, v.figures.win
                );
                (action, Some(meld), v.discard, Some(v), reason)
            }
            Some((action, meld, v)) => {
                let reason = format!(
                    "passing keeps a win probability of {:.4}; the best call ({action} {meld}) gives {:.4}",
                    pass.figures.win, v.figures.win
                );
                (CallAction::Pass, None, None, Some(v), reason)
            }
            None => (
                CallAction::Pass,
                None,
                None,
                None,
                format!("no call can be made with {offered}"),
            ),
        };
        Choice {
            action,
            meld,
            discard,
            with_call,
            reason,
            states,
            paths,
        }
    }

    /// The answer, with passing's figures `pass` and the draws left used.
    fn advice(self, pass: Valued, draws: u32) -> CallAdvice {
        CallAdvice {
            action: self.action,
            meld: self.meld,
            discard: self.discard,
            exact: pass.figures.method == Method::Exact
                && self
                    .with_call
                    .is_none_or(|w| w.figures.method == Method::Exact),
            with_call: self.with_call.map(|w| w.figures),
            without_call: pass.figures,
            reason: self.reason,
            draws_left: draws,
            states: pass.states + self.states,
            paths: pass.paths + self.paths,
        }
    }
}

/// One option's figures, the engine's value for comparing options, and what it cost.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Valued {
    figures: OptionFigures,
    /// The engine's value (the plan's own, or the figure).
    value: f64,
    /// The discard after a chi or pon.
    discard: Option<Tile>,
    states: u64,
    paths: u64,
}

impl Valued {
    fn of(c: &DiscardCandidate, states: u64, paths: u64) -> Valued {
        Valued {
            figures: OptionFigures {
                win: c.win_probability,
                stderr: c.win_stderr,
                method: c.method,
                continuation: c.continuation,
            },
            value: c.rank.win,
            discard: Some(c.tile),
            states,
            paths,
        }
    }
}

/// After a chi or pon: the best discard of the 3n+2 hand, valued as a discard decision.
fn value_after_call(
    judge: &ShantenJudge,
    after: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    deadline: Option<Instant>,
    forbidden: &[Tile],
    effort: &Effort,
) -> Valued {
    let ranked = rank_discards_within(judge, after, pool, draws, deadline, effort);
    match ranked
        .candidates
        .iter()
        .find(|c| !forbidden.contains(&c.tile))
    {
        Some(c) => Valued::of(c, ranked.states, ranked.paths),
        None => Valued {
            figures: OptionFigures {
                win: 0.0,
                stderr: 0.0,
                method: Method::Exact,
                continuation: Continuation::Optimal,
            },
            value: 0.0,
            discard: None,
            states: ranked.states,
            paths: ranked.paths,
        },
    }
}

/// A 3n+1 hand (passing, or after a kan) valued with the tiers of a discard decision
/// (within `effort`; the states of a search that did not fit counted).
fn value_hand(
    judge: &ShantenJudge,
    h: &[u8; 34],
    pool: &[u8; 34],
    draws: u32,
    deadline: Option<Instant>,
    effort: &Effort,
) -> Valued {
    let mut spent = 0;
    let clock = Clock::new(deadline);
    let mut c = DiscardCandidate::shell(Tile(0), judge.shanten(h), Ukeire::default());
    let seed = figures::seed_of(h, pool, draws);
    let size: u32 = pool.iter().map(|&c| u32::from(c)).sum();
    let draws = draws.min(size);
    if draws == 0 {
        c.set_exact(
            0.0,
            if c.shanten <= 0 { 1.0 } else { 0.0 },
            Continuation::Optimal,
        );
        return valued(&c, 0, 0);
    }
    if figures::optimal_fits(pool, draws, 1) {
        let mut solver = OptimalSolver::new(*judge, clock.at(0.33));
        if let Some((w, t)) = figures::optimal(&mut solver, h, pool, draws) {
            c.set_exact(w, t, Continuation::Optimal);
            return valued(&c, solver.states(), 0);
        }
        spent += solver.states();
    }
    if c.shanten <= PLAN_MAX_SHANTEN {
        let mut planner = Planner::new(
            *judge,
            PlanConfig::ONE_CHANGE,
            h,
            pool,
            draws,
            clock.at(0.6),
        );
        if let Some(limit) = effort.plan_state_limit(c.shanten) {
            planner = planner.with_state_limit(limit);
        }
        let max = effort.option_paths;
        if let Ok(root) = planner.draw_root(h, true) {
            let paths =
                figures::simulate_plan(&planner, root, pool, seed, max, &clock, 0.9, &mut c);
            return valued(&c, spent + planner.states(), paths);
        }
        spent += planner.states();
    }
    let mut planner = Planner::new(
        *judge,
        PlanConfig::ADVANCE_OR_THROW,
        h,
        pool,
        draws,
        clock.at(0.5),
    )
    .with_state_limit(effort.far_states);
    if let Ok(root) = planner.draw_root(h, false) {
        let odds = planner.odds(root);
        c.set_exact(odds.win, odds.tenpai, Continuation::AdvanceOrThrow);
        return valued(&c, spent + planner.states(), 0);
    }
    let want = [effort.option_paths];
    let (rolled, paths) = figures::rollouts(judge, &[*h], pool, draws, &want, seed, &clock, 0.95);
    rolled[0].write(&mut c);
    valued(&c, spent + planner.states(), paths)
}

fn valued(c: &DiscardCandidate, states: u64, paths: u64) -> Valued {
    Valued {
        discard: None,
        ..Valued::of(c, states, paths)
    }
}

/// Copy caps after calling `meld`: the hand's melds and the new one.
fn caps_after(hand: &Hand, meld: &Meld) -> Caps {
    let mut melds = hand.melds().to_vec();
    melds.push(*meld);
    Caps::from_melds(&melds)
}

/// Suits a SICHUAN hand may still lack after calling `meld` (its suit is ruled out).
fn lackable_after(lackable: LackableSuits, ruleset: Ruleset, meld: &Meld) -> LackableSuits {
    if ruleset.requires_missing_suit() && !meld.tile().is_honour() {
        lackable & !(1 << (meld.tile().index() / 9))
    } else {
        lackable
    }
}
