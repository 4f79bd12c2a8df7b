//! A league's row, as the `arena league --database` that drives it keeps it: found by its
//! fingerprint, created, taken over from a driver that stopped, renewed while driven, left when
//! the driver stops, and finished. Its settings are what workers play by.

use anyhow::Context;
use sqlx::Row;

use super::{league_row, LeagueRow};
use crate::jobs::Db;

impl Db {
    pub async fn league_by_fingerprint(
        &self,
        fingerprint: &str,
    ) -> anyhow::Result<Option<LeagueRow>> {
        let row = sqlx::query(
            "SELECT id, status, settings, arena_version, driver, driver_seen_ms FROM leagues \
             WHERE fingerprint = $1",
        )
        .bind(fingerprint)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| league_row(&r)).transpose()
    }

    /// Adds a league, driven by `driver`, with no games yet. Returns its id.
    pub async fn create_league(
        &self,
        fingerprint: &str,
        name: &str,
        settings: &str,
        version: &str,
        driver: &str,
        now_ms: i64,
    ) -> anyhow::Result<i64> {
        let row = sqlx::query(
            "INSERT INTO leagues (fingerprint, name, settings, arena_version, status, driver, \
             driver_seen_ms, created_ms) VALUES ($1, $2, $3, $4, 'playing', $5, $6, $6) \
             RETURNING id",
        )
        .bind(fingerprint)
        .bind(name)
        .bind(settings)
        .bind(version)
        .bind(driver)
        .bind(now_ms)
        .fetch_one(self.pool())
        .await?;
        Ok(row.try_get("id")?)
    }

    /// Removes a league and its games.
    pub async fn delete_league(&self, id: i64) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        sqlx::query("DELETE FROM league_games WHERE league_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM leagues WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Makes `driver` the league's driver unless another one than `dead` (a driver known to have
    /// stopped) was heard of since `stale_ms`, and marks it playing with this arena's `version`.
    /// Returns whether it now drives the league.
    pub async fn take_league(
        &self,
        id: i64,
        driver: &str,
        dead: Option<&str>,
        version: &str,
        now_ms: i64,
        stale_ms: i64,
    ) -> anyhow::Result<bool> {
        let r = sqlx::query(
            "UPDATE leagues SET driver = $1, driver_seen_ms = $2, status = 'playing', \
             arena_version = $3 WHERE id = $4 AND (driver IS NULL OR driver = $1 \
             OR driver = $6 OR driver_seen_ms IS NULL OR driver_seen_ms < $5)",
        )
        .bind(driver)
        .bind(now_ms)
        .bind(version)
        .bind(id)
        .bind(stale_ms)
        .bind(dead)
        .execute(self.pool())
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The driver is alive; returns false when another one has taken the league over.
    pub async fn drive_league(&self, id: i64, driver: &str, now_ms: i64) -> anyhow::Result<bool> {
        let r = sqlx::query("UPDATE leagues SET driver_seen_ms = $1 WHERE id = $2 AND driver = $3")
            .bind(now_ms)
            .bind(id)
            .bind(driver)
            .execute(self.pool())
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// The driver lets go of the league (it stops or the league is done); `status` is `playing`
    /// (workers go on with its games) or `done`.
    pub async fn leave_league(&self, id: i64, driver: &str, status: &str) -> anyhow::Result<()> {
        sqlx::query("UPDATE leagues SET driver = NULL, status = $1 WHERE id = $2 AND driver = $3")
            .bind(status)
            .bind(id)
            .bind(driver)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The league is done. Its games' rows stay (without their records, which the output folder
    /// holds): who played each game and how often it was leased, until the league is run again
    /// from the start.
    pub async fn finish_league(&self, id: i64) -> anyhow::Result<()> {
        sqlx::query("UPDATE leagues SET status = 'done', driver = NULL WHERE id = $1")
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// The settings (JSON) of league `id`.
    pub async fn league_settings(&self, id: i64) -> anyhow::Result<String> {
        let row = sqlx::query("SELECT settings FROM leagues WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?
            .with_context(|| format!("no league {id} in the database"))?;
        Ok(row.try_get("settings")?)
    }
}
