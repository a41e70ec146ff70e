//! `gameai.v1.MahjongService`: translation between the proto messages and the mahjong
//! engine (`crate::mahjong`).
//!
//! The pieces every method reads or writes alike (ruleset, melds, the hand, ukeire) are
//! translated here, once, so that every method words a fault alike; `AnalyzeMahjongHand`
//! is in `mod analyze` (shanten and ukeire); `SuggestMahjongDiscard` and
//! `SuggestMahjongCall` are in `mod suggest` (win probability,
//! `crate::mahjong::strategy`).

use tonic::{Request, Response, Status};

use crate::mahjong::hand::{InvalidHand, MarkedRedFives};
use crate::mahjong::strategy::From as StrategyFrom;
use crate::mahjong::table::{OwnTiles, Table};
use crate::mahjong::tile::{RedFives, Tile};
use crate::mahjong::ukeire::Ukeire;
use crate::mahjong::{Hand, MahjongError, Meld, MeldKind, Ruleset, TileCounts};
use crate::proto::mahjong_service_server::MahjongService;
use crate::proto::{
    self, AnalyzeMahjongHandRequest, AnalyzeMahjongHandResponse, ScoreMahjongHandRequest,
    ScoreMahjongHandResponse, SuggestMahjongCallRequest, SuggestMahjongCallResponse,
    SuggestMahjongDiscardRequest, SuggestMahjongDiscardResponse,
};
use crate::service::error::invalid_argument;
use crate::service::mahjong_table::table_from_proto;

/// Handler of `gameai.v1.MahjongService`.
#[derive(Clone, Debug, Default)]
pub struct MahjongApi {}

#[tonic::async_trait]
impl MahjongService for MahjongApi {
    async fn suggest_mahjong_discard(
        &self,
        request: Request<SuggestMahjongDiscardRequest>,
    ) -> Result<Response<SuggestMahjongDiscardResponse>, Status> {
        suggest::discard(request).await
    }

    async fn suggest_mahjong_call(
        &self,
        request: Request<SuggestMahjongCallRequest>,
    ) -> Result<Response<SuggestMahjongCallResponse>, Status> {
        suggest::call(request).await
    }

    async fn analyze_mahjong_hand(
        &self,
        request: Request<AnalyzeMahjongHandRequest>,
    ) -> Result<Response<AnalyzeMahjongHandResponse>, Status> {
        analyze::analyze_hand(request)
    }

    async fn score_mahjong_hand(
        &self,
        request: Request<ScoreMahjongHandRequest>,
    ) -> Result<Response<ScoreMahjongHandResponse>, Status> {
        super::mahjong_scoring::score_hand(request)
    }
}

/// The ruleset of a request; `RULESET_UNSPECIFIED` is GENERAL.
fn ruleset_from_proto(value: i32) -> Result<Ruleset, Status> {
    match proto::Ruleset::try_from(value) {
        Ok(proto::Ruleset::Unspecified | proto::Ruleset::General) => Ok(Ruleset::General),
        Ok(proto::Ruleset::Sichuan) => Ok(Ruleset::Sichuan),
        Ok(proto::Ruleset::Riichi) => Ok(Ruleset::Riichi),
        Err(_) => Err(invalid_argument(
            "ruleset",
            format!("{value} is not a Ruleset value"),
        )),
    }
}

/// One meld of a request, with the red fives its tiles mark; an unknown kind value is
/// named as such, not as "unspecified".
pub(super) fn meld_from_proto(
    index: usize,
    meld: &proto::Meld,
) -> Result<(Meld, RedFives), Status> {
    let kind = match proto::MeldKind::try_from(meld.kind) {
        Ok(proto::MeldKind::Chi) => MeldKind::Chi,
        Ok(proto::MeldKind::Pon) => MeldKind::Pon,
        Ok(proto::MeldKind::OpenKan) => MeldKind::OpenKan,
        Ok(proto::MeldKind::ClosedKan) => MeldKind::ClosedKan,
        Ok(proto::MeldKind::AddedKan) => MeldKind::AddedKan,
        Ok(proto::MeldKind::Unspecified) => {
            return Err(invalid_argument(
                &format!("melds[{index}].kind"),
                MahjongError::UnspecifiedMeldKind,
            ));
        }
        Err(_) => {
            return Err(invalid_argument(
                &format!("melds[{index}].kind"),
                format!("{} is not a MeldKind value", meld.kind),
            ));
        }
    };
    Meld::parse_with_red_fives(kind, &meld.tiles)
        .map_err(|e| invalid_argument(&format!("melds[{index}].tiles"), e))
}

