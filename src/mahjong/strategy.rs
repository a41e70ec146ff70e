//! Discard and call decisions: take the option with the highest probability of winning
//! within the draws left (seed 003: "discard the tile after which the chance of winning
//! is highest; chi / pon / kan when it raises that chance").
//!
//! The probabilities are those of [`super::probability`] (its module docs state the model:
//! uniform draws from the shrinking unseen pool, the advance-or-throw policy class, no
//! calls inside the horizon). Exact when the computation fits the deadline, otherwise
//! the documented estimate of [`super::probability::estimate`] for every option of the
//! request (so that options are always compared on the same footing), with
//! `exact = false`.

use std::cmp::Ordering;
use std::fmt;
use std::time::Instant;

use super::caps::Caps;
use super::hand::Hand;
use super::meld::{Meld, MeldKind};
use super::probability::default_draws_left;
use super::probability::estimate::estimate;
use super::probability::eval::Eval;
use super::probability::exact::{ExactSolver, Odds, Stopped};
use super::rules::Ruleset;
use super::shanten::LackableSuits;
use super::tile::Tile;
use super::ukeire::{self, Ukeire};

/// A decision request that cannot be answered as posed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecisionError {
    /// A discard decision needs a 3n+2 hand (the drawn tile included).
    #[error("hand has {0} tiles; a discard needs 3n+2 tiles (the drawn tile included)")]
    DiscardNeedsDrawnTile(usize),
    /// A call decision needs a 3n+1 hand (waiting for a discard).
    #[error("hand has {0} tiles; a call decision needs 3n+1 tiles")]
    CallNeedsWaitingHand(usize),
    /// More draws than unseen tiles.
    #[error("{draws} draws exceed the {pool} unseen tiles")]
    DrawsBeyondPool {
        /// Draws asked for.
        draws: u32,
        /// Unseen tiles.
        pool: u32,
    },
    /// The offered tile would be a fifth copy (all four are in hand, melds or visible).
    #[error("offered tile {0} would be a fifth copy (four are in hand, melds and visible)")]
    OfferedFifthCopy(Tile),
    /// The offered tile does not exist in the ruleset (an honour under SICHUAN).
    #[error("offered tile {tile} does not exist under {ruleset}")]
    OfferedNotInSet {
        /// The tile.
        tile: Tile,
        /// The ruleset.
        ruleset: Ruleset,
    },
}

/// One discard of a 3n+2 hand with its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardCandidate {
    /// The tile discarded.
    pub tile: Tile,
    /// Shanten of the 3n+1 hand left.
    pub shanten: i8,
    /// Its ukeire (kinds lowering shanten with their unseen copies).
    pub ukeire: Ukeire,
    /// Probability of winning within the draws (0..=1).
    pub win_probability: f64,
    /// Probability of reaching tenpai within the draws (0..=1).
    pub tenpai_probability: f64,
}

/// The answer to a discard decision.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardAdvice {
    /// The 3n+2 hand is already a winning hand: declare it.
    pub is_winning: bool,
    /// Every distinct discard, best first: higher win probability (values equal to 12
    /// decimal places count as equal), then larger ukeire total, then tile order
    /// (`1m..9m, 1p.., 1s.., 1z..7z`).
    pub candidates: Vec<DiscardCandidate>,
    /// The draws left used (given, or [`default_draws_left`]).
    pub draws_left: u32,
    /// Exact under the model (false: the estimate, the budget ran out).
    pub exact: bool,
    /// DP states evaluated.
    pub states: u64,
}

impl DiscardAdvice {
    /// The suggested discard (the first candidate).
    pub fn discard(&self) -> Option<Tile> {
        self.candidates.first().map(|c| c.tile)
    }
}

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

/// The answer to a call decision.
#[derive(Debug, Clone, PartialEq)]
pub struct CallAdvice {
    /// The action.
    pub action: CallAction,
    /// The meld formed (offered tile included) for chi, pon and kan.
    pub meld: Option<Meld>,
    /// The discard after a chi or pon.
    pub discard: Option<Tile>,
    /// Win probability if the call is made (1 for a win; for a pass, that of the best
    /// call the hand could make, 0 if none).
    pub with_call: f64,
    /// Win probability if the player passes.
    pub without_call: f64,
    /// One sentence saying why.
    pub reason: String,
    /// The draws left used.
    pub draws_left: u32,
    /// Exact under the model (false: the estimate, the budget ran out).
    pub exact: bool,
    /// DP states evaluated.
    pub states: u64,
}

