//! gRPC health checking (`grpc.health.v1.Health`) as the health checking spec
//! (gRPC's `doc/health-checking.md`) has it: tonic-health's service, whose `Watch`
//! on a service the server does not know fails with `NOT_FOUND`, corrected to what the
//! spec asks: the stream sends `SERVICE_UNKNOWN` and stays open. (`Check` on an unknown
//! service is `NOT_FOUND`, as the spec says, and is left as it is.)
//!
//! The spec also says the stream should send the service's status if it becomes
//! known later. This server's names are all set before it takes a call (`""` and the
//! game services, [`super::set_health`]), so a name unknown at the call stays unknown:
//! its stream sends `SERVICE_UNKNOWN` once and then nothing until the drain ends it
//! ([`super::drain_streams`]).

use std::pin::Pin;

use futures_util::{Stream, StreamExt, stream};
use tonic::{Code, Request, Response, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};
use tonic_health::server::HealthReporter;

/// The health service; its statuses are set through the [`HealthReporter`] it was
/// made with.
#[derive(Debug)]
pub struct HealthService {
    inner: tonic_health::server::HealthService,
}

/// A health reporter (every status starts unknown but `""`, which starts `SERVING`)
/// and the service that answers from it.
pub fn health_service() -> (HealthReporter, HealthServer<HealthService>) {
    let reporter = HealthReporter::new();
    let inner = tonic_health::server::HealthService::from_health_reporter(reporter.clone());
    (reporter, HealthServer::new(HealthService { inner }))
}

type WatchStream = Pin<Box<dyn Stream<Item = Result<HealthCheckResponse, Status>> + Send>>;

#[tonic::async_trait]
impl Health for HealthService {
    async fn check(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<HealthCheckResponse>, Status> {
        self.inner.check(request).await
    }

    type WatchStream = WatchStream;

    async fn watch(
        &self,
        request: Request<HealthCheckRequest>,
    ) -> Result<Response<WatchStream>, Status> {
        match self.inner.watch(request).await {
            Ok(response) => Ok(response.map(|updates| Box::pin(updates) as WatchStream)),
            Err(status) if status.code() == Code::NotFound => {
                let unknown = HealthCheckResponse {
                    status: ServingStatus::ServiceUnknown as i32,
                };
                let updates = stream::once(async move { Ok(unknown) }).chain(stream::pending());
                Ok(Response::new(Box::pin(updates) as WatchStream))
            }
            Err(status) => Err(status),
        }
    }
}
