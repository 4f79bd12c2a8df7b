//! Agents' bytes by content hash, kept in a shared database for workers on other machines.

use sqlx::Row;

use super::Db;

impl Db {
    /// Keeps an agent's bytes under their SHA-256 `sha256` (a no-op when they are kept already).
    pub async fn put_code(&self, sha256: &str, bytes: &[u8]) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO code (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING",
        )
        .bind(sha256)
        .bind(bytes)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The bytes kept under `sha256`, checked against it.
    pub async fn code(&self, sha256: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT bytes FROM code WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let bytes: Vec<u8> = row.try_get("bytes")?;
        anyhow::ensure!(
            crate::records::sha256_hex(&bytes) == sha256,
            "the agent bytes kept under {sha256} have another SHA-256: the database is damaged"
        );
        Ok(Some(bytes))
    }
}
