//! The search's tunable parameters.

use super::eval;

/// Tunable search parameters (the defaults are the engine's; self-play A/B runs vary
/// them, see BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Late move reductions for quiet moves.
    pub lmr: bool,
    /// Late move pruning: at non-PV nodes of depth <= `lmp_depth` (0 = off), quiet
    /// moves after the first `lmp_base + lmp_step * depth` are skipped.
    pub lmp_base: usize,
    /// See `lmp_base`.
    pub lmp_step: usize,
    /// See `lmp_base`.
    pub lmp_depth: i32,
    /// Weight of the opponent's point values in the evaluation, in eighths.
    pub defence_weight: i32,
    /// Fraction of the time given to VCT at the root, as 1/n.
    pub vct_share: u32,
    /// Check the opponent's VCF after each root candidate and keep only the moves that
    /// stop it (when some do).
    pub root_vcf_defence: bool,
    /// In the quiescence search, answer an opponent's open three (a straight-four
    /// threat) with the defences instead of standing pat.
    pub qs_defend: bool,
    /// Quiescence plies: fours (and their blocks) are followed this far.
    pub qs_plies: i32,
    /// Quiescence plies within which an open three is answered ([`Params::qs_defend`]).
    pub qs_check_plies: i32,
    /// Null-move pruning when the opponent has no four point.
    pub null_move: bool,
    /// The evaluation's tempo terms ([`eval::evaluate_threats`]).
    pub eval_threats: bool,
    /// The learned evaluation ([`eval::evaluate_learned`]) instead of the hand-made
    /// point values (with `defence_weight`; `eval_threats` is then ignored).
    pub learned_eval: bool,
    /// Percent of the time to the deadline after which no new iteration starts (when
    /// the caller gives no [`super::Limits::soft_deadline`]). An iteration cut short by
    /// the deadline still counts the root moves it finished ([`super::root`]).
    pub soft_percent: u32,
    /// Futility pruning: at non-PV nodes with 1 or 2 plies left, a quiet move is not
    /// searched when the static evaluation plus this margin per ply left is at most
    /// alpha (0 = off).
    pub futility_margin: i32,
    /// Threat extension: a node that must answer the opponent's open three (only the
    /// defences are searched) spends no depth on its move, as a forced block does, while
    /// it is at most twice the iteration's depth from the root; so the attacker's
    /// three counts as half a move and sequences of threes are read to their end.
    pub threat_extension: bool,
    /// Late move reductions by the logarithmic rule: the `i`-th quiet move at `depth`
    /// is reduced by ln(depth) x ln(i + 1) x 100 / this (0 = the fixed steps of
    /// 1 to 3 plies).
    pub lmr_divisor: i32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            lmr: true,
            lmp_base: 0,
            lmp_step: 4,
            lmp_depth: 3,
            defence_weight: eval::DEFENCE_WEIGHT,
            vct_share: 5,
            root_vcf_defence: false,
            qs_defend: true,
            qs_plies: 8,
            qs_check_plies: 2,
            null_move: false,
            eval_threats: false,
            learned_eval: false,
            soft_percent: 50,
            futility_margin: 0,
            threat_extension: false,
            lmr_divisor: 0,
        }
    }
}
