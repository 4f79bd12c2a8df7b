//! The ladder's games as the server sees them: scheduling groups' games, the results that count,
//! and games for pages and the API. Leasing and finishing them is `crate::jobs::ladder_queue`'s.

use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

use super::*;
use crate::jobs::retry::{retry_conflicts, WRITE_ROUND};

/// What one call of [`Db::schedule`] writes, held for its retries.
#[derive(Clone, Copy)]
struct Schedule<'a> {
    stage: &'a str,
    key: &'a str,
    games: &'a [NewGame],
    placed: Option<i64>,
    now_ms: i64,
}

impl Db {
    // ----- games -----

    /// Schedules `games` of the group `key` (ON CONFLICT: a game already scheduled stays as it
    /// is) and, when `placed` is given, marks that version placed, all in one transaction.
    /// Returns how many games are new.
    pub async fn schedule(
        &self,
        stage: &str,
        key: &str,
        games: &[NewGame],
        placed: Option<i64>,
        now_ms: i64,
    ) -> anyhow::Result<usize> {
        let s = Schedule {
            stage,
            key,
            games,
            placed,
            now_ms,
        };
        // The whole transaction is the retried operation: an aborted one was rolled back whole.
        retry_conflicts(|| self.schedule_once(&s)).await
    }

    async fn schedule_once(&self, s: &Schedule<'_>) -> anyhow::Result<usize> {
        let Schedule {
            stage,
            key,
            games,
            placed,
            now_ms,
        } = *s;
        let mut tx = self.begin_write().await?;
        let mut new = 0;
        // A version replaced since the caller read the active ones gets no new games.
        let mut versions: Vec<i64> = games.iter().flat_map(|g| g.seats.iter().copied()).collect();
        versions.sort_unstable();
        versions.dedup();
        for v in &versions {
            let active = sqlx::query(
                "SELECT v.active FROM versions v JOIN contestants c ON c.id = v.contestant_id \
                 WHERE v.id = $1 AND c.disabled = 0",
            )
            .bind(*v)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get::<i64, _>("active"))
            .transpose()?;
            if active != Some(1) {
                tx.commit().await?;
                return Ok(0);
            }
        }
        for g in games {
            let row = sqlx::query(
                "INSERT INTO games \
                 (stage, group_key, cycle, rotation, seed, status, scheduled_ms) \
                 VALUES ($1, $2, $3, $4, $5, 'scheduled', $6) \
                 ON CONFLICT (group_key, cycle, rotation) DO NOTHING RETURNING id",
            )
            .bind(stage)
            .bind(key)
            .bind(g.cycle)
            .bind(g.rotation)
            .bind(g.seed as i64)
            .bind(now_ms)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { continue };
            let id: i64 = row.try_get("id")?;
            for (seat, v) in g.seats.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO game_seats (game_id, seat, version_id) VALUES ($1, $2, $3)",
                )
                .bind(id)
                .bind(seat as i64)
                .bind(*v)
                .execute(&mut *tx)
                .await?;
            }
            new += 1;
        }
        if let Some(v) = placed {
            sqlx::query("UPDATE versions SET placed = 1 WHERE id = $1")
                .bind(v)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(new)
    }

    /// The highest cycle scheduled for the group `key`.
    pub async fn last_cycle(&self, key: &str) -> anyhow::Result<Option<i64>> {
        let row = sqlx::query("SELECT MAX(cycle) AS c FROM games WHERE group_key = $1")
            .bind(key)
            .fetch_one(self.pool())
            .await?;
        Ok(row.try_get("c")?)
    }

    /// Games scheduled or being played.
    pub async fn pending_games(&self) -> anyhow::Result<i64> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status IN ('scheduled', 'running')")
                .fetch_one(self.pool())
                .await?;
        Ok(row.try_get("n")?)
    }

    /// Games played, being played or scheduled (not cancelled), by version id.
    pub async fn games_by_version(&self) -> anyhow::Result<std::collections::HashMap<i64, i64>> {
        let rows = sqlx::query(
            "SELECT s.version_id, COUNT(*) AS n FROM game_seats s JOIN games g ON g.id = s.game_id \
             WHERE g.status <> 'cancelled' GROUP BY s.version_id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("version_id")?, r.try_get("n")?)))
            .collect()
    }

    /// The hashes of accepted uploads whose bytes the database does not keep (uploads accepted
    /// before it was shared, or by an older arena).
    pub async fn uploads_without_code(&self) -> anyhow::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT DISTINCT v.sha256 FROM versions v WHERE v.accepted = 1 AND NOT EXISTS \
             (SELECT 1 FROM code c WHERE c.sha256 = v.sha256) ORDER BY v.sha256",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|r| Ok(r.try_get("sha256")?)).collect()
    }

    /// The results of the games whose every seat is an active version: the ones that count,
    /// each with its seats' version ids.
    pub async fn counted_results(&self) -> anyhow::Result<Vec<(i64, String, Vec<i64>)>> {
        let rows = sqlx::query(
            "SELECT g.id, g.result FROM games g WHERE g.status = 'done' AND NOT EXISTS \
             (SELECT 1 FROM game_seats s JOIN versions v ON v.id = s.version_id \
             WHERE s.game_id = g.id AND v.active = 0) ORDER BY g.id",
        )
        .fetch_all(self.pool())
        .await?;
        let seats = sqlx::query(
            "SELECT s.game_id, s.version_id FROM game_seats s JOIN games g ON g.id = s.game_id \
             WHERE g.status = 'done' ORDER BY s.game_id, s.seat",
        )
        .fetch_all(self.pool())
        .await?;
        let mut by_game: std::collections::HashMap<i64, Vec<i64>> = Default::default();
        for r in &seats {
            by_game
                .entry(r.try_get("game_id")?)
                .or_default()
                .push(r.try_get("version_id")?);
        }
        rows.iter()
            .map(|r| {
                let id: i64 = r.try_get("id")?;
                let seats = by_game.remove(&id).unwrap_or_default();
                Ok((id, r.try_get("result")?, seats))
            })
            .collect()
    }

    /// The seats' version ids of games `ids`, by game.
    pub async fn seats_of(
        &self,
        ids: &[i64],
    ) -> anyhow::Result<std::collections::HashMap<i64, Vec<i64>>> {
        let mut by_game: std::collections::HashMap<i64, Vec<i64>> = Default::default();
        for chunk in ids.chunks(WRITE_ROUND) {
            let sql = format!(
                "SELECT game_id, version_id FROM game_seats WHERE game_id IN ({}) \
                 ORDER BY game_id, seat",
                (1..=chunk.len())
                    .map(|i| format!("${i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let mut q = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                q = q.bind(*id);
            }
            for r in q.fetch_all(self.pool()).await? {
                by_game
                    .entry(r.try_get("game_id")?)
                    .or_default()
                    .push(r.try_get("version_id")?);
            }
        }
        Ok(by_game)
    }

    /// The games cancelled (a version replaced or taken out before they were played), whose
    /// records, if a worker was playing them then, are not kept.
    pub async fn cancelled_games(&self) -> anyhow::Result<Vec<i64>> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'cancelled' ORDER BY id")
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    /// Games done in all.
    pub async fn games_done(&self) -> anyhow::Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'done'")
            .fetch_one(self.pool())
            .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn game(&self, id: i64) -> anyhow::Result<Option<GameRow>> {
        let row = sqlx::query(
            "SELECT id, stage, status, result, record, finished_ms FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let mut games = self.with_seats(vec![row]).await?;
        Ok(games.pop())
    }

    /// The last `limit` games done, newest first; only those of `version` when given, else only
    /// those that count.
    pub async fn recent_games(
        &self,
        version: Option<i64>,
        limit: i64,
    ) -> anyhow::Result<Vec<GameRow>> {
        let rows = match version {
            Some(v) => sqlx::query(
                "SELECT g.id, g.stage, g.status, g.result, g.record, g.finished_ms FROM games g \
                     JOIN game_seats s ON s.game_id = g.id WHERE s.version_id = $1 \
                     AND g.status = 'done' ORDER BY g.id DESC LIMIT $2",
            )
            .bind(v)
            .bind(limit)
            .fetch_all(self.pool())
            .await?,
            None => sqlx::query(
                "SELECT g.id, g.stage, g.status, g.result, g.record, g.finished_ms FROM games g \
                     WHERE g.status = 'done' AND NOT EXISTS (SELECT 1 FROM game_seats s JOIN \
                     versions v ON v.id = s.version_id WHERE s.game_id = g.id AND v.active = 0) \
                     ORDER BY g.id DESC LIMIT $1",
            )
            .bind(limit)
            .fetch_all(self.pool())
            .await?,
        };
        self.with_seats(rows).await
    }

    async fn with_seats(&self, rows: Vec<AnyRow>) -> anyhow::Result<Vec<GameRow>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let ids: Vec<i64> = rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?;
        let list = (1..=ids.len())
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT s.game_id, s.seat, s.version_id, v.contestant_id, c.name, v.number \
             FROM game_seats s JOIN versions v ON v.id = s.version_id \
             JOIN contestants c ON c.id = v.contestant_id WHERE s.game_id IN ({list}) \
             ORDER BY s.game_id, s.seat"
        );
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for id in &ids {
            q = q.bind(*id);
        }
        let seat_rows = q.fetch_all(self.pool()).await?;
        let mut games = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            let mut seats = Vec::new();
            for s in &seat_rows {
                if s.try_get::<i64, _>("game_id")? == id {
                    seats.push(Seat {
                        version_id: s.try_get("version_id")?,
                        contestant_id: s.try_get("contestant_id")?,
                        name: s.try_get("name")?,
                        number: s.try_get("number")?,
                    });
                }
            }
            games.push(GameRow {
                id,
                stage: r.try_get("stage")?,
                status: r.try_get("status")?,
                seats,
                result: r.try_get("result")?,
                record: r.try_get("record")?,
                finished_ms: r.try_get("finished_ms")?,
            });
        }
        Ok(games)
    }
}
