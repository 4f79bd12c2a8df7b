//! Engines that compile snippets with each of wasmtime's compilers, so that they can be measured
//! against each other (docs/PERFORMANCE.md, "Snippets"). Each has the sandbox's hardened
//! configuration (fuel, epochs, proposals, limits) with another compiler, a pool of instances,
//! and its own epoch ticker. Games run their snippets in the sandbox's own engine (Cranelift),
//! which the measurements chose.

use std::fmt;

use anyhow::Context;
use wasmtime::{Engine, InstanceAllocationStrategy, OptLevel, Strategy};

use super::config::{self, Allocation, Limits};

/// A compiler wasmtime offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnippetCompiler {
    /// Cranelift, optimizing for speed: the sandbox's engine.
    Cranelift,
    /// Cranelift without optimizations.
    CraneliftUnoptimized,
    /// Winch, the baseline compiler (one pass); only in an arena built with the
    /// `snippet-compilers` feature.
    Winch,
    /// Pulley, wasmtime's interpreter (its bytecode is made by Cranelift); only in an arena
    /// built with the `snippet-compilers` feature.
    Pulley,
}

impl SnippetCompiler {
    pub const ALL: [SnippetCompiler; 4] = [
        SnippetCompiler::Cranelift,
        SnippetCompiler::CraneliftUnoptimized,
        SnippetCompiler::Winch,
        SnippetCompiler::Pulley,
    ];
}

impl fmt::Display for SnippetCompiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SnippetCompiler::Cranelift => "Cranelift",
            SnippetCompiler::CraneliftUnoptimized => "Cranelift, opt-level none",
            SnippetCompiler::Winch => "Winch",
            SnippetCompiler::Pulley => "Pulley",
        })
    }
}

/// An engine compiling with `compiler`, holding `instances` instances at once; fails when this
/// arena was built without that compiler (Winch and Pulley need the `snippet-compilers`
/// feature).
pub fn snippet_engine(
    limits: &Limits,
    compiler: SnippetCompiler,
    instances: u32,
) -> anyhow::Result<Engine> {
    let mut c = config::base_config(limits);
    match compiler {
        SnippetCompiler::Cranelift => {}
        SnippetCompiler::CraneliftUnoptimized => {
            c.cranelift_opt_level(OptLevel::None);
        }
        SnippetCompiler::Winch => {
            c.strategy(Strategy::Winch);
        }
        SnippetCompiler::Pulley => {
            c.target("pulley64")?;
        }
    }
    c.allocation_strategy(InstanceAllocationStrategy::Pooling(config::pool_config(
        limits,
        Allocation::Pool,
        instances,
    )));
    let engine = Engine::new(&c)
        .map_err(anyhow::Error::from)
        .with_context(|| format!("cannot make a {compiler} engine"))?;
    // A compiler this build lacks (or a target the host cannot run) shows only when compiling.
    wasmtime::Module::new(&engine, "(module)")
        .map_err(anyhow::Error::from)
        .with_context(|| format!("cannot compile with {compiler}"))?;
    super::sandbox::start_ticker(&engine)?;
    Ok(engine)
}
