//! Running a cell's agent in the sandbox: the rules' [`Executor`] for the arena.

use std::collections::BTreeSet;
use std::sync::{Arc, Condvar, Mutex, OnceLock};

use codewar_rules::{Effects, Executor, Run, Segfault, SegfaultKind, View};

use super::code::Snippet;
use super::imports::{self, VisitState, WriteTooBig};
use super::settings::CodewarSettings;
use crate::game::SeatUsage;
use crate::sandbox::{
    snippet_engine, HostFailure, Limits, SnippetCompiler, SnippetFault, SnippetLimits, Snippets,
};

/// Visits that may run at once in this process (one per thread playing or verifying a code war).
const INSTANCES: u32 = 64;

/// One of the engine's [`INSTANCES`] instances, held while a visit runs. More threads than that
/// (`--threads 200`, or `threads = 0` on a machine of many cores) wait for one rather than find
/// the pool exhausted: a visit that cannot be instantiated would be the host's failure and stop
/// the league, whatever the thread count, while waiting changes no result.
struct VisitSlot;

static SLOTS_IN_USE: (Mutex<u32>, Condvar) = (Mutex::new(0), Condvar::new());

impl VisitSlot {
    fn take() -> VisitSlot {
        let (used, freed) = &SLOTS_IN_USE;
        let mut n = used.lock().unwrap_or_else(|p| p.into_inner());
        while *n >= INSTANCES {
            n = freed.wait(n).unwrap_or_else(|p| p.into_inner());
        }
        *n += 1;
        VisitSlot
    }
}

impl Drop for VisitSlot {
    fn drop(&mut self) {
        let (used, freed) = &SLOTS_IN_USE;
        *used.lock().unwrap_or_else(|p| p.into_inner()) -= 1;
        freed.notify_one();
    }
}

/// The engine every code war of this process runs its agents in: the sandbox's hardened
/// configuration with Cranelift (docs/PERFORMANCE.md, "Code war"), its default limits (the
/// WebAssembly stack of a visit among them) and a pool of its own. Play and verification share
/// it, whatever the league's sandbox limits, so that a visit does in `arena verify` exactly what
/// it did in the game.
pub fn engine() -> anyhow::Result<&'static wasmtime::Engine> {
    static ENGINE: OnceLock<Result<wasmtime::Engine, String>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            snippet_engine(&Limits::default(), SnippetCompiler::Cranelift, INSTANCES)
                .map_err(|e| format!("{e:#}"))
        })
        .as_ref()
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// The snippets (compiled modules, refusals, imports) of the code war's [`engine`] and `settings`'
/// limits, shared by every game played with them, so that a league compiles each module once.
pub fn snippets_for(settings: &CodewarSettings) -> anyhow::Result<Arc<Snippets<VisitState>>> {
    static REGISTRY: Mutex<Vec<(SnippetLimits, Arc<Snippets<VisitState>>)>> =
        Mutex::new(Vec::new());
    let engine = engine()?;
    let limits = settings.snippet_limits();
    let mut registry = REGISTRY.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, s)) = registry.iter().find(|(l, _)| *l == limits) {
        return Ok(Arc::clone(s));
    }
    let snippets = Arc::new(Snippets::new(engine, limits.clone(), imports::add_imports)?);
    registry.push((limits, Arc::clone(&snippets)));
    Ok(snippets)
}

/// Runs each visit's agent in a fresh instance.
pub struct SandboxExecutor<'a> {
    snippets: &'a Snippets<VisitState>,
    /// Set when the host failed: the game must not be recorded.
    pub host_failure: Option<HostFailure>,
    /// Cells whose visit in the iteration being replayed is recorded as a timeout (the
    /// wall-clock backstop, which a replay cannot reproduce): not run again.
    pub timeouts: BTreeSet<usize>,
    /// Fuel used by every visit so far.
    pub fuel_used: u64,
    /// What the visits of each owner's cells used, by seat (grown as seats are seen).
    pub usage: Vec<SeatUsage>,
}

