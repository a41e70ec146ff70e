//! Sending pre-encoded requests: a pass-through codec and one unary call.

use std::time::Duration;

use bytes::{Buf, BufMut, Bytes};
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::Channel;

/// A codec whose messages are already-encoded protobuf bytes, both ways.
#[derive(Clone, Copy, Debug, Default)]
pub struct RawCodec;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawCodec;
    type Decoder = RawCodec;

    fn encoder(&mut self) -> Self::Encoder {
        RawCodec
    }

    fn decoder(&mut self) -> Self::Decoder {
        RawCodec
    }
}

impl Encoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }
}

impl Decoder for RawCodec {
    type Item = Bytes;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

/// Makes one unary call of `path` with the encoded `body` and a gRPC deadline of
/// `timeout`. Returns the response bytes or the status.
pub async fn unary(
    channel: Channel,
    path: &str,
    body: Bytes,
    timeout: Duration,
) -> Result<Bytes, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|e| Status::unavailable(format!("connection not ready: {e}")))?;
    let path = http::uri::PathAndQuery::try_from(path)
        .map_err(|e| Status::internal(format!("bad path {path:?}: {e}")))?;
    let mut request = tonic::Request::new(body);
    request.set_timeout(timeout);
    grpc.unary(request, path, RawCodec)
        .await
        .map(tonic::Response::into_inner)
}
