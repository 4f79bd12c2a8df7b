//! One process at a time in a league output folder. Two processes appending to one journal tear
//! and interleave its lines, and the league can then only be started again from nothing; so
//! `arena league` holds an exclusive lock on its output folder for its whole run, and `arena
//! report` while it writes.
//!
//! The lock is an advisory lock (`flock` on Unix) on a file in the folder, [`LOCK_FILE`], which
//! also says who holds it (process id, host, command line, start time) so that a process turned
//! away can name the holder. The operating system drops the lock when its process ends, however it
//! ends: a lock file left by a killed process blocks nobody.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

/// The lock file, in the output folder.
pub const LOCK_FILE: &str = ".arena.lock";

/// Who holds a folder's lock, as its lock file says.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    pub command: String,
    /// UTC, `YYYY-MM-DD hh:mm:ss`.
    pub started: String,
}

impl Holder {
    fn this_process() -> Holder {
        let command: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        Holder {
            pid: std::process::id(),
            host: host_name(),
            command: command.join(" "),
            started: utc_now(),
        }
    }
}

/// The lock on a folder, held until dropped (then the lock file is removed).
#[derive(Debug)]
pub struct FolderLock {
    file: File,
    path: PathBuf,
}

impl FolderLock {
    /// Locks `dir` (an existing folder) for this process, or fails at once naming the process that
    /// holds it.
    pub fn acquire(dir: &Path) -> anyhow::Result<FolderLock> {
        let path = dir.join(LOCK_FILE);
        loop {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .with_context(|| format!("cannot open the lock file {}", path.display()))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => bail!(held_message(dir, &path)),
                Err(TryLockError::Error(e)) => {
                    return Err(e).with_context(|| {
                        format!(
                            "cannot lock {} (the output folder must be on a file system that supports file locks)",
                            path.display()
                        )
                    })
                }
            }
            // The holder may have removed its lock file (or another process put a new one there)
            // between our opening it and our locking it: the lock must be on the file the folder
            // names now, else go again.
            if same_file(&file, &path) {
                let mut lock = FolderLock { file, path };
                lock.write_holder()
                    .with_context(|| format!("cannot write {}", lock.path.display()))?;
                return Ok(lock);
            }
        }
    }

    /// The folder now holding the lock file: after the folder holding it was renamed.
    pub fn moved_to(&mut self, dir: &Path) {
        self.path = dir.join(LOCK_FILE);
    }

    fn write_holder(&mut self) -> std::io::Result<()> {
        let text = serde_json::to_string(&Holder::this_process())? + "\n";
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.file.write_all(text.as_bytes())
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked: a process that opened it meanwhile finds, once it has the
        // lock, that the folder no longer names it, and starts over with a new one.
        let _ = std::fs::remove_file(&self.path);
    }
}

fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// What a process turned away is told.
fn held_message(dir: &Path, lock_file: &Path) -> String {
    let mut text = String::new();
    let holder = File::open(lock_file)
        .and_then(|mut f| f.read_to_string(&mut text))
        .ok()
        .and_then(|_| serde_json::from_str::<Holder>(text.trim()).ok());
    let who = match holder {
        Some(h) => format!(
            "process {} on host {}, started {} UTC: {}",
            h.pid,
            visible(&h.host),
            visible(&h.started),
            visible(&h.command)
        ),
        // Locked, but its holder has not written its name yet.
        None => "a process that has just started".to_owned(),
    };
    format!(
        "{} is in use by another arena process ({who}); two processes writing one league folder \
         would corrupt it: wait for that one to finish (or stop it), or use another output folder",
        dir.display()
    )
}

/// `s` with control characters shown as escapes, safe to print on a terminal.
fn visible(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

fn host_name() -> String {
    gethostname::gethostname().to_string_lossy().into_owned()
}

fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_text(secs)
}

/// `YYYY-MM-DD hh:mm:ss` for seconds since 1970 (UTC).
fn utc_text(secs: u64) -> String {
    i64::try_from(secs)
        .ok()
        .and_then(crate::utc::text)
        // Past the year 9999: no clock this runs on.
        .unwrap_or_else(|| format!("{secs} s after 1970"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("arena-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        p
    }

    #[test]
    fn a_second_holder_is_refused_with_the_name_of_the_first() {
        let dir = temp("second");
        let lock = FolderLock::acquire(&dir).unwrap();
        let e = FolderLock::acquire(&dir).unwrap_err().to_string();
        assert!(
            e.contains(&format!("process {} on host ", std::process::id()))
                && e.contains("is in use by another arena process")
                && e.contains(" UTC: "),
            "{e}"
        );
        let holder: Holder =
            serde_json::from_str(&std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap()).unwrap();
        assert_eq!(holder.pid, std::process::id());
        assert_eq!(holder.host, host_name());
        drop(lock);
        assert!(
            !dir.join(LOCK_FILE).exists(),
            "released locks leave no file"
        );
        let again = FolderLock::acquire(&dir).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_file_left_by_a_dead_process_blocks_nobody() {
        let dir = temp("stale");
        let stale = Holder {
            pid: 999_999,
            host: "elsewhere".into(),
            command: "arena league".into(),
            started: "2020-01-01 00:00:00".into(),
        };
        std::fs::write(
            dir.join(LOCK_FILE),
            serde_json::to_string(&stale).unwrap() + "\n",
        )
        .unwrap();
        let lock = FolderLock::acquire(&dir).unwrap();
        let holder: Holder =
            serde_json::from_str(&std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap()).unwrap();
        assert_eq!(
            holder.pid,
            std::process::id(),
            "the stale holder is replaced"
        );
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_holder_that_has_not_written_its_name_yet_is_still_a_holder() {
        let dir = temp("unnamed");
        let lock = FolderLock::acquire(&dir).unwrap();
        std::fs::write(dir.join(LOCK_FILE), "").unwrap();
        let e = FolderLock::acquire(&dir).unwrap_err().to_string();
        assert!(e.contains("a process that has just started"), "{e}");
        drop(lock);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(utc_text(1_709_251_199), "2024-02-29 23:59:59");
        assert_eq!(utc_text(4_102_444_800), "2100-01-01 00:00:00");
        assert_eq!(visible("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
    }
}
