//! `ListDouDizhuPlays`: prost decode, validation, move generation.
#![no_main]
use gameai::proto::ListDouDizhuPlaysRequest;
use gameai::proto::dou_dizhu_service_server::DouDizhuService;
use gameai::service::doudizhu::DouDizhuApi;
use gameai_fuzz::{block_on, check, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(req) = decode::<ListDouDizhuPlaysRequest>(data) else {
        return;
    };
    check(block_on(
        DouDizhuApi::default().list_dou_dizhu_plays(tonic::Request::new(req)),
    ));
});
