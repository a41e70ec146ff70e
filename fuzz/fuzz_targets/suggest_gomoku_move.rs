//! `SuggestGomokuMove`: prost decode, validation, the search within a 3 ms budget.
//! (The engine is not built yet: the handler answers UNIMPLEMENTED, which `check`
//! allows, so today this target fuzzes prost's decoding of the contract.)
#![no_main]
use gameai::proto::SuggestGomokuMoveRequest;
use gameai::proto::gomoku_service_server::GomokuService;
use gameai::service::gomoku::GomokuApi;
use gameai_fuzz::{BUDGET_MS, block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(mut req) = decode::<SuggestGomokuMoveRequest>(data) else {
        return;
    };
    req.budget_ms = req.budget_ms.clamp(1, BUDGET_MS);
    check(block_on(
        GomokuApi::default().suggest_gomoku_move(tonic::Request::new(req)),
    ));
});
