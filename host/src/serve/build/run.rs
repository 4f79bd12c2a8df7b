//! Running one command of a build, confined (see `confine.rs`), in the build's folder: an
//! environment of its own, its output kept up to a bound, its process group killed when it ends
//! or at the wall deadline, and why a limit stopped it told in the contestant's words.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::confine::{Confine, FILE_BYTES};
use super::Builds;

/// Output of a build kept for its report, from stdout and stderr each (the end of it).
const OUTPUT_KEPT: usize = 16 << 10;

impl Builds {
    /// Runs `cmd` confined (see the module's comment) in `dir`, until it ends or its deadline.
    pub(super) fn run(&self, mut cmd: Command, dir: &Path) -> anyhow::Result<Run> {
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        cmd.env_clear()
            .env("PATH", path)
            .env("HOME", dir)
            .env("TMPDIR", dir.join("tmp"))
            .env("LANG", "C.UTF-8")
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let confine = Confine::new(&self.limits, &self.isolation, &self.data)?;
        // SAFETY: the closure only makes system calls (setrlimit, unshare, mount) on memory
        // prepared before the fork; it allocates nothing.
        unsafe {
            cmd.pre_exec(move || confine.apply());
        }
        let started = Instant::now();
        let mut child = cmd.spawn()?;
        let group = child.id() as libc::pid_t;
        let out = child
            .stdout
            .take()
            .map(|s| std::thread::spawn(move || tail(s)));
        let err = child
            .stderr
            .take()
            .map(|s| std::thread::spawn(move || tail(s)));
        let deadline = Duration::from_secs(self.limits.wall_s);
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break Some(status);
            }
            if started.elapsed() > deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // The whole process group goes: what the build started and left running, or all of it at
        // the deadline.
        // SAFETY: kill has no memory effects; the group is the build's own (process_group(0)).
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
        let status = match status {
            Some(s) => Some(s),
            None => {
                let _ = child.wait();
                None
            }
        };
        let join = |h: Option<std::thread::JoinHandle<Vec<u8>>>| {
            h.and_then(|h| h.join().ok()).unwrap_or_default()
        };
        let mut output = String::from_utf8_lossy(&join(out)).into_owned();
        let stderr = join(err);
        if !stderr.is_empty() {
            if !output.is_empty() && !output.ends_with('\n') {
                output.push('\n');
            }
            output.push_str(&String::from_utf8_lossy(&stderr));
        }
        let killed = match status {
            None => Some(format!(
                "the build took longer than {} s and was stopped",
                self.limits.wall_s
            )),
            Some(s) => {
                use std::os::unix::process::ExitStatusExt;
                match s.signal() {
                    Some(libc::SIGXCPU) | Some(libc::SIGKILL) => Some(format!(
                        "the build used more than {} s of CPU time and was stopped",
                        self.limits.cpu_s
                    )),
                    Some(libc::SIGXFSZ) => Some(format!(
                        "the build wrote a file larger than {} MiB and was stopped",
                        FILE_BYTES >> 20
                    )),
                    _ => None,
                }
            }
        };
        Ok(Run {
            success: status.is_some_and(|s| s.success()),
            killed,
            output,
        })
    }
}

pub(super) struct Run {
    pub(super) success: bool,
    /// Why the build was stopped, if a limit stopped it.
    pub(super) killed: Option<String>,
    pub(super) output: String,
}

/// The end of a stream, at most [`OUTPUT_KEPT`] bytes of it; the rest is read and dropped.
fn tail(mut r: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut dropped = false;
    while let Ok(n) = r.read(&mut buf) {
        if n == 0 {
            break;
        }
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > 2 * OUTPUT_KEPT {
            kept.drain(..kept.len() - OUTPUT_KEPT);
            dropped = true;
        }
    }
    if kept.len() > OUTPUT_KEPT {
        kept.drain(..kept.len() - OUTPUT_KEPT);
        dropped = true;
    }
    if dropped {
        let mut t = b"[...]\n".to_vec();
        t.extend(kept);
        return t;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_output_keeps_its_end() {
        let mut text = vec![b'a'; 100_000];
        text.extend_from_slice(b"the error");
        let kept = tail(&text[..]);
        assert!(kept.len() <= OUTPUT_KEPT + 10);
        assert!(kept.starts_with(b"[...]") && kept.ends_with(b"the error"));
    }
}
