//! The sockets a server answers on, and the addresses they are bound to: `IP:PORT` or
//! `HOST:PORT` (`--grpc-addr localhost:50071`), the host name resolved once at start.
//!
//! A name that resolves to several addresses is bound on one of them, an IPv4 one
//! when there is one (as Go's `net.Listen` does): `localhost` is then `127.0.0.1`,
//! which clients that resolve `localhost` reach too, as well as those that are given
//! `127.0.0.1`.

use std::net::SocketAddr;

use tokio::net::TcpListener;

/// The sockets a server answers on, bound by the caller (tests bind port 0).
#[derive(Debug)]
pub struct Listeners {
    /// gRPC (HTTP/2, plaintext).
    pub grpc: TcpListener,
    /// Prometheus `/metrics` (HTTP/1.1); `None` = no exporter.
    pub metrics: Option<TcpListener>,
}

impl Listeners {
    /// Binds both addresses.
    pub async fn bind(grpc: SocketAddr, metrics: Option<SocketAddr>) -> std::io::Result<Self> {
        let grpc = bind(grpc, "gRPC").await?;
        let metrics = match metrics {
            Some(addr) => Some(bind(addr, "metrics").await?),
            None => None,
        };
        Ok(Self { grpc, metrics })
    }

    /// Resolves and binds both addresses, each `IP:PORT` or `HOST:PORT` ([`resolve`]).
    pub async fn bind_named(grpc: &str, metrics: Option<&str>) -> std::io::Result<Self> {
        let grpc = resolve(grpc, "gRPC").await?;
        let metrics = match metrics {
            Some(addr) => Some(resolve(addr, "metrics").await?),
            None => None,
        };
        Self::bind(grpc, metrics).await
    }
}

/// The address to bind for `addr`, `IP:PORT` (`0.0.0.0:50051`, `[::1]:50051`) or
/// `HOST:PORT` (`localhost:50051`): an IPv4 address of the host if it has one, else its
/// first. The error names `what` and `addr`.
pub async fn resolve(addr: &str, what: &str) -> std::io::Result<SocketAddr> {
    let named = |e: std::io::Error| {
        std::io::Error::new(
            e.kind(),
            format!("cannot resolve {what} address {addr:?} (expected IP:PORT or HOST:PORT): {e}"),
        )
    };
    let found: Vec<SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .map_err(named)?
        .collect();
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| {
            named(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "the name has no address",
            ))
        })
}

/// Binds a TCP listener, naming the address in the error.
pub async fn bind(addr: SocketAddr, what: &str) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await.map_err(|e| {
        std::io::Error::new(e.kind(), format!("cannot bind {what} address {addr}: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn host_names_resolve_and_ipv4_is_preferred() {
        // `localhost` is 127.0.0.1 (and often ::1 too) on every Linux: /etc/hosts.
        assert_eq!(
            resolve("localhost:50071", "gRPC").await.unwrap(),
            "127.0.0.1:50071".parse::<SocketAddr>().unwrap()
        );
        assert_eq!(
            resolve("0.0.0.0:9090", "metrics").await.unwrap(),
            "0.0.0.0:9090".parse::<SocketAddr>().unwrap()
        );
        assert_eq!(
            resolve("[::1]:9090", "metrics").await.unwrap(),
            "[::1]:9090".parse::<SocketAddr>().unwrap()
        );
        // No port: refused before any lookup, naming the flag's address.
        let error = resolve("localhost", "gRPC").await.unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("cannot resolve gRPC address \"localhost\""),
            "{error}"
        );
    }
}
