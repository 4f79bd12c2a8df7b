//! Taking an upload, from the API or the page: closed or rate-limited uploads are refused before
//! anything else; the bytes are checked as `arena check` does (whatever the request said their
//! type was: the check reads the bytes, and only the sandbox ever runs them); an accepted
//! upload's bytes are written to disk, durably, before the database records it, so a version the
//! database knows always has its file.

use std::sync::Arc;

use super::db::{Contestant, NewUpload};
use super::{now_ms, App};

/// Why an upload was not checked at all.
#[derive(Debug)]
pub enum Refusal {
    /// Submissions are closed (deadline or freeze); the reason says which.
    Closed(&'static str),
    /// Too many uploads in the last hour.
    RateLimited { per_hour: u32, retry_after_s: u64 },
    /// Larger than the upload limit.
    TooLarge { limit: u64 },
    /// The server's own failure.
    Internal(anyhow::Error),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Closed(why) => f.write_str(why),
            Refusal::RateLimited { per_hour, .. } => write!(
                f,
                "at most {per_hour} uploads an hour: wait a little and upload again"
            ),
            Refusal::TooLarge { limit } => write!(f, "an upload is at most {limit} bytes"),
            Refusal::Internal(e) => write!(f, "internal error: {e:#}"),
        }
    }
}

impl From<anyhow::Error> for Refusal {
    fn from(e: anyhow::Error) -> Refusal {
        Refusal::Internal(e)
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
    /// SHA-256 of the uploaded bytes.
    pub sha256: String,
    pub size: usize,
}

pub async fn upload(app: &Arc<App>, who: &Contestant, bytes: Vec<u8>) -> Result<Checked, Refusal> {
    if let Some(why) = app.submissions_closed().await? {
        return Err(Refusal::Closed(why));
    }
    let per_hour = app.challenge.uploads.per_hour;
    let recent = app.db.uploads_since(who.id, now_ms() - 3_600_000).await?;
    if recent >= i64::from(per_hour) {
        return Err(Refusal::RateLimited {
            per_hour,
            retry_after_s: 3600 / u64::from(per_hour),
        });
    }
    let limit = app.challenge.uploads.max_bytes;
    if bytes.len() as u64 > limit {
        return Err(Refusal::TooLarge { limit });
    }
    let bytes = Arc::new(bytes);
    let verdict = {
        let _permit = app
            .checks
            .acquire()
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let (app, bytes, name) = (Arc::clone(app), Arc::clone(&bytes), who.name.clone());
        let games = app.challenge.uploads.check_games;
        // A host failure is an error of the server (HTTP 500, the upload is not recorded), not a
        // refusal of the agent.
        tokio::task::spawn_blocking(move || app.engine.check(&name, &bytes, games))
            .await
            .map_err(|e| anyhow::anyhow!("the check failed: {e}"))??
    };
    let sha256 = if verdict.accepted {
        let (app2, bytes2) = (Arc::clone(app), Arc::clone(&bytes));
        let sha = tokio::task::spawn_blocking(move || app2.storage.put_agent(&bytes2))
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))??;
        if app.db.shared() {
            // Workers on other machines fetch the bytes from the database.
            app.db.put_code(&sha, &bytes).await?;
        }
        sha
    } else {
        crate::records::sha256_hex(&bytes)
    };
    let version = app
        .db
        .record_upload(
            who.id,
            &NewUpload {
                sha256: &sha256,
                module_sha256: verdict.module_sha256.as_deref(),
                size: bytes.len() as i64,
                now_ms: now_ms(),
                accepted: verdict.accepted,
                reason: verdict.reason.as_deref(),
                report: &verdict.report,
            },
        )
        .await?;
    if verdict.accepted {
        // The leaderboard shows the new version as soon as its author is told it was accepted.
        app.board.reload(&app.db).await?;
        let board = Arc::clone(app);
        if let Ok(Some(json)) = tokio::task::spawn_blocking(move || board.board.refresh()).await {
            app.events.send("leaderboard", json);
        }
        app.schedule.notify_one();
    }
    Ok(Checked {
        version,
        accepted: verdict.accepted,
        reason: verdict.reason,
        report: verdict.report,
        sha256,
        size: bytes.len(),
    })
}
