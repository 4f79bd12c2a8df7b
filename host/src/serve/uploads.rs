//! Taking an upload, in stages that each hold on their own, whatever the client does:
//!
//! 1. **admit** (headers only, before a byte of the body is read): submissions open, the
//!    contestant not disabled, under the hourly limit;
//! 2. **receive**: the body, within `uploads.max_kib`, into memory reserved from the upload buffer
//!    (`server.upload_buffer_mib` for all bodies together: an upload waits for room);
//! 3. **record**: counted against `uploads.per_hour` and recorded as "checking" in one transaction
//!    (uploads sent at once cannot all pass the count), its bytes then written to the data
//!    folder. From here on the upload exists: a client that goes away changes nothing;
//! 4. **check**, in [`super::checks`] (fair, bounded, not tied to the request), which writes the
//!    verdict and, when the upload is accepted, makes it the contestant's playing version.
//!
//! The request then waits for the verdict. An upload of Python or JavaScript sources
//! ([`take_sources`]) is recorded and kept as its sources; its check builds them first
//! ([`super::build`]), in its turn in the same queue.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use tokio::sync::{oneshot, OwnedSemaphorePermit};

use super::checks::Job;
use super::db::{Contestant, NewUpload, OverLimit, PendingUpload};
use super::App;
use crate::jobs::now_ms;

/// Why an upload was not taken.
#[derive(Debug)]
pub enum Refusal {
    /// Submissions are closed (deadline or freeze), or the contestant is disabled; the reason
    /// says which.
    Closed(&'static str),
    /// Too many uploads in the last hour.
    RateLimited { per_hour: u32, retry_after_s: u64 },
    /// Too many test runs in the last hour (`uploads.tests_per_hour`).
    TestsLimited { per_hour: u32, retry_after_s: u64 },
    /// Larger than the upload limit.
    TooLarge { limit: u64 },
    /// The body could not be read (the client went away, or sent it too slowly).
    Unreadable(String),
    /// Sources in a language whose toolchain this server lacks (`this server cannot build
    /// Python: …`).
    Unbuildable(String),
    /// The server's own failure.
    Internal(anyhow::Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Closed(why) => f.write_str(why),
            Refusal::RateLimited {
                per_hour,
                retry_after_s,
            } => write!(
                f,
                "at most {per_hour} uploads an hour: upload again in {}",
                wait_text(*retry_after_s)
            ),
            Refusal::TestsLimited {
                per_hour,
                retry_after_s,
            } => write!(
                f,
                "at most {per_hour} tests an hour: test again in {}",
                wait_text(*retry_after_s)
            ),
            Refusal::TooLarge { limit } => write!(f, "an upload is at most {limit} bytes"),
            Refusal::Unreadable(why) => write!(f, "the upload could not be read: {why}"),
            Refusal::Unbuildable(why) => f.write_str(why),
            Refusal::Internal(e) => write!(f, "internal error: {e:#}"),
        }
    }
}

/// "40 s", "12 min".
fn wait_text(s: u64) -> String {
    if s < 120 {
        format!("{s} s")
    } else {
        format!("{} min", s.div_ceil(60))
    }
}

impl From<anyhow::Error> for Refusal {
    fn from(e: anyhow::Error) -> Refusal {
        Refusal::Internal(e)
    }
}

impl Refusal {
    fn rate_limited(per_hour: u32, over: OverLimit, now: i64) -> Refusal {
        Refusal::RateLimited {
            per_hour,
            // Never more than the hour: an upload sent at once may have been recorded with
            // a clock read a few milliseconds after `now`.
            retry_after_s: ((over.retry_at_ms - now).clamp(1000, 3_600_000) as u64).div_ceil(1000),
        }
    }
}

/// A checked upload.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Checked {
    pub version: i64,
    pub accepted: bool,
    pub reason: Option<String>,
    /// What `arena check` printed.
    pub report: String,
    /// SHA-256 of the uploaded bytes (of the built component, for sources built).
    pub sha256: String,
    pub size: usize,
    /// Where its author downloads the version's sources, for an upload of sources.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
}

/// Stage 1: whether `who` may upload now, from what is known before the body is read. The
/// hourly count here only spares reading a body that would be refused; the count that holds is
/// the one in [`record`]'s transaction.
pub async fn admit(app: &App, who: &Contestant) -> Result<(), Refusal> {
    if let Some(why) = app.submissions_closed().await? {
        return Err(Refusal::Closed(why));
    }
    if who.disabled {
        return Err(Refusal::Closed(
            "the host has taken you out of this challenge: uploads are refused",
        ));
    }
    let per_hour = app.challenge.uploads.per_hour;
    let now = now_ms();
    if let Err(over) = app.db.upload_room(who.id, per_hour, now).await? {
        return Err(Refusal::rate_limited(per_hour, over, now));
    }
    Ok(())
}

/// An upload's body in memory, with the room it holds in the upload buffer.
pub struct Received {
    bytes: Bytes,
    room: OwnedSemaphorePermit,
}

impl Received {
    /// `bytes` read into `room` reserved with [`reserve`].
    pub fn new(bytes: Bytes, room: OwnedSemaphorePermit) -> Received {
        Received { bytes, room }
    }

    /// The body, and its room in the upload buffer.
    pub fn into_parts(self) -> (Bytes, OwnedSemaphorePermit) {
        (self.bytes, self.room)
    }
}