/// The player's own tiles as a request gives them: the concealed hand and the melds,
/// each with the red fives it marks.
pub(super) struct OwnParts {
    concealed: TileCounts,
    concealed_red: RedFives,
    melds: Vec<Meld>,
    melds_red: RedFives,
}

impl OwnParts {
    fn tiles(&self) -> OwnTiles<'_> {
        OwnTiles {
            concealed: &self.concealed,
            concealed_red: self.concealed_red,
            melds: &self.melds,
            melds_red: self.melds_red,
        }
    }
}

/// Parses `hand` and `melds`; faults name `hand`, `melds[i].kind` or `melds[i].tiles`.
fn own_from_proto(hand: &str, melds: &[proto::Meld]) -> Result<OwnParts, Status> {
    let (concealed, concealed_red) =
        TileCounts::parse_with_red_fives(hand).map_err(|e| invalid_argument("hand", e))?;
    let mut parsed = Vec::with_capacity(melds.len());
    let mut melds_red = RedFives::NONE;
    for (i, m) in melds.iter().enumerate() {
        let (meld, red) = meld_from_proto(i, m)?;
        parsed.push(meld);
        melds_red = melds_red.plus(&red);
    }
    Ok(OwnParts {
        concealed,
        concealed_red,
        melds: parsed,
        melds_red,
    })
}

/// The validated hand from its parts and the visible tiles; faults name `hand`,
/// `melds` or `visible` (at a table the visible tiles come from it, already checked).
fn hand_from_parts(
    own: &OwnParts,
    visible: TileCounts,
    visible_red: RedFives,
    ruleset: Ruleset,
) -> Result<Hand, Status> {
    let marked = MarkedRedFives {
        hand: own.concealed_red,
        melds: own.melds_red,
        visible: visible_red,
    };
    Hand::new(own.concealed, own.melds.clone(), visible, ruleset)
        .and_then(|hand| hand.with_red_fives(marked))
        .map_err(|InvalidHand { field, error }| invalid_argument(&field.to_string(), error))
}

/// The validated hand of a request, read in the proto's field order (hand, melds,
/// visible); faults name `hand`, `melds[i].kind`, `melds[i].tiles`, `melds` or `visible`.
fn hand_from_proto(
    hand: &str,
    melds: &[proto::Meld],
    visible: &str,
    ruleset: Ruleset,
) -> Result<Hand, Status> {
    let own = own_from_proto(hand, melds)?;
    let (visible, visible_red) =
        TileCounts::parse_with_red_fives(visible).map_err(|e| invalid_argument("visible", e))?;
    hand_from_parts(&own, visible, visible_red, ruleset)
}

/// With a table: `visible` and `draws_left` come from it and must not be given too.
fn reject_table_derived(visible: &str, draws_left: Option<u32>) -> Result<(), Status> {
    if !visible.is_empty() {
        return Err(invalid_argument(
            "visible",
            "derived from table; leave it empty when table is given",
        ));
    }
    if draws_left.is_some() {
        return Err(invalid_argument(
            "draws_left",
            "derived from table.live_wall_tiles; leave it unset when table is given",
        ));
    }
    Ok(())
}

