//! `SuggestDouDizhuPlay`: prost decode, validation and the history's consistency
//! (`GameState::derive`), the heuristic policy or the search within a budget of at most
//! 6 ms (`DOUDIZHU_PLAY_BUDGET_MS`: inputs asking 0, the default, or 6 ms or more reach the
//! default search).
#![no_main]
use gameai::proto::SuggestDouDizhuPlayRequest;
use gameai::proto::dou_dizhu_service_server::DouDizhuService;
use gameai::service::doudizhu::DouDizhuApi;
use gameai_fuzz::{DOUDIZHU_PLAY_BUDGET_MS, block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(mut req) = decode::<SuggestDouDizhuPlayRequest>(data) else {
        return;
    };
    // 0 asks for the server's default, which is the search: keep it on that path.
    req.budget_ms = match req.budget_ms {
        0 => DOUDIZHU_PLAY_BUDGET_MS,
        ms => ms.min(DOUDIZHU_PLAY_BUDGET_MS),
    };
    check(block_on(
        DouDizhuApi::default().suggest_dou_dizhu_play(tonic::Request::new(req)),
    ));
});
