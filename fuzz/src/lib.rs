//! Shared code of the fuzz targets: one tokio runtime for the whole fuzzing process
//! and the check that an RPC handler's answer is one the error model allows.
//!
//! The RPC targets decode the fuzzer's bytes with prost exactly as the server does
//! (bytes that do not decode are the transport's concern: tonic answers them without
//! calling the handler), cap the request's work budget at a few milliseconds, and call
//! the service handler through its generated trait, so validation and engine run as in
//! the server. A panic inline, or an `INTERNAL` status (what `run_blocking` makes of a
//! panic on the blocking pool), is a crash.

use std::sync::LazyLock;

/// Work budget given to every Suggest* request, in milliseconds: short, so one
/// execution stays in the millisecond range.
pub const BUDGET_MS: u32 = 3;

/// Work budget cap of `SuggestDouDizhuPlay` inputs, in milliseconds. The default mode
/// searches only with at least `MIN_SEARCH_BUDGET` (5 ms) left and answers with the
/// heuristic below it, so with [`BUDGET_MS`] the search would never run: inputs asking
/// 0 (the server's default, the search) or 6 ms or more get 6 ms and reach the search
/// (sampled worlds, playouts, the exact endgame solver), the others the heuristic.
pub const DOUDIZHU_PLAY_BUDGET_MS: u32 = 6;

static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
});

/// Runs `future` to completion on the shared runtime.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    RUNTIME.block_on(future)
}

/// Decodes `data` as `M`; `None` when it is no such message.
pub fn decode<M: prost::Message + Default>(data: &[u8]) -> Option<M> {
    M::decode(data).ok()
}

/// Panics unless `result` is an answer or a status the error model allows for bad
/// input: `INVALID_ARGUMENT` naming a field (`"FIELD: REASON"`), or `UNIMPLEMENTED` for
/// an engine not built in.
pub fn check<T>(result: Result<tonic::Response<T>, tonic::Status>) {
    if let Err(status) = result {
        match status.code() {
            tonic::Code::InvalidArgument => assert!(
                status.message().contains(": "),
                "INVALID_ARGUMENT without a field: {status:?}"
            ),
            tonic::Code::Unimplemented => {}
            _ => panic!("unexpected status for a decodable request: {status:?}"),
        }
    }
}
