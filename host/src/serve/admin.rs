//! What the host does from the command line (`arena serve admin ...`), and self-registration.
//! The commands work on the database directly, also while the server runs (SQLite in WAL mode
//! lets another process write; the server reads the switches on every upload).

use super::auth;
use super::db::Db;
use super::now_ms;

/// State key: "1" while submissions are frozen.
pub const FROZEN: &str = "frozen";
/// State key: "running" once the final has started, "done" once its standings are written.
pub const FINAL: &str = "final";
/// State key: the final's standings (JSON), once done.
pub const FINAL_STANDINGS: &str = "final_standings";
/// State key: why the final could not be played, if it could not.
pub const FINAL_ERROR: &str = "final_error";

/// Adds a contestant and returns their token (shown once: only its hash is kept).
pub async fn add_contestant(db: &Db, name: &str) -> anyhow::Result<String> {
    auth::check_name(name).map_err(|e| anyhow::anyhow!("{e}"))?;
    let token = auth::new_token()?;
    db.add_contestant(name, &auth::token_hash(&token), now_ms())
        .await?;
    Ok(token)
}

/// Self-registration: adds a contestant if `code` is the challenge's invite code.
pub async fn register(
    db: &Db,
    invite_code: Option<&str>,
    name: &str,
    code: &str,
) -> anyhow::Result<String> {
    let Some(expected) = invite_code else {
        anyhow::bail!("self-registration is closed: ask the host for a token");
    };
    // Constant time, so that the code cannot be found a character at a time.
    let same = expected.len() == code.len()
        && expected
            .bytes()
            .zip(code.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        anyhow::bail!("wrong invite code");
    }
    add_contestant(db, name.trim()).await
}

pub async fn set_frozen(db: &Db, frozen: bool) -> anyhow::Result<()> {
    db.set_state(FROZEN, if frozen { "1" } else { "0" }).await
}
