//! From wasmtime's errors to the game's faults, and the resource limiter whose refusals become
//! `memory_limit` faults.

use std::fmt;

use wasmtime::{ResourceLimiter, Trap};
use wasmtime_wasi::I32Exit;

use crate::farm::{Fault, FaultKind};

/// The error the limiter raises (as a trap) when a memory or table would outgrow its limit.
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

/// Per-store limits: one instance, one memory, a few tables, and sizes from `Limits`. Growing
/// past a limit traps (instead of `memory.grow` returning -1) so that the fault is clear.
#[derive(Debug, Clone)]
pub struct Limiter {
    pub memory_bytes: usize,
    pub table_elements: usize,
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_bytes {
            return Err(wasmtime::Error::new(LimitExceeded {
                what: "memory",
                desired,
                limit: self.memory_bytes,
            }));
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.table_elements {
            return Err(wasmtime::Error::new(LimitExceeded {
                what: "table",
                desired,
                limit: self.table_elements,
            }));
        }
        Ok(true)
    }

    fn instances(&self) -> usize {
        1
    }

    fn tables(&self) -> usize {
        4
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
}

/// The fault for a failed call. `what` names the call for the detail ("farm_trade", "arena_init").
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
            },
            Trap::Interrupt => Fault::new(
                FaultKind::Timeout,
                format!("{what} ran past the wall-clock deadline"),
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

/// An error and its causes on one line.
pub fn one_line(err: &wasmtime::Error) -> String {
    let text = format!("{err:#}");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
