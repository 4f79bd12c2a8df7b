//! The build's own folder (made for one build, removed after it), and the toolchain's messages
//! read as the contestant wrote the files: the folder's paths taken out.

use std::path::{Path, PathBuf};

/// The build's own folder in the system's temporary folder, removed when dropped.
pub(super) struct Folder(pub(super) PathBuf);

impl Folder {
    pub(super) fn new() -> anyhow::Result<Folder> {
        use std::os::unix::fs::DirBuilderExt;
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        for _ in 0..100 {
            let name = format!(
                "arena-build-{}-{}-{}",
                std::process::id(),
                COUNT.fetch_add(1, Ordering::Relaxed),
                crate::jobs::now_ms()
            );
            let path = base.join(name);
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(Folder(path)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => anyhow::bail!("cannot make a build folder in {}: {e}", base.display()),
            }
        }
        anyhow::bail!("cannot make a build folder in {}", base.display())
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0) {
            eprintln!(
                "warning: cannot remove the build folder {}: {e}",
                self.0.display()
            );
        }
    }
}

/// The toolchain's message as the contestant reads it: the build folder's paths as their own
/// (`src/bot.py` is `bot.py`), without componentize-py's own Python traceback around the error.
pub(super) fn clean_output(output: &str, dir: &Path) -> String {
    let dir = dir.display().to_string();
    let mut text = output
        .replace(&format!("{dir}/src/"), "")
        .replace(&format!("{dir}/"), "");
    // componentize-py reports an error of the agent's code as an AssertionError of its own
    // script: what follows it is the agent's error. It sees the sources' folder as `/0`.
    if text.starts_with("Traceback") {
        if let Some(i) = text.find("AssertionError: ") {
            text = text[i + "AssertionError: ".len()..].to_owned();
        }
    }
    text = text.replace("File \"/0/", "File \"");
    // Node's own stack (`at checkSyntax (node:internal/…)`) and version line say nothing of the
    // agent.
    text.lines()
        .filter(|l| !l.trim_start().starts_with("at ") || !l.contains("node:internal"))
        .filter(|l| !l.starts_with("Node.js v"))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn componentize_py_s_traceback_is_left_out_of_the_message() {
        let dir = Path::new("/tmp/arena-build-1");
        let raw = "Traceback (most recent call last):\n  File \"/x/componentize-py\", line 8\n\
                   AssertionError:   File \"/0/bot.py\", line 2\n    def f(:\n\
                   SyntaxError: invalid syntax\n";
        let text = clean_output(raw, dir);
        assert!(text.starts_with("File \"bot.py\", line 2"), "{text}");
        assert!(text.contains("SyntaxError"));
    }
}
