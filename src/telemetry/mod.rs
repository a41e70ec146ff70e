//! Logs and metrics.
//!
//! The model: every RPC passes one tower layer ([`grpc`]), outermost, that opens its
//! tracing span, logs one `rpc finished` line ([`logging`]: text or JSON, never
//! blocking a request) and records the RPC metrics through handles registered with
//! one process-wide recorder of the `metrics` facade ([`exporter`]). Other parts of
//! the server record their own figures through the same facade, each under a name of
//! the catalogue ([`catalogue`]). A scrape of `GET /metrics` renders the recorder, plus
//! the `process_*` metrics read from the OS at that moment ([`process`]).
//!
//! The RPC metrics are those of go-grpc-prometheus, with the same names, labels and
//! code spellings, so that existing dashboards and alerts work unchanged:
//! - `grpc_server_started_total{grpc_type, grpc_service, grpc_method}`
//! - `grpc_server_handled_total{grpc_type, grpc_service, grpc_method, grpc_code}`
//! - `grpc_server_msg_received_total{grpc_type, grpc_service, grpc_method}`
//! - `grpc_server_msg_sent_total{grpc_type, grpc_service, grpc_method}`
//! - `grpc_server_handling_seconds{grpc_type, grpc_service, grpc_method}` (histogram,
//!   buckets [`HANDLING_SECONDS_BUCKETS`])
//!
//! `grpc_type` is `unary`, `client_stream`, `server_stream` or `bidi_stream`;
//! `grpc_code` is Go's spelling of the status code (`OK`, `Canceled`,
//! `InvalidArgument`, ...; see [`go_code_name`]). Every method served ([`methods`])
//! has all its series from the start, at 0. A call is recorded by a drop guard that
//! lives until the response body has sent its trailers: a call that the client
//! cancels, or that is dropped for any reason, is counted as `Canceled`. As in
//! go-grpc-prometheus, only methods the server knows are recorded (an unknown path
//! must not create label values at a client's whim).

pub mod catalogue;
pub mod exporter;
pub mod grpc;
pub mod logging;
pub mod methods;
pub mod process;

pub use catalogue::*;
pub use exporter::{prometheus_handle, serve_metrics};
pub use grpc::{ALL_CODES, GrpcMetrics, GrpcMetricsLayer, go_code_name, grpc_status_code};
pub use logging::{LogFormat, RpcLogLevel, init_tracing};
pub use methods::{GrpcType, MethodInfo, MethodTable};
