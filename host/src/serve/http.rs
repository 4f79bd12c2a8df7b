//! The server's connections, driven by hand below axum (hyper's HTTP/1 connections), so that no
//! client can hold more of the server than the `[server]` keys allow:
//!
//! - at most `server.max_connections` connections are open at once; more wait in the kernel's
//!   backlog until one closes (so connections cannot take the file descriptors the ladder's games,
//!   the database and the compiler children need);
//! - a request's headers must arrive within `server.header_timeout_s`, and a kept-alive
//!   connection that sends no new request for as long is closed (hyper's header read timeout
//!   runs from the moment the connection waits for a request);
//! - a request body must keep coming at `server.body_min_kib_per_s` on average, after a first
//!   `header_timeout_s` of grace ([`MinRate`]);
//! - a failure to accept (no file descriptor left: EMFILE) pauses accepting for a moment instead
//!   of ending the server.
//!
//! At shutdown, connections are asked to close once their request is answered; after 10 s the
//! rest are dropped.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::Router;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};

use super::config::Server;

/// Serves `router` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Server,
    shutdown: impl Future<Output = ()>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    let header_timeout = Duration::from_millis(limits.header_timeout_ms);
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(true);
    let (rate, grace) = (limits.body_min_bytes_per_s, header_timeout);
    let mut warned = false;
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&open).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    warned = false;
                    stream
                }
                Err(e) => {
                    // EMFILE, ENFILE, ENOMEM, a connection reset before it was accepted: none is
                    // a reason to stop serving. Wait for resources to come back.
                    if !warned {
                        eprintln!("warning: cannot accept a connection: {e}");
                        warned = true;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let req = req.map(|body| Body::new(MinRate::new(body, rate, grace)));
            tower::ServiceExt::oneshot(router.clone(), req)
        });
        let conn = http.serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // An error here is the client's (a timeout, a reset, a malformed request).
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(Duration::from_secs(10)) => {}
    }
}

/// A request body that fails once it falls behind `rate` bytes a second on average, counted from
/// its first read plus `grace` (a body nobody reads costs nothing: the handler may wait before
/// reading it, as an upload waits for room in the upload buffer).
pub struct MinRate<B> {
    inner: B,
    rate: u64,
    grace: Duration,
    started: Option<Instant>,
    received: u64,
    timer: Pin<Box<Sleep>>,
}

impl<B> MinRate<B> {
    pub fn new(inner: B, rate: u64, grace: Duration) -> MinRate<B> {
        MinRate {
            inner,
            rate: rate.max(1),
            grace,
            started: None,
            received: 0,
            timer: Box::pin(tokio::time::sleep(grace)),
        }
    }
}

/// The error of a body that came too slowly.
#[derive(Debug)]
pub struct TooSlow {
    pub rate: u64,
}

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body came slower than {} bytes a second",
            self.rate
        )
    }
}

impl std::error::Error for TooSlow {}

impl<B> http_body::Body for MinRate<B>
where
    B: http_body::Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = &mut *self;
        let started = *this.started.get_or_insert_with(Instant::now);
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => {
                // When the bytes received so far stop being enough.
                let due = started
                    + this.grace
                    + Duration::from_secs_f64(this.received as f64 / this.rate as f64);
                if this.timer.deadline() != due {
                    this.timer.as_mut().reset(due);
                }
                match this.timer.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        Poll::Ready(Some(Err(Box::new(TooSlow { rate: this.rate }))))
                    }
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A body that gives `chunk` bytes every `every`, `chunks` times.
    fn drip(
        chunk: usize,
        every: Duration,
        chunks: usize,
    ) -> impl http_body::Body<Data = Bytes, Error = std::convert::Infallible> + Unpin {
        let stream = futures_util::stream::unfold(0, move |i| async move {
            if i == chunks {
                return None;
            }
            tokio::time::sleep(every).await;
            Some((
                Ok::<_, std::convert::Infallible>(Frame::data(Bytes::from(vec![b'x'; chunk]))),
                i + 1,
            ))
        });
        http_body_util::StreamBody::new(Box::pin(stream))
    }

    #[tokio::test]
    async fn a_body_that_keeps_the_rate_is_read_and_a_dripping_one_is_cut() {
        let grace = Duration::from_millis(300);
        // 100 bytes every 20 ms (5,000 B/s) against a minimum of 1,000 B/s: read whole.
        let body = MinRate::new(drip(100, Duration::from_millis(20), 40), 1000, grace);
        assert_eq!(body.collect().await.unwrap().to_bytes().len(), 4000);
        // One byte every 100 ms: cut once the grace and the rate's allowance are spent.
        let t = Instant::now();
        let err = MinRate::new(drip(1, Duration::from_millis(100), 1000), 1000, grace)
            .collect()
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("slower than 1000 bytes a second"),
            "{err}"
        );
        let took = t.elapsed();
        assert!(
            took >= grace && took < grace + Duration::from_secs(2),
            "{took:?}"
        );
    }
}
