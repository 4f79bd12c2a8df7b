//! The ladder's queue of games (`arena serve`'s table `games`): claimed in batches by the
//! server's own workers and by `arena worker` processes, renewed while they play, written back
//! with the lease check in the same transaction, put back when a lease runs out. The league's
//! games have their own table and queries ([`super::league_queue`]); both follow the same rules of
//! leases and lock order ([`super::lease`]). What is scheduled, and what pages show of it, is
//! `serve::db`'s.

use std::collections::HashSet;

use sqlx::{AssertSqlSafe, Row};

use super::lease::{Locking, LADDER};
use super::retry::{placeholders, retry_conflicts, write_rounds};
use super::{Backend, Db};

/// How the server's own workers' lease owners begin (`local:RUN:N`): at a start, the leases of
/// such owners belong to a run that is gone.
pub const LOCAL_OWNER: &str = "local:";

/// A game a worker has leased.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedGame {
    pub id: i64,
    pub seed: u64,
    pub key: String,
    /// Version ids by seat.
    pub seats: Vec<i64>,
}

/// A played game's result, to be written.
#[derive(Clone, Debug)]
pub struct Finished {
    pub id: i64,
    pub owner: String,
    /// The league's result line (JSON).
    pub result: String,
    /// The record file, relative to the data folder (the name the record goes by when its bytes
    /// are kept in the database).
    pub record: String,
    /// The record's bytes, when the database keeps them (a shared database); `None` when the
    /// file was written into the data folder.
    pub record_bytes: Option<Vec<u8>>,
    /// Played by a worker outside the server: the server learns of the result from the
    /// database (`finished_games`) rather than from its own workers.
    pub remote: bool,
    pub now_ms: i64,
}

