//! `AnalyzeMahjongHand`: prost decode, validation of hand, melds, visible tiles and
//! ruleset, shanten per form and ukeire.
#![no_main]
use gameai::proto::AnalyzeMahjongHandRequest;
use gameai::proto::mahjong_service_server::MahjongService;
use gameai::service::mahjong::MahjongApi;
use gameai_fuzz::{block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(req) = decode::<AnalyzeMahjongHandRequest>(data) else {
        return;
    };
    check(block_on(
        MahjongApi::default().analyze_mahjong_hand(tonic::Request::new(req)),
    ));
});
