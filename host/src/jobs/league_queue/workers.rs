//! The workers' register: each `arena worker` process adds itself, renews its row while it plays
//! (with how many games it played) and takes itself out when it stops; a league's driver asks
//! whether any worker is there to play its games.

use sqlx::Row;

use crate::jobs::Db;

impl Db {
    /// Adds (or renews) worker `owner` to the register.
    pub async fn register_worker(
        &self,
        owner: &str,
        host: &str,
        threads: usize,
        version: &str,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO workers (owner, host, threads, arena_version, started_ms, seen_ms) \
             VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (owner) DO UPDATE SET \
             seen_ms = excluded.seen_ms, threads = excluded.threads",
        )
        .bind(owner)
        .bind(host)
        .bind(threads as i64)
        .bind(version)
        .bind(now_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Worker `owner` is alive at `now_ms` and has counted `games` more games.
    pub async fn worker_seen(&self, owner: &str, now_ms: i64, games: i64) -> anyhow::Result<()> {
        sqlx::query("UPDATE workers SET seen_ms = $1, games = games + $2 WHERE owner = $3")
            .bind(now_ms)
            .bind(games)
            .bind(owner)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// A worker that stops leaves the register.
    pub async fn forget_worker(&self, owner: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM workers WHERE owner = $1")
            .bind(owner)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Threads of the workers heard of since `since_ms`.
    pub async fn worker_threads_since(&self, since_ms: i64) -> anyhow::Result<i64> {
        let rows = sqlx::query("SELECT threads FROM workers WHERE seen_ms >= $1")
            .bind(since_ms)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<i64, _>("threads")?))
            .sum()
    }
}