/// The hand and the checked table of a request with a table: the hand is checked alone
/// first (its own faults name `hand` / `melds`), then the table against it, then the
/// hand with the visible tiles the table shows (`leave_out`: the tile on offer, which
/// the call engine counts itself).
fn hand_at_table(
    hand: &str,
    melds: &[proto::Meld],
    table: &proto::MahjongTable,
    ruleset: Ruleset,
    offer: Option<(Tile, StrategyFrom)>,
) -> Result<(Hand, Table), Status> {
    let own = own_from_proto(hand, melds)?;
    hand_from_parts(&own, TileCounts::EMPTY, RedFives::NONE, ruleset)?;
    let table = table_from_proto(table, own.tiles(), ruleset, offer)?;
    let visible = table.visible(offer.map(|(t, _)| t));
    Ok((
        hand_from_parts(&own, visible, RedFives::NONE, ruleset)?,
        table,
    ))
}

/// How a discard is written: a five is `0m` only when every five of that suit the hand
/// holds is red; otherwise `5m` means a plain five (the red one is a dora worth keeping).
fn discard_name(tile: Tile, hand: &Hand) -> String {
    let red = hand.red_fives().count(tile.suit());
    if tile.rank() == 5 && !tile.is_honour() && red > 0 && red >= hand.concealed().count(tile) {
        format!("0{}", tile.suit().letter())
    } else {
        tile.to_string()
    }
}

/// Effective tiles with their unseen copies.
fn ukeire_to_proto(u: &Ukeire) -> proto::Ukeire {
    proto::Ukeire {
        tiles: u
            .tiles
            .iter()
            .map(|&(tile, count)| proto::TileCount {
                tile: tile.to_string(),
                count: u32::from(count),
            })
            .collect(),
        total: u.total,
    }
}

/// `AnalyzeMahjongHand`: validation of hand, melds, visible tiles and ruleset, then
/// shanten per form and ukeire from `crate::mahjong`.
mod analyze {
    use tonic::{Request, Response, Status};

    use super::{hand_from_proto, ruleset_from_proto, ukeire_to_proto};
    use crate::mahjong::Hand;
    use crate::mahjong::ukeire;
    use crate::proto::{self, AnalyzeMahjongHandRequest, AnalyzeMahjongHandResponse};

    pub(super) fn analyze_hand(
        request: Request<AnalyzeMahjongHandRequest>,
    ) -> Result<Response<AnalyzeMahjongHandResponse>, Status> {
        let req = request.into_inner();
        let ruleset = ruleset_from_proto(req.ruleset)?;
        let hand = hand_from_proto(&req.hand, &req.melds, &req.visible, ruleset)?;
        // A few hundred table lookups (~0.1 ms): cheaper than a hop to a blocking thread.
        Ok(Response::new(analyze(&hand)))
    }

    /// Shanten per form, winning or not, and the ukeire (3n+1) or per-discard ukeire (3n+2).
    fn analyze(hand: &Hand) -> AnalyzeMahjongHandResponse {
        let forms = hand.shanten_forms();
        let counts = &hand.concealed().0;
        let unseen = hand.unseen();
        let (called, ruleset, lackable) = (hand.called(), hand.ruleset(), hand.lackable());
        let caps = hand.caps();
        let mut response = AnalyzeMahjongHandResponse {
            shanten: i32::from(forms.min()),
            shanten_regular: i32::from(forms.regular),
            shanten_seven_pairs: forms.seven_pairs.map(i32::from),
            shanten_thirteen_orphans: forms.thirteen_orphans.map(i32::from),
            is_winning: hand.is_winning(),
            ukeire: None,
            discards: Vec::new(),
        };
        if hand.is_draw_complete() {
            response.discards = ukeire::discards(counts, called, ruleset, lackable, &caps, &unseen)
                .iter()
                .map(|d| proto::DiscardAnalysis {
                    tile: d.discard.to_string(),
                    shanten: i32::from(d.shanten),
                    ukeire: Some(ukeire_to_proto(&d.ukeire)),
                })
                .collect();
        } else {
            let (_, u) = ukeire::ukeire(counts, called, ruleset, lackable, &caps, &unseen);
            response.ukeire = Some(ukeire_to_proto(&u));
        }
        response
    }
}

