//! Contestants (names, tokens, the host's switch that takes one out) and browser sessions.

use anyhow::bail;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Contestant, Db};
use crate::jobs::retry::retry_conflicts;
use crate::serve::auth::Name;

impl Db {
    /// Adds a contestant; a name that is taken, or looks like one that is (the same key), is
    /// refused with a message saying so.
    pub async fn add_contestant(
        &self,
        name: &Name,
        token_hash: &str,
        now_ms: i64,
    ) -> anyhow::Result<i64> {
        self.name_is_free(name, None).await?;
        let row = sqlx::query(
            "INSERT INTO contestants (name, name_key, token_hash, created_ms) \
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(&name.text)
        .bind(&name.key)
        .bind(token_hash)
        .bind(now_ms)
        .fetch_one(self.pool())
        .await
        .map_err(|e| taken(e, name))?;
        Ok(row.try_get("id")?)
    }

    /// Refuses a name that another contestant than `except` has, or one that looks like it. (The
    /// unique key in the database refuses the same key if two requests race.)
    async fn name_is_free(&self, name: &Name, except: Option<i64>) -> anyhow::Result<()> {
        for other in self.contestants().await? {
            if Some(other.id) == except {
                continue;
            }
            if other.name == name.text {
                bail!("the name {:?} is taken", name.text);
            }
            if crate::serve::auth::look_alike(&other.name, &name.text) {
                bail!(
                    "the name {:?} looks like {:?}, which is taken: choose another",
                    name.text,
                    other.name
                );
            }
        }
        Ok(())
    }

    /// Gives a contestant another name (checked as a new one is).
    pub async fn rename(&self, id: i64, name: &Name) -> anyhow::Result<()> {
        self.name_is_free(name, Some(id)).await?;
        let r = sqlx::query("UPDATE contestants SET name = $1, name_key = $2 WHERE id = $3")
            .bind(&name.text)
            .bind(&name.key)
            .bind(id)
            .execute(self.pool())
            .await
            .map_err(|e| taken(e, name))?;
        anyhow::ensure!(r.rows_affected() == 1, "no contestant {id}");
        Ok(())
    }

    /// Replaces a contestant's token (the old one, and every session it opened, stop working).
    pub async fn set_token(&self, id: i64, token_hash: &str) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        let r = sqlx::query("UPDATE contestants SET token_hash = $1 WHERE id = $2")
            .bind(token_hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        anyhow::ensure!(r.rows_affected() == 1, "no contestant {id}");
        sqlx::query("DELETE FROM sessions WHERE contestant_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes a contestant out of the challenge (`disabled`), or back in. Taken out, their games
    /// not yet played are cancelled; their history stays.
    pub async fn set_disabled(&self, id: i64, disabled: bool) -> anyhow::Result<()> {
        retry_conflicts(|| self.set_disabled_once(id, disabled)).await
    }

    async fn set_disabled_once(&self, id: i64, disabled: bool) -> anyhow::Result<()> {
        let mut tx = self.begin_write().await?;
        let r = sqlx::query("UPDATE contestants SET disabled = $1 WHERE id = $2")
            .bind(i64::from(disabled))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        anyhow::ensure!(r.rows_affected() == 1, "no contestant {id}");
        if disabled {
            sqlx::query(
                "UPDATE games SET status = 'cancelled', lease_owner = NULL, lease_expires_ms = NULL \
                 WHERE status IN ('scheduled', 'running') AND id IN (SELECT s.game_id FROM \
                 game_seats s JOIN versions v ON v.id = s.version_id WHERE v.contestant_id = $1)",
            )
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The look-alike keys of names added before the database kept them (schema version 3),
    /// computed now. A name that looks like one already keyed keeps no key (and a warning says
    /// so): it stays, but cannot be matched by newer ones.
    pub(super) async fn key_old_names(&self) -> anyhow::Result<()> {
        let rows =
            sqlx::query("SELECT id, name FROM contestants WHERE name_key IS NULL ORDER BY id")
                .fetch_all(self.pool())
                .await?;
        for r in rows {
            let (id, name): (i64, String) = (r.try_get("id")?, r.try_get("name")?);
            let key = crate::serve::auth::name_key(&name);
            let set = sqlx::query("UPDATE contestants SET name_key = $1 WHERE id = $2")
                .bind(&key)
                .bind(id)
                .execute(self.pool())
                .await;
            match set {
                Ok(_) => {}
                Err(sqlx::Error::Database(d)) if d.is_unique_violation() => {
                    eprintln!("warning: contestant {id}'s name {name:?} looks like another's")
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    pub async fn contestant_by_token(
        &self,
        token_hash: &str,
    ) -> anyhow::Result<Option<Contestant>> {
        let row = sqlx::query("SELECT id, name, disabled FROM contestants WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| contestant(&r)).transpose()
    }

    pub async fn contestant(&self, id: i64) -> anyhow::Result<Option<Contestant>> {
        let row = sqlx::query("SELECT id, name, disabled FROM contestants WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        row.map(|r| contestant(&r)).transpose()
    }

    pub async fn contestants(&self) -> anyhow::Result<Vec<Contestant>> {
        let rows = sqlx::query("SELECT id, name, disabled FROM contestants ORDER BY id")
            .fetch_all(self.pool())
            .await?;
        rows.iter().map(contestant).collect()
    }

    pub async fn create_session(
        &self,
        id_hash: &str,
        contestant_id: i64,
        now_ms: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO sessions (id_hash, contestant_id, created_ms) VALUES ($1, $2, $3)",
        )
        .bind(id_hash)
        .bind(contestant_id)
        .bind(now_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The contestant of a session that is younger than `since_ms`.
    pub async fn session(
        &self,
        id_hash: &str,
        since_ms: i64,
    ) -> anyhow::Result<Option<Contestant>> {
        let row = sqlx::query(
            "SELECT c.id, c.name, c.disabled FROM sessions s JOIN contestants c ON c.id = s.contestant_id \
             WHERE s.id_hash = $1 AND s.created_ms >= $2",
        )
        .bind(id_hash)
        .bind(since_ms)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| contestant(&r)).transpose()
    }

    pub async fn delete_session(&self, id_hash: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

/// A name refused by the database's unique indexes (another request took it meanwhile).
fn taken(e: sqlx::Error, name: &Name) -> anyhow::Error {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            anyhow::anyhow!(
                "the name {:?} is taken, or one that looks like it",
                name.text
            )
        }
        _ => e.into(),
    }
}

pub(super) fn contestant(r: &AnyRow) -> anyhow::Result<Contestant> {
    Ok(Contestant {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        disabled: r.try_get::<i64, _>("disabled")? != 0,
    })
}
