//! The arena: runs untrusted WebAssembly agents in a sandbox, plays games between them, and keeps
//! records that anyone can verify.
//!
//! Layout: `farm` drives games of Little Animal Farm over the `farm-rules` crate; `records` writes
//! and verifies game records; `sandbox` hosts agents in wasmtime; `league` schedules and ranks;
//! `serve` hosts a challenge on the web; `cli` is the `arena` command.

pub mod audit;
pub mod bench;
pub mod cli;
pub mod farkle;
pub mod farm;
pub mod fuzz_checks;
pub mod game;
pub mod games;
pub mod league;
pub mod matchup;
pub mod native;
pub mod records;
pub mod report;
pub mod sandbox;
pub mod serve;
pub mod stats;
pub mod terminal;
