//! `gameai.v1.DouDizhuService`: translation between the proto messages and the Dou
//! Dizhu engine (`crate::doudizhu`).
//!
//! `ListDouDizhuPlays` lists legal plays with `crate::doudizhu::movegen`.
//! `SuggestDouDizhuPlay` parses the request, derives the game state
//! (`crate::doudizhu::state`, every inconsistency an INVALID_ARGUMENT naming its field)
//! and runs the search (`crate::doudizhu::search`, the default, until the work deadline:
//! `budget_ms`, else `--doudizhu-budget-ms`) or, for `SEARCH_MODE_HEURISTIC` or a budget
//! under [`MIN_SEARCH_BUDGET`], the heuristic policy (`strategy`), on an engine thread.
//! `SuggestDouDizhuBid` checks the bids (`crate::doudizhu::bidding::Auction`, each
//! fault an INVALID_ARGUMENT naming its field) and runs the bid simulation
//! (`crate::doudizhu::bidding`, within `budget_ms`, else `--doudizhu-bid-budget-ms`) or,
//! for `SEARCH_MODE_HEURISTIC` or a budget under [`MIN_SEARCH_BUDGET`], the threshold
//! bidder (`strategy::decide_bid`).
//!
//! Both suggestions run with [`run_or_fallback`]: the heuristic's answer (or the
//! threshold bidder's) is computed first, on the handler's thread, and sent (saying so)
//! if the search or simulation has not answered when the answer is due
//! ([`super::Deadlines::answer`]).

use tonic::{Request, Response, Status};

use std::time::{Duration, Instant};

use super::error::invalid_argument;
use super::{Deadlines, deadlines, run_blocking, run_or_fallback};
use crate::doudizhu::bidding::{self, Auction, BidError};
use crate::doudizhu::search::SearchConfig;
use crate::doudizhu::state::{GameState, Observation, Seat, StateError};
use crate::doudizhu::strategy::{self, PlayDecision};
use crate::doudizhu::value::Evaluation;
use crate::doudizhu::{Cards, DouDizhuError, Kind, Play, Rules, legal_plays};
use crate::proto::dou_dizhu_service_server::DouDizhuService;
use crate::proto::{self, PlayKind};
use crate::proto::{
    BidOption, ComputeStats, HandEvaluation, ListDouDizhuPlaysRequest, ListDouDizhuPlaysResponse,
    Play as ProtoPlay, ProvenOutcome, ScoredPlay, SearchMode, Seat as ProtoSeat,
    SuggestDouDizhuBidRequest, SuggestDouDizhuBidResponse, SuggestDouDizhuPlayRequest,
    SuggestDouDizhuPlayResponse,
};

/// Work budget of a Dou Dizhu suggestion whose `budget_ms` is 0, unless the server is
/// told otherwise (`--doudizhu-budget-ms`): 50 ms, so that the default search answers
/// within 100 ms at the 99th percentile (BENCHMARKS.md).
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(50);

/// Work budget of a bid suggestion whose `budget_ms` is 0, unless the server is told
/// otherwise (`--doudizhu-bid-budget-ms`): 200 ms of simulation, a standard error of
/// about 0.03 on the win probability (BENCHMARKS.md).
pub const DEFAULT_BID_BUDGET: Duration = Duration::from_millis(200);

/// With less time than this the search (or the bid simulation) does not start and the
/// heuristic (or the threshold bidder) answers.
pub const MIN_SEARCH_BUDGET: Duration = Duration::from_millis(5);

/// Handler of `gameai.v1.DouDizhuService`.
#[derive(Clone, Debug)]
pub struct DouDizhuApi {
    /// Work budget of a play suggestion whose `budget_ms` is 0.
    budget: Duration,
    /// Work budget of a bid suggestion whose `budget_ms` is 0.
    bid_budget: Duration,
}

