//! Ctrl-C during a league: the first one asks the league to stop (no new game starts, the games
//! being played finish and are journaled), so that the run can say how far it got and that
//! `--resume` continues; a second one ends the process at once (the journal loses nothing either
//! way: it is written game by game).

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// True once Ctrl-C (SIGINT) was pressed after [`install`].
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Catches the next SIGINT of this process (`arena league` calls it; a library user keeps its own
/// handling).
pub fn install() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic and restores the default action, both
    // async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    REQUESTED.store(true, Ordering::Relaxed);
    // SAFETY: signal() is async-signal-safe; the next Ctrl-C ends the process as usual.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// The error a league stopped by Ctrl-C ends with.
#[derive(Debug)]
pub struct Interrupted {
    /// Games finished (journaled), of `total`.
    pub done: usize,
    pub total: usize,
    /// The league's output folder.
    pub output: String,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted after {} of {} games (kept in {}); `arena league --resume` continues",
            self.done, self.total, self.output
        )
    }
}

impl std::error::Error for Interrupted {}
