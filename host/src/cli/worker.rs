//! `arena worker`: plays ladder and league games from a shared PostgreSQL database, on any
//! machine that reaches it (see `crate::distributed`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::distributed::worker::{self, Options};
use crate::jobs::db::without_password;
use crate::terminal;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "The worker needs to reach the database only (no other network, no file \
of the server): it fetches the agents' bytes from it, compiles them into its own module cache \
(ARENA_CACHE_DIR), and writes results and records back. It refuses a database set up by an arena \
built from other sources. Ctrl-C or SIGTERM stops it after the games it is playing; the games it had taken \
and not played go back to the queue. A worker killed outright loses nothing: its games are \
played again once their leases run out (--lease); started again under the same --name, it plays on \
at once. It holds at most three batches of games (about 1.5 s of play) and one per thread: when the \
database writes results slower than it plays, it waits. Keep passwords out of the URL with \
PGPASSWORD or ~/.pgpass. Deployment: docs/SERVER.md, \"Many machines\"."
)]
pub struct WorkerArgs {
    /// The database of `arena serve --database` or `arena league --database`:
    /// postgres://USER@HOST:PORT/DATABASE
    #[arg(long, env = "ARENA_DATABASE", value_name = "URL")]
    pub database: String,
    /// Threads playing games (default: one per core)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seconds a lease on a game lasts unless renewed (every quarter of it): a dead worker's games
    /// are played again after this long
    #[arg(long, default_value_t = 60, value_name = "SECONDS")]
    pub lease: u64,
    /// Stop once no game is scheduled or being played anywhere in the database (a batch job)
    #[arg(long)]
    pub drain: bool,
    /// The worker's name in the database's register of workers (default: worker:HOST:PID): one
    /// fixed name per machine, e.g. its host name; its leases name the process (NAME#PID-RANDOM)
    #[arg(long)]
    pub name: Option<String>,
    /// No summary line at the end
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: WorkerArgs) -> anyhow::Result<i32> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    if args.lease == 0 {
        anyhow::bail!("--lease must be at least 1 second");
    }
    crate::jobs::db::check_shared_url(&args.database)?;
    let stop = catch_stop_signals()?;
    let opts = Options {
        threads,
        lease: Duration::from_secs(args.lease),
        drain: args.drain,
        owner: args.name.clone(),
    };
    if !args.quiet {
        eprintln!(
            "arena worker: playing the games of {} on {threads} thread(s)",
            terminal::line(&without_password(&args.database))
        );
    }
    let summary = worker::run(&args.database, &opts, &stop)?;
    if !args.quiet {
        outln!("{}", terminal::line(&summary.line()));
    }
    Ok(0)
}

/// SIGINT and SIGTERM ask the worker to stop after its games (the flag returned); a second one
/// ends it at once (the signal's default action).
fn catch_stop_signals() -> anyhow::Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // The default action first: it runs only once the flag is set, i.e. on the second signal.
        signal_hook::flag::register_conditional_default(sig, Arc::clone(&stop))
            .and_then(|_| signal_hook::flag::register(sig, Arc::clone(&stop)))
            .map_err(|e| anyhow::anyhow!("cannot catch signal {sig}: {e}"))?;
    }
    Ok(stop)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::sync::atomic::Ordering;

    /// Set in the child process that receives the signals (a signal to the test process itself
    /// would end every test).
    const CHILD: &str = "ARENA_WORKER_SIGNAL_TEST_CHILD";

    #[test]
    fn sigterm_asks_the_worker_to_stop_and_a_second_signal_ends_it() {
        if std::env::var_os(CHILD).is_some() {
            let stop = catch_stop_signals().unwrap();
            assert!(!stop.load(Ordering::SeqCst));
            signal_hook::low_level::raise(SIGTERM).unwrap();
            assert!(stop.load(Ordering::SeqCst), "SIGTERM is caught");
            println!("caught SIGTERM");
            signal_hook::low_level::raise(SIGINT).unwrap();
            println!("lived through Ctrl-C");
            std::process::exit(0);
        }
        let name =
            "cli::worker::tests::sigterm_asks_the_worker_to_stop_and_a_second_signal_ends_it";
        crate::testing::assert_second_signal_ends_child(name, CHILD, "caught SIGTERM", SIGINT);
    }
}
