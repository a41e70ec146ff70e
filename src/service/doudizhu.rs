//! `gameai.v1.DouDizhuService`: translation between the proto messages and the Dou
//! Dizhu engine (`crate::doudizhu`).
//!
//! Until the engine is wired in, every method answers `UNIMPLEMENTED` naming the
//! missing capability.

use tonic::{Request, Response, Status};

use super::error::unimplemented;
use crate::proto::dou_dizhu_service_server::DouDizhuService;
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

fn list_plays(
    _request: Request<ListDouDizhuPlaysRequest>,
) -> Result<Response<ListDouDizhuPlaysResponse>, Status> {
    Err(unimplemented(
        "ListDouDizhuPlays",
        "the Dou Dizhu move generator",
    ))
}
