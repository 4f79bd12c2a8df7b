//! Ctrl-C during a league: the first one asks the league to stop (no new game starts, the games
//! being played finish and are journaled), so that the run can say how far it got and that
//! `--resume` continues; a second one ends the process at once (the journal loses nothing either
//! way: it is written game by game).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Set by the first Ctrl-C after [`install`].
static REQUESTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// True once Ctrl-C (SIGINT) was pressed after [`install`].
pub fn requested() -> bool {
    REQUESTED.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Catches SIGINT in this process (`arena league` calls it; a library user keeps its own
/// handling): the first one sets the flag of [`requested`], the next one ends the process as
/// SIGINT does by default.
pub fn install() -> anyhow::Result<()> {
    let flag = REQUESTED.get_or_init(Arc::default);
    let sig = signal_hook::consts::SIGINT;
    // The default action first: it runs only once the flag is set, i.e. on the second Ctrl-C.
    signal_hook::flag::register_conditional_default(sig, Arc::clone(flag))
        .and_then(|_| signal_hook::flag::register(sig, Arc::clone(flag)))
        .map_err(|e| anyhow::anyhow!("cannot catch Ctrl-C: {e}"))?;
    Ok(())
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Set in the child process that receives the signals (a Ctrl-C to the test process itself
    /// would end every test).
    const CHILD: &str = "ARENA_INTERRUPT_TEST_CHILD";

    #[test]
    fn the_first_ctrl_c_asks_the_league_to_stop_and_the_second_ends_the_process() {
        let sigint = signal_hook::consts::SIGINT;
        if std::env::var_os(CHILD).is_some() {
            install().unwrap();
            assert!(!requested());
            signal_hook::low_level::raise(sigint).unwrap();
            assert!(requested(), "the first Ctrl-C is caught");
            println!("caught the first Ctrl-C");
            signal_hook::low_level::raise(sigint).unwrap();
            println!("lived through the second Ctrl-C");
            std::process::exit(0);
        }
        let name = "league::interrupt::tests::\
                    the_first_ctrl_c_asks_the_league_to_stop_and_the_second_ends_the_process";
        crate::testing::assert_second_signal_ends_child(
            name,
            CHILD,
            "caught the first Ctrl-C",
            sigint,
        );
    }
}
