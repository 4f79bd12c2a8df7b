//! `arena league`: run a round-robin league from a league file.

use std::path::PathBuf;

use crate::distributed::league::{DatabaseExecutor, Distributed};
use crate::jobs::db::without_password;
use crate::league::interrupt::Interrupted;
use crate::league::result::GameResult;
use crate::league::{output, run_league, run_league_on, LeagueConfig, RunOptions};
use crate::terminal;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every key of the league file is documented in README.md (section \"The league file\").\n\
Results go to the league's output folder: journal.jsonl (one line per finished game), records/ (one\n\
verifiable record per game), standings.json, standings.csv, crosstable.csv, games.csv, and report/\n\
(an HTML report with a replay viewer; `arena report DIR` rewrites it). One run at a time works in an\n\
output folder: a second one is refused, naming the first."
)]
pub struct LeagueArgs {
    /// League file
    #[arg(long, short, default_value = "arena.toml")]
    pub config: PathBuf,
    /// Continue an interrupted league from the journal in its output folder (a league that never
    /// began starts from the beginning)
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// With --resume: the league file has new agents since the league began; keep every game
    /// played and play only the new agents' games (the result is the league a fresh run of the
    /// grown file gives)
    #[arg(long, requires = "resume")]
    pub extend: bool,
    /// Discard an earlier league in the output folder and start over
    #[arg(long)]
    pub fresh: bool,
    /// Worker threads (default: the league file's `threads`, else one per core); with
    /// --database, threads of this process that play besides the workers (default 0)
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play the games on workers through this PostgreSQL database (postgres://USER@HOST/DB):
    /// the games are enqueued there and this command waits while `arena worker` processes, on
    /// any machine, play them; the output folder is the same as a local league's
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// Output folder (default: the league file's `output`)
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// No progress output
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: LeagueArgs) -> anyhow::Result<i32> {
    let mut cfg = LeagueConfig::load(&args.config)?;
    if let Some(out) = args.output {
        cfg.output = out;
    }
    if args.threads == Some(0) && args.database.is_none() {
        anyhow::bail!("--threads must be at least 1");
    }
    let opts = RunOptions {
        resume: args.resume,
        extend: args.extend,
        fresh: args.fresh,
        threads: args.threads,
        quiet: args.quiet,
    };
    crate::league::interrupt::install()?;
    let ran = match &args.database {
        None => run_league(&cfg, &opts),
        // The same league, its games played by workers through the database.
        Some(url) => DatabaseExecutor::new(Distributed {
            url: url.clone(),
            local_threads: args.threads.unwrap_or(0),
            lease: crate::distributed::worker::DEFAULT_LEASE,
        })
        .and_then(|mut database| run_league_on(&cfg, &opts, None, &mut database)),
    };
    let run = match ran {
        Ok(run) => run,
        Err(e) => match e.downcast_ref::<Interrupted>() {
            Some(i) => {
                let database = match &args.database {
                    // The workers go on meanwhile: the next run collects what they played.
                    Some(url) => format!(" --database {}", without_password(url)),
                    None => String::new(),
                };
                eprintln!(
                    "\n{}",
                    terminal::line(&format!(
                        "interrupted after {} of {} games (kept in {}); `arena league --config {}{database} \
                         --resume` continues",
                        i.done,
                        i.total,
                        i.output,
                        args.config.display()
                    ))
                );
                // 128 + SIGINT, as a shell reports a command stopped by Ctrl-C.
                return Ok(130);
            }
            None => return Err(e),
        },
    };
    outln!(
        "{}: {} agents, {} games ({} played now)\n",
        terminal::line(&cfg.name),
        cfg.agents.len(),
        run.results.len(),
        run.played
    );
    out!("{}", terminal::block(&output::table(&run.standings)));
    let files = if run.standings.benchmark.is_some() {
        "standings.json, benchmark.csv, benchmark_turns.csv"
    } else {
        "standings.json, standings.csv, crosstable.csv"
    };
    let shown = terminal::line(&run.output.display().to_string()).into_owned();
    outln!("\nresults: {shown}  (records in {shown}/records, {files})");
    // The standings are safe on disk by now; a report that cannot be written is worth a message,
    // not the loss of the run's exit status.
    match crate::report::write_report(&run.output) {
        Ok(index) => outln!("report: {}", terminal::line(&index.display().to_string())),
        Err(e) => eprintln!(
            "warning: the HTML report could not be written: {}",
            terminal::block(&format!("{e:#}"))
        ),
    }
    if let Some(warning) = machine_dependent_warning(&run.results) {
        eprintln!("{warning}");
    }
    Ok(0)
}

/// The warning for games with a `timeout` fault, last thing on the terminal: the wall-clock
/// backstop fired, so those games went as they did because of this machine's speed and load.
fn machine_dependent_warning(results: &[GameResult]) -> Option<String> {
    let ids: Vec<String> = results
        .iter()
        .filter(|r| r.machine_dependent())
        .map(|r| r.id.to_string())
        .collect();
    if ids.is_empty() {
        return None;
    }
    let shown = if ids.len() > 20 {
        format!("{}, …", ids[..20].join(", "))
    } else {
        ids.join(", ")
    };
    Some(format!(
        "\nWARNING: {} game(s) had a `timeout` fault (the wall-clock backstop, games {shown}): how they \
         went depends on this machine's speed and load, so these results may not be reproduced on \
         another machine or another run. standings.json counts them in `machine_dependent_games`. \
         Fuel, not the clock, is meant to be the limit: look at what those agents did, and at the \
         machine's load.",
        ids.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{FaultNote, Outcome};

    fn game(id: usize, fault: Option<&str>) -> GameResult {
        GameResult {
            id,
            key: format!("a,b#{id}"),
            seed: 1,
            seats: vec!["a".into(), "b".into()],
            outcome: Outcome::Draw { round_cap: true },
            rounds: 300,
            turns: 600,
            forfeits: vec![],
            faults: fault
                .map(|kind| FaultNote {
                    seat: 0,
                    decision: "trade".into(),
                    kind: kind.into(),
                    detail: String::new(),
                })
                .into_iter()
                .collect(),
            scores: None,
            record: String::new(),
        }
    }

    #[test]
    fn the_end_of_a_league_warns_of_the_games_the_clock_decided() {
        assert_eq!(
            machine_dependent_warning(&[game(0, None), game(1, Some("trap"))]),
            None
        );
        let w = machine_dependent_warning(&[
            game(0, None),
            game(4, Some("timeout")),
            game(7, Some("timeout")),
        ])
        .unwrap();
        assert!(
            w.contains("WARNING: 2 game(s) had a `timeout` fault")
                && w.contains("games 4, 7)")
                && w.contains("may not be reproduced"),
            "{w}"
        );
        let many: Vec<GameResult> = (0..25).map(|i| game(i, Some("timeout"))).collect();
        let w = machine_dependent_warning(&many).unwrap();
        assert!(w.contains("25 game(s)") && w.contains("18, 19, …"), "{w}");
    }
}