/// SuggestMahjongDiscard and SuggestMahjongCall: validation and translation around
/// [`crate::mahjong::strategy`] (the model is documented in
/// [`crate::mahjong::probability`]).
mod suggest {
    use std::time::Instant;

    use tonic::{Request, Response, Status};

    use super::{
        discard_name, hand_at_table, hand_from_proto, reject_table_derived, ruleset_from_proto,
        ukeire_to_proto,
    };
    use crate::mahjong::Hand;
    use crate::mahjong::strategy::{
        self, CallAction, Continuation, DecisionError, From, Method, OptionFigures,
    };
    use crate::mahjong::table::{self, Candidate as TableCandidate, Table};
    use crate::mahjong::tile::Tile;
    use crate::proto;
    use crate::service::error::invalid_argument;
    use crate::service::{deadlines, run_or_fallback_with};

    /// `SuggestMahjongDiscard`: every distinct discard of a 3n+2 hand ranked by win
    /// probability within the draws left.
    ///
    /// INVALID_ARGUMENT naming the field: `ruleset` (unknown value), `hand` (not mpsz,
    /// not 3n+2 tiles, honours under SICHUAN), `melds[i].kind` / `melds[i].tiles` (bad
    /// meld), `melds` (a chi under SICHUAN, a fifth copy), `visible` (not mpsz, a fifth
    /// copy across hand + melds + visible); under RIICHI a second red five of a suit
    /// names the field it appears in; `draws_left` (more than the unseen tiles). With a
    /// `table`: `visible` / `draws_left` given as well, and every fault of the table
    /// named by its path (`table.opponents[1].river[3]`, see
    /// [`crate::mahjong::table::check`]).
    pub async fn discard(
        request: Request<proto::SuggestMahjongDiscardRequest>,
    ) -> Result<Response<proto::SuggestMahjongDiscardResponse>, Status> {
        let started = Instant::now();
        let times = deadlines(&request, request.get_ref().budget_ms);
        let deadline = times.work;
        let req = request.into_inner();
        let ruleset = ruleset_from_proto(req.ruleset)?;
        let (hand, draws, table) = match &req.table {
            None => (
                hand_from_proto(&req.hand, &req.melds, &req.visible, ruleset)?,
                req.draws_left,
                None,
            ),
            Some(t) => {
                reject_table_derived(&req.visible, req.draws_left)?;
                let (hand, table) = hand_at_table(&req.hand, &req.melds, t, ruleset, None)?;
                (hand, Some(table.draws_left_after_discard()), Some(table))
            }
        };
        let shown = hand.clone();
        let quick = hand.clone();
        let at = table.clone();
        // Late (the engine thread starved): the shape-only ranking, in microseconds.
        // At a table the engine's work is bounded (`table::effort`).
        let advice = run_or_fallback_with(
            times.answer,
            move || strategy::discard_by_shape(&quick, draws),
            move || match &at {
                None => strategy::suggest_discard(&hand, draws, Some(deadline)),
                Some(at) => table::discard_at_table(&hand, at, Some(deadline)),
            },
        )
        .await?
        .map_err(decision_error)?;
        let mut candidates: Vec<proto::DiscardCandidate> = advice
            .candidates
            .iter()
            .map(|c| proto::DiscardCandidate {
                tile: discard_name(c.tile, &shown),
                shanten: i32::from(c.shanten),
                ukeire: Some(ukeire_to_proto(&c.ukeire)),
                win_probability: c.win_probability,
                tenpai_probability: c.tenpai_probability,
                win_probability_stderr: c.win_stderr,
                tenpai_probability_stderr: c.tenpai_stderr,
                method: method_proto(c.method) as i32,
                continuation: continuation_proto(c.continuation) as i32,
                play_win_probability: c.play.map(|p| p.win),
                play_win_probability_stderr: c.play.map(|p| p.stderr),
                ..Default::default()
            })
            .collect();
        let mut at_table = (false, Vec::new());
        if let Some(table) = &table {
            at_table = table_figures(table, &shown, &advice, &mut candidates);
        }
        let (riichi, opponents) = at_table;
        if req.max_candidates > 0 {
            candidates.truncate(req.max_candidates as usize);
        }
        let calibration_error = advice
            .candidates
            .iter()
            .any(|c| c.play.is_some())
            .then(|| strategy::play::calibration_error(ruleset))
            .flatten();
        Ok(Response::new(proto::SuggestMahjongDiscardResponse {
            is_winning: advice.is_winning,
            discard: candidates
                .first()
                .map(|c| c.tile.clone())
                .unwrap_or_default(),
            candidates,
            riichi,
            opponents,
            draws_left: advice.draws_left,
            stats: Some(stats(
                started,
                deadline,
                advice.states,
                advice.paths,
                advice.exact,
            )),
            play_win_probability_calibration_error: calibration_error,
        }))
    }

