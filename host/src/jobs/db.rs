//! The connection: one pool of SQLite or PostgreSQL connections through sqlx's `Any` driver, the
//! schema's migrations, and the statements' dialect where the two databases differ.
//!
//! SQLite (one WAL file in the data folder) is `arena serve`'s default; the same SQL runs on
//! PostgreSQL (`$1` placeholders, `RETURNING`, `ON CONFLICT`, no `SUM` of integers, whose type
//! differs). Queries are checked at run time, so building needs no database. Schema migrations
//! are versioned, each written once for both databases ([`super::schema`]): sqlx keeps each
//! applied migration's checksum, so a migration, once released, keeps its bytes.
//!
//! A PostgreSQL database is *shared*: workers on other machines (`arena worker`) reach it, so it
//! also keeps what they need and what they make (agents' bytes by hash, records of ladder games);
//! with SQLite these stay files in the data folder.

use std::path::Path;
use std::str::FromStr;

use anyhow::{bail, Context};
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};

/// The database behind the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// How the pool connects: one connection made outside the pool tells why the server refuses
    /// the pool's ([`Db::with_reason`]).
    options: sqlx::any::AnyConnectOptions,
}

/// The SQLite file in the data folder.
pub const SQLITE_FILE: &str = "arena.sqlite3";

/// Refuses a `--database` URL that is not PostgreSQL's, saying what is expected.
pub fn check_shared_url(url: &str) -> anyhow::Result<()> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(());
    }
    bail!(
        "--database takes a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DATABASE (got {:?}); \
         without --database, `arena serve` keeps a SQLite database in its data folder",
        without_password(url)
    )
}

/// `url` with its password, if any, replaced by `***` (for messages).
pub fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (auth, host) = match rest.rfind('@') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => return url.to_owned(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{host}"),
        None => url.to_owned(),
    }
}

pub(crate) fn sqlite_url(path: &Path) -> anyhow::Result<String> {
    let text = path
        .to_str()
        .with_context(|| format!("{} is not UTF-8", path.display()))?;
    let mut url = String::from("sqlite://");
    for c in text.chars() {
        match c {
            '%' => url.push_str("%25"),
            '?' => url.push_str("%3F"),
            '#' => url.push_str("%23"),
            ' ' => url.push_str("%20"),
            c => url.push(c),
        }
    }
    url.push_str("?mode=rwc");
    Ok(url)
}

impl Db {
    /// Opens (creating it if needed) the SQLite database in `data`, in WAL mode, and brings its
    /// schema up to date.
    /// (`arena serve` opens it through `serve::db`, which also keys old contestants' names.)
    pub async fn connect_sqlite(data: &Path) -> anyhow::Result<Db> {
        let path = data.join(SQLITE_FILE);
        Db::connect(&sqlite_url(&path)?).await
    }

