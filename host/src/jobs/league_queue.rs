//! The database side of workers and batch leagues (schema version 2, `migrations/`): the
//! workers' register, the leagues and their games as a queue of leases. Ladder games have their
//! own table and queries ([`super::ladder_queue`]); both follow the same rules:
//!
//! - A worker *claims* a batch of games in one transaction: it leases them (`lease_owner`,
//!   `lease_expires_ms`) rather than taking them. On PostgreSQL the claim's inner `SELECT` skips
//!   rows other claims have locked (`FOR UPDATE SKIP LOCKED`), so workers never wait for each
//!   other.
//! - While it plays, the worker *renews* its leases. A lease that runs out (the worker died, hangs
//!   or lost the database for too long) makes the game claimable again.
//! - A result is written with the lease check in the same transaction (`WHERE lease_owner = me
//!   AND status = 'running'`): a game is counted once, whoever played it how often. Since games
//!   are deterministic, a game played twice gives the same record.
//! - The lease owner is unique to a worker process, and rows are locked in key order
//!   ([`super::lease`]).

use std::collections::{HashMap, HashSet};

use anyhow::Context;
use sqlx::{AssertSqlSafe, Row};

use super::lease::{locked_rows, LeaseOwner, Locking};
use super::retry::{retry_conflicts, write_rounds};
use super::{Backend, Db};

/// A league's game on its way to a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeagueGame {
    pub league: i64,
    /// Its number in the league's schedule.
    pub game: i64,
}

/// A league game a worker played, to be written.
#[derive(Clone, Debug)]
pub struct LeagueFinished {
    pub game: LeagueGame,
    pub owner: String,
    /// The league's result line (JSON), naming the record file.
    pub result: String,
    /// The record file's bytes, as the league's output folder keeps them.
    pub record: Vec<u8>,
}

/// A finished game, as the league collects it.
#[derive(Clone, Debug)]
pub struct Collected {
    pub game: i64,
    pub result: String,
    pub record: Vec<u8>,
    /// The lease owner of the worker that wrote it.
    pub played_by: String,
    /// A game played twice (`double_play`): the first play, to be compared with this one.
    pub first: Option<FirstPlay>,
}

/// The first play of a game sent to be played again by a worker of another name.
#[derive(Clone, Debug)]
pub struct FirstPlay {
    /// The name of the worker that played it.
    pub by: String,
    pub result: String,
    pub record: Vec<u8>,
}

/// A league as the database keeps it.
#[derive(Clone, Debug)]
pub struct LeagueRow {
    pub id: i64,
    pub status: String,
    pub settings: String,
    pub arena_version: String,
    pub driver: Option<String>,
    pub driver_seen_ms: Option<i64>,
}

/// How many games of a league are in each state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub scheduled: i64,
    pub running: i64,
    pub done: i64,
    pub collected: i64,
    pub failed: i64,
}

/// How long a game to be played again as a check waits for a worker of another name than the one
/// that played it first; then any worker may play it (the check then only shows that the worker
/// plays the same game twice).
pub const CHECK_WAIT_MS: i64 = 30_000;

/// A worker heard of (its register row renewed) within this long is playing.
pub const WORKER_HEARD_MS: i64 = 60_000;

/// Rows written by one statement at most (multi-row `VALUES`, `IN` lists): well under SQLite's
/// and PostgreSQL's limits on parameters.
const CHUNK: usize = 500;