impl<'a> SandboxExecutor<'a> {
    pub fn new(snippets: &'a Snippets<VisitState>) -> SandboxExecutor<'a> {
        SandboxExecutor {
            snippets,
            host_failure: None,
            timeouts: BTreeSet::new(),
            fuel_used: 0,
            usage: Vec::new(),
        }
    }
}

impl Executor<Snippet> for SandboxExecutor<'_> {
    fn run(&mut self, view: &View<Snippet>) -> Run<Snippet> {
        let (run, fuel) = self.run_visit(view);
        self.fuel_used += fuel;
        if self.usage.len() <= view.owner {
            self.usage.resize(view.owner + 1, SeatUsage::default());
        }
        let u = &mut self.usage[view.owner];
        u.fuel += fuel;
        u.max_decision_fuel = u.max_decision_fuel.max(fuel);
        u.decisions += 1;
        run
    }
}

impl SandboxExecutor<'_> {
    /// Runs the visit of `view`: what it did, and the fuel it used.
    fn run_visit(&mut self, view: &View<Snippet>) -> (Run<Snippet>, u64) {
        if self.host_failure.is_some() || self.timeouts.contains(&view.position) {
            return (Run::Segfault(Segfault::new(SegfaultKind::Timeout)), 0);
        }
        let code = &view.own().code;
        let out = match self.snippets.prepare(code.digest(), code.bytes()) {
            Ok(prepared) => {
                let _slot = VisitSlot::take();
                let state = VisitState::new(view.clone());
                self.snippets.run::<i64>(&prepared, imports::ENTRY, state)
            }
            Err(f) => return (self.segfault(f, None), 0),
        };
        let run = match out.result {
            Ok(returned) => {
                let VisitState {
                    own,
                    staged,
                    facade,
                    ..
                } = out.state;
                Run::Returned {
                    returned,
                    effects: Effects {
                        own: own.map(Snippet::new),
                        staged: staged.map(|(at, bytes)| (at, Snippet::new(bytes))),
                        facade,
                    },
                }
            }
            Err(f) => self.segfault(f, out.raised.as_ref()),
        };
        (run, out.fuel_used)
    }

    /// The segfault of a sandbox fault (`raised`: the error a host function failed the call
    /// with). The host's own failure is kept (the game must not be recorded): a timeout.
    fn segfault(&mut self, fault: SnippetFault, raised: Option<&wasmtime::Error>) -> Run<Snippet> {
        let with_detail =
            |detail: String| Run::Segfault(Segfault::with_detail(SegfaultKind::Trap, detail));
        let kind = match fault {
            SnippetFault::TooBig { .. } => SegfaultKind::TooBig,
            SnippetFault::Invalid(_) => SegfaultKind::Invalid,
            SnippetFault::BadImport(_) => SegfaultKind::BadImport,
            SnippetFault::NoEntry(_) => SegfaultKind::NoEntry,
            SnippetFault::Memory(_) => SegfaultKind::Memory,
            SnippetFault::Trap(detail) => return with_detail(detail),
            SnippetFault::Fuel => SegfaultKind::Fuel,
            SnippetFault::Stack => SegfaultKind::Stack,
            SnippetFault::Timeout => SegfaultKind::Timeout,
            SnippetFault::Raised(detail) => {
                if raised.is_some_and(|e| e.downcast_ref::<WriteTooBig>().is_some()) {
                    SegfaultKind::WriteTooBig
                } else {
                    return with_detail(detail);
                }
            }
            SnippetFault::Host(h) => {
                self.host_failure = Some(h);
                SegfaultKind::Timeout
            }
        };
        Run::Segfault(Segfault::new(kind))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::{VisitSlot, INSTANCES};

    #[test]
    fn no_more_visits_run_at_once_than_the_engine_has_instances() {
        let running = AtomicU32::new(0);
        let peak = AtomicU32::new(0);
        std::thread::scope(|s| {
            for _ in 0..3 * INSTANCES {
                s.spawn(|| {
                    let _slot = VisitSlot::take();
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    running.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        let peak = peak.into_inner();
        assert!(peak <= INSTANCES, "{peak} visits at once");
        assert!(peak > 1, "visits never ran side by side");
    }
}
