//! Files replaced whole: written beside their final name, synced, then renamed over it, so that a
//! kill or a power loss at any instant leaves either the old file or the new one, never a
//! truncated one.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// Suffix of the temporary files; a kill between writing and renaming leaves one behind, which
/// the next start of a league in the folder removes.
const TEMP_SUFFIX: &str = ".arena-tmp";

/// Replaces `path` with `bytes` atomically. The folder must be locked by this process (the
/// temporary file's name is not unique to it).
pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = temp_path(path);
    let written = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        sync_dir(parent_dir(path))
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written.with_context(|| format!("cannot write {}", path.display()))
}

/// Where [`write`] puts `path`'s content before renaming it: a hidden file beside it.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}{TEMP_SUFFIX}"))
}

/// True for the name of a temporary file of [`write`].
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(TEMP_SUFFIX)
}

/// The folder holding `path` (`.` for a bare name, whose `parent()` is empty).
pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes a rename or a new entry in `dir` durable.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_is_left() {
        let dir = std::env::temp_dir().join(format!("arena-atomic-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("standings.json");
        write(&path, b"old").unwrap();
        write(&path, b"new, longer").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new, longer");
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["standings.json"]);
        assert!(is_temp_name(
            &temp_path(&path).file_name().unwrap().to_string_lossy()
        ));
        assert_eq!(parent_dir(Path::new("results")), Path::new("."));
        assert_eq!(parent_dir(Path::new("a/results")), Path::new("a"));
        // A folder that cannot be written: an error naming the file, the old content kept.
        let e = write(&dir.join("missing").join("x.csv"), b"1").unwrap_err();
        assert!(format!("{e:#}").contains("x.csv"), "{e:#}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
