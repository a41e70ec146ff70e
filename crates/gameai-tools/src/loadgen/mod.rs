//! The load generator's parts (the `loadgen` binary is their command line): request
//! files ([`requests`]), the raw unary client ([`client`]), the run ([`run`]) and its
//! report ([`report`]).

pub mod client;
pub mod report;
pub mod requests;
pub mod run;
