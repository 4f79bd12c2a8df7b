//! Live updates: server-sent events (`GET /api/events`) fed by one broadcast channel.
//!
//! Events are public: `leaderboard` (the whole leaderboard, as `GET /api/leaderboard` gives it,
//! whenever it changes), `game` (a game was counted: its id, seats and winner) and `status`
//! (submissions opened or closed, the final started or ended). A client that falls behind misses
//! events rather than slowing the server; the next `leaderboard` event brings it up to date.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use tokio::sync::{broadcast, watch};

/// One event: its name and its JSON data.
#[derive(Clone, Debug)]
pub struct Update {
    pub name: &'static str,
    pub data: Arc<str>,
}

pub struct Events {
    tx: broadcast::Sender<Update>,
    /// Becomes true when the server stops: every stream ends, so that shutting down does not wait
    /// for browsers to leave.
    stop: watch::Sender<bool>,
}

impl Default for Events {
    fn default() -> Events {
        Events {
            tx: broadcast::channel(256).0,
            stop: watch::channel(false).0,
        }
    }
}

impl Events {
    /// Sends an event to every listener (none listening is fine).
    pub fn send(&self, name: &'static str, data: impl Into<Arc<str>>) {
        let _ = self.tx.send(Update {
            name,
            data: data.into(),
        });
    }

    /// Ends every stream.
    pub fn stop(&self) {
        self.stop.send_replace(true);
    }

    /// The event stream of one client, starting with `first` (the current leaderboard) so that a
    /// page is up to date as soon as it connects.
    pub fn stream(&self, first: Update) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
        let rx = self.tx.subscribe();
        let stop = self.stop.subscribe();
        let s = stream::unfold(
            (Some(first), rx, stop),
            |(first, mut rx, mut stop)| async move {
                if let Some(u) = first {
                    return Some((Ok(event(&u)), (None, rx, stop)));
                }
                loop {
                    if *stop.borrow() {
                        return None;
                    }
                    tokio::select! {
                        got = rx.recv() => match got {
                            Ok(u) => return Some((Ok(event(&u)), (None, rx, stop))),
                            Err(broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(broadcast::error::RecvError::Closed) => return None,
                        },
                        _ = stop.changed() => return None,
                    }
                }
            },
        );
        Sse::new(s).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
    }
}

fn event(u: &Update) -> Event {
    Event::default().event(u.name).data(&*u.data)
}
