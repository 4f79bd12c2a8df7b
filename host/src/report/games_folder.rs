//! The report's folder of per-game scripts, rewritten in place.
//!
//! The report used to delete the folder and create every file again. On ext4, creating thousands
//! of files right after deleting thousands makes every new inode's search step over all the
//! recently freed ones, and that took longer than computing the files. So files already there are
//! overwritten in place, and only entries that this league does not write are deleted: the folder
//! ends up holding exactly the files a fresh one would.

use std::collections::HashSet;
use std::fs::{Metadata, OpenOptions};
use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// Makes `dir` a folder in which the files named in `names` can be (re)written, keeping those of
/// them that can be rewritten in place and deleting every other entry.
pub fn prepare(dir: &Path, names: &HashSet<String>) -> anyhow::Result<()> {
    let clear = || format!("cannot clear {}", dir.display());
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => {
            for entry in std::fs::read_dir(dir).with_context(clear)? {
                let entry = entry.with_context(clear)?;
                let meta = entry.metadata().with_context(clear)?;
                let keep = entry
                    .file_name()
                    .to_str()
                    .is_some_and(|name| names.contains(name));
                if !(keep && rewritable(&meta)) {
                    remove(&entry.path(), &meta).with_context(clear)?;
                }
            }
        }
        // Anything else in the way (a file, a link) is removed, as before.
        Ok(_) => std::fs::remove_dir_all(dir).with_context(clear)?,
        Err(_) => {}
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Writes a file of the folder over the file that is there, if any. The old file is not truncated
/// to zero first: ext4 then starts writing every such file to disk when it is closed (its guard
/// for files replaced by truncation), whereas overwritten pages are written back later. A file
/// this process may delete but not write (another user's, a read-only one) is deleted and created
/// again.
pub fn rewrite(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match overwrite(path, bytes) {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            if std::fs::remove_file(path).is_err() {
                return Err(e);
            }
            std::fs::write(path, bytes)
        }
        written => written,
    }
}

fn overwrite(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)
}

/// Deletes the files named in `names` that [`prepare`] kept but that were not written again (their
/// games' records could not be read).
pub fn remove_unwritten(dir: &Path, names: &[String]) -> anyhow::Result<()> {
    for name in names {
        let path = dir.join(name);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot clear {}", dir.display()));
            }
            _ => {}
        }
    }
    Ok(())
}

fn remove(path: &Path, meta: &Metadata) -> std::io::Result<()> {
    if meta.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

/// A regular file that no other name links to: a copy of the report made with hard links
/// (`cp -al`) keeps its bytes.
#[cfg(unix)]
fn rewritable(meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.is_file() && meta.nlink() == 1
}

/// Elsewhere every file is deleted and created again.
#[cfg(not(unix))]
fn rewritable(_meta: &Metadata) -> bool {
    false
}
