//! The `arena` command: one module per subcommand.

use clap::{Parser, Subcommand};

/// `print!` for the commands' output: a standard output closed early (`arena verify … | head`) is
/// no reason to panic or to stop. The command finishes what it does (a league still writes its
/// files and report) and its exit status still says how that went; only the lines nobody reads
/// are lost.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

/// `println!` the way [`out!`] does `print!`.
macro_rules! outln {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout());
    }};
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub mod agents;
pub mod bench;
pub mod check;
pub mod league;
pub mod match_command;
pub mod new;
pub mod perft;
pub mod play;
pub mod report;
pub mod serve;
pub mod submit;
pub mod verify;
pub mod worker;

#[derive(Parser, Debug)]
#[command(
    name = "arena",
    version,
    about = "Run programming contests between untrusted WebAssembly bots",
    long_about = "Run programming contests between untrusted WebAssembly bots.\n\n\
        Agents are core WebAssembly modules (see docs/ABI.md) or components of a world of the WIT \
        package arena:games (docs/COMPONENTS.md: Python, JavaScript, Rust), run in a wasmtime \
        sandbox with fuel, memory and stack budgets; an agent plays the games whose decision \
        functions it exports (`arena play --help` lists the games). Games are recorded as JSON \
        Lines that `arena verify` re-checks."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game between agents and narrate it turn by turn; the word `human` in a seat is
    /// you at the terminal, for a game people can play
    Play(play::PlayArgs),
    /// Load an agent, report its exports, imports, size and ABI version (a component: its world
    /// and load time) and fuel per decision, and play smoke games of every game it plays
    Check(check::CheckArgs),
    /// Replay game records (files or folders, of any game) and check every event against the
    /// rules; with --league, check a published league as a whole
    Verify(verify::VerifyArgs),
    /// Run a round-robin league from a league file (arena.toml by default)
    League(league::LeagueArgs),
    /// Is a new version of an agent better than the old one? Paired games on shared seeds, the
    /// Elo difference (or turns saved) with its interval, and an optional SPRT that stops early
    Match(match_command::MatchArgs),
    /// List the built-in agents (the example agents of every game, built into the arena), which
    /// `builtin:NAME` names wherever an agent is expected
    Agents(agents::AgentsArgs),
    /// Create a ready-to-build agent of a game in a new folder, in one of the languages of the
    /// game's templates (`arena new --help` lists them)
    New(new::NewArgs),
    /// Count the move sequences of a position to a depth (perft), with the time and the speed,
    /// for a game of positions and moves
    Perft(perft::PerftArgs),
    /// Measure the performance figures of docs/PERFORMANCE.md (per-decision overhead, wasm vs
    /// native vs process-per-agent leagues, threads, start-up, memory; component agents with
    /// --components)
    Bench(bench::BenchArgs),
    /// Write the league's HTML report and replay viewer into RESULTS_DIR/report/
    Report(report::ReportArgs),
    /// Host a challenge on the web: uploads checked at once, a live ladder, replays, and a final
    /// round-robin at the deadline (`arena serve admin ...` for the host's commands)
    Serve(serve::ServeArgs),
    /// Upload an agent to an `arena serve` server and print the verdict
    Submit(submit::SubmitArgs),
    /// Play ladder and league games from a shared PostgreSQL database (`arena serve --database`,
    /// `arena league --database`), on any machine that reaches it
    Worker(worker::WorkerArgs),
}

/// True when `result` failed only because standard output was closed (the reader of a pipe went
/// away): see [`out!`].
pub fn stdout_closed(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes with `write` to standard output; a closed standard output is not an error.
pub fn to_stdout(write: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<()> {
    match write() {
        Err(e) if !stdout_closed(&e) => Err(e),
        _ => Ok(()),
    }
}

/// Runs the command; the returned code is the process exit status.
pub fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Play(args) => play::run(args),
        Command::Check(args) => check::run(args),
        Command::Verify(args) => verify::run(args),
        Command::League(args) => league::run(args),
        Command::Match(args) => match_command::run(args),
        Command::Agents(args) => agents::run(args),
        Command::New(args) => new::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run_cmd(args),
        Command::Report(args) => report::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Submit(args) => submit::run(args),
        Command::Worker(args) => worker::run(args),
    }
}
