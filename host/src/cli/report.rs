//! `arena report RESULTS_DIR`: (re)writes the HTML report of a league output folder.
//!
//! Exit status: 0 when the report is written; 2 when the folder is not a league output folder, is
//! in use by a running league, or a file cannot be read or written (the message names it).

use std::path::PathBuf;

use crate::league::lock::FolderLock;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "The report is a static site in RESULTS_DIR/report/: open report/index.html in a \
browser, straight from the disk (no server and no network needed). It shows the standings, the \
cross-table, game lengths, faults, the league's settings and every game, each with a replay viewer."
)]
pub struct ReportArgs {
    /// A league output folder (the one holding standings.json and journal.jsonl)
    #[arg(value_name = "RESULTS_DIR")]
    pub dir: PathBuf,
}

pub fn run(args: ReportArgs) -> anyhow::Result<i32> {
    // No league may write the folder while its report is written from it (and the other way
    // round); a folder that is not there gets write_report's message.
    let _lock = if args.dir.is_dir() {
        match FolderLock::acquire(&args.dir) {
            Ok(lock) => Some(lock),
            Err(e) => {
                eprintln!("error: {e:#}");
                return Ok(2);
            }
        }
    } else {
        None
    };
    match crate::report::write_report(&args.dir) {
        Ok(index) => {
            outln!(
                "report: {}",
                crate::terminal::line(&index.display().to_string())
            );
            Ok(0)
        }
        Err(e) => {
            eprintln!("error: {}", crate::terminal::block(&format!("{e:#}")));
            Ok(2)
        }
    }
}
