//! The league's output files written again from the verified results and compared with the
//! published ones, line by line: the first line that differs is the problem.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::league::output;

/// The files the league writes from its results, compared in this order.
pub(super) const OUTPUT_FILES: [&str; 6] = [
    output::STANDINGS_JSON,
    output::STANDINGS_CSV,
    output::CROSSTABLE_CSV,
    output::GAMES_CSV,
    output::BENCHMARK_CSV,
    output::BENCHMARK_TURNS_CSV,
];

/// The first line where the published file differs from the one the league's code writes.
pub(super) fn compare_files(
    name: &str,
    ours: &Path,
    theirs: &Path,
) -> anyhow::Result<Option<String>> {
    let expected = std::fs::read(ours)?;
    let found =
        std::fs::read(theirs).with_context(|| format!("cannot read {}", theirs.display()))?;
    if expected == found {
        return Ok(None);
    }
    let expected = String::from_utf8_lossy(&expected);
    let found = String::from_utf8_lossy(&found);
    let mut e_lines = expected.lines();
    let mut f_lines = found.lines();
    let mut number = 0;
    loop {
        number += 1;
        match (e_lines.next(), f_lines.next()) {
            (Some(e), Some(f)) if e == f => continue,
            (e, f) => {
                let show = |l: Option<&str>| match l {
                    Some(l) => format!("`{}`", clip(l)),
                    None => "nothing".to_string(),
                };
                return Ok(Some(format!(
                    "{name}:{number}: does not follow from the records: expected {}, found {}",
                    show(e),
                    show(f)
                )));
            }
        }
    }
}

/// At most 160 characters of a line, for a message.
fn clip(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(160).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// A folder removed when dropped, for the files the league's writers produce.
pub(super) struct TempDir(PathBuf);

impl TempDir {
    pub(super) fn new() -> anyhow::Result<TempDir> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "arena-verify-league-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(TempDir(path))
    }

    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
