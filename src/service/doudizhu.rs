//! `gameai.v1.DouDizhuService`: translation between the proto messages and the Dou
//! Dizhu engine (`crate::doudizhu`).
//!
//! Until the engine is wired in, every method answers `UNIMPLEMENTED` naming the
//! missing capability.

use tonic::{Request, Response, Status};

use std::time::Instant;

use super::error::{invalid_argument, unimplemented};
use super::{run_blocking, work_deadline};
use crate::doudizhu::state::{GameState, Observation, Seat, StateError};
use crate::doudizhu::strategy;
use crate::doudizhu::value::Evaluation;
use crate::doudizhu::{Cards, Kind, Play, Rules};
use crate::proto::dou_dizhu_service_server::DouDizhuService;
use crate::proto::{
    ComputeStats, DouDizhuRules, HandEvaluation, ListDouDizhuPlaysRequest,
    ListDouDizhuPlaysResponse, Play as ProtoPlay, PlayKind, ScoredPlay, SearchMode,
    Seat as ProtoSeat, SuggestDouDizhuBidRequest, SuggestDouDizhuBidResponse,
    SuggestDouDizhuPlayRequest, SuggestDouDizhuPlayResponse,
};

/// Handler of `gameai.v1.DouDizhuService`.
#[derive(Clone, Debug, Default)]
pub struct DouDizhuApi {}

#[tonic::async_trait]
impl DouDizhuService for DouDizhuApi {
    async fn suggest_dou_dizhu_play(
        &self,
        request: Request<SuggestDouDizhuPlayRequest>,
    ) -> Result<Response<SuggestDouDizhuPlayResponse>, Status> {
        suggest_play(request).await
    }

    async fn suggest_dou_dizhu_bid(
        &self,
        request: Request<SuggestDouDizhuBidRequest>,
    ) -> Result<Response<SuggestDouDizhuBidResponse>, Status> {
        suggest_bid(request).await
    }

    async fn list_dou_dizhu_plays(
        &self,
        request: Request<ListDouDizhuPlaysRequest>,
    ) -> Result<Response<ListDouDizhuPlaysResponse>, Status> {
        list_plays(request)
    }
}

async fn suggest_play(
    request: Request<SuggestDouDizhuPlayRequest>,
) -> Result<Response<SuggestDouDizhuPlayResponse>, Status> {
    let budget_ms = request.get_ref().budget_ms;
    let deadline = work_deadline(&request, budget_ms);
    let req = request.into_inner();
    let obs = observation(&req)?;
    let state = GameState::derive(&obs).map_err(state_error)?;
    let search = req.mode == SearchMode::Search as i32;
    let alternatives = if req.alternatives == 0 {
        5
    } else {
        req.alternatives as usize
    };
    let budget = deadline.saturating_duration_since(Instant::now());
    let started = Instant::now();
    let (decision, nodes, exact) = run_blocking(move || {
        if search {
            let d = crate::doudizhu::search::decide(&state, deadline);
            let (nodes, exact) = (d.nodes, d.exact);
            (d.decision, nodes, exact)
        } else {
            (strategy::decide_play(&state), 0, true)
        }
    })
    .await?;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(Response::new(SuggestDouDizhuPlayResponse {
        play: Some(play_proto(decision.play.as_ref())),
        alternatives: decision
            .ranked
            .iter()
            .take(alternatives + 1)
            .map(|s| ScoredPlay {
                play: Some(play_proto(s.play.as_ref())),
                score: s.score,
            })
            .collect(),
        evaluation: Some(evaluation_proto(&decision.evaluation)),
        reason: decision.reason,
        stats: Some(ComputeStats {
            elapsed_ms,
            nodes,
            exact,
            budget_ms: u32::try_from(budget.as_millis()).unwrap_or(u32::MAX),
        }),
    }))
}

/// Parses and checks the request fields that need no game state.
fn observation(req: &SuggestDouDizhuPlayRequest) -> Result<Observation, Status> {
    let hand = parse_hand("hand", &req.hand)?;
    let seat = match ProtoSeat::try_from(req.seat) {
        Ok(ProtoSeat::Landlord) => Seat::Landlord,
        Ok(ProtoSeat::LandlordDown) => Seat::LandlordDown,
        Ok(ProtoSeat::LandlordUp) => Seat::LandlordUp,
        _ => {
            return Err(invalid_argument(
                "seat",
                format!(
                    "{} is not a seat (SEAT_LANDLORD, SEAT_LANDLORD_DOWN or SEAT_LANDLORD_UP)",
                    req.seat
                ),
            ));
        }
    };
    if !(0..=2).contains(&req.mode) {
        return Err(invalid_argument(
            "mode",
            format!("{} is not a search mode", req.mode),
        ));
    }
    let landlord_cards = parse_hand("landlord_cards", &req.landlord_cards)?;
    let mut history = Vec::with_capacity(req.history.len());
    for (i, entry) in req.history.iter().enumerate() {
        history.push(parse_hand(&format!("history[{i}]"), entry)?);
    }
    Ok(Observation {
        hand,
        seat,
        landlord_cards,
        history,
        rules: rules(req.rules.as_ref()),
    })
}