    /// Connects to `url` (`sqlite://...` or `postgres://...`) and migrates the schema.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        Db::connect_with(url, 16, true).await
    }

    /// Connects to the PostgreSQL database at `url` given with `--database` (refusing any other
    /// kind of URL with a message saying what is expected) and brings its schema up to date.
    pub async fn connect_shared(url: &str) -> anyhow::Result<Db> {
        check_shared_url(url)?;
        Db::connect(url).await
    }

    /// Connects to the shared database at `url` as a worker: with `connections` at most, and
    /// without touching the schema (a worker of another version must not migrate it; see
    /// `crate::distributed::version`).
    pub async fn open_as_worker(url: &str, connections: u32) -> anyhow::Result<Db> {
        check_shared_url(url)?;
        Db::connect_with(url, connections, false).await
    }

    async fn connect_with(url: &str, connections: u32, migrate: bool) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            bail!("unsupported database URL (sqlite:// or postgres://)");
        };
        let options = sqlx::any::AnyConnectOptions::from_str(url)
            .map_err(|e| anyhow::anyhow!("bad database URL: {e}"))?;
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite {
                8
            } else {
                connections
            })
            .acquire_timeout(std::time::Duration::from_secs(10))
            .connect_with(options.clone())
            .await;
        let pool = match pool {
            Ok(pool) => pool,
            Err(e) => {
                let e = with_refusal(&options, e.into()).await;
                return Err(e.context(format!(
                    "cannot open the database {}",
                    without_password(url)
                )));
            }
        };
        let db = Db {
            pool,
            backend,
            options,
        };
        if !migrate {
            return Ok(db);
        }
        let Db { pool, .. } = &db;
        if backend == Backend::Sqlite {
            // WAL: readers never wait for the writer, and a commit is one append. The mode is
            // kept in the file. `synchronous` stays FULL (the default): a commit survives a
            // power cut, not only a killed process.
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(pool)
                .await
                .context("cannot switch the database to WAL mode")?;
        }
        super::schema::migrator(backend)?
            .run(pool)
            .await
            .context("cannot bring the database schema up to date")?;
        Ok(db)
    }

    /// `e`, given the server's own reason when the pool timed out because the server refuses
    /// connections (PostgreSQL's "sorry, too many clients already", "too many connections for
    /// role", "the database system is starting up"): the pool retries those until it gives up, and
    /// then says only "pool timed out". For messages: it may take a connection attempt.
    pub async fn explain(&self, e: anyhow::Error) -> anyhow::Error {
        with_refusal(&self.options, e).await
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether workers on other machines reach this database (PostgreSQL): it then keeps agents'
    /// bytes and ladder records, which would otherwise be files in the data folder.
    pub fn shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL, for a claim's inner `SELECT`: concurrent claims
    /// take different rows instead of waiting for each other. SQLite has one writer at a time
    /// (`BEGIN IMMEDIATE`) and needs nothing.
    pub(crate) fn skip_locked(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// A transaction that will write: SQLite takes the write lock at once (`BEGIN IMMEDIATE`),
    /// so that a transaction that reads first never fails when it comes to write.
    pub(crate) async fn begin_write(
        &self,
    ) -> anyhow::Result<sqlx::Transaction<'static, sqlx::Any>> {
        Ok(match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }

    /// `rows` rows of a `VALUES` list whose columns have the SQL `types`, with numbered
    /// parameters in row order. PostgreSQL needs the types spelled out (a parameter in `VALUES`
    /// is otherwise text); SQLite takes the values as bound.
    pub(crate) fn values_rows(&self, rows: usize, types: &[&str]) -> String {
        let mut out = String::new();
        let mut n = 0;
        for r in 0..rows {
            out.push_str(if r == 0 { "(" } else { ", (" });
            for (c, ty) in types.iter().enumerate() {
                n += 1;
                if c > 0 {
                    out.push_str(", ");
                }
                match self.backend {
                    Backend::Sqlite => out.push_str(&format!("${n}")),
                    Backend::Postgres => out.push_str(&format!("CAST(${n} AS {ty})")),
                }
            }
            out.push(')');
        }
        out
    }

    // ----- the host's switches -----

    pub async fn state(&self, key: &str) -> anyhow::Result<Option<String>> {
        let row = sqlx::query("SELECT value FROM state WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("value")).transpose()?)
    }

    pub async fn set_state(&self, key: &str, value: &str) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO state (key, value) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(key)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// `e`, and when it is the pool's "timed out" error, the reason the server gives for refusing a
/// connection made outside the pool (if it refuses it).
async fn with_refusal(options: &sqlx::any::AnyConnectOptions, e: anyhow::Error) -> anyhow::Error {
    let timed_out = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<sqlx::Error>(),
            Some(sqlx::Error::PoolTimedOut)
        )
    });
    if !timed_out {
        return e;
    }
    use sqlx::ConnectOptions;
    let attempt = tokio::time::timeout(std::time::Duration::from_secs(10), options.connect()).await;
    match attempt {
        Ok(Err(refused)) => e.context(format!("the database refuses connections: {refused}")),
        Ok(Ok(conn)) => {
            use sqlx::Connection;
            let _ = conn.close().await;
            e
        }
        Err(_) => e.context("the database does not answer a new connection within 10 s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_urls_are_checked_and_shown_without_their_password() {
        assert!(check_shared_url("postgres://arena@127.0.0.1:5432/c").is_ok());
        assert!(check_shared_url("postgresql://h/c").is_ok());
        let e = check_shared_url("sqlite://data/arena.sqlite3").unwrap_err();
        assert!(format!("{e}").contains("takes a PostgreSQL URL"), "{e}");
        let e = check_shared_url("mysql://root:hunter2@h/c").unwrap_err();
        assert!(!format!("{e}").contains("hunter2"), "{e}");
        assert_eq!(
            without_password("postgres://arena:s3cret@db:5432/c"),
            "postgres://arena:***@db:5432/c"
        );
        assert_eq!(
            without_password("postgres://arena@db/c"),
            "postgres://arena@db/c"
        );
        assert_eq!(without_password("postgres://db/c"), "postgres://db/c");
    }
}
