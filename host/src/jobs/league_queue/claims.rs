//! A league's games as workers see them: claimed in batches under a lease, renewed while played,
//! released, finished with the lease check in the same transaction, or failed (the host could not
//! play the game).

use std::collections::HashSet;

use sqlx::{AssertSqlSafe, Row};

use super::{LeagueFinished, LeagueGame, CHECK_WAIT_MS, WORKER_HEARD_MS};
use crate::jobs::lease::{LeaseOwner, Locking, LEAGUE};
use crate::jobs::retry::{retry_conflicts, write_rounds};
use crate::jobs::{Backend, Db};

impl Db {
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
        self.renew_leases(LEAGUE, owner, expires_ms).await
    }

    /// Puts back in the queue league games `owner` leased and will not play.
    pub async fn release_league_games(
        &self,
        owner: &str,
        games: &[LeagueGame],
    ) -> anyhow::Result<()> {
        for g in games {
            self.release_lease(LEAGUE, owner, &[g.league, g.game])
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
                let sql = LEAGUE.rows(
                    self.backend(),
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
