//! A league output folder read back, to compare two of them byte for byte: the integration tests
//! check the folders the binary writes, the host's league tests the same folders from inside.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of a league output folder whose content must depend only on the league: standings,
/// cross-table, games list and every record.
pub fn result_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in [
        "standings.json",
        "standings.csv",
        "crosstable.csv",
        "games.csv",
    ] {
        out.push((
            name.to_string(),
            std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")),
        ));
    }
    let mut records: Vec<PathBuf> = std::fs::read_dir(dir.join("records"))
        .expect("records folder")
        .map(|e| e.expect("entry").path())
        .collect();
    records.sort();
    for r in records {
        out.push((
            r.file_name().unwrap().to_string_lossy().into_owned(),
            std::fs::read(&r).unwrap(),
        ));
    }
    out
}

/// Every file under `dir` but the lock file `lock`, by relative path, with its bytes.
pub fn snapshot(dir: &Path, lock: &str) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, lock: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, lock, out);
            } else if path.file_name().unwrap() != lock {
                let rel = path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, lock, &mut out);
    out
}
