//! What the host does from the command line (`arena serve admin ...`), and self-registration.
//! The commands work on the database directly, also while the server runs (SQLite in WAL mode
//! lets another process write; the server reads the switches on every upload, and notices
//! changes to contestants within two seconds through [`CHANGED`]).

use super::auth::{self, Name};
use super::db::Contestant;
use crate::jobs::db::Db;
use crate::jobs::now_ms;

/// State key: "1" while submissions are frozen.
pub const FROZEN: &str = "frozen";
/// State key: "running" once the final has started, "done" once its standings are written.
pub const FINAL: &str = "final";
/// State key: the final's standings (JSON), once done.
pub const FINAL_STANDINGS: &str = "final_standings";
/// State key: why the final could not be played, if it could not.
pub const FINAL_ERROR: &str = "final_error";
/// State key: changed by every command that changes contestants or switches (the time, in
/// milliseconds): the running server then reloads its leaderboard and pages.
pub const CHANGED: &str = "changed";

/// Adds a contestant and returns their token (shown once: only its hash is kept).
pub async fn add_contestant(db: &Db, name: &str) -> anyhow::Result<(Name, String)> {
    let name = auth::check_name(name).map_err(|e| anyhow::anyhow!("{e}"))?;
    let token = crate::jobs::new_token()?;
    db.add_contestant(&name, &auth::token_hash(&token), now_ms())
        .await?;
    Ok((name, token))
}

/// Whether `code` is the invite code, in constant time (the code cannot be found a character at
/// a time).
pub fn same_code(expected: &str, code: &str) -> bool {
    expected.len() == code.len()
        && expected
            .bytes()
            .zip(code.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

pub async fn set_frozen(db: &Db, frozen: bool) -> anyhow::Result<()> {
    db.set_state(FROZEN, if frozen { "1" } else { "0" }).await?;
    changed(db).await
}

/// The contestant named `who` (a name, or `#ID`).
pub async fn find(db: &Db, who: &str) -> anyhow::Result<Contestant> {
    let all = db.contestants().await?;
    if let Some(id) = who.strip_prefix('#').and_then(|n| n.parse::<i64>().ok()) {
        if let Some(c) = all.iter().find(|c| c.id == id) {
            return Ok(c.clone());
        }
    }
    if let Some(c) = all.iter().find(|c| c.name == who) {
        return Ok(c.clone());
    }
    // The name as typed may differ from the name as kept (NFKC, case, look-alike letters).
    if let Ok(name) = auth::check_name(who) {
        let alike: Vec<&Contestant> = all
            .iter()
            .filter(|c| auth::name_key(&c.name) == name.key)
            .collect();
        if let [c] = alike[..] {
            return Ok(c.clone());
        }
    }
    anyhow::bail!(
        "no contestant is named {who:?} (`arena serve admin contestants` lists them; #ID names \
         one by its id)"
    )
}

/// A new token for a contestant (the old one and its sessions stop working); returns it.
pub async fn rotate_token(db: &Db, c: &Contestant) -> anyhow::Result<String> {
    let token = crate::jobs::new_token()?;
    db.set_token(c.id, &auth::token_hash(&token)).await?;
    Ok(token)
}

/// Revokes a contestant's token (and its sessions) without giving a new one: nobody can act as
/// them until `rotate-token`.
pub async fn revoke_token(db: &Db, c: &Contestant) -> anyhow::Result<()> {
    // The hash of a random token nobody was given: no token matches it.
    let nobody = auth::token_hash(&format!("revoked:{}", crate::jobs::new_token()?));
    db.set_token(c.id, &nobody).await
}

/// Renames a contestant (the new name is checked as a new contestant's is). Records of games
/// already played keep the name they were played under.
pub async fn rename(db: &Db, c: &Contestant, new: &str) -> anyhow::Result<Name> {
    let name = auth::check_name(new).map_err(|e| anyhow::anyhow!("{e}"))?;
    db.rename(c.id, &name).await?;
    changed(db).await?;
    Ok(name)
}

/// Takes a contestant out of the challenge (out of the ladder and the final, uploads refused;
/// their versions, verdicts and games stay), or back in.
pub async fn set_disabled(db: &Db, c: &Contestant, disabled: bool) -> anyhow::Result<()> {
    db.set_disabled(c.id, disabled).await?;
    changed(db).await
}

/// Tells a running server that contestants or switches changed.
async fn changed(db: &Db) -> anyhow::Result<()> {
    db.set_state(CHANGED, &now_ms().to_string()).await
}