impl DouDizhuApi {
    /// A handler whose play and bid suggestions default to these budgets of work.
    pub fn new(budget: Duration, bid_budget: Duration) -> DouDizhuApi {
        DouDizhuApi { budget, bid_budget }
    }
}

/// `asked` milliseconds, or `default` when `asked` is 0.
fn budget_ms(asked: u32, default: Duration) -> u32 {
    if asked > 0 {
        asked
    } else {
        u32::try_from(default.as_millis()).unwrap_or(u32::MAX)
    }
}

impl Default for DouDizhuApi {
    fn default() -> DouDizhuApi {
        DouDizhuApi::new(DEFAULT_BUDGET, DEFAULT_BID_BUDGET)
    }
}

#[tonic::async_trait]
impl DouDizhuService for DouDizhuApi {
    async fn suggest_dou_dizhu_play(
        &self,
        request: Request<SuggestDouDizhuPlayRequest>,
    ) -> Result<Response<SuggestDouDizhuPlayResponse>, Status> {
        let budget_ms = budget_ms(request.get_ref().budget_ms, self.budget);
        suggest_play(request, budget_ms).await
    }

    async fn suggest_dou_dizhu_bid(
        &self,
        request: Request<SuggestDouDizhuBidRequest>,
    ) -> Result<Response<SuggestDouDizhuBidResponse>, Status> {
        let budget_ms = budget_ms(request.get_ref().budget_ms, self.bid_budget);
        suggest_bid(request, budget_ms).await
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
    budget_ms: u32,
) -> Result<Response<SuggestDouDizhuPlayResponse>, Status> {
    let Deadlines {
        work: deadline,
        answer: due,
    } = deadlines(&request, budget_ms);
    let req = request.into_inner();
    let obs = observation(&req)?;
    let state = GameState::derive(&obs).map_err(state_error)?;
    let search = req.mode != SearchMode::Heuristic as i32
        && deadline.saturating_duration_since(Instant::now()) >= MIN_SEARCH_BUDGET;
    let alternatives = if req.alternatives == 0 {
        5
    } else {
        req.alternatives as usize
    };
    let budget = deadline.saturating_duration_since(Instant::now());
    let started = Instant::now();
    let answer = if search {
        // The heuristic (0.2 ms at the median, 1.5 ms at most: BENCHMARKS.md) runs here,
        // on the handler's thread, so that its answer is ready whatever CPU the engine
        // thread gets; the search starts from it.
        let heuristic = strategy::decide_play(&state);
        let fallback = PlayAnswer::heuristic(heuristic.clone(), false);
        run_or_fallback(due, fallback, move || {
            let d = crate::doudizhu::search::decide_after(
                &state,
                heuristic,
                deadline,
                &SearchConfig::default(),
            );
            PlayAnswer {
                decision: d.decision,
                nodes: d.nodes,
                exact: d.exact,
                worlds: d.worlds,
                tried: d.tried,
                proven: d.proven,
                searched: true,
            }
        })
        .await?
    } else {
        run_blocking(move || PlayAnswer::heuristic(strategy::decide_play(&state), true)).await?
    };
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let decision = answer.decision;
    Ok(Response::new(SuggestDouDizhuPlayResponse {
        play: Some(play_proto(decision.play.as_ref())),
        alternatives: decision
            .ranked
            .iter()
            .take(alternatives + 1)
            .enumerate()
            .map(|(i, s)| ScoredPlay {
                play: Some(play_proto(s.play.as_ref())),
                score: s.score,
                worlds: answer.tried.get(i).copied().unwrap_or(0),
            })
            .collect(),
        evaluation: Some(evaluation_proto(&decision.evaluation)),
        reason: decision.reason,
        stats: Some(ComputeStats {
            elapsed_ms,
            nodes: answer.nodes,
            exact: answer.exact,
            budget_ms: u32::try_from(budget.as_millis()).unwrap_or(u32::MAX),
            samples: 0,
        }),
        mode: if answer.searched {
            SearchMode::Search
        } else {
            SearchMode::Heuristic
        } as i32,
        worlds: answer.worlds,
        proven: match answer.proven {
            None => ProvenOutcome::Unspecified,
            Some(true) => ProvenOutcome::Win,
            Some(false) => ProvenOutcome::Loss,
        } as i32,
    }))
}

/// What the engine answered a play suggestion with.
struct PlayAnswer {
    decision: PlayDecision,
    nodes: u64,
    exact: bool,
    worlds: u32,
    tried: Vec<u32>,
    proven: Option<bool>,
    /// The search's answer (`false`: the heuristic's).
    searched: bool,
}

impl PlayAnswer {
    /// The heuristic's answer: asked for (`asked`), or sent because the search had not
    /// answered when the answer was due, which the reason says.
    fn heuristic(mut decision: PlayDecision, asked: bool) -> PlayAnswer {
        if !asked {
            decision.reason.push_str(LATE_NOTE);
        }
        PlayAnswer {
            decision,
            nodes: 0,
            exact: asked,
            worlds: 0,
            tried: Vec::new(),
            proven: None,
            searched: false,
        }
    }
}

/// Appended to the reason of a heuristic answer sent in place of a search that had not
/// finished by the deadline (its thread had too little CPU time).
pub const LATE_NOTE: &str =
    " (the heuristic's answer: the search had not finished by the call's deadline)";

/// Parses and checks the request fields that need no game state.
fn observation(req: &SuggestDouDizhuPlayRequest) -> Result<Observation, Status> {
    let hand = parse_cards("hand", &req.hand)?;
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
    let landlord_cards = parse_cards("landlord_cards", &req.landlord_cards)?;
    let mut history = Vec::with_capacity(req.history.len());
    for (i, entry) in req.history.iter().enumerate() {
        history.push(parse_cards(&format!("history[{i}]"), entry)?);
    }
    Ok(Observation {
        hand,
        seat,
        landlord_cards,
        history,
        rules: rules_from_proto(req.rules.as_ref()),
    })
}

/// The request field each state fault is about.
fn state_error(e: StateError) -> Status {
    let field = match &e {
        StateError::HandSize { .. } => "hand".to_string(),
        StateError::LandlordCardCount { .. }
        | StateError::LandlordCardsNotHeld { .. }
        | StateError::TooManyOfRank { .. } => "landlord_cards".to_string(),
        StateError::NotAPlay { index, .. }
        | StateError::PlaysHeldCards { index, .. }
        | StateError::PassOnFreeLead { index }
        | StateError::DoesNotBeat { index, .. }
        | StateError::MoreThanLeft { index, .. }
        | StateError::AfterGameEnd { index, .. } => format!("history[{index}]"),
        StateError::GameOver { .. } => "history".to_string(),
        StateError::NotToMove { .. } => "seat".to_string(),
    };
    invalid_argument(&field, e)
}

/// The request field a bidding fault is about.
fn bid_error(e: BidError) -> Status {
    let field = match (&e, e.index()) {
        (BidError::HandSize { .. }, _) => "hand".to_string(),
        (_, Some(i)) => format!("bids[{i}]"),
        (_, None) => "bids".to_string(),
    };
    invalid_argument(&field, e)
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
        Some(p) => play_to_proto(p),
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
    budget_ms: u32,
) -> Result<Response<SuggestDouDizhuBidResponse>, Status> {
    let Deadlines {
        work: deadline,
        answer: due,
    } = deadlines(&request, budget_ms);
    let req = request.into_inner();
    if !(0..=2).contains(&req.mode) {
        return Err(invalid_argument(
            "mode",
            format!("{} is not a search mode", req.mode),
        ));
    }
    let hand = parse_cards("hand", &req.hand)?;
    let auction = Auction::check(&hand, &req.bids).map_err(bid_error)?;
    let counts = *hand.counts();
    let rules = rules_from_proto(req.rules.as_ref());
    let (bids, highest) = (auction.bids, auction.highest);
    // Like the play search, the simulation does not start with less than
    // MIN_SEARCH_BUDGET left: a deal or two would be a coin toss, not an estimate.
    let simulate = req.mode != SearchMode::Heuristic as i32
        && deadline.saturating_duration_since(Instant::now()) >= MIN_SEARCH_BUDGET;
    let budget = deadline.saturating_duration_since(Instant::now());
    let started = Instant::now();
    // The threshold bidder takes microseconds: it answers a heuristic request here, and
    // stands by as the fallback of a simulation that has not answered when due.
    let threshold = |asked: bool| {
        let d = strategy::decide_bid(&counts, highest);
        let mut reason = d.reason;
        if !asked {
            reason.push_str(BID_LATE_NOTE);
        }
        SuggestDouDizhuBidResponse {
            bid: u32::from(d.bid),
            evaluation: Some(evaluation_proto(&d.evaluation)),
            reason,
            mode: SearchMode::Heuristic as i32,
            ..Default::default()
        }
    };
    let response = if simulate {
        run_or_fallback(due, threshold(false), move || {
            let e = bidding::estimate(&counts, &bids, &rules, deadline);
            SuggestDouDizhuBidResponse {
                bid: u32::from(e.bid),
                evaluation: Some(evaluation_proto(&e.evaluation)),
                reason: e.reason,
                landlord_win_probability: Some(e.win_probability),
                landlord_win_probability_stderr: Some(e.win_stderr),
                landlord_win_probability_calibration_error: Some(bidding::CALIBRATION_ERROR),
                simulated_landlord_win_share: Some(e.simulated_share),
                options: e
                    .options
                    .iter()
                    .map(|o| BidOption {
                        bid: u32::from(o.bid),
                        expected_score: o.expected_score,
                        expected_score_stderr: o.stderr,
                        landlord_share: o.landlord_share,
                    })
                    .collect(),
                deals: e.deals,
                mode: SearchMode::Search as i32,
                stats: None,
            }
        })
        .await?
    } else {
        threshold(true)
    };
    let simulated = response.mode == SearchMode::Search as i32;
    Ok(Response::new(SuggestDouDizhuBidResponse {
        stats: Some(ComputeStats {
            elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
            nodes: u64::from(response.deals),
            exact: !simulated,
            budget_ms: u32::try_from(budget.as_millis()).unwrap_or(u32::MAX),
            // The simulated deals are the Monte Carlo samples of the estimate.
            samples: if simulated {
                u64::from(response.deals)
            } else {
                0
            },
        }),
        ..response
    }))
}

/// Appended to the reason of a threshold bid sent in place of a simulation that had not
/// finished by the deadline.
pub const BID_LATE_NOTE: &str =
    " (the threshold bidder's answer: the simulation had not finished by the call's deadline)";

// ---------------------------------------------------------------------------------
// ListDouDizhuPlays, and the proto <-> engine translations it uses (also usable by the
// Suggest methods).

/// `ListDouDizhuPlays`: validates `hand`, `last_play`, `last_play_kind` and `rules`,
/// then lists every legal play with the engine's move generator (microseconds, so it
/// runs inline rather than on the blocking pool).
///
/// Errors (all INVALID_ARGUMENT naming the field): `hand` that does not parse or is
/// empty; `last_play` that does not parse, is no legal play, or holds cards that the
/// hand already holds all copies of; `last_play_kind` that is no `PlayKind` value,
/// is `PLAY_KIND_PASS`, is given without a `last_play`, or is no reading of it.
fn list_plays(
    request: Request<ListDouDizhuPlaysRequest>,
) -> Result<Response<ListDouDizhuPlaysResponse>, Status> {
    let req = request.into_inner();
    let rules = rules_from_proto(req.rules.as_ref());
    let hand = parse_cards("hand", &req.hand)?;
    if hand.is_empty() {
        return Err(invalid_argument(
            "hand",
            "no cards; a hand holds 1..20 cards",
        ));
    }
    let kind = kind_from_proto("last_play_kind", req.last_play_kind)?;
    let to_beat = if req.last_play.trim().is_empty() {
        if let Some(kind) = kind {
            return Err(invalid_argument(
                "last_play_kind",
                format!("{kind} given without a last_play"),
            ));
        }
        None
    } else {
        let cards = parse_cards("last_play", &req.last_play)?;
        let play = Play::read(&cards, kind, &rules).map_err(|e| match e {
            DouDizhuError::NotAReading { .. } => invalid_argument("last_play_kind", e),
            e => invalid_argument("last_play", e),
        })?;
        if hand.checked_add(&cards).is_none() {
            return Err(invalid_argument(
                "last_play",
                format!("'{cards}' and the hand '{hand}' together hold more than one deck"),
            ));
        }
        Some(play)
    };
    let plays = legal_plays(&hand, to_beat.as_ref(), &rules);
    Ok(Response::new(ListDouDizhuPlaysResponse {
        plays: plays.iter().map(play_to_proto).collect(),
        pass_allowed: to_beat.is_some(),
        last_play: to_beat.as_ref().map(play_to_proto),
    }))
}

/// The engine's rules from the request's `rules` (unset fields: DouZero's defaults).
pub(crate) fn rules_from_proto(rules: Option<&proto::DouDizhuRules>) -> Rules {
    let default = Rules::default();
    Rules {
        rocket_as_kickers: rules
            .and_then(|r| r.rocket_as_kickers)
            .unwrap_or(default.rocket_as_kickers),
    }
}

/// Parses card notation (at most 20 cards); INVALID_ARGUMENT naming `field` otherwise.
pub(crate) fn parse_cards(field: &str, text: &str) -> Result<Cards, Status> {
    text.parse::<Cards>()
        .map_err(|e| invalid_argument(field, e))
}

/// The engine kind of a `PlayKind` value: `None` for UNSPECIFIED; INVALID_ARGUMENT
/// naming `field` for unknown values and for PASS (no reading of cards).
pub(crate) fn kind_from_proto(field: &str, value: i32) -> Result<Option<Kind>, Status> {
    let kind = PlayKind::try_from(value)
        .map_err(|_| invalid_argument(field, format!("{value} is no PlayKind value")))?;
    Ok(Some(match kind {
        PlayKind::Unspecified => return Ok(None),
        PlayKind::Pass => {
            return Err(invalid_argument(
                field,
                "PLAY_KIND_PASS is no reading of a play to beat",
            ));
        }
        PlayKind::Single => Kind::Single,
        PlayKind::Pair => Kind::Pair,
        PlayKind::Trio => Kind::Trio,
        PlayKind::TrioWithSingle => Kind::TrioWithSingle,
        PlayKind::TrioWithPair => Kind::TrioWithPair,
        PlayKind::Chain => Kind::Chain,
        PlayKind::PairChain => Kind::PairChain,
        PlayKind::TrioChain => Kind::TrioChain,
        PlayKind::AirplaneWithSingles => Kind::AirplaneWithSingles,
        PlayKind::AirplaneWithPairs => Kind::AirplaneWithPairs,
        PlayKind::FourWithTwoSingles => Kind::FourWithTwoSingles,
        PlayKind::FourWithTwoPairs => Kind::FourWithTwoPairs,
        PlayKind::Bomb => Kind::Bomb,
        PlayKind::Rocket => Kind::Rocket,
    }))
}

/// The proto `PlayKind` of an engine kind.
pub(crate) fn kind_to_proto(kind: Kind) -> PlayKind {
    match kind {
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

/// The proto `Play` of an engine play: canonical cards, kind, main rank, length.
pub(crate) fn play_to_proto(play: &Play) -> proto::Play {
    proto::Play {
        cards: play.cards.to_string(),
        kind: kind_to_proto(play.kind) as i32,
        main_rank: play.main.to_string(),
        length: u32::from(play.len),
    }
}
