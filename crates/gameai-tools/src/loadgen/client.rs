//! Sending pre-encoded requests: a pass-through codec, one unary call, and the
//! transparent retry of a call that never left the client.

use std::time::{Duration, Instant};

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

/// Attempts of one call at most, the first included, when the earlier ones never left
/// the client (see [`never_sent`]).
pub const MAX_ATTEMPTS: u32 = 5;

/// True when tonic failed a call that the server never processed, so that sending it
/// again cannot run it twice:
///
/// - It never left the client: hyper cancels the requests still queued for a
///   connection that closes (after the server's GOAWAY, at `--max-connection-age-secs`
///   or a drain) and answers them `CANCELLED: operation was canceled` without writing
///   a byte.
/// - The server refused it unprocessed: a stream opened after the server's GOAWAY was
///   sent, with an identifier above the graceful (`NO_ERROR`) GOAWAY's last stream
///   identifier (h2 fails just those streams with the GOAWAY as a remote error; a
///   GOAWAY with an error reason also fails processed streams, so it does not count),
///   or reset with `REFUSED_STREAM`. RFC 9113 §6.8 and §8.7: such a stream was not
///   processed and may be retried.
///
/// gRPC's C core, grpc-go and grpc-java retry such calls transparently (gRFC A6,
/// "transparent retries"); tonic 0.14 does not, so its callers must.
pub fn never_sent(status: &Status) -> bool {
    let mut source = std::error::Error::source(status);
    while let Some(error) = source {
        if let Some(hyper) = error.downcast_ref::<hyper::Error>()
            && hyper.is_canceled()
            && status.code() == tonic::Code::Cancelled
        {
            return true;
        }
        if let Some(h2) = error.downcast_ref::<h2::Error>()
            && h2.is_remote()
            && ((h2.is_go_away() && h2.reason() == Some(h2::Reason::NO_ERROR))
                || (h2.is_reset() && h2.reason() == Some(h2::Reason::REFUSED_STREAM)))
        {
            return true;
        }
        source = error.source();
    }
    false
}

/// [`unary`] with the transparent retry of gRPC's own clients: a call that never left
/// the client ([`never_sent`]) is sent again (the channel reconnects), up to
/// [`MAX_ATTEMPTS`] in all and within the one deadline `timeout` from the first
/// attempt. Returns the last attempt's result and the number of retries.
pub async fn unary_retrying(
    channel: Channel,
    path: &str,
    body: Bytes,
    timeout: Duration,
) -> (Result<Bytes, Status>, u32) {
    let deadline = Instant::now() + timeout;
    let mut retries = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let result = unary(channel.clone(), path, body.clone(), left).await;
        match result {
            Err(status)
                if never_sent(&status)
                    && retries + 1 < MAX_ATTEMPTS
                    && deadline > Instant::now() + Duration::from_millis(1) =>
            {
                retries += 1
            }
            result => return (result, retries),
        }
    }
}
