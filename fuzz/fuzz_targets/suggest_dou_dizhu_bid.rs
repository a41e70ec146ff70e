//! `SuggestDouDizhuBid`: prost decode, validation of the bids, the threshold bidder or
//! the bid simulation within a 3 ms budget.
#![no_main]
use gameai::proto::SuggestDouDizhuBidRequest;
use gameai::proto::dou_dizhu_service_server::DouDizhuService;
use gameai::service::doudizhu::DouDizhuApi;
use gameai_fuzz::{BUDGET_MS, block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(mut req) = decode::<SuggestDouDizhuBidRequest>(data) else {
        return;
    };
    req.budget_ms = req.budget_ms.clamp(1, BUDGET_MS);
    check(block_on(
        DouDizhuApi::default().suggest_dou_dizhu_bid(tonic::Request::new(req)),
    ));
});
