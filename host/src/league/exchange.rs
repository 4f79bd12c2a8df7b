//! Two folders exchanged in one atomic rename (Linux `renameat2(RENAME_EXCHANGE)`): how a new
//! league replaces an old one in its output folder so that, at every instant, the folder is one
//! league or the other, whole (`super::folder`). Other systems and file systems that cannot do it
//! say so, and the caller falls back to replacing the league in place.

use std::path::Path;

/// Exchanges two folders atomically.
#[cfg(target_os = "linux")]
pub(super) fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both paths are valid NUL-terminated strings that outlive the call.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn exchange(_a: &Path, _b: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// True for the errors that mean "this system or file system cannot exchange these two folders"
/// (rather than a real failure): then the league is replaced in place.
pub(super) fn exchange_unsupported(e: &std::io::Error) -> bool {
    if e.kind() == std::io::ErrorKind::Unsupported {
        return true;
    }
    #[cfg(target_os = "linux")]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EINVAL | libc::ENOSYS | libc::EXDEV | libc::EBUSY | libc::ENOTSUP)
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}
