//! `gameai.v1.MahjongService`: translation between the proto messages and the mahjong
//! engine (`crate::mahjong`).
//!
//! Until the engine is wired in, every method answers `UNIMPLEMENTED` naming the
//! missing capability.

use tonic::{Request, Response, Status};

use super::error::unimplemented;
use crate::proto::mahjong_service_server::MahjongService;
use crate::proto::{
    AnalyzeMahjongHandRequest, AnalyzeMahjongHandResponse, SuggestMahjongCallRequest,
    SuggestMahjongCallResponse, SuggestMahjongDiscardRequest, SuggestMahjongDiscardResponse,
};

/// Handler of `gameai.v1.MahjongService`.
#[derive(Clone, Debug, Default)]
pub struct MahjongApi {}

#[tonic::async_trait]
impl MahjongService for MahjongApi {
    async fn suggest_mahjong_discard(
        &self,
        request: Request<SuggestMahjongDiscardRequest>,
    ) -> Result<Response<SuggestMahjongDiscardResponse>, Status> {
        suggest_discard(request)
    }

    async fn suggest_mahjong_call(
        &self,
        request: Request<SuggestMahjongCallRequest>,
    ) -> Result<Response<SuggestMahjongCallResponse>, Status> {
        suggest_call(request)
    }

    async fn analyze_mahjong_hand(
        &self,
        request: Request<AnalyzeMahjongHandRequest>,
    ) -> Result<Response<AnalyzeMahjongHandResponse>, Status> {
        analyze_hand(request)
    }
}

fn suggest_discard(
    _request: Request<SuggestMahjongDiscardRequest>,
) -> Result<Response<SuggestMahjongDiscardResponse>, Status> {
    Err(unimplemented(
        "SuggestMahjongDiscard",
        "the mahjong discard engine (win probability)",
    ))
}

fn suggest_call(
    _request: Request<SuggestMahjongCallRequest>,
) -> Result<Response<SuggestMahjongCallResponse>, Status> {
    Err(unimplemented(
        "SuggestMahjongCall",
        "the mahjong call engine (chi / pon / kan / win)",
    ))
}

fn analyze_hand(
    request: Request<AnalyzeMahjongHandRequest>,
) -> Result<Response<AnalyzeMahjongHandResponse>, Status> {
    analyze::analyze_hand(request)
}

/// `AnalyzeMahjongHand`: validation of hand, melds, visible tiles and ruleset, then
/// shanten per form and ukeire from `crate::mahjong`.
mod analyze {
    use tonic::{Request, Response, Status};

    use crate::mahjong::hand::InvalidHand;
    use crate::mahjong::ukeire::{self, Ukeire};
    use crate::mahjong::{Hand, MahjongError, Meld, MeldKind, Ruleset, TileCounts};
    use crate::proto::{self, AnalyzeMahjongHandRequest, AnalyzeMahjongHandResponse};
    use crate::service::error::invalid_argument;

    pub(super) fn analyze_hand(
        request: Request<AnalyzeMahjongHandRequest>,
    ) -> Result<Response<AnalyzeMahjongHandResponse>, Status> {
        let req = request.into_inner();
        let ruleset = ruleset_from_proto(req.ruleset)?;
        let hand = hand_from_proto(&req.hand, &req.melds, &req.visible, ruleset)?;
        // A few hundred table lookups (~0.1 ms): cheaper than a hop to a blocking thread.
        Ok(Response::new(analyze(&hand)))
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

    /// One meld of a request.
    fn meld_from_proto(index: usize, meld: &proto::Meld) -> Result<Meld, Status> {
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
        Meld::parse(kind, &meld.tiles)
            .map_err(|e| invalid_argument(&format!("melds[{index}].tiles"), e))
    }

    /// The validated hand of a request; faults name `hand`, `melds[i]...`, `melds` or
    /// `visible`.
    fn hand_from_proto(
        hand: &str,
        melds: &[proto::Meld],
        visible: &str,
        ruleset: Ruleset,
    ) -> Result<Hand, Status> {
        let concealed: TileCounts = hand.parse().map_err(|e| invalid_argument("hand", e))?;
        let melds = melds
            .iter()
            .enumerate()
            .map(|(i, m)| meld_from_proto(i, m))
            .collect::<Result<Vec<_>, _>>()?;
        let visible: TileCounts = visible
            .parse()
            .map_err(|e| invalid_argument("visible", e))?;
        Hand::new(concealed, melds, visible, ruleset)
            .map_err(|e: InvalidHand| invalid_argument(&e.field.to_string(), e.error))
    }

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

    /// Shanten per form, winning or not, and the ukeire (3n+1) or per-discard ukeire (3n+2).
    fn analyze(hand: &Hand) -> AnalyzeMahjongHandResponse {
        let forms = hand.shanten_forms();
        let counts = &hand.concealed().0;
        let unseen = hand.unseen();
        let (called, ruleset, lackable) = (hand.called(), hand.ruleset(), hand.lackable());
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
            response.discards = ukeire::discards(counts, called, ruleset, lackable, &unseen)
                .iter()
                .map(|d| proto::DiscardAnalysis {
                    tile: d.discard.to_string(),
                    shanten: i32::from(d.shanten),
                    ukeire: Some(ukeire_to_proto(&d.ukeire)),
                })
                .collect();
        } else {
            let (_, u) = ukeire::ukeire(counts, called, ruleset, lackable, &unseen);
            response.ukeire = Some(ukeire_to_proto(&u));
        }
        response
    }
}
