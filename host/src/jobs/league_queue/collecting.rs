//! A league's games as its driver sees them: enqueued, set back to be played again, their results
//! collected (and marked so, their bytes dropped), refused, sent to be played a second time by a
//! worker of another name, and counted.

use std::collections::HashMap;

use sqlx::{AssertSqlSafe, Row};

use super::{or_empty, params, Collected, Counts, FirstPlay, CHUNK};
use crate::jobs::lease::{Locking, LEAGUE};
use crate::jobs::retry::retry_conflicts;
use crate::jobs::Db;

/// Done games whose records are in the league's output folder: their bytes are dropped.
const COLLECTED: &str = "status = 'collected', record = NULL, check_record = NULL";
/// Done games whose results the collector refused: back to the queue, to be played again.
const REFUSED: &str = "status = 'scheduled', result = NULL, record = NULL, lease_owner = NULL, \
                       lease_expires_ms = NULL";

impl Db {
    /// Enqueues games `games` of league `id` (those already there stay as they are).
    pub async fn enqueue_league_games(&self, id: i64, games: &[i64]) -> anyhow::Result<()> {
        for chunk in games.chunks(CHUNK) {
            let values = (0..chunk.len())
                .map(|i| format!("($1, ${}, 'scheduled')", i + 2))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "INSERT INTO league_games (league_id, game, status) VALUES {values} \
                 ON CONFLICT (league_id, game) DO NOTHING"
            );
            let mut q = sqlx::query(AssertSqlSafe(sql)).bind(id);
            for g in chunk {
                q = q.bind(*g);
            }
            q.execute(self.pool()).await?;
        }
        Ok(())
    }

    /// Every game of league `id` the database holds, with its status.
    pub async fn league_game_statuses(&self, id: i64) -> anyhow::Result<HashMap<i64, String>> {
        self.by_game(
            id,
            "SELECT game, status AS v FROM league_games WHERE league_id = $1",
        )
        .await
    }

    /// Sets games `games` of league `id` to `status` (`scheduled`: to be played again, the
    /// lease, result and record dropped; `collected`: nothing more to do).
    pub async fn set_league_games(
        &self,
        id: i64,
        games: &[i64],
        status: &str,
    ) -> anyhow::Result<()> {
        for chunk in games.chunks(CHUNK) {
            retry_conflicts(|| self.set_league_games_once(id, chunk, status)).await?;
        }
        Ok(())
    }

    async fn set_league_games_once(
        &self,
        id: i64,
        chunk: &[i64],
        status: &str,
    ) -> anyhow::Result<()> {
        let sql = format!(
            "UPDATE league_games SET status = $1, lease_owner = NULL, lease_expires_ms = NULL, \
             record = NULL, error = NULL, check_of = NULL, check_result = NULL, \
             check_record = NULL, check_since_ms = NULL{} WHERE (league_id, game) IN ({})",
            if status == "scheduled" {
                ", result = NULL"
            } else {
                ""
            },
            LEAGUE.rows(
                self.backend(),
                &format!("league_id = $2 AND game IN ({})", params(3, chunk.len())),
                Locking::Wait
            )
        );
        let mut q = sqlx::query(AssertSqlSafe(sql)).bind(status).bind(id);
        for g in chunk {
            q = q.bind(*g);
        }
        q.execute(self.pool()).await?;
        Ok(())
    }

    /// Up to `limit` games of league `id` played and not yet collected, in schedule order.
    pub async fn league_results(&self, id: i64, limit: i64) -> anyhow::Result<Vec<Collected>> {
        let rows = sqlx::query(
            "SELECT game, result, record, played_by, check_of, check_result, check_record \
             FROM league_games WHERE league_id = $1 AND status = 'done' ORDER BY game LIMIT $2",
        )
        .bind(id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                let game: i64 = r.try_get("game")?;
                // A row without them is refused by the collector like any other bad row.
                Ok(Collected {
                    game,
                    result: or_empty(r, "result")?,
                    record: or_empty(r, "record")?,
                    played_by: or_empty(r, "played_by")?,
                    first: match r.try_get::<Option<String>, _>("check_of")? {
                        None => None,
                        Some(by) => Some(FirstPlay {
                            by,
                            result: or_empty(r, "check_result")?,
                            record: or_empty(r, "check_record")?,
                        }),
                    },
                })
            })
            .collect()
    }

    /// Games `games` of league `id` are in its output folder: their records' bytes are dropped.
    pub async fn collected(&self, id: i64, games: &[i64]) -> anyhow::Result<()> {
        for chunk in games.chunks(CHUNK) {
            retry_conflicts(|| self.update_done_games(COLLECTED, id, chunk)).await?;
        }
        Ok(())
    }

    /// Results of league `id` the collector refused (they contradict their records, or the
    /// records do not verify): their games go back to the queue, to be played again.
    pub async fn refuse_league_results(&self, id: i64, games: &[i64]) -> anyhow::Result<()> {
        for chunk in games.chunks(CHUNK) {
            retry_conflicts(|| self.update_done_games(REFUSED, id, chunk)).await?;
        }
        Ok(())
    }

    /// Sets `set` (`COLLECTED` or `REFUSED`) on the done games `chunk` of league `id`,
    /// their rows locked in key order like every other write of the queue.
    async fn update_done_games(&self, set: &str, id: i64, chunk: &[i64]) -> anyhow::Result<()> {
        let sql = format!(
            "UPDATE league_games SET {set} WHERE (league_id, game) IN ({})",
            LEAGUE.rows(
                self.backend(),
                &format!(
                    "league_id = $1 AND status = 'done' AND game IN ({})",
                    params(2, chunk.len())
                ),
                Locking::Wait
            )
        );
        let mut q = sqlx::query(AssertSqlSafe(sql)).bind(id);
        for g in chunk {
            q = q.bind(*g);
        }
        q.execute(self.pool()).await?;
        Ok(())
    }

    /// Sends game `game` of league `id`, played by the worker named `by`, to be played again by a
    /// worker of another name: its result and record are kept aside as the first play.
    pub async fn play_league_game_again(
        &self,
        id: i64,
        game: i64,
        by: &str,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        // One statement: retried in place (a transaction of several is a method of its own).
        retry_conflicts(|| async {
            sqlx::query(
                "UPDATE league_games SET status = 'scheduled', check_of = $1, \
                 check_result = result, check_record = record, check_since_ms = $2, \
                 result = NULL, record = NULL, lease_owner = NULL, lease_expires_ms = NULL \
                 WHERE league_id = $3 AND game = $4 AND status = 'done' AND check_of IS NULL",
            )
            .bind(by)
            .bind(now_ms)
            .bind(id)
            .bind(game)
            .execute(self.pool())
            .await?;
            Ok(())
        })
        .await
    }

    /// A game of league `id` that a worker could not play: (game, worker, error).
    pub async fn league_failure(&self, id: i64) -> anyhow::Result<Option<(i64, String, String)>> {
        let row = sqlx::query(
            "SELECT game, played_by, error FROM league_games WHERE league_id = $1 \
             AND status = 'failed' ORDER BY game LIMIT 1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            Ok((
                r.try_get("game")?,
                or_empty(&r, "played_by")?,
                or_empty(&r, "error")?,
            ))
        })
        .transpose()
    }

    /// How many games of league `id` are in each state.
    pub async fn league_counts(&self, id: i64) -> anyhow::Result<Counts> {
        let rows = sqlx::query(
            "SELECT status, COUNT(*) AS n FROM league_games WHERE league_id = $1 GROUP BY status",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        let mut c = Counts::default();
        for r in &rows {
            let n: i64 = r.try_get("n")?;
            match r.try_get::<String, _>("status")?.as_str() {
                "scheduled" => c.scheduled = n,
                "running" => c.running = n,
                "done" => c.done = n,
                "collected" => c.collected = n,
                "failed" => c.failed = n,
                _ => {}
            }
        }
        Ok(c)
    }

    /// How often each game of league `id` was leased (more than once: a lease ran out and the
    /// game was played again), by game.
    pub async fn league_claims(&self, id: i64) -> anyhow::Result<HashMap<i64, i64>> {
        self.by_game(
            id,
            "SELECT game, claims AS v FROM league_games WHERE league_id = $1",
        )
        .await
    }

    /// One value of each game of league `id`: `select` (a constant) reads `game` and `v`.
    async fn by_game<T>(&self, id: i64, select: &'static str) -> anyhow::Result<HashMap<i64, T>>
    where
        T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
    {
        let rows = sqlx::query(select).bind(id).fetch_all(self.pool()).await?;
        rows.iter()
            .map(|r| Ok((r.try_get("game")?, r.try_get("v")?)))
            .collect()
    }
}