/// Stage 2: reads a body of at most `uploads.max_kib` (`declared`: its `Content-Length`, if
/// given) into memory reserved in the upload buffer; waits for room.
pub async fn receive(app: &App, body: Body, declared: Option<u64>) -> Result<Received, Refusal> {
    let limit = app.challenge.uploads.max_bytes;
    if declared.is_some_and(|n| n > limit) {
        return Err(Refusal::TooLarge { limit });
    }
    let room = reserve(app, declared.unwrap_or(limit)).await?;
    let bytes = read_body(body, limit).await?;
    Ok(Received { bytes, room })
}

/// Room for `bytes` in the upload buffer (counted in KiB), waiting for it.
pub async fn reserve(app: &App, bytes: u64) -> Result<OwnedSemaphorePermit, Refusal> {
    let kib = u32::try_from(bytes.div_ceil(1024).max(1)).unwrap_or(u32::MAX);
    Arc::clone(&app.upload_buffer)
        .acquire_many_owned(kib)
        .await
        .map_err(|e| Refusal::Internal(anyhow::anyhow!("{e}")))
}

/// A body of at most `limit` bytes.
pub async fn read_body(body: Body, limit: u64) -> Result<Bytes, Refusal> {
    axum::body::to_bytes(body, usize::try_from(limit).unwrap_or(usize::MAX))
        .await
        .map_err(|e| {
            let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&e);
            while let Some(c) = cause {
                if c.is::<http_body_util::LengthLimitError>() {
                    return Refusal::TooLarge { limit };
                }
                cause = c.source();
            }
            Refusal::Unreadable(e.to_string())
        })
}

/// The sources of a `multipart/form-data` body (docs/SERVER.md), if this server can build them;
/// malformed sources are unreadable (400).
pub async fn sources_of(
    app: &App,
    content_type: &str,
    received: Received,
) -> Result<(super::sources::Sources, OwnedSemaphorePermit), Refusal> {
    let sources = super::sources::Sources::from_multipart(content_type, received.bytes)
        .await
        .map_err(Refusal::Unreadable)?;
    if let Some(why) = app.builds.unavailable(sources.lang) {
        return Err(Refusal::Unbuildable(why));
    }
    Ok((sources, received.room))
}

/// Stages 3 and 4: records the upload (counted against the hourly limit in the same
/// transaction), writes its bytes, queues its check and waits for the verdict. Recording and
/// queueing run in a task of their own: a client that goes away (its request dropped at any
/// await) cannot leave an upload recorded as "checking" but never queued. The check goes on and
/// its verdict is kept if the caller stops waiting.
pub async fn take(
    app: &Arc<App>,
    who: &Contestant,
    received: Received,
) -> Result<Checked, Refusal> {
    if received.bytes.is_empty() {
        return Err(Refusal::Unreadable("the upload is empty".into()));
    }
    take_as(app, who, received, false).await
}

/// [`take`] for an upload of sources (`room` holds the room of its body): they are kept in their
/// stored form, and built by the check.
pub async fn take_sources(
    app: &Arc<App>,
    who: &Contestant,
    sources: &super::sources::Sources,
    room: OwnedSemaphorePermit,
) -> Result<Checked, Refusal> {
    let received = Received::new(Bytes::from(sources.to_bytes()), room);
    take_as(app, who, received, true).await
}

async fn take_as(
    app: &Arc<App>,
    who: &Contestant,
    received: Received,
    source: bool,
) -> Result<Checked, Refusal> {
    let (app, id, name) = (Arc::clone(app), who.id, who.name.clone());
    let (version_id, number, rx) =
        tokio::spawn(async move { record_and_queue(&app, id, name, received, source).await })
            .await
            .map_err(|e| anyhow::anyhow!("recording the upload failed: {e}"))??;
    match rx.await {
        Ok(Ok(mut checked)) => {
            if source {
                checked.source_url = Some(format!("/api/versions/{version_id}/source"));
            }
            Ok(checked)
        }
        Ok(Err(e)) => Err(Refusal::Internal(e)),
        Err(_) => Err(Refusal::Internal(anyhow::anyhow!(
            "the check of version {number} ended without a verdict"
        ))),
    }
}

/// The verdict's way back from the check queue.
type Verdict = oneshot::Receiver<anyhow::Result<Checked>>;

/// Stage 3 and the queueing of stage 4: the version's id and number and where its verdict will
/// come. `source`: the bytes are sources to build.
async fn record_and_queue(
    app: &Arc<App>,
    contestant_id: i64,
    name: String,
    received: Received,
    source: bool,
) -> Result<(i64, i64, Verdict), Refusal> {
    let bytes = received.bytes;
    let sha256 = crate::records::sha256_hex(&bytes);
    let per_hour = app.challenge.uploads.per_hour;
    let now = now_ms();
    let upload = NewUpload {
        sha256: &sha256,
        size: bytes.len() as i64,
        now_ms: now,
        source,
    };
    let (version_id, number) = match app
        .db
        .begin_upload(contestant_id, per_hour, &upload)
        .await?
    {
        Ok(ids) => ids,
        Err(over) => return Err(Refusal::rate_limited(per_hour, over, now)),
    };
    // The bytes are kept from now on: the check reads them from the data folder, as a check
    // run again after a stop does.
    let storage = app.storage.clone();
    let stored = tokio::task::spawn_blocking(move || storage.put_agent(&bytes))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))
        .and_then(|r| r);
    if let Err(e) = stored {
        app.db.drop_upload(version_id).await?;
        return Err(Refusal::Internal(e));
    }
    // The body's room in the upload buffer is given back: the bytes are on disk.
    drop(received.room);
    let (tx, rx) = oneshot::channel();
    app.checks.submit(
        app,
        Job {
            upload: PendingUpload {
                version_id,
                contestant_id,
                name,
                number,
                sha256,
                source,
            },
            reply: Some(tx),
        },
    );
    Ok((version_id, number, rx))
}