impl Db {
    /// Leases up to `n` games to `owner` until `expires_ms`, placement games first: games
    /// scheduled, and games whose lease ran out before `now_ms` (their worker died or hangs;
    /// played again, they give the same record, and only one result is counted).
    pub async fn claim(
        &self,
        owner: &str,
        n: i64,
        now_ms: i64,
        expires_ms: i64,
    ) -> anyhow::Result<Vec<ClaimedGame>> {
        let mut tx = self.begin_write().await?;
        let sql = format!(
            "UPDATE games SET status = 'running', lease_owner = $1, lease_expires_ms = $2, \
             claims = claims + 1 \
             WHERE id IN (SELECT id FROM games WHERE status = 'scheduled' \
             OR (status = 'running' AND lease_expires_ms < $4) \
             ORDER BY CASE stage WHEN 'placement' THEN 0 ELSE 1 END, id LIMIT $3{}) \
             RETURNING id, seed, group_key, cycle, rotation",
            self.skip_locked()
        );
        let rows = sqlx::query(AssertSqlSafe(sql))
            .bind(owner)
            .bind(expires_ms)
            .bind(n)
            .bind(now_ms)
            .fetch_all(&mut *tx)
            .await?;
        let mut games = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            let seats =
                sqlx::query("SELECT version_id FROM game_seats WHERE game_id = $1 ORDER BY seat")
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await?
                    .iter()
                    .map(|s| s.try_get("version_id"))
                    .collect::<Result<Vec<i64>, _>>()?;
            games.push(ClaimedGame {
                id,
                seed: r.try_get::<i64, _>("seed")? as u64,
                key: format!(
                    "{}#{}.{}",
                    r.try_get::<String, _>("group_key")?,
                    r.try_get::<i64, _>("cycle")?,
                    r.try_get::<i64, _>("rotation")?
                ),
                seats,
            });
        }
        tx.commit().await?;
        games.sort_by_key(|g| g.id);
        Ok(games)
    }

    /// Extends the leases `owner` holds on ladder games to `expires_ms` (a worker does while it
    /// plays them). Returns how many it holds.
    pub async fn renew(&self, owner: &str, expires_ms: i64) -> anyhow::Result<u64> {
        self.renew_leases(LADDER, owner, expires_ms).await
    }

    /// Puts back in the queue the ladder games `owner` leased and will not play (a worker that
    /// stops). Returns how many.
    pub async fn release(&self, owner: &str, ids: &[i64]) -> anyhow::Result<u64> {
        let mut n = 0;
        for id in ids {
            n += self.release_lease(LADDER, owner, &[*id]).await?;
        }
        Ok(n)
    }

    /// Writes results, each only if its game is still leased to the worker that played it: a
    /// game is counted once, whatever happens to workers and leases. A record kept in the
    /// database is written in the same transaction, only with a counted result. Returns, for
    /// each result, whether it was counted.
    pub async fn finish(&self, results: &[Finished]) -> anyhow::Result<Vec<bool>> {
        retry_conflicts(|| self.finish_once(results)).await
    }

    async fn finish_once(&self, results: &[Finished]) -> anyhow::Result<Vec<bool>> {
        let mut tx = self.begin_write().await?;
        let mut counted = vec![false; results.len()];
        // One statement per table for a whole round of results, not one per result: each
        // statement is a round trip, and over TLS a large one can wait ~40 ms for the server's
        // delayed acknowledgement (docs/PERFORMANCE.md, "Many machines").
        for mut round in write_rounds(results.iter().map(|f| f.id)) {
            round.sort_by_key(|&i| results[i].id);
            // The rows locked in id order first, as every writer of the queue locks them
            // (`super::lease`); the update then finds them held.
            if self.backend() == Backend::Postgres {
                let ids = (1..=round.len())
                    .map(|i| format!("${i}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let sql = LADDER.rows(self.backend(), &format!("id IN ({ids})"), Locking::Wait);
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for &i in &round {
                    q = q.bind(results[i].id);
                }
                q.fetch_all(&mut *tx).await?;
            }
            let rows = self.values_rows(round.len(), &["BIGINT", "TEXT", "TEXT", "TEXT", "BIGINT"]);
            let sql = format!(
                "UPDATE games SET status = 'done', result = v.column3, record = v.column4, \
                 finished_ms = v.column5, played_by = v.column2, lease_owner = NULL, \
                 lease_expires_ms = NULL FROM (VALUES {rows}) AS v \
                 WHERE games.id = v.column1 AND games.status = 'running' \
                 AND games.lease_owner = v.column2 RETURNING games.id"
            );
            let mut q = sqlx::query(AssertSqlSafe(sql));
            for &i in &round {
                let f = &results[i];
                q = q
                    .bind(f.id)
                    .bind(&f.owner)
                    .bind(&f.result)
                    .bind(&f.record)
                    .bind(f.now_ms);
            }
            let done: HashSet<i64> = q
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| r.try_get::<i64, _>(0))
                .collect::<Result<_, _>>()?;
            let ok: Vec<usize> = round
                .into_iter()
                .filter(|&i| done.contains(&results[i].id))
                .collect();
            // A game played again after its record was written (the first worker's result
            // came too late) has the same record: the row may be there already.
            let records: Vec<&Finished> = ok
                .iter()
                .map(|&i| &results[i])
                .filter(|f| f.record_bytes.is_some())
                .collect();
            if !records.is_empty() {
                let rows = placeholders(records.len(), 2);
                let sql = format!(
                    "INSERT INTO game_records (game_id, bytes) VALUES {rows} \
                     ON CONFLICT (game_id) DO UPDATE SET bytes = excluded.bytes"
                );
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for f in &records {
                    q = q
                        .bind(f.id)
                        .bind(f.record_bytes.as_deref().unwrap_or_default());
                }
                q.execute(&mut *tx).await?;
            }
            let remote: Vec<i64> = ok
                .iter()
                .map(|&i| &results[i])
                .filter(|f| f.remote)
                .map(|f| f.id)
                .collect();
            if !remote.is_empty() {
                let rows = placeholders(remote.len(), 1);
                let sql = format!(
                    "INSERT INTO finished_games (game_id) VALUES {rows} \
                     ON CONFLICT (game_id) DO NOTHING"
                );
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for id in remote {
                    q = q.bind(id);
                }
                q.execute(&mut *tx).await?;
            }
            for i in ok {
                counted[i] = true;
            }
        }
        tx.commit().await?;
        Ok(counted)
    }

    /// The results of ladder games finished by workers outside the server since it last asked,
    /// and forgets them: the server counts each on its leaderboard once (a server that stops
    /// before counting them reads every result again at its next start).
    pub async fn take_finished(&self) -> anyhow::Result<Vec<(i64, String)>> {
        retry_conflicts(|| self.take_finished_once()).await
    }

    async fn take_finished_once(&self) -> anyhow::Result<Vec<(i64, String)>> {
        let mut tx = self.begin_write().await?;
        let rows = sqlx::query(
            "SELECT g.id, g.result FROM finished_games f JOIN games g ON g.id = f.game_id \
             ORDER BY g.id LIMIT 1000",
        )
        .fetch_all(&mut *tx)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let id: i64 = r.try_get("id")?;
            sqlx::query("DELETE FROM finished_games WHERE game_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            let result: Option<String> = r.try_get("result")?;
            if let Some(result) = result {
                out.push((id, result));
            }
        }
        tx.commit().await?;
        Ok(out)
    }

    /// The bytes of game `id`'s record, when the database keeps them.
    pub async fn game_record(&self, id: i64) -> anyhow::Result<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT bytes FROM game_records WHERE game_id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|r| r.try_get("bytes")).transpose()?)
    }

    /// Gives up a game that cannot be played (its agent no longer loads): it is cancelled.
    pub async fn cancel(&self, id: i64, owner: &str) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE games SET status = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL \
             WHERE id = $1 AND status = 'running' AND lease_owner = $2",
        )
        .bind(id)
        .bind(owner)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Cancels every ladder game not yet played (the ladder stops for the final). Returns how
    /// many.
    pub async fn cancel_scheduled(&self) -> anyhow::Result<u64> {
        retry_conflicts(|| self.cancel_scheduled_once()).await
    }

    async fn cancel_scheduled_once(&self) -> anyhow::Result<u64> {
        let r = sqlx::query("UPDATE games SET status = 'cancelled' WHERE status = 'scheduled'")
            .execute(self.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// Puts back in the queue the games leased by the server's own workers of a run that is gone
    /// (`all`: at start-up, every lease of an owner named [`LOCAL_OWNER`]`...` is such; workers
    /// on other machines keep theirs) or whose lease ran out. Returns how many.
    pub async fn requeue(&self, all: bool, now_ms: i64) -> anyhow::Result<u64> {
        retry_conflicts(|| self.requeue_once(all, now_ms)).await
    }

    async fn requeue_once(&self, all: bool, now_ms: i64) -> anyhow::Result<u64> {
        // Rows a commit holds are being written: skipped (`super::lease`).
        let sql = format!(
            "UPDATE games SET status = 'scheduled', lease_owner = NULL, lease_expires_ms = NULL \
             WHERE id IN ({})",
            LADDER.rows(
                self.backend(),
                "status = 'running' AND (($1 = 1 AND lease_owner LIKE 'local:%') \
                 OR lease_expires_ms < $2)",
                Locking::SkipLocked
            )
        );
        let r = sqlx::query(AssertSqlSafe(sql))
            .bind(i64::from(all))
            .bind(now_ms)
            .execute(self.pool())
            .await?;
        Ok(r.rows_affected())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A commit's results are written a statement per table, with the answers one statement per
    /// result gave: only a result whose game is still leased to its owner counts, once.
    #[test]
    fn finish_counts_each_leased_game_once_as_one_by_one_writes_did() {
        let dir = std::env::temp_dir().join(format!("arena-db-finish-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let counted = rt.block_on(async {
            let db = Db::connect_sqlite(&dir).await.unwrap();
            for (id, owner) in [(1, "w1"), (2, "w1"), (3, "w1"), (4, "w2")] {
                sqlx::query(
                    "INSERT INTO games (id, stage, group_key, cycle, rotation, seed, status, \
                     lease_owner, lease_expires_ms, scheduled_ms) \
                     VALUES ($1, 's', 'g', 0, $1, 0, 'running', $2, 100, 0)",
                )
                .bind(id)
                .bind(owner)
                .execute(db.pool())
                .await
                .unwrap();
            }
            let f = |id: i64, owner: &str, bytes: Option<Vec<u8>>| Finished {
                id,
                owner: owner.into(),
                result: format!("r{id}{owner}"),
                record: format!("f{id}"),
                record_bytes: bytes,
                remote: true,
                now_ms: 7,
            };
            let counted = db
                .finish(&[
                    f(1, "w1", Some(vec![1, 2])),
                    f(2, "w1", None),
                    f(1, "w1", Some(vec![3])),
                    f(4, "w1", Some(vec![4])),
                    f(3, "w2", Some(vec![5])),
                    f(3, "w1", Some(vec![6])),
                ])
                .await
                .unwrap();
            let games: Vec<(i64, String, Option<String>, Option<String>)> =
                sqlx::query("SELECT id, status, result, played_by FROM games ORDER BY id")
                    .fetch_all(db.pool())
                    .await
                    .unwrap()
                    .iter()
                    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
                    .collect();
            let done = |id: i64| {
                (
                    id,
                    "done".into(),
                    Some(format!("r{id}w1")),
                    Some("w1".into()),
                )
            };
            assert_eq!(
                games,
                [done(1), done(2), done(3), (4, "running".into(), None, None)]
            );
            assert_eq!(db.game_record(1).await.unwrap(), Some(vec![1, 2]));
            assert_eq!(db.game_record(3).await.unwrap(), Some(vec![6]));
            assert_eq!(db.game_record(4).await.unwrap(), None);
            let taken: Vec<i64> = db
                .take_finished()
                .await
                .unwrap()
                .iter()
                .map(|r| r.0)
                .collect();
            assert_eq!(taken, [1, 2, 3]);
            db.close().await;
            counted
        });
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(counted, [true, true, false, false, false, true]);
    }
}
