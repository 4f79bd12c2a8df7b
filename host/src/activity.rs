//! Long steps say what they are doing: building an agent (cargo, componentize-py, npm and
//! componentize-js take seconds to minutes) and compiling a component for the first time (10 to
//! 40 s for a Python or JavaScript agent), instead of leaving the terminal silent. On a terminal
//! a spinner on standard error names the step, how long it usually takes and the time so far,
//! and is cleared when the step ends; elsewhere (a pipe, a log file) a step announced as
//! [`Shown::Always`] gets one line, and a [`Shown::IfSlow`] one nothing.

use std::io::IsTerminal;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// When a step is announced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// At once (a build: it always takes a while).
    Always,
    /// Only on a terminal and once it has taken this long (a load, which is quick when the
    /// compiled code is in the cache).
    IfSlow(Duration),
}

/// A long step under way; dropping it ends its spinner.
pub struct Activity {
    stop: Option<mpsc::Sender<()>>,
    spinner: Option<JoinHandle<()>>,
}

impl Activity {
    /// Announces `what` (`building my-bot (Python, componentize-py): usually 10 to 30 s`).
    pub fn start(what: String, shown: Shown) -> Activity {
        let terminal = std::io::stderr().is_terminal();
        if !terminal {
            if shown == Shown::Always {
                eprintln!("{what}...");
            }
            return Activity {
                stop: None,
                spinner: None,
            };
        }
        let delay = match shown {
            Shown::Always => Duration::ZERO,
            Shown::IfSlow(after) => after,
        };
        let (stop, stopped) = mpsc::channel::<()>();
        let spinner = std::thread::spawn(move || {
            if stopped.recv_timeout(delay) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message(what);
            bar.enable_steady_tick(Duration::from_millis(120));
            // Until the step ends (the sender is dropped).
            let _ = stopped.recv();
            bar.finish_and_clear();
        });
        Activity {
            stop: Some(stop),
            spinner: Some(spinner),
        }
    }
}

impl Drop for Activity {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(spinner) = self.spinner.take() {
            let _ = spinner.join();
        }
    }
}

/// Loads `wasm` into `sandbox`, saying so on a terminal when it takes more than a second: the
/// first load of a component compiles it (10 to 40 s for a Python or JavaScript agent; then the
/// compiled code is cached).
pub fn load(
    sandbox: &crate::sandbox::Sandbox,
    wasm: &std::path::Path,
) -> anyhow::Result<crate::sandbox::AgentModule> {
    let name =
        crate::terminal::line(&wasm.file_name().unwrap_or_default().to_string_lossy()).into_owned();
    let mut header = [0u8; 8];
    let component = std::fs::File::open(wasm)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header))
        .is_ok_and(|()| crate::sandbox::is_component(&header));
    let what = if component {
        format!(
            "compiling {name}, a component (a Python or JavaScript agent's first compile takes \
             10 to 40 s; the compiled code is then cached)"
        )
    } else {
        format!("compiling {name}")
    };
    let _activity = Activity::start(what, Shown::IfSlow(Duration::from_secs(1)));
    sandbox.load(wasm)
}
