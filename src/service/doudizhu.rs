//! `gameai.v1.DouDizhuService`: translation between the proto messages and the Dou
//! Dizhu engine (`crate::doudizhu`).
//!
//! `ListDouDizhuPlays` lists legal plays with `crate::doudizhu::movegen`. Methods whose
//! engine is not wired in yet answer `UNIMPLEMENTED` naming the missing capability.

use tonic::{Request, Response, Status};

use super::error::{invalid_argument, unimplemented};
use crate::doudizhu::{Cards, DouDizhuError, Kind, Play, Rules, legal_plays};
use crate::proto::dou_dizhu_service_server::DouDizhuService;
use crate::proto::{self, PlayKind};
use crate::proto::{
    ListDouDizhuPlaysRequest, ListDouDizhuPlaysResponse, SuggestDouDizhuBidRequest,
    SuggestDouDizhuBidResponse, SuggestDouDizhuPlayRequest, SuggestDouDizhuPlayResponse,
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
        suggest_play(request)
    }

    async fn suggest_dou_dizhu_bid(
        &self,
        request: Request<SuggestDouDizhuBidRequest>,
    ) -> Result<Response<SuggestDouDizhuBidResponse>, Status> {
        suggest_bid(request)
    }

    async fn list_dou_dizhu_plays(
        &self,
        request: Request<ListDouDizhuPlaysRequest>,
    ) -> Result<Response<ListDouDizhuPlaysResponse>, Status> {
        list_plays(request)
    }
}

fn suggest_play(
    _request: Request<SuggestDouDizhuPlayRequest>,
) -> Result<Response<SuggestDouDizhuPlayResponse>, Status> {
    Err(unimplemented(
        "SuggestDouDizhuPlay",
        "the Dou Dizhu decision engine",
    ))
}

fn suggest_bid(
    _request: Request<SuggestDouDizhuBidRequest>,
) -> Result<Response<SuggestDouDizhuBidResponse>, Status> {
    Err(unimplemented(
        "SuggestDouDizhuBid",
        "the Dou Dizhu bidding engine",
    ))
}

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
