//! `arena verify RECORD...`: replays each record and checks it line by line.
//!
//! Exit status: 0 when every record is consistent, 1 when any is not, 2 when a file cannot be
//! read (usage errors are reported by clap, also with 2).

use std::path::PathBuf;

use crate::records::verify_reader;

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
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: cannot read {shown}: {e}");
                status = 2;
                continue;
            }
        };
        match verify_reader(file) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(name)
    }

    fn status(paths: Vec<PathBuf>) -> i32 {
        run(VerifyArgs {
            records: paths,
            quiet: true,
        })
        .unwrap()
    }

    #[test]
    fn exit_status_says_consistent_inconsistent_or_unreadable() {
        let good = fixture("stock_runs_short.jsonl");
        assert_eq!(status(vec![good.clone()]), 0);

        let bad = std::env::temp_dir().join(format!("arena-verify-{}.jsonl", std::process::id()));
        let text = std::fs::read_to_string(&good).unwrap();
        std::fs::write(&bad, text.replace("\"sheep\": 6", "\"sheep\": 7")).unwrap();
        assert_eq!(status(vec![good.clone(), bad.clone()]), 1);
        std::fs::remove_file(&bad).unwrap();

        assert_eq!(status(vec![good, fixture("no-such-record.jsonl")]), 2);
    }
}