    /// The table's figures on every candidate, the candidates put in the order of
    /// expected points, the riichi decision and the opponents' estimates.
    fn table_figures(
        table: &Table,
        hand: &Hand,
        advice: &strategy::DiscardAdvice,
        candidates: &mut Vec<proto::DiscardCandidate>,
    ) -> (bool, Vec<proto::MahjongOpponentEstimate>) {
        let inputs: Vec<TableCandidate> =
            advice.candidates.iter().map(TableCandidate::from).collect();
        let rated = table::advise(table, hand, &inputs, advice.draws_left);
        for (c, f) in candidates.iter_mut().zip(&rated.figures) {
            c.deal_in_probability = Some(f.deal_in);
            c.expected_points = rated.expected_points_valid.then_some(f.expected_points);
            c.deal_in_by_opponent = f.by_opponent.to_vec();
        }
        let mut slots: Vec<Option<proto::DiscardCandidate>> =
            std::mem::take(candidates).into_iter().map(Some).collect();
        *candidates = rated
            .order
            .iter()
            .filter_map(|&i| slots[i].take())
            .collect();
        let opponents = rated
            .opponents
            .iter()
            .map(|o| proto::MahjongOpponentEstimate {
                tenpai_probability: o.tenpai,
                expected_win_points: o.win_value,
            })
            .collect();
        (rated.riichi, opponents)
    }