/// `$first, $first+1, ...` for `n` parameters.
fn params(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Db {
    // ----- workers -----

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

    // ----- leagues, for the `arena league` that enqueues one -----

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
        let rows = sqlx::query("SELECT game, status FROM league_games WHERE league_id = $1")
            .bind(id)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("game")?, r.try_get("status")?)))
            .collect()
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
            self.league_rows(
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
                    result: r
                        .try_get::<Option<String>, _>("result")?
                        .unwrap_or_default(),
                    record: r
                        .try_get::<Option<Vec<u8>>, _>("record")?
                        .unwrap_or_default(),
                    played_by: r
                        .try_get::<Option<String>, _>("played_by")?
                        .unwrap_or_default(),
                    first: match r.try_get::<Option<String>, _>("check_of")? {
                        None => None,
                        Some(by) => Some(FirstPlay {
                            by,
                            result: r
                                .try_get::<Option<String>, _>("check_result")?
                                .unwrap_or_default(),
                            record: r
                                .try_get::<Option<Vec<u8>>, _>("check_record")?
                                .unwrap_or_default(),
                        }),
                    },
                })
            })
            .collect()
    }

    /// Games `games` of league `id` are in its output folder: their records' bytes are dropped.
    pub async fn collected(&self, id: i64, games: &[i64]) -> anyhow::Result<()> {
        for chunk in games.chunks(CHUNK) {
            retry_conflicts(|| self.collected_once(id, chunk)).await?;
        }
        Ok(())
    }

    async fn collected_once(&self, id: i64, chunk: &[i64]) -> anyhow::Result<()> {
        self.update_done_games(
            "status = 'collected', record = NULL, check_record = NULL",
            id,
            chunk,
        )
        .await
    }

    /// Results of league `id` the collector refused (they contradict their records, or the
    /// records do not verify): their games go back to the queue, to be played again.
    pub async fn refuse_league_results(&self, id: i64, games: &[i64]) -> anyhow::Result<()> {
        for chunk in games.chunks(CHUNK) {
            retry_conflicts(|| self.refuse_once(id, chunk)).await?;
        }
        Ok(())
    }

    async fn refuse_once(&self, id: i64, chunk: &[i64]) -> anyhow::Result<()> {
        self.update_done_games(
            "status = 'scheduled', result = NULL, record = NULL, lease_owner = NULL, \
             lease_expires_ms = NULL",
            id,
            chunk,
        )
        .await
    }

    /// Sets `set` (a constant SQL assignment list) on the done games `chunk` of league `id`,
    /// their rows locked in key order like every other write of the queue.
    async fn update_done_games(&self, set: &str, id: i64, chunk: &[i64]) -> anyhow::Result<()> {
        let sql = format!(
            "UPDATE league_games SET {set} WHERE (league_id, game) IN ({})",
            self.league_rows(
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

    /// `SELECT league_id, game FROM league_games WHERE {filter}`, the rows locked in key order
    /// ([`super::lease`]).
    fn league_rows(&self, filter: &str, how: Locking) -> String {
        locked_rows(
            self.backend(),
            "league_id, game",
            &format!("league_games WHERE {filter}"),
            "league_id, game",
            how,
        )
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
                r.try_get::<Option<String>, _>("played_by")?
                    .unwrap_or_default(),
                r.try_get::<Option<String>, _>("error")?.unwrap_or_default(),
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
        let rows = sqlx::query("SELECT game, claims FROM league_games WHERE league_id = $1")
            .bind(id)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("game")?, r.try_get("claims")?)))
            .collect()
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

    // ----- league games, for workers -----

    /// The settings (JSON) of league `id`.
    pub async fn league_settings(&self, id: i64) -> anyhow::Result<String> {
        let row = sqlx::query("SELECT settings FROM leagues WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?
            .with_context(|| format!("no league {id} in the database"))?;
        Ok(row.try_get("settings")?)
    }

    /// Leases up to `n` games of the leagues enqueued by arena `version` to `owner` until
    /// `expires_ms`: first games whose lease ran out before `now_ms`, then scheduled ones, oldest
    /// league first, in schedule order. A game to be played again as a check is not given to a
    /// worker of the name that played it first, unless it has waited [`CHECK_WAIT_MS`] for
    /// another or no worker of another name was heard of in the last [`WORKER_HEARD_MS`].
    pub async fn claim_league_games(
        &self,
        owner: &str,
        n: i64,
        now_ms: i64,
        expires_ms: i64,
        version: &str,
    ) -> anyhow::Result<Vec<LeagueGame>> {
        let mut tx = self.begin_write().await?;
        let mut games = Vec::new();
        // Two claims, each an index scan in order: a lapsed lease first, so that a game a dead
        // worker held is not left to the end of the league.
        for lapsed in [true, false] {
            let left = n - games.len() as i64;
            if left <= 0 {
                break;
            }
            let which = if lapsed {
                "status = 'running' AND lease_expires_ms < $8"
            } else {
                "status = 'scheduled'"
            };
            let sql = format!(
                "UPDATE league_games SET status = 'running', lease_owner = $1, \
                 lease_expires_ms = $2, claims = claims + 1 \
                 WHERE (league_id, game) IN (SELECT league_id, game FROM league_games \
                 WHERE {which} AND (check_of IS NULL OR check_of <> $5 OR check_since_ms < $6 \
                 OR NOT EXISTS (SELECT 1 FROM workers WHERE owner <> $5 AND seen_ms >= $7)) \
                 AND league_id IN (SELECT id FROM leagues WHERE status = 'playing' \
                 AND arena_version = $4) ORDER BY league_id, game LIMIT $3{}) \
                 RETURNING league_id, game",
                self.skip_locked()
            );
            let mut q = sqlx::query(AssertSqlSafe(sql))
                .bind(owner)
                .bind(expires_ms)
                .bind(left)
                .bind(version)
                .bind(LeaseOwner::name_of(owner))
                .bind(now_ms - CHECK_WAIT_MS)
                .bind(now_ms - WORKER_HEARD_MS);
            if lapsed {
                q = q.bind(now_ms);
            }
            for r in &q.fetch_all(&mut *tx).await? {
                games.push(LeagueGame {
                    league: r.try_get("league_id")?,
                    game: r.try_get("game")?,
                });
            }
        }
        tx.commit().await?;
        games.sort_by_key(|g| (g.league, g.game));
        Ok(games)
    }

    /// Extends the leases `owner` holds on league games to `expires_ms`. Returns how many.
    pub async fn renew_league_games(&self, owner: &str, expires_ms: i64) -> anyhow::Result<u64> {
        retry_conflicts(|| self.renew_league_games_once(owner, expires_ms)).await
    }

    async fn renew_league_games_once(&self, owner: &str, expires_ms: i64) -> anyhow::Result<u64> {
        let sql = format!(
            "UPDATE league_games SET lease_expires_ms = $1 WHERE (league_id, game) IN ({})",
            self.league_rows(
                "status = 'running' AND lease_owner = $2",
                Locking::SkipLocked
            )
        );
        let r = sqlx::query(AssertSqlSafe(sql))
            .bind(expires_ms)
            .bind(owner)
            .execute(self.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// Puts back in the queue league games `owner` leased and will not play.
    pub async fn release_league_games(
        &self,
        owner: &str,
        games: &[LeagueGame],
    ) -> anyhow::Result<()> {
        for g in games {
            sqlx::query(
                "UPDATE league_games SET status = 'scheduled', lease_owner = NULL, \
                 lease_expires_ms = NULL WHERE league_id = $1 AND game = $2 \
                 AND status = 'running' AND lease_owner = $3",
            )
            .bind(g.league)
            .bind(g.game)
            .bind(owner)
            .execute(self.pool())
            .await?;
        }
        Ok(())
    }

    /// Writes league results, each only if its game is still leased to the worker that played
    /// it, all in one transaction. Returns, for each, whether it was counted.
    pub async fn finish_league_games(
        &self,
        results: &[LeagueFinished],
    ) -> anyhow::Result<Vec<bool>> {
        retry_conflicts(|| self.finish_league_games_once(results)).await
    }

    async fn finish_league_games_once(
        &self,
        results: &[LeagueFinished],
    ) -> anyhow::Result<Vec<bool>> {
        let mut tx = self.begin_write().await?;
        let mut counted = vec![false; results.len()];
        // One statement for a whole round of results, not one per result: each statement is a
        // round trip, and over TLS a large one can wait ~40 ms for the server's delayed
        // acknowledgement (docs/PERFORMANCE.md, "Many machines").
        for mut round in write_rounds(results.iter().map(|f| f.game)) {
            round.sort_by_key(|&i| (results[i].game.league, results[i].game.game));
            // The rows locked in key order first, as every writer of the queue locks them
            // (`super::lease`); the update then finds them held.
            if self.backend() == Backend::Postgres {
                let keys = self.values_rows(round.len(), &["BIGINT", "BIGINT"]);
                let sql = self.league_rows(
                    &format!("(league_id, game) IN (VALUES {keys})"),
                    Locking::Wait,
                );
                let mut q = sqlx::query(AssertSqlSafe(sql));
                for &i in &round {
                    q = q.bind(results[i].game.league).bind(results[i].game.game);
                }
                q.fetch_all(&mut *tx).await?;
            }
            let rows =
                self.values_rows(round.len(), &["BIGINT", "BIGINT", "TEXT", "TEXT", "BYTEA"]);
            let sql = format!(
                "UPDATE league_games SET status = 'done', result = v.column4, record = v.column5, \
                 played_by = v.column3, lease_owner = NULL, lease_expires_ms = NULL \
                 FROM (VALUES {rows}) AS v \
                 WHERE league_games.league_id = v.column1 AND league_games.game = v.column2 \
                 AND league_games.status = 'running' AND league_games.lease_owner = v.column3 \
                 RETURNING league_games.league_id, league_games.game"
            );
            let mut q = sqlx::query(AssertSqlSafe(sql));
            for &i in &round {
                let f = &results[i];
                q = q
                    .bind(f.game.league)
                    .bind(f.game.game)
                    .bind(&f.owner)
                    .bind(&f.result)
                    .bind(f.record.as_slice());
            }
            let mut done = HashSet::new();
            for r in &q.fetch_all(&mut *tx).await? {
                done.insert(LeagueGame {
                    league: r.try_get("league_id")?,
                    game: r.try_get("game")?,
                });
            }
            for i in round {
                counted[i] = done.contains(&results[i].game);
            }
        }
        tx.commit().await?;
        Ok(counted)
    }

    /// A league game `owner` could not play (the host failed, again and again): the league stops
    /// and says why.
    pub async fn fail_league_game(
        &self,
        g: LeagueGame,
        owner: &str,
        error: &str,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE league_games SET status = 'failed', error = $1, played_by = $2, \
             lease_owner = NULL, lease_expires_ms = NULL WHERE league_id = $3 AND game = $4 \
             AND status = 'running' AND lease_owner = $2",
        )
        .bind(error)
        .bind(owner)
        .bind(g.league)
        .bind(g.game)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Games scheduled or leased, ladder and leagues together (a draining worker stops when
    /// there are none).
    pub async fn games_to_play(&self) -> anyhow::Result<i64> {
        let ladder = self.pending_games().await?;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM league_games WHERE status IN ('scheduled', 'running')",
        )
        .fetch_one(self.pool())
        .await?;
        Ok(ladder + row.try_get::<i64, _>("n")?)
    }
}

fn league_row(r: &sqlx::any::AnyRow) -> anyhow::Result<LeagueRow> {
    Ok(LeagueRow {
        id: r.try_get("id")?,
        status: r.try_get("status")?,
        settings: r.try_get("settings")?,
        arena_version: r.try_get("arena_version")?,
        driver: r.try_get("driver")?,
        driver_seen_ms: r.try_get("driver_seen_ms")?,
    })
}
