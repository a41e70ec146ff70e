//! The shape-only answers: what the service sends when the engine has not answered by
//! the time the answer is due (its thread starved by other processes;
//! `crate::service::run_or_fallback_with`). They cost microseconds and compute no
//! probability.
//!
//! - A discard: every distinct discard ranked by the shanten it leaves, then by its
//!   ukeire (the unseen copies of the kinds that lower shanten), then tile order: the
//!   classic efficiency order the engine's greedy continuation also follows. Every
//!   candidate's probabilities are 0 with [`Method::NotComputed`].
//! - A call: pass (always legal), its figures not computed either.

use super::candidate::{Continuation, DiscardCandidate, Method, shells};
use super::discard::DiscardSetup;
use super::{CallAction, CallAdvice, DecisionError, DiscardAdvice, OptionFigures};
use crate::mahjong::hand::Hand;
use crate::mahjong::tile::Tile;

/// The shape-only discard ranking of the 3n+2 `hand` (see the module docs); the same
/// errors as [`super::suggest_discard`].
pub fn discard_by_shape(
    hand: &Hand,
    draws_left: Option<u32>,
) -> Result<DiscardAdvice, DecisionError> {
    let DiscardSetup {
        judge,
        h,
        pool,
        draws,
    } = DiscardSetup::of(hand, draws_left)?;
    let mut candidates = shells(&judge, &h, &pool);
    for c in &mut candidates {
        c.method = Method::NotComputed;
        c.continuation = Continuation::Greedy;
    }
    candidates.sort_by(|a: &DiscardCandidate, b: &DiscardCandidate| {
        a.shanten
            .cmp(&b.shanten)
            .then(b.ukeire.total.cmp(&a.ukeire.total))
            .then(a.tile.cmp(&b.tile))
    });
    Ok(DiscardAdvice {
        is_winning: judge.is_winning(&h),
        candidates,
        draws_left: draws,
        exact: false,
        states: 0,
        paths: 0,
    })
}

/// The shape-only call answer: pass, with `reason` saying why.
pub fn pass_by_shape(
    hand: &Hand,
    offered: Tile,
    draws_left: Option<u32>,
    reason: String,
) -> Result<CallAdvice, DecisionError> {
    let (_, draws) = super::call::pool_after_offer(hand, offered, draws_left)?;
    Ok(CallAdvice {
        action: CallAction::Pass,
        meld: None,
        discard: None,
        with_call: None,
        without_call: OptionFigures {
            win: 0.0,
            stderr: 0.0,
            method: Method::NotComputed,
            continuation: Continuation::Greedy,
        },
        reason,
        draws_left: draws,
        exact: false,
        states: 0,
        paths: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::rules::Ruleset;

    #[test]
    fn the_shape_ranking_puts_the_lone_honour_first() {
        // 123m 456p 789s 11z 22z 5z: throwing the lone 5z leaves tenpai on the 1z/2z
        // shanpon (copies unseen: 2 + 2 = 4); every other discard breaks a set or a pair
        // and leaves 1-shanten.
        let hand = Hand::parse("123m456p789s11225z", vec![], "", Ruleset::Riichi).unwrap();
        let advice = discard_by_shape(&hand, Some(10)).unwrap();
        let first = &advice.candidates[0];
        assert_eq!(first.tile.to_string(), "5z");
        assert_eq!((first.shanten, first.ukeire.total), (0, 4));
        assert!(advice.candidates[1..].iter().all(|c| c.shanten >= 1));
        assert!(
            advice
                .candidates
                .iter()
                .all(|c| c.method == Method::NotComputed && c.win_probability == 0.0)
        );
        assert!(!advice.exact);
    }

    #[test]
    fn the_shape_answers_keep_the_engines_errors() {
        let hand = Hand::parse("123m456p789s1122z", vec![], "", Ruleset::Riichi).unwrap();
        assert_eq!(
            discard_by_shape(&hand, None),
            Err(DecisionError::DiscardNeedsDrawnTile(13))
        );
        let advice = pass_by_shape(&hand, "3z".parse().unwrap(), Some(5), "late".into());
        assert_eq!(advice.unwrap().action, CallAction::Pass);
    }
}