    /// `SuggestMahjongCall`: pass, chi, pon, kan or win on an offered discard.
    ///
    /// INVALID_ARGUMENT naming the field: as [`discard`] (with `hand` needing 3n+1
    /// tiles), plus `offered_tile` (not exactly one tile, an honour under SICHUAN, a
    /// fifth copy) and `from` (unspecified or unknown).
    pub async fn call(
        request: Request<proto::SuggestMahjongCallRequest>,
    ) -> Result<Response<proto::SuggestMahjongCallResponse>, Status> {
        let started = Instant::now();
        let times = deadlines(&request, request.get_ref().budget_ms);
        let deadline = times.work;
        let req = request.into_inner();
        let ruleset = ruleset_from_proto(req.ruleset)?;
        // With a table the hand is checked alone first, so that its own faults come
        // before those of offered_tile, from and table, as without one.
        let plain = match &req.table {
            None => hand_from_proto(&req.hand, &req.melds, &req.visible, ruleset)?,
            Some(_) => {
                reject_table_derived(&req.visible, req.draws_left)?;
                hand_from_proto(&req.hand, &req.melds, "", ruleset)?
            }
        };
        let offered: Tile = req
            .offered_tile
            .parse()
            .map_err(|e| invalid_argument("offered_tile", e))?;
        let from = match proto::From::try_from(req.from) {
            Ok(proto::From::Left) => From::Left,
            Ok(proto::From::Across) => From::Across,
            Ok(proto::From::Right) => From::Right,
            _ => {
                return Err(invalid_argument(
                    "from",
                    format!(
                        "{} is not a seat; use FROM_LEFT, FROM_ACROSS or FROM_RIGHT",
                        req.from
                    ),
                ));
            }
        };
        let (hand, table) = match &req.table {
            None => (plain, None),
            Some(t) => {
                let (hand, table) =
                    hand_at_table(&req.hand, &req.melds, t, ruleset, Some((offered, from)))?;
                (hand, Some(table))
            }
        };
        let shown = hand.clone();
        let draws = table
            .as_ref()
            .map_or(req.draws_left, |t| Some(t.draws_left_after_offer(from)));
        let quick = hand.clone();
        let (advice, with_points, without_points) = run_or_fallback_with(
            times.answer,
            move || {
                let why = "the engine had not answered when the answer was due: pass, \
                           the figures not computed"
                    .to_owned();
                strategy::pass_by_shape(&quick, offered, draws, why)
                    .map(|advice| (advice, None, None))
            },
            move || match &table {
                None => strategy::suggest_call(&hand, offered, from, draws, Some(deadline))
                    .map(|advice| (advice, None, None)),
                Some(table) => {
                    table::suggest_call_at_table(&hand, table, offered, from, Some(deadline))
                        .map(|(advice, with, without)| (advice, with, Some(without)))
                }
            },
        )
        .await?
        .map_err(decision_error)?;
        Ok(Response::new(proto::SuggestMahjongCallResponse {
            action: match advice.action {
                CallAction::Pass => proto::CallAction::Pass,
                CallAction::Chi => proto::CallAction::Chi,
                CallAction::Pon => proto::CallAction::Pon,
                CallAction::Kan => proto::CallAction::Kan,
                CallAction::Win => proto::CallAction::Win,
            } as i32,
            meld_tiles: advice.meld.map(|m| m.to_string()).unwrap_or_default(),
            discard: advice
                .discard
                .map(|t| discard_name(t, &shown))
                .unwrap_or_default(),
            win_probability_with_call: advice.with_call.map_or(0.0, |f| f.win),
            win_probability_without_call: advice.without_call.win,
            reason: advice.reason,
            stats: Some(stats(
                started,
                deadline,
                advice.states,
                advice.paths,
                advice.exact,
            )),
            with_call: advice.with_call.as_ref().map(figures_proto),
            without_call: Some(figures_proto(&advice.without_call)),
            expected_points_with_call: with_points,
            expected_points_without_call: without_points,
        }))
    }

    /// The field a decision error is about.
    fn decision_error(e: DecisionError) -> Status {
        let field = match e {
            DecisionError::DiscardNeedsDrawnTile(_) | DecisionError::CallNeedsWaitingHand(_) => {
                "hand"
            }
            DecisionError::DrawsBeyondPool { .. } => "draws_left",
            DecisionError::OfferedFifthCopy(_) | DecisionError::OfferedNotInSet { .. } => {
                "offered_tile"
            }
        };
        invalid_argument(field, e)
    }

    fn method_proto(m: Method) -> proto::ProbabilityMethod {
        match m {
            Method::Exact => proto::ProbabilityMethod::Exact,
            Method::Simulated => proto::ProbabilityMethod::Simulated,
            Method::NotComputed => proto::ProbabilityMethod::NotComputed,
            Method::NotNeeded => proto::ProbabilityMethod::NotNeeded,
        }
    }

    fn continuation_proto(c: Continuation) -> proto::Continuation {
        match c {
            Continuation::Optimal => proto::Continuation::Optimal,
            Continuation::Plan => proto::Continuation::Plan,
            Continuation::AdvanceOrThrow => proto::Continuation::AdvanceOrThrow,
            Continuation::Greedy => proto::Continuation::Greedy,
        }
    }

    fn figures_proto(f: &OptionFigures) -> proto::ProbabilityFigures {
        proto::ProbabilityFigures {
            probability: f.win,
            stderr: f.stderr,
            method: method_proto(f.method) as i32,
            continuation: continuation_proto(f.continuation) as i32,
        }
    }

    fn stats(
        started: Instant,
        deadline: Instant,
        states: u64,
        samples: u64,
        exact: bool,
    ) -> proto::ComputeStats {
        proto::ComputeStats {
            elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
            nodes: states,
            exact,
            samples,
            budget_ms: deadline
                .saturating_duration_since(started)
                .as_millis()
                .min(u128::from(u32::MAX)) as u32,
        }
    }
}
