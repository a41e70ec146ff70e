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
    _request: Request<AnalyzeMahjongHandRequest>,
) -> Result<Response<AnalyzeMahjongHandResponse>, Status> {
    Err(unimplemented(
        "AnalyzeMahjongHand",
        "the mahjong shanten and ukeire engine",
    ))
}
