//! A Python or JavaScript agent's sources, as uploaded for the server to build
//! (`multipart/form-data`, docs/SERVER.md: `lang`, `entry`, one `file` part per source file) and
//! as kept: the version's sources are stored in the data folder as one JSON document (their
//! SHA-256 is the version's `source_sha256`), the build reads them from there (also when a stop
//! cut a check short), and their author downloads them from there.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart};
use axum::http::{header, Request};
use serde::{Deserialize, Serialize};

/// Most files an upload of sources holds.
pub const MAX_FILES: usize = 100;

/// Most bytes of sources an upload holds.
pub const MAX_BYTES: usize = 4 << 20;

/// The languages the server builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Python,
    JavaScript,
}

impl Lang {
    /// `python`, `javascript`: the `lang` field's value.
    pub fn key(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
        }
    }

    /// `Python`, `JavaScript`: for people.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::JavaScript => "JavaScript",
        }
    }

    /// The language of a file name, by its extension: `.py`, or `.js` and `.mjs`.
    pub fn of_file(path: &str) -> Option<Lang> {
        let (_, ext) = path.rsplit_once('.')?;
        match ext {
            "py" => Some(Lang::Python),
            "js" | "mjs" => Some(Lang::JavaScript),
            _ => None,
        }
    }
}

/// One source file: its path (relative, `/` between folders) and its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct File {
    pub path: String,
    pub text: String,
}

/// An agent's sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sources {
    pub lang: Lang,
    /// The file that defines the agent, one of `files`.
    pub entry: String,
    pub files: Vec<File>,
}

impl Sources {
    /// One file that is the whole agent (`bot.py`).
    pub fn single(path: &str, text: &str) -> Result<Sources, String> {
        let lang = Lang::of_file(path)
            .ok_or_else(|| format!("{path}: not a Python (.py) or JavaScript (.js) file"))?;
        let s = Sources {
            lang,
            entry: path.to_owned(),
            files: vec![File {
                path: path.to_owned(),
                text: text.to_owned(),
            }],
        };
        s.validate()?;
        Ok(s)
    }

    /// Whether these sources can be built: at most [`MAX_FILES`] files and [`MAX_BYTES`] bytes,
    /// paths that stay inside the build's folder, files of the language only, and an entry that
    /// is one of them (for Python, a module name: identifiers between the `/`).
    pub fn validate(&self) -> Result<(), String> {
        if self.files.is_empty() {
            return Err("no source file".into());
        }
        if self.files.len() > MAX_FILES {
            return Err(format!(
                "{} source files, more than the {MAX_FILES} an upload takes",
                self.files.len()
            ));
        }
        let total: usize = self.files.iter().map(|f| f.text.len()).sum();
        if total > MAX_BYTES {
            return Err(format!(
                "{total} bytes of sources, more than the {MAX_BYTES} an upload takes"
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for f in &self.files {
            check_path(&f.path)?;
            if Lang::of_file(&f.path) != Some(self.lang) {
                return Err(format!("{}: not a {} file", f.path, self.lang.name()));
            }
            if !seen.insert(f.path.as_str()) {
                return Err(format!("{}: sent twice", f.path));
            }
        }
        if !seen.contains(self.entry.as_str()) {
            return Err(format!(
                "the entry {:?} is not one of the files sent",
                self.entry
            ));
        }
        if self.lang == Lang::Python && self.python_module().is_none() {
            return Err(format!(
                "{}: a Python module's name is made of identifiers (letters, digits, _)",
                self.entry
            ));
        }
        Ok(())
    }

    /// The entry as a Python module name: `agent.py` is `agent`, `bots/mine.py` `bots.mine`.
    pub fn python_module(&self) -> Option<String> {
        let stem = self.entry.strip_suffix(".py")?;
        let ident = |s: &str| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        stem.split('/').all(ident).then(|| stem.replace('/', "."))
    }

    /// The stored form.
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("sources serialize")
    }

    /// Sources from their stored form.
    pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<Sources> {
        serde_json::from_slice(bytes)
            .map_err(|e| anyhow::anyhow!("stored sources cannot be read: {e}"))
    }

    /// Sources from a `multipart/form-data` body (`content_type` names its boundary).
    pub async fn from_multipart(content_type: &str, body: Bytes) -> Result<Sources, String> {
        Ok(Sources::from_multipart_with(content_type, body, "")
            .await?
            .0)
    }

    /// [`Sources::from_multipart`], and the values of the form's fields named `extra` (the
    /// `opponent` fields of a test run), in order.
    pub async fn from_multipart_with(
        content_type: &str,
        body: Bytes,
        extra: &str,
    ) -> Result<(Sources, Vec<String>), String> {
        let mut extras = Vec::new();
        let request = Request::builder()
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body))
            .map_err(|e| e.to_string())?;
        let mut form = Multipart::from_request(request, &())
            .await
            .map_err(|e| format!("unreadable form: {e}"))?;
        let (mut lang, mut entry, mut files) = (None, None, Vec::new());
        while let Some(field) = form
            .next_field()
            .await
            .map_err(|e| format!("unreadable form: {e}"))?
        {
            let name = field.name().map(str::to_owned);
            let file_name = field.file_name().map(str::to_owned);
            let bytes = field
                .bytes()
                .await
                .map_err(|e| format!("unreadable form: {e}"))?;
            let text = || {
                String::from_utf8(bytes.to_vec())
                    .map_err(|_| format!("field {:?} is not UTF-8 text", name.as_deref()))
            };
            match name.as_deref() {
                Some("lang") => {
                    lang = Some(match text()?.trim() {
                        "python" => Lang::Python,
                        "javascript" => Lang::JavaScript,
                        other => {
                            return Err(format!(
                                "lang {other:?}: this server builds python and javascript"
                            ))
                        }
                    })
                }
                Some("entry") => entry = Some(text()?.trim().to_owned()),
                Some("file") => {
                    let path = file_name.ok_or("a file part without a filename")?;
                    files.push(File {
                        path,
                        text: text()?,
                    });
                    if files.len() > MAX_FILES {
                        return Err(format!("more than {MAX_FILES} source files"));
                    }
                }
                Some(n) if !extra.is_empty() && n == extra => extras.push(text()?),
                _ => {}
            }
        }
        let sources = Sources {
            lang: lang.ok_or("no lang field (python or javascript)")?,
            entry: entry.ok_or("no entry field (the file that defines the agent)")?,
            files,
        };
        sources.validate()?;
        Ok((sources, extras))
    }
}

