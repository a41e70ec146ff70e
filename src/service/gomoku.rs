//! `gameai.v1.GomokuService`: translation between the proto messages and the gomoku
//! engine (`crate::gomoku`).
//!
//! Until the engine is wired in, every method answers `UNIMPLEMENTED` naming the
//! missing capability.

use tonic::{Request, Response, Status};

use super::error::unimplemented;
use crate::proto::gomoku_service_server::GomokuService;
use crate::proto::{
    AnalyzeGomokuPositionRequest, AnalyzeGomokuPositionResponse, SuggestGomokuMoveRequest,
    SuggestGomokuMoveResponse,
};

/// Handler of `gameai.v1.GomokuService`.
#[derive(Clone, Debug, Default)]
pub struct GomokuApi {}

#[tonic::async_trait]
impl GomokuService for GomokuApi {
    async fn suggest_gomoku_move(
        &self,
        request: Request<SuggestGomokuMoveRequest>,
    ) -> Result<Response<SuggestGomokuMoveResponse>, Status> {
        suggest_move(request)
    }

    async fn analyze_gomoku_position(
        &self,
        request: Request<AnalyzeGomokuPositionRequest>,
    ) -> Result<Response<AnalyzeGomokuPositionResponse>, Status> {
        analyze_position(request)
    }
}

fn suggest_move(
    _request: Request<SuggestGomokuMoveRequest>,
) -> Result<Response<SuggestGomokuMoveResponse>, Status> {
    Err(unimplemented(
        "SuggestGomokuMove",
        "the gomoku search engine",
    ))
}

fn analyze_position(
    _request: Request<AnalyzeGomokuPositionRequest>,
) -> Result<Response<AnalyzeGomokuPositionResponse>, Status> {
    Err(unimplemented(
        "AnalyzeGomokuPosition",
        "the gomoku rules engine (winner, renju forbidden points)",
    ))
}