fn parse_hand(field: &str, s: &str) -> Result<Cards, Status> {
    s.parse::<Cards>().map_err(|e| invalid_argument(field, e))
}

fn rules(r: Option<&DouDizhuRules>) -> Rules {
    Rules {
        rocket_as_kickers: r.and_then(|r| r.rocket_as_kickers).unwrap_or(true),
    }
}

/// The request field each state fault is about.
fn state_error(e: StateError) -> Status {
    let field = match &e {
        StateError::TooManyOfRank { .. }
        | StateError::OwnCardsTooMany { .. }
        | StateError::HandSize { .. } => "hand".to_string(),
        StateError::LandlordCardCount { .. } | StateError::LandlordCardsNotHeld { .. } => {
            "landlord_cards".to_string()
        }
        StateError::NotAPlay { index, .. }
        | StateError::PassOnFreeLead { index }
        | StateError::DoesNotBeat { index, .. }
        | StateError::MoreThanLeft { index, .. }
        | StateError::AfterGameEnd { index, .. } => format!("history[{index}]"),
        StateError::GameOver { .. } => "history".to_string(),
        StateError::NotToMove { .. } => "seat".to_string(),
    };
    invalid_argument(&field, e)
}

/// Proto `PlayKind` of an engine kind (the engine's order is the proto's, from 2).
fn kind_proto(k: Kind) -> PlayKind {
    match k {
        Kind::Single => PlayKind::Single,
        Kind::Pair => PlayKind::Pair,
        Kind::Trio => PlayKind::Trio,
        Kind::TrioWithSingle => PlayKind::TrioWithSingle,
        Kind::TrioWithPair => PlayKind::TrioWithPair,
        Kind::Chain => PlayKind::Chain,
        Kind::PairChain => PlayKind::PairChain,
        Kind::TrioChain => PlayKind::TrioChain,
        Kind::AirplaneWithSingles => PlayKind::AirplaneWithSingles,
        Kind::AirplaneWithPairs => PlayKind::AirplaneWithPairs,
        Kind::FourWithTwoSingles => PlayKind::FourWithTwoSingles,
        Kind::FourWithTwoPairs => PlayKind::FourWithTwoPairs,
        Kind::Bomb => PlayKind::Bomb,
        Kind::Rocket => PlayKind::Rocket,
    }
}

/// A play (or a pass for `None`) as the proto `Play`.
fn play_proto(p: Option<&Play>) -> ProtoPlay {
    match p {
        None => ProtoPlay {
            cards: String::new(),
            kind: PlayKind::Pass as i32,
            main_rank: String::new(),
            length: 0,
        },
        Some(p) => ProtoPlay {
            cards: p.cards.to_string(),
            kind: kind_proto(p.kind) as i32,
            main_rank: p.main.to_string(),
            length: u32::from(p.len),
        },
    }
}

fn evaluation_proto(e: &Evaluation) -> HandEvaluation {
    HandEvaluation {
        groups: e.groups.iter().map(|g| play_proto(Some(g))).collect(),
        sum_value: e.sum_value,
        need_rounds: e.need_rounds,
        value: e.value(),
    }
}

async fn suggest_bid(
    request: Request<SuggestDouDizhuBidRequest>,
) -> Result<Response<SuggestDouDizhuBidResponse>, Status> {
    let req = request.into_inner();
    let hand = parse_hand("hand", &req.hand)?;
    if hand.len() != 17 {
        return Err(invalid_argument(
            "hand",
            format!("{} cards; a bidding hand is the 17 cards dealt", hand.len()),
        ));
    }
    if req.bids.len() > 2 {
        return Err(invalid_argument(
            "bids",
            format!(
                "{} bids so far; with three players the bidding is over after three",
                req.bids.len()
            ),
        ));
    }
    let mut highest = 0u32;
    for (i, &b) in req.bids.iter().enumerate() {
        if b > 3 {
            return Err(invalid_argument(
                &format!("bids[{i}]"),
                format!("{b} is no bid (0 = pass, 1..3 points)"),
            ));
        }
        if highest == 3 {
            return Err(invalid_argument(
                &format!("bids[{i}]"),
                "comes after a bid of 3, which ends the bidding",
            ));
        }
        if b != 0 && b <= highest {
            return Err(invalid_argument(
                &format!("bids[{i}]"),
                format!("{b} is not above the highest bid so far ({highest})"),
            ));
        }
        highest = highest.max(b);
    }
    let counts = *hand.counts();
    let d = run_blocking(move || strategy::decide_bid(&counts, highest as u8)).await?;
    Ok(Response::new(SuggestDouDizhuBidResponse {
        bid: u32::from(d.bid),
        evaluation: Some(evaluation_proto(&d.evaluation)),
        reason: d.reason,
    }))
}

fn list_plays(
    _request: Request<ListDouDizhuPlaysRequest>,
) -> Result<Response<ListDouDizhuPlaysResponse>, Status> {
    Err(unimplemented(
        "ListDouDizhuPlays",
        "the Dou Dizhu move generator",
    ))
}
