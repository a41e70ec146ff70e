//! `AnalyzeGomokuPosition`: prost decode, validation, winner and renju forbidden
//! points. (UNIMPLEMENTED until the gomoku engine lands; see `suggest_gomoku_move`.)
#![no_main]
use gameai::proto::AnalyzeGomokuPositionRequest;
use gameai::proto::gomoku_service_server::GomokuService;
use gameai::service::gomoku::GomokuApi;
use gameai_fuzz::{block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(req) = decode::<AnalyzeGomokuPositionRequest>(data) else {
        return;
    };
    check(block_on(
        GomokuApi::default().analyze_gomoku_position(tonic::Request::new(req)),
    ));
});
