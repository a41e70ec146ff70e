//! `SuggestDouDizhuBid`: prost decode, validation of the bids, the bidding policy.
#![no_main]
use gameai::proto::SuggestDouDizhuBidRequest;
use gameai::proto::dou_dizhu_service_server::DouDizhuService;
use gameai::service::doudizhu::DouDizhuApi;
use gameai_fuzz::{block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(req) = decode::<SuggestDouDizhuBidRequest>(data) else {
        return;
    };
    check(block_on(
        DouDizhuApi::default().suggest_dou_dizhu_bid(tonic::Request::new(req)),
    ));
});
