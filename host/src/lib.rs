//! The arena: runs untrusted WebAssembly agents in a sandbox, plays games between them, and keeps
//! records that anyone can verify.
//!
//! Layout, from the bottom up: `sandbox` (the `arena-sandbox` crate) hosts agents in wasmtime and
//! knows no game; `game` (the `arena-game` crate) is the game interface (the rules as a state
//! machine), the game loop, the players and the records (`records`), written once for every game;
//! `games` holds each game in its own folder and the registry, the one place outside a game's
//! folder that names it; `project` is an agent's project folder (`arena new`'s templates, its
//! language and sources, building it), `resolve` turns what a command names into a module,
//! `builtin` holds the example agents built into the binary, `check` is what a check tells of an
//! agent, `activity` shows long steps on a terminal; `league` schedules, plays and ranks;
//! `report` writes the HTML report; `matchup` plays `arena match`; `audit` checks a published
//! league; `referee` checks an upload and plays one game of a challenge's rules; `jobs` is the
//! database (SQLite or PostgreSQL) and its queues of leased games; `serve` hosts a challenge on
//! the web; `distributed` spreads ladder and league games over workers on many machines through
//! the database; `bench` measures the arena; `stats` holds the ratings' statistics; `utc` writes
//! times as people read them; `cli` is the
//! `arena` command, at the top. None of them names a game.

pub mod activity;
pub mod audit;
pub mod bench;
pub mod builtin;
pub mod check;
pub mod cli;
pub mod distributed;
pub mod games;
pub mod jobs;
pub mod league;
pub mod matchup;
pub mod project;
pub mod referee;
pub mod report;
pub mod resolve;
pub mod serve;
pub mod stats;
pub mod utc;

#[cfg(test)]
mod testing;
pub use arena_game::terminal;

/// The sandbox (the `arena-sandbox` crate).
pub use arena_sandbox as sandbox;

/// The games' interface, the game loop, the players and the records (the `arena-game` crate).
pub use arena_game as game;

/// Game records, whatever the game (the `arena-game` crate's).
pub use arena_game::record as records;