/// Ranks every distinct discard of the 3n+2 `hand` by win probability within
/// `draws_left` draws (default [`default_draws_left`] of the unseen pool).
///
/// Exact under the model of [`super::probability`] unless `deadline` passes first; then
/// every candidate gets the estimate and `exact` is false.
///
/// Errors: [`DecisionError::DiscardNeedsDrawnTile`] for a 3n+1 hand,
/// [`DecisionError::DrawsBeyondPool`].
pub fn suggest_discard(
    hand: &Hand,
    draws_left: Option<u32>,
    deadline: Option<Instant>,
) -> Result<DiscardAdvice, DecisionError> {
    let tiles = hand.concealed().len();
    if tiles % 3 != 2 {
        return Err(DecisionError::DiscardNeedsDrawnTile(tiles));
    }
    let unseen = hand.unseen();
    let draws = resolve_draws(draws_left, &unseen, hand.ruleset())?;
    let eval = Eval::new(hand.called(), hand.ruleset(), hand.lackable()).with_caps(hand.caps());
    let h = hand.concealed().0;
    let (candidates, exact, states) = rank_discards(eval, &h, &unseen, draws, deadline);
    Ok(DiscardAdvice {
        is_winning: eval.is_winning(&h),
        candidates,
        draws_left: draws,
        exact,
        states,
    })
}

/// Decides what to do with `offered`, discarded by the player `from`, given the 3n+1
/// `hand` (whose `visible` does not include the offered tile).
///
/// Options, each valued by the win probability within the draws (same model as
/// [`suggest_discard`]): WIN if the hand plus the tile is a winning hand (every ruleset
/// here allows winning on a discard; yaku and furiten are out of scope); PON with two
/// copies in hand; open KAN with three (its replacement draw counts as one more draw
/// from the same pool); CHI from the left when the ruleset has chi, for each way the
/// hand can make the sequence. After a chi or pon the best discard is taken (no
/// swap-calling restriction is modelled). The call with the highest win probability is
/// taken if it beats passing by more than 1e-12; otherwise PASS. The draws left are the
/// same whichever option is taken (a call skips other players' turns; not modelled).
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
    let mut unseen = hand.unseen();
    if unseen[offered.index()] == 0 {
        return Err(DecisionError::OfferedFifthCopy(offered));
    }
    unseen[offered.index()] -= 1;
    let draws = resolve_draws(draws_left, &unseen, ruleset)?;
    let h = hand.concealed().0;
    let x = offered.index();
    let called = hand.called();
    let lackable = hand.lackable();
    let eval = Eval::new(called, ruleset, lackable).with_caps(hand.caps());

    let mut won = h;
    won[x] += 1;
    let wins = eval.is_winning(&won);

    // The options with a call, each a (meld, concealed hand after the call).
    let mut calls: Vec<(CallAction, Meld, [u8; 34])> = Vec::new();
    if h[x] >= 2 {
        let mut after = h;
        after[x] -= 2;
        if let Some(m) = Meld::of_kind(MeldKind::Pon, offered) {
            calls.push((CallAction::Pon, m, after));
        }
    }
    if h[x] >= 3 {
        let mut after = h;
        after[x] -= 3;
        if let Some(m) = Meld::of_kind(MeldKind::OpenKan, offered) {
            calls.push((CallAction::Kan, m, after));
        }
    }
    if from == From::Left && ruleset.allows_chi() && !offered.is_honour() {
        let rank = offered.rank() as usize;
        for first_rank in rank.saturating_sub(2).max(1)..=rank.min(7) {
            let first = x + first_rank - rank;
            let mut after = h;
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
            if ok && let Some(m) = Meld::chi(Tile(first as u8)) {
                calls.push((CallAction::Chi, m, after));
            }
        }
    }

    let attempt = |deadline: Option<Instant>| -> Result<(Vec<CallOption>, Odds, u64), Stopped> {
        let mut states = 0;
        let mut solver = ExactSolver::new(eval, &h, &unseen, draws, deadline);
        let pass = solver.hand(&h, draws)?;
        states += solver.states();
        let mut options = Vec::with_capacity(calls.len());
        for (action, meld, after) in &calls {
            let e = Eval::new(called + 1, ruleset, lackable_after(lackable, ruleset, meld))
                .with_caps(caps_after(hand, meld));
            let (odds, discard, n) = value_after_call(*action, e, after, &unseen, draws, deadline)?;
            states += n;
            options.push(CallOption {
                action: *action,
                meld: *meld,
                discard,
                odds,
            });
        }
        Ok((options, pass, states))
    };
    let (options, pass, exact, states) = match attempt(deadline) {
        Ok((o, p, n)) => (o, p, true, n),
        Err(_) => {
            let pass = estimate(&eval, &h, &unseen, draws);
            let options = calls
                .iter()
                .map(|(action, meld, after)| {
                    let e = Eval::new(called + 1, ruleset, lackable_after(lackable, ruleset, meld))
                        .with_caps(caps_after(hand, meld));
                    let (odds, discard) = estimate_after_call(*action, e, after, &unseen, draws);
                    CallOption {
                        action: *action,
                        meld: *meld,
                        discard,
                        odds,
                    }
                })
                .collect();
            (options, pass, false, 0)
        }
    };

    let best = options
        .iter()
        .fold(None::<&CallOption>, |best, o| match best {
            Some(b) if b.odds.win >= o.odds.win => Some(b),
            _ => Some(o),
        });
    let advice = |action, meld, discard, with_call: f64, reason: String| CallAdvice {
        action,
        meld,
        discard,
        with_call,
        without_call: pass.win,
        reason,
        draws_left: draws,
        exact,
        states,
    };
    if wins {
        return Ok(advice(
            CallAction::Win,
            None,
            None,
            1.0,
            format!("{offered} completes the hand: win on the discard"),
        ));
    }
    Ok(match best {
        Some(b) if b.odds.win > pass.win + 1e-12 => {
            let discard = b
                .discard
                .map(|d| format!(", discarding {d}"))
                .unwrap_or_default();
            advice(
                b.action,
                Some(b.meld),
                b.discard,
                b.odds.win,
                format!(
                    "{} {}{discard} raises the win probability from {:.4} to {:.4}",
                    b.action, b.meld, pass.win, b.odds.win
                ),
            )
        }
        Some(b) => advice(
            CallAction::Pass,
            None,
            None,
            b.odds.win,
            format!(
                "passing keeps a win probability of {:.4}; the best call ({} {}) gives {:.4}",
                pass.win, b.action, b.meld, b.odds.win
            ),
        ),
        None => advice(
            CallAction::Pass,
            None,
            None,
            0.0,
            format!("no call can be made with {offered}"),
        ),
    })
}

