//! `arena verify RECORD...`: replays each record and checks it line by line.
//!
//! Exit status: 0 when every record is consistent, 1 when any is not, 2 when a file cannot be
//! read (usage errors are reported by clap, also with 2).

use std::path::PathBuf;

use crate::records::{load_record_bytes, verify_record_bytes};

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Record files (JSON Lines, optionally gzip-compressed)
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
    /// Print only the records that fail
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<i32> {
    let mut status = 0;
    for path in &args.records {
        let shown = path.display();
        let bytes = match load_record_bytes(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: cannot read {shown}: {e}");
                status = 2;
                continue;
            }
        };
        match verify_record_bytes(&bytes) {
            Ok(summary) => {
                if !args.quiet {
                    println!("ok  {shown}  ({})", summary.describe());
                }
            }
            Err(e) => {
                if e.line == 0 {
                    println!("FAIL {shown}: {}", e.message);
                } else {
                    println!("FAIL {shown}:{}: {}", e.line, e.message);
                }
                status = status.max(1);
            }
        }
    }
    Ok(status)
}