/// A path inside the build's folder: relative, `/` between folders, no `.` or `..`, names of
/// letters, digits, `_`, `-` and `.` only.
fn check_path(path: &str) -> Result<(), String> {
    let ok = !path.is_empty()
        && path.len() <= 200
        && path.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{path:?}: a source path is relative, with `/` between folders and names of letters, \
             digits, _, - and . (no `..`)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(lang: Lang, entry: &str, paths: &[&str]) -> Sources {
        Sources {
            lang,
            entry: entry.into(),
            files: paths
                .iter()
                .map(|p| File {
                    path: (*p).into(),
                    text: "x = 1\n".into(),
                })
                .collect(),
        }
    }

    #[test]
    fn paths_stay_inside_the_build_folder() {
        for bad in [
            "../x.py",
            "/etc/x.py",
            "a//b.py",
            "./a.py",
            "a\\b.py",
            "a b.py",
            "",
        ] {
            let s = sources(Lang::Python, "agent.py", &["agent.py", bad]);
            assert!(s.validate().is_err(), "{bad:?} accepted");
        }
        let s = sources(Lang::Python, "agent.py", &["agent.py", "lib/moves.py"]);
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn the_entry_is_one_of_the_files_and_a_module_name() {
        let s = sources(Lang::Python, "other.py", &["agent.py"]);
        assert!(s.validate().unwrap_err().contains("entry"));
        let s = sources(Lang::Python, "my-bot.py", &["my-bot.py"]);
        assert!(s.validate().unwrap_err().contains("identifiers"));
        let s = sources(Lang::Python, "bots/mine.py", &["bots/mine.py"]);
        assert_eq!(s.python_module().as_deref(), Some("bots.mine"));
        let s = sources(Lang::JavaScript, "agent.js", &["agent.js", "x.py"]);
        assert!(s.validate().unwrap_err().contains("not a JavaScript file"));
    }

    #[test]
    fn stored_sources_read_back() {
        let s = sources(Lang::JavaScript, "bot.js", &["bot.js", "lib/a.mjs"]);
        assert_eq!(Sources::from_bytes(&s.to_bytes()).unwrap(), s);
    }
}