/// One call the hand can make with its value.
struct CallOption {
    action: CallAction,
    meld: Meld,
    discard: Option<Tile>,
    odds: Odds,
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

/// Exact value after a call: chi/pon leave 3n+2 tiles and the best discard follows; a
/// kan leaves 3n+1 and draws a replacement (one more draw).
fn value_after_call(
    action: CallAction,
    eval: Eval,
    after: &[u8; 34],
    unseen: &[u8; 34],
    draws: u32,
    deadline: Option<Instant>,
) -> Result<(Odds, Option<Tile>, u64), Stopped> {
    if action == CallAction::Kan {
        let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
        let draws = (draws + 1).min(pool);
        let mut solver = ExactSolver::new(eval, after, unseen, draws, deadline);
        let odds = solver.hand(after, draws)?;
        return Ok((odds, None, solver.states()));
    }
    let mut solver = ExactSolver::new(eval, after, unseen, draws, deadline);
    let mut best: Option<(Odds, Tile)> = None;
    for d in 0..34 {
        if after[d] == 0 {
            continue;
        }
        if let Some(odds) = solver.discard(after, d)?
            && best.is_none_or(|(b, _)| odds.win > b.win)
        {
            best = Some((odds, Tile(d as u8)));
        }
    }
    let (odds, tile) = best.unwrap_or((
        Odds {
            win: 0.0,
            tenpai: 0.0,
        },
        Tile(0),
    ));
    Ok((odds, Some(tile), solver.states()))
}

/// [`value_after_call`] with the estimate.
fn estimate_after_call(
    action: CallAction,
    eval: Eval,
    after: &[u8; 34],
    unseen: &[u8; 34],
    draws: u32,
) -> (Odds, Option<Tile>) {
    if action == CallAction::Kan {
        let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
        return (estimate(&eval, after, unseen, (draws + 1).min(pool)), None);
    }
    let mut best: Option<(Odds, Tile)> = None;
    for d in 0..34 {
        if after[d] == 0 {
            continue;
        }
        let mut left = *after;
        left[d] -= 1;
        let odds = estimate(&eval, &left, unseen, draws);
        if best.is_none_or(|(b, _)| odds.win > b.win) {
            best = Some((odds, Tile(d as u8)));
        }
    }
    match best {
        Some((odds, tile)) => (odds, Some(tile)),
        None => (
            Odds {
                win: 0.0,
                tenpai: 0.0,
            },
            None,
        ),
    }
}

/// The draws to use: the caller's, checked against the pool, or the default estimate.
fn resolve_draws(
    draws_left: Option<u32>,
    unseen: &[u8; 34],
    ruleset: Ruleset,
) -> Result<u32, DecisionError> {
    let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
    match draws_left {
        Some(d) if d > pool => Err(DecisionError::DrawsBeyondPool { draws: d, pool }),
        Some(d) => Ok(d),
        None => Ok(default_draws_left(pool, ruleset)),
    }
}

/// Every distinct discard of the 3n+2 `h` with its figures, best first; exact when the
/// deadline allows (minimum-shanten discards are computed first), else estimated.
/// Returns (candidates, exact, states).
pub fn rank_discards(
    eval: Eval,
    h: &[u8; 34],
    unseen: &[u8; 34],
    draws: u32,
    deadline: Option<Instant>,
) -> (Vec<DiscardCandidate>, bool, u64) {
    let mut shells: Vec<DiscardCandidate> = Vec::new();
    let mut left = *h;
    for d in 0..34 {
        if h[d] == 0 {
            continue;
        }
        left[d] -= 1;
        let (shanten, uk) = ukeire::ukeire(
            &left,
            eval.melds(),
            eval.ruleset(),
            eval.lackable(),
            eval.caps(),
            unseen,
        );
        left[d] += 1;
        shells.push(DiscardCandidate {
            tile: Tile(d as u8),
            shanten,
            ukeire: uk,
            win_probability: 0.0,
            tenpai_probability: 0.0,
        });
    }
    // Cheapest and most relevant first: lowest shanten.
    let mut order: Vec<usize> = (0..shells.len()).collect();
    order.sort_by_key(|&i| (shells[i].shanten, shells[i].tile));
    // The fallback estimate must still fit before `deadline` when the exact phase is
    // cut short: time the estimate of one candidate and stop the exact phase early
    // enough to estimate them all (with 50 % slack) and still answer in time.
    let exact_deadline = deadline.map(|d| {
        let began = Instant::now();
        let mut left = *h;
        left[shells[order[0]].tile.index()] -= 1;
        std::hint::black_box(estimate(&eval, &left, unseen, draws));
        let reserve = began.elapsed().mul_f64(1.5 * shells.len() as f64);
        d.checked_sub(reserve).unwrap_or(began)
    });
    let mut solver = ExactSolver::new(eval, h, unseen, draws, exact_deadline);
    let mut exact = true;
    for &i in &order {
        match solver.discard(h, shells[i].tile.index()) {
            Ok(Some(odds)) => {
                shells[i].win_probability = odds.win;
                shells[i].tenpai_probability = odds.tenpai;
            }
            Ok(None) => {}
            Err(_) => {
                exact = false;
                break;
            }
        }
    }
    let states = solver.states();
    if !exact {
        for c in &mut shells {
            let mut left = *h;
            left[c.tile.index()] -= 1;
            let odds = estimate(&eval, &left, unseen, draws);
            c.win_probability = odds.win;
            c.tenpai_probability = odds.tenpai;
        }
    }
    shells.sort_by(compare_candidates);
    (shells, exact, states)
}

/// Best first: win probability, then tenpai probability (both to 12 decimal places),
/// lower shanten, larger ukeire total, tile order. The order of
/// [`DiscardAdvice::candidates`] (documented in `mahjong.proto`).
pub fn compare_candidates(a: &DiscardCandidate, b: &DiscardCandidate) -> Ordering {
    let q = |p: f64| (p * 1e12).round() as i64;
    q(b.win_probability)
        .cmp(&q(a.win_probability))
        .then(q(b.tenpai_probability).cmp(&q(a.tenpai_probability)))
        .then(a.shanten.cmp(&b.shanten))
        .then(b.ukeire.total.cmp(&a.ukeire.total))
        .then(a.tile.cmp(&b.tile))
}
