//! `arena league`: run a round-robin league from a league file.

use std::path::PathBuf;

use crate::league::{output, run_league, LeagueConfig, RunOptions};
use crate::terminal;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every key of the league file is documented in README.md (section \"The league file\").\n\
Results go to the league's output folder: journal.jsonl (one line per finished game), records/ (one\n\
verifiable record per game), standings.json, standings.csv, crosstable.csv, games.csv, and report/\n\
(an HTML report with a replay viewer; `arena report DIR` rewrites it)."
)]
pub struct LeagueArgs {
    /// League file
    #[arg(long, short, default_value = "arena.toml")]
    pub config: PathBuf,
    /// Continue an interrupted league from the journal in its output folder
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard an earlier league in the output folder and start over
    #[arg(long)]
    pub fresh: bool,
    /// Worker threads (default: the league file's `threads`, else one per core)
    #[arg(long)]
    pub threads: Option<usize>,
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
    if args.threads == Some(0) {
        anyhow::bail!("--threads must be at least 1");
    }
    let opts = RunOptions {
        resume: args.resume,
        fresh: args.fresh,
        threads: args.threads,
        quiet: args.quiet,
    };
    let run = run_league(&cfg, &opts)?;
    println!(
        "{}: {} agents, {} games ({} played now)\n",
        terminal::line(&cfg.name),
        cfg.agents.len(),
        run.results.len(),
        run.played
    );
    print!("{}", terminal::block(&output::table(&run.standings)));
    let files = if run.standings.benchmark.is_some() {
        "standings.json, benchmark.csv, benchmark_turns.csv"
    } else {
        "standings.json, standings.csv, crosstable.csv"
    };
    let shown = terminal::line(&run.output.display().to_string()).into_owned();
    println!("\nresults: {shown}  (records in {shown}/records, {files})");
    // The standings are safe on disk by now; a report that cannot be written is worth a message,
    // not the loss of the run's exit status.
    match crate::report::write_report(&run.output) {
        Ok(index) => println!("report: {}", terminal::line(&index.display().to_string())),
        Err(e) => eprintln!(
            "warning: the HTML report could not be written: {}",
            terminal::block(&format!("{e:#}"))
        ),
    }
    Ok(0)
}
