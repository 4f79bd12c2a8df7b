//! The sources of a Python or JavaScript agent, as `arena submit` uploads them for the server to
//! build (docs/SERVER.md, `POST /api/submissions` with sources): a single `.py` or `.js` file, or
//! the source files of a folder made by `arena new` (not what a build makes, nor the build files
//! and WIT package the server has its own copies of).

use std::path::Path;

use anyhow::{bail, Context};

use super::folder::{language, NOT_SOURCES};
use super::Lang;

/// Most files an upload of sources holds.
pub const MAX_FILES: usize = 100;

/// Most bytes an upload of sources holds (the server has a limit of its own).
pub const MAX_BYTES: u64 = 4 << 20;

/// An agent's sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sources {
    pub lang: Lang,
    /// The file that defines the agent (`agent.py`, `bot.js`), a path of `files`.
    pub entry: String,
    /// Each file's path (relative, `/` between folders) and contents.
    pub files: Vec<(String, Vec<u8>)>,
}

/// The language of a source file, from its extension: `.py` Python, `.js` or `.mjs` JavaScript.
pub fn file_language(path: &Path) -> Option<Lang> {
    match path.extension()?.to_str()? {
        "py" => Some(Lang::Python),
        "js" | "mjs" => Some(Lang::JavaScript),
        _ => None,
    }
}

/// The sources of the agent at `path` (a `.py` or `.js` file, or a Python or JavaScript folder
/// made by `arena new`); `None` for anything else (a module, another language's folder).
pub fn sources(path: &Path) -> anyhow::Result<Option<Sources>> {
    if path.is_file() {
        let Some(lang) = file_language(path) else {
            return Ok(None);
        };
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .context("the source file's name is not UTF-8")?
            .to_owned();
        let bytes = read(path)?;
        return Ok(Some(Sources {
            lang,
            entry: name.clone(),
            files: vec![(name, bytes)],
        }));
    }
    let lang = match language(path) {
        Some(lang @ (Lang::Python | Lang::JavaScript)) => lang,
        _ => return Ok(None),
    };
    let entry = match lang {
        Lang::Python => "agent.py",
        _ => "agent.js",
    };
    let mut files = Vec::new();
    let mut folders = vec![(path.to_path_buf(), String::new())];
    while let Some((folder, prefix)) = folders.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&folder)
            .with_context(|| format!("cannot read {}", folder.display()))?
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot read {}", folder.display()))?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let Some(name) = e.file_name().to_str().map(str::to_owned) else {
                bail!("{}: a file name is not UTF-8", folder.display());
            };
            let rel = format!("{prefix}{name}");
            let kind = e.file_type()?;
            if kind.is_dir() {
                // `wit/`: the server builds with its own copy of the arena's WIT package.
                let skipped =
                    NOT_SOURCES.contains(&name.as_str()) || (prefix.is_empty() && name == "wit");
                if !skipped {
                    folders.push((e.path(), format!("{rel}/")));
                }
            } else if kind.is_file()
                && file_language(&e.path()) == Some(lang)
                && !(prefix.is_empty() && name == "build.mjs")
            {
                files.push((rel, read(&e.path())?));
            }
        }
    }
    files.sort();
    if !files.iter().any(|(f, _)| f == entry) {
        bail!(
            "{}: no {entry}, the file that defines the agent",
            path.display()
        );
    }
    if files.len() > MAX_FILES {
        bail!(
            "{}: {} source files, more than the {MAX_FILES} an upload takes",
            path.display(),
            files.len()
        );
    }
    let total: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();
    if total > MAX_BYTES {
        bail!(
            "{}: {total} bytes of sources, more than the {MAX_BYTES} an upload takes",
            path.display()
        );
    }
    Ok(Some(Sources {
        lang,
        entry: entry.to_owned(),
        files,
    }))
}

fn read(path: &Path) -> anyhow::Result<Vec<u8>> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > MAX_BYTES {
        bail!(
            "{}: {size} bytes, more than the {MAX_BYTES} an upload of sources takes",
            path.display()
        );
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_sends_its_sources_and_nothing_built() {
        let dir = std::env::temp_dir().join(format!("arena-sources-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (file, text) in [
            ("agent.py", "x = 1\n"),
            ("lib/helpers.py", "y = 2\n"),
            ("wit/types.wit", "package x;\n"),
            (".venv/lib/site.py", "no\n"),
            ("__pycache__/agent.cpython.py", "no\n"),
            ("README.md", "no\n"),
            ("my-bot.wasm", "no\n"),
        ] {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let s = sources(&dir).unwrap().unwrap();
        assert_eq!(s.lang, Lang::Python);
        assert_eq!(s.entry, "agent.py");
        let names: Vec<&str> = s.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["agent.py", "lib/helpers.py"]);

        let single = dir.join("lib/helpers.py");
        let s = sources(&single).unwrap().unwrap();
        assert_eq!((s.entry.as_str(), s.files.len()), ("helpers.py", 1));
        assert_eq!(sources(&dir.join("my-bot.wasm")).unwrap(), None);
        std::fs::remove_file(dir.join("agent.py")).unwrap();
        std::fs::write(dir.join("agent.js"), "export function trade() {}\n").unwrap();
        std::fs::write(dir.join("build.mjs"), "// build\n").unwrap();
        let s = sources(&dir).unwrap().unwrap();
        assert_eq!(s.lang, Lang::JavaScript);
        let names: Vec<&str> = s.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["agent.js"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
