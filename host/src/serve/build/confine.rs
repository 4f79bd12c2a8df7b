//! How a build is confined: limits set between fork and exec (CPU time, writable memory, file
//! size, open files, no core files) and, where the kernel allows, network and mount namespaces of
//! its own that hide the data folder; probed once at the server's start.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::serve::config::Build;

/// Largest file a build may write (the component: 15 to 40 MiB for the examples).
pub(super) const FILE_BYTES: u64 = 256 << 20;

/// Open files of each build process.
const OPEN_FILES: u64 = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Isolation {
    /// Network and mount namespaces of the build's own (as root, or in a user namespace).
    Namespaces { user: bool },
    /// The kernel refused namespaces: why.
    None(String),
}
/// What the child does between fork and exec, prepared beforehand (no allocation after fork).
pub(super) struct Confine {
    cpu_s: u64,
    data_bytes: u64,
    isolation: Isolation,
    data: std::ffi::CString,
}

impl Confine {
    pub(super) fn new(b: &Build, isolation: &Isolation, data: &Path) -> anyhow::Result<Confine> {
        Ok(Confine {
            cpu_s: b.cpu_s,
            data_bytes: b.memory_mib << 20,
            isolation: isolation.clone(),
            data: std::ffi::CString::new(data.as_os_str().as_encoded_bytes())?,
        })
    }

    pub(super) fn apply(&self) -> std::io::Result<()> {
        macro_rules! limit {
            ($resource:expr, $value:expr) => {{
                let lim = libc::rlimit {
                    rlim_cur: $value as libc::rlim_t,
                    rlim_max: $value as libc::rlim_t,
                };
                // SAFETY: setrlimit reads `lim` only.
                if unsafe { libc::setrlimit($resource, &lim) } != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }};
        }
        limit!(libc::RLIMIT_CPU, self.cpu_s);
        limit!(libc::RLIMIT_DATA, self.data_bytes);
        limit!(libc::RLIMIT_FSIZE, FILE_BYTES);
        limit!(libc::RLIMIT_NOFILE, OPEN_FILES);
        limit!(libc::RLIMIT_CORE, 0u64);
        if let Isolation::Namespaces { user } = self.isolation {
            isolate(user, &self.data)?;
        }
        Ok(())
    }
}

/// In the calling (child) process: a network namespace of its own, and a mount namespace in
/// which `data` is covered by an empty read-only tmpfs. `user`: in a user namespace (needed
/// without root).
#[cfg(target_os = "linux")]
fn isolate(user: bool, data: &std::ffi::CStr) -> std::io::Result<()> {
    let err = std::io::Error::last_os_error;
    let mut flags = libc::CLONE_NEWNET | libc::CLONE_NEWNS;
    if user {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: system calls on static strings and `data`, a valid C string.
    unsafe {
        if libc::unshare(flags) != 0 {
            return Err(err());
        }
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return Err(err());
        }
        if libc::mount(
            c"arena-hidden".as_ptr(),
            data.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            c"size=4k,mode=000".as_ptr().cast(),
        ) != 0
        {
            return Err(err());
        }
    }
    Ok(())
}

/// Namespaces are Linux's: elsewhere builds are confined by their environment and limits only.
#[cfg(not(target_os = "linux"))]
fn isolate(_user: bool, _data: &std::ffi::CStr) -> std::io::Result<()> {
    Err(std::io::Error::other("namespaces are Linux's"))
}

/// How this machine can confine builds: namespaces as the server's user, else in a user
/// namespace, else none (and why), tried on a child that does nothing.
pub(super) fn probe_isolation(data: &Path) -> Isolation {
    let Ok(data) = std::ffi::CString::new(data.as_os_str().as_encoded_bytes()) else {
        return Isolation::None("the data folder's path is not a C string".into());
    };
    let mut last = String::new();
    for user in [false, true] {
        let data = data.clone();
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "exit 0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: system calls only, on memory prepared before the fork.
        unsafe {
            cmd.pre_exec(move || isolate(user, &data));
        }
        match cmd.status() {
            Ok(s) if s.success() => return Isolation::Namespaces { user },
            Ok(s) => last = format!("a confined process ended with {s}"),
            Err(e) => last = e.to_string(),
        }
    }
    Isolation::None(last)
}
