//! `SuggestMahjongDiscard`: prost decode, validation, the win-probability engine
//! within a 3 ms budget (so most hands end in its estimate).
#![no_main]
use gameai::proto::SuggestMahjongDiscardRequest;
use gameai::proto::mahjong_service_server::MahjongService;
use gameai::service::mahjong::MahjongApi;
use gameai_fuzz::{BUDGET_MS, block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(mut req) = decode::<SuggestMahjongDiscardRequest>(data) else {
        return;
    };
    req.budget_ms = req.budget_ms.clamp(1, BUDGET_MS);
    check(block_on(
        MahjongApi::default().suggest_mahjong_discard(tonic::Request::new(req)),
    ));
});
