//! From wasmtime's errors to the game's faults, and the resource limiter that refuses growth past
//! the limits.

use std::fmt;

use wasmtime::{ResourceLimiter, Trap};
use wasmtime_wasi::I32Exit;

use super::log::AgentLog;
use crate::fault::{Fault, FaultKind};

/// A memory or table size past the limits: the error of an instantiation the limiter refuses (a
/// module whose own initial sizes are too big), and what a refused `memory.grow` or `table.grow`
/// notes for the fault of a trap that follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitExceeded {
    pub what: &'static str,
    pub desired: usize,
    pub limit: usize,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.what {
            "memory" => write!(
                f,
                "linear memory of {} bytes requested, the limit is {} bytes",
                self.desired, self.limit
            ),
            what => write!(
                f,
                "{what} of {} elements requested, the limit is {} elements",
                self.desired, self.limit
            ),
        }
    }
}

impl std::error::Error for LimitExceeded {}

/// Per-store limits: one instance, one memory, a few tables, and sizes from `Limits`.
///
/// While the instance is created, initial sizes past the limits fail the instantiation (the
/// module is refused at load). Afterwards `memory.grow` and `table.grow` past a limit return -1,
/// as the WebAssembly spec allows, so that an allocator can fall back; the refusal is written to
/// the agent's log and kept until the end of the call, where a trap that follows it becomes a
/// `memory_limit` fault (see [`classify_after_refusal`]).
#[derive(Debug, Clone)]
pub struct Limiter {
    pub memory_bytes: usize,
    pub table_elements: usize,
    /// True while the instance is being created.
    pub instantiating: bool,
    /// The last growth refused since the current call began.
    pub refused: Option<LimitExceeded>,
    /// The agent's log, where refusals are written.
    pub log: AgentLog,
    /// Instances the store may hold: 1 for a core module; a component's core instances.
    pub instances: usize,
    /// The size of the agent's memory as last allowed, in bytes.
    pub memory_now: usize,
}

impl Limiter {
    fn grow(&mut self, what: &'static str, desired: usize, limit: usize) -> wasmtime::Result<bool> {
        if desired <= limit {
            return Ok(true);
        }
        let refused = LimitExceeded {
            what,
            desired,
            limit,
        };
        if self.instantiating {
            return Err(wasmtime::Error::new(refused));
        }
        // Formatting is most of the cost of a refusal: none once the log is full.
        if self.log.room() > 0 {
            self.log
                .append(format!("arena: {what}.grow refused: {refused}\n").as_bytes());
        }
        self.refused = Some(refused);
        Ok(false)
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let limit = self.memory_bytes;
        let allowed = self.grow("memory", desired, limit)?;
        if allowed {
            self.memory_now = desired;
        }
        Ok(allowed)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let limit = self.table_elements;
        self.grow("table", desired, limit)
    }

    fn instances(&self) -> usize {
        self.instances
    }

    fn tables(&self) -> usize {
        super::config::TABLES_PER_INSTANCE as usize
    }

    fn memories(&self) -> usize {
        1
    }
}

/// Which budget ran out when a call stopped for lack of fuel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuelScope {
    /// The decision's own budget was the smaller one.
    Decision,
    /// What was left of the game's budget was the smaller one.
    Game,
    /// The game allowed this call less than a decision's budget (a game's fuel clock): this
    /// much, which was the smallest.
    Allowance(u64),
}

/// The fault for a failed call. `what` names the call for the detail (a decision export, "arena_init").
pub fn classify(err: &wasmtime::Error, what: &str, fuel: FuelScope) -> Fault {
    if let Some(trap) = err.downcast_ref::<Trap>() {
        return match trap {
            Trap::OutOfFuel => match fuel {
                FuelScope::Decision => Fault::new(
                    FaultKind::DecisionFuel,
                    format!("{what} used up the fuel of one decision"),
                ),
                FuelScope::Game => Fault::new(
                    FaultKind::GameFuel,
                    format!("{what} used up the fuel left for the game"),
                ),
                FuelScope::Allowance(fuel) => Fault::new(
                    FaultKind::DecisionFuel,
                    format!(
                        "{what} used up the {fuel} fuel the game allowed it (less than the \
                         fuel of one decision)"
                    ),
                ),
            },
            Trap::Interrupt => Fault::new(
                FaultKind::Timeout,
                format!(
                    "{what} ran past the wall-clock backstop before its fuel ran out; a timeout \
                     depends on the machine and its load, so this result may not reproduce"
                ),
            ),
            Trap::StackOverflow => Fault::new(
                FaultKind::StackOverflow,
                format!("{what} exhausted the WebAssembly stack"),
            ),
            other => Fault::new(FaultKind::Trap, format!("{what}: {other}")),
        };
    }
    if let Some(limit) = err.downcast_ref::<LimitExceeded>() {
        return Fault::new(FaultKind::MemoryLimit, format!("{what}: {limit}"));
    }
    if let Some(exit) = err.downcast_ref::<I32Exit>() {
        return Fault::new(
            FaultKind::Trap,
            format!("{what}: the agent exited (proc_exit({}))", exit.0),
        );
    }
    Fault::new(FaultKind::Trap, format!("{what}: {}", one_line(err)))
}

/// The fault of a failed call during which a `memory.grow` or `table.grow` was refused
/// (`refused`): a trap then is the agent touching what it could not get, a `memory_limit` fault
/// that says so; running out of fuel or stack, or the backstop, keep their own kinds.
pub fn classify_after_refusal(
    err: &wasmtime::Error,
    what: &str,
    fuel: FuelScope,
    refused: Option<LimitExceeded>,
) -> Fault {
    let fault = classify(err, what, fuel);
    match refused {
        Some(limit) if fault.kind == FaultKind::Trap => {
            let trap = err
                .downcast_ref::<Trap>()
                .map(|t| {
                    let text = t.to_string();
                    text.strip_prefix("wasm trap: ").unwrap_or(&text).to_owned()
                })
                .unwrap_or_else(|| one_line(err));
            Fault::new(
                FaultKind::MemoryLimit,
                format!(
                    "{what} trapped ({trap}) after {}.grow was refused: {limit}",
                    limit.what
                ),
            )
        }
        _ => fault,
    }
}

/// An error and its causes on one line.
pub fn one_line(err: &wasmtime::Error) -> String {
    let text = format!("{err:#}");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
