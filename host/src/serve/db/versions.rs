//! Versions: uploads recorded before their check, the check's verdict, the limit of uploads an
//! hour, and which versions play.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::*;
use crate::jobs::retry::retry_conflicts;

impl Db {
    // ----- versions -----

    /// Whether the contestant has made fewer than `per_hour` uploads in the hour before
    /// `now_ms` (a read only: [`Db::begin_upload`] counts again as it records).
    pub async fn upload_room(
        &self,
        contestant_id: i64,
        per_hour: u32,
        now_ms: i64,
    ) -> anyhow::Result<Result<(), OverLimit>> {
        let recent = self
            .recent_uploads(self.pool(), contestant_id, per_hour, now_ms)
            .await?;
        Ok(over_limit(&recent, per_hour).map_or(Ok(()), Err))
    }

    /// The upload times of the contestant's `per_hour` newest uploads of the hour before
    /// `now_ms`, newest first.
    async fn recent_uploads<'e, E>(
        &self,
        executor: E,
        contestant_id: i64,
        per_hour: u32,
        now_ms: i64,
    ) -> anyhow::Result<Vec<i64>>
    where
        E: sqlx::Executor<'e, Database = sqlx::Any>,
    {
        let rows = sqlx::query(
            "SELECT uploaded_ms FROM versions WHERE contestant_id = $1 AND uploaded_ms > $2 \
             ORDER BY uploaded_ms DESC LIMIT $3",
        )
        .bind(contestant_id)
        .bind(now_ms - HOUR_MS)
        .bind(i64::from(per_hour))
        .fetch_all(executor)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<i64, _>("uploaded_ms"))
            .collect::<Result<_, _>>()?)
    }

    /// Records an upload before its check (`checking`), under the contestant's next number,
    /// if the contestant has made fewer than `per_hour` uploads in the hour before `u.now_ms`:
    /// counting and recording are one transaction, so uploads sent at once cannot all pass the
    /// count. Returns the version's id and number, or when the limit leaves room again.
    pub async fn begin_upload(
        &self,
        contestant_id: i64,
        per_hour: u32,
        u: &NewUpload<'_>,
    ) -> anyhow::Result<Result<(i64, i64), OverLimit>> {
        retry_conflicts(|| self.begin_upload_once(contestant_id, per_hour, u)).await
    }

    async fn begin_upload_once(
        &self,
        contestant_id: i64,
        per_hour: u32,
        u: &NewUpload<'_>,
    ) -> anyhow::Result<Result<(i64, i64), OverLimit>> {
        let mut tx = self.begin_write().await?;
        if self.backend() == Backend::Postgres {
            // One contestant's uploads are recorded one at a time (SQLite's `BEGIN IMMEDIATE`
            // already makes every writer wait its turn).
            sqlx::query("SELECT id FROM contestants WHERE id = $1 FOR UPDATE")
                .bind(contestant_id)
                .fetch_optional(&mut *tx)
                .await?;
        }
        let recent = self
            .recent_uploads(&mut *tx, contestant_id, per_hour, u.now_ms)
            .await?;
        if let Some(over) = over_limit(&recent, per_hour) {
            tx.rollback().await?;
            return Ok(Err(over));
        }
        let row = sqlx::query(
            "INSERT INTO versions (contestant_id, number, sha256, module_sha256, size, uploaded_ms, \
             accepted, reason, report, active, placed, checking, source_sha256) \
             VALUES ($1, (SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE contestant_id = $1), \
             $2, NULL, $3, $4, 0, NULL, '', 0, 0, 1, $5) RETURNING id, number",
        )
        .bind(contestant_id)
        .bind(u.sha256)
        .bind(u.size)
        .bind(u.now_ms)
        .bind(u.source.then_some(u.sha256))
        .fetch_one(&mut *tx)
        .await?;
        let ids = (row.try_get("id")?, row.try_get("number")?);
        tx.commit().await?;
        Ok(Ok(ids))
    }

    /// Writes the verdict of an upload's check. An accepted upload becomes the contestant's
    /// active version in the same transaction (unless a newer one was accepted meanwhile): the
    /// one it replaces stops playing and its games not yet played are cancelled. Returns whether
    /// it now plays.
    pub async fn finish_upload(
        &self,
        version_id: i64,
        v: &UploadVerdict<'_>,
    ) -> anyhow::Result<bool> {
        retry_conflicts(|| self.finish_upload_once(version_id, v)).await
    }

    async fn finish_upload_once(
        &self,
        version_id: i64,
        v: &UploadVerdict<'_>,
    ) -> anyhow::Result<bool> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "UPDATE versions SET checking = 0, accepted = $1, reason = $2, report = $3, \
             module_sha256 = $4, sha256 = COALESCE($6, sha256), size = COALESCE($7, size) \
             WHERE id = $5 AND checking = 1 RETURNING contestant_id, number",
        )
        .bind(i64::from(v.accepted))
        .bind(v.reason)
        .bind(v.report)
        .bind(v.module_sha256)
        .bind(version_id)
        .bind(v.built.map(|(sha, _)| sha))
        .bind(v.built.map(|(_, size)| size))
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            // Its verdict is written already (a check run twice gives the same verdict).
            tx.rollback().await?;
            return Ok(false);
        };
        let contestant_id: i64 = row.try_get("contestant_id")?;
        let number: i64 = row.try_get("number")?;
        let newer = sqlx::query(
            "SELECT COUNT(*) AS n FROM versions WHERE contestant_id = $1 AND number > $2 \
             AND accepted = 1",
        )
        .bind(contestant_id)
        .bind(number)
        .fetch_one(&mut *tx)
        .await?
        .try_get::<i64, _>("n")?;
        let plays = v.accepted && newer == 0;
        if plays {
            sqlx::query(
                "UPDATE games SET status = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL \
                 WHERE status IN ('scheduled', 'running') AND id IN (SELECT s.game_id FROM \
                 game_seats s JOIN versions v ON v.id = s.version_id \
                 WHERE v.contestant_id = $1 AND v.active = 1)",
            )
            .bind(contestant_id)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE versions SET active = 0 WHERE contestant_id = $1 AND active = 1")
                .bind(contestant_id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE versions SET active = 1 WHERE id = $1")
                .bind(version_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(plays)
    }

    /// Forgets an upload whose check the server itself could not run (its own failure, not the
    /// upload's): it gets no verdict and does not count towards the hourly limit.
    pub async fn drop_upload(&self, version_id: i64) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM versions WHERE id = $1 AND checking = 1")
            .bind(version_id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Uploads recorded and not yet checked, oldest first (checks a stop cut short).
    pub async fn pending_uploads(&self) -> anyhow::Result<Vec<PendingUpload>> {
        let rows = sqlx::query(
            "SELECT v.id, v.contestant_id, c.name, v.number, v.sha256, v.source_sha256 \
             FROM versions v JOIN contestants c ON c.id = v.contestant_id WHERE v.checking = 1 \
             ORDER BY v.id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let sha256: String = r.try_get("sha256")?;
                let source: Option<String> = r.try_get("source_sha256")?;
                Ok(PendingUpload {
                    version_id: r.try_get("id")?,
                    contestant_id: r.try_get("contestant_id")?,
                    name: r.try_get("name")?,
                    number: r.try_get("number")?,
                    source: source.as_deref() == Some(sha256.as_str()),
                    sha256,
                })
            })
            .collect()
    }

    /// The SHA-256 of the stored sources of version `version_id`, if it is `contestant_id`'s and
    /// was uploaded as sources.
    pub async fn version_source(
        &self,
        version_id: i64,
        contestant_id: i64,
    ) -> anyhow::Result<Option<String>> {
        let row =
            sqlx::query("SELECT source_sha256 FROM versions WHERE id = $1 AND contestant_id = $2")
                .bind(version_id)
                .bind(contestant_id)
                .fetch_optional(self.pool())
                .await?;
        Ok(match row {
            Some(r) => r.try_get("source_sha256")?,
            None => None,
        })
    }

    /// A contestant's uploads, newest first.
    pub async fn versions_of(&self, contestant_id: i64) -> anyhow::Result<Vec<Version>> {
        let rows = sqlx::query(
            "SELECT id, contestant_id, number, sha256, size, uploaded_ms, accepted, reason, report, \
             active, checking, source_sha256 FROM versions WHERE contestant_id = $1 ORDER BY number DESC",
        )
        .bind(contestant_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(version).collect()
    }

    /// One upload of a contestant, by number.
    pub async fn version_of(
        &self,
        contestant_id: i64,
        number: i64,
    ) -> anyhow::Result<Option<Version>> {
        let row = sqlx::query(
            "SELECT id, contestant_id, number, sha256, size, uploaded_ms, accepted, reason, report, \
             active, checking, source_sha256 FROM versions WHERE contestant_id = $1 AND number = $2",
        )
        .bind(contestant_id)
        .bind(number)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(version).transpose()
    }

    /// Every version that plays (of a contestant not disabled), oldest first.
    pub async fn active_versions(&self) -> anyhow::Result<Vec<ActiveVersion>> {
        let rows = sqlx::query(
            "SELECT v.id, v.contestant_id, c.name, v.number, v.sha256, v.placed FROM versions v \
             JOIN contestants c ON c.id = v.contestant_id WHERE v.active = 1 AND c.disabled = 0 \
             ORDER BY v.id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ActiveVersion {
                    id: r.try_get("id")?,
                    contestant_id: r.try_get("contestant_id")?,
                    name: r.try_get("name")?,
                    number: r.try_get("number")?,
                    sha256: r.try_get("sha256")?,
                    placed: r.try_get::<i64, _>("placed")? != 0,
                })
            })
            .collect()
    }

    /// The label and stored bytes' hash of a version (workers load agents by it).
    pub async fn version_file(&self, version_id: i64) -> anyhow::Result<(String, String)> {
        let r = sqlx::query(
            "SELECT c.name, v.number, v.sha256 FROM versions v JOIN contestants c \
             ON c.id = v.contestant_id WHERE v.id = $1",
        )
        .bind(version_id)
        .fetch_one(self.pool())
        .await?;
        Ok((
            label(&r.try_get::<String, _>("name")?, r.try_get("number")?),
            r.try_get("sha256")?,
        ))
    }
}

/// Whether `recent` (the newest upload times of the last hour, newest first, at most
/// `per_hour` of them) reaches the limit, and if so when there is room again: once the
/// `per_hour`-th newest is more than an hour old.
fn over_limit(recent: &[i64], per_hour: u32) -> Option<OverLimit> {
    let per_hour = per_hour as usize;
    (recent.len() >= per_hour).then(|| OverLimit {
        retry_at_ms: recent[per_hour - 1] + HOUR_MS,
    })
}

fn version(r: &AnyRow) -> anyhow::Result<Version> {
    Ok(Version {
        id: r.try_get("id")?,
        contestant_id: r.try_get("contestant_id")?,
        number: r.try_get("number")?,
        sha256: r.try_get("sha256")?,
        size: r.try_get("size")?,
        uploaded_ms: r.try_get("uploaded_ms")?,
        accepted: r.try_get::<i64, _>("accepted")? != 0,
        reason: r.try_get("reason")?,
        report: r.try_get("report")?,
        active: r.try_get::<i64, _>("active")? != 0,
        checking: r.try_get::<i64, _>("checking")? != 0,
        source: r.try_get::<Option<String>, _>("source_sha256")?.is_some(),
    })
}
