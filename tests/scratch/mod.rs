//! A test's scratch folder under the workspace's `target/`, removed when the test passes and kept
//! when it fails, so that a failure can be looked at and a green run leaves the disk as it found
//! it (the suite's leagues, uploads and built agents came to gigabytes).

#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// The workspace's root folder (whose `target/` holds the scratch folders).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// A fresh, empty folder `target/<area>/<name>-<pid>`; see the module's comment.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(workspace: &Path, area: &str, name: &str) -> TempDir {
        let dir = workspace
            .join("target")
            .join(area)
            .join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for a look: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for TempDir {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}
