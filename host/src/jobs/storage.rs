//! The data folder's files: agents' bytes by content hash, game records, and the server's secret.
//!
//! ```text
//! DATA/arena.sqlite3        the database (WAL: also arena.sqlite3-wal, -shm)
//! DATA/secret               32 random bytes that key the CSRF tokens (mode 0600)
//! DATA/agents/ab/abcd….wasm every upload, named by the SHA-256 of its bytes
//! DATA/records/000/game-000123.jsonl[.gz]   each ladder game's record
//! DATA/final/               the final league's output folder (as `arena league` writes it)
//! ```
//!
//! Every file is written to a temporary name, synced, and renamed into place, and the folder is
//! synced: a file is either whole or absent after a crash (a temporary file a crash leaves is
//! removed at the next start). Writing the same content again gives the same file, so a game
//! played again after a crash writes the same record.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;

pub const AGENTS_DIR: &str = "agents";
pub const RECORDS_DIR: &str = "records";
const SECRET_FILE: &str = "secret";

#[derive(Clone, Debug)]
pub struct Storage {
    root: PathBuf,
}

impl Storage {
    /// The data folder at `root`, created if needed.
    pub fn open(root: &Path) -> anyhow::Result<Storage> {
        for dir in [
            root.to_path_buf(),
            root.join(AGENTS_DIR),
            root.join(RECORDS_DIR),
        ] {
            fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let root = root
            .canonicalize()
            .with_context(|| format!("cannot open {}", root.display()))?;
        Ok(Storage { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the bytes with SHA-256 `sha256` are kept. `sha256` must be 64 hex digits.
    pub fn agent_path(&self, sha256: &str) -> PathBuf {
        debug_assert!(is_sha256(sha256));
        self.root
            .join(AGENTS_DIR)
            .join(&sha256[..2])
            .join(format!("{sha256}.wasm"))
    }

    /// Keeps an upload's bytes (a no-op when the same bytes are kept already) and returns their
    /// SHA-256.
    pub fn put_agent(&self, bytes: &[u8]) -> anyhow::Result<String> {
        let sha = crate::records::sha256_hex(bytes);
        let path = self.agent_path(&sha);
        if fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
            return Ok(sha);
        }
        write_durably(&path, bytes)?;
        Ok(sha)
    }

    pub fn agent(&self, sha256: &str) -> anyhow::Result<Vec<u8>> {
        anyhow::ensure!(is_sha256(sha256), "not a SHA-256: {sha256:?}");
        let path = self.agent_path(sha256);
        fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    }

    /// The record file of game `id`, relative to the data folder.
    pub fn record_name(id: i64, compressed: bool) -> String {
        format!(
            "{RECORDS_DIR}/{:03}/game-{id:06}.jsonl{}",
            id / 1000 % 1000,
            if compressed { ".gz" } else { "" }
        )
    }

    pub fn put_record(&self, name: &str, bytes: &[u8]) -> anyhow::Result<()> {
        write_durably(&self.root.join(name), bytes)
    }

    /// A stored record's bytes; `name` comes from the database, never from a request.
    pub fn record(&self, name: &str) -> anyhow::Result<Vec<u8>> {
        anyhow::ensure!(
            name.starts_with(RECORDS_DIR) && !name.contains(".."),
            "not a record file: {name:?}"
        );
        let path = self.root.join(name);
        fs::read(&path).with_context(|| format!("cannot read {}", path.display()))
    }

    /// Removes the record file of game `id`, compressed or not, if there is one (a game
    /// cancelled while it was played). Returns how many files were removed.
    pub fn remove_record(&self, id: i64) -> anyhow::Result<usize> {
        let mut removed = 0;
        for compressed in [false, true] {
            let path = self.root.join(Storage::record_name(id, compressed));
            match fs::remove_file(&path) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot remove {}", path.display()))
                }
            }
        }
        Ok(removed)
    }

    /// Removes the temporary files of writes that a killed server did not finish (see
    /// [`write_durably`]), in the data folder's own folders (not the final's: the league keeps
    /// its own). Returns how many.
    pub fn remove_temporary_files(&self) -> anyhow::Result<usize> {
        let mut removed = 0;
        let mut dirs = vec![self.root.clone()];
        for sub in [AGENTS_DIR, RECORDS_DIR] {
            let top = self.root.join(sub);
            dirs.push(top.clone());
            if let Ok(entries) = fs::read_dir(&top) {
                dirs.extend(
                    entries
                        .filter_map(Result::ok)
                        .map(|e| e.path())
                        .filter(|p| p.is_dir()),
                );
            }
        }
        for dir in dirs {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.filter_map(Result::ok) {
                let name = e.file_name();
                let name = name.to_string_lossy();
                if name.starts_with('.') && name.ends_with(".tmp") && e.path().is_file() {
                    fs::remove_file(e.path())
                        .with_context(|| format!("cannot remove {}", e.path().display()))?;
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }

    /// The server's secret, made on first use.
    pub fn secret(&self) -> anyhow::Result<Vec<u8>> {
        let path = self.root.join(SECRET_FILE);
        match fs::read(&path) {
            Ok(s) if s.len() == 32 => Ok(s),
            Ok(_) => anyhow::bail!(
                "{} is not 32 bytes long; delete it to make a new one (logged-in browsers will \
                 have to log in again)",
                path.display()
            ),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let s = super::random_bytes::<32>()?.to_vec();
                write_durably(&path, &s)?;
                Ok(s)
            }
            Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }
}

pub fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Writes `bytes` to a temporary file next to `path` (readable by the owner only), syncs it,
/// renames it to `path` and syncs the folder.
fn write_durably(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().context("a file in a folder")?;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}.{}-{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let write = || -> std::io::Result<()> {
        let mut opts = fs::OpenOptions::new();
        opts.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        File::open(dir)?.sync_all()
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_are_kept_by_content_and_read_back() {
        let dir = std::env::temp_dir().join(format!("arena-storage-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let s = Storage::open(&dir).unwrap();
        let sha = s.put_agent(b"\0asm\x01\0\0\0").unwrap();
        assert!(is_sha256(&sha));
        assert_eq!(s.put_agent(b"\0asm\x01\0\0\0").unwrap(), sha);
        assert_eq!(s.agent(&sha).unwrap(), b"\0asm\x01\0\0\0");
        assert!(s.agent("../../etc/passwd").is_err());
        assert!(s.record("../secret").is_err());
        let name = Storage::record_name(1234, false);
        assert_eq!(name, "records/001/game-001234.jsonl");
        s.put_record(&name, b"x").unwrap();
        assert_eq!(s.record(&name).unwrap(), b"x");
        let secret = s.secret().unwrap();
        assert_eq!(secret.len(), 32);
        assert_eq!(s.secret().unwrap(), secret, "made once, then read back");
        // What a killed server leaves: temporary files, and records of cancelled games.
        let leftovers = [
            dir.join(".secret.1-0.tmp"),
            dir.join("agents/ab/.abcd.wasm.1-1.tmp"),
            dir.join("records/001/.game-001234.jsonl.1-2.tmp"),
        ];
        fs::create_dir_all(dir.join("agents/ab")).unwrap();
        for f in &leftovers {
            fs::write(f, b"half").unwrap();
        }
        fs::write(dir.join("records/001/keep.tmp"), b"not ours").unwrap();
        assert_eq!(s.remove_temporary_files().unwrap(), 3);
        assert!(leftovers.iter().all(|f| !f.exists()));
        assert!(dir.join("records/001/keep.tmp").exists());
        assert_eq!(s.remove_record(1234).unwrap(), 1);
        assert_eq!(s.remove_record(1234).unwrap(), 0);
        assert!(s.record(&name).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
