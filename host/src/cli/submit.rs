//! `arena submit --server URL --token TOKEN AGENT`: uploads an agent to an `arena serve` server
//! and prints the verdict.
//!
//! Exit status: 0 accepted, 1 refused (by the check, or not taken: submissions closed, too many
//! uploads, too large), 2 usage or connection error (no such file, wrong token, server
//! unreachable).

use std::path::PathBuf;

use crate::serve::submit::{submit, Answer};

#[derive(clap::Args, Debug)]
pub struct SubmitArgs {
    /// The server's address, e.g. https://arena.example.org
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// Your token (the host gave it to you); or set ARENA_TOKEN
    #[arg(long, env = "ARENA_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The agent: a .wasm or .wat file
    #[arg(value_name = "AGENT")]
    pub agent: PathBuf,
    /// Print only the verdict, not the check's report
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: SubmitArgs) -> anyhow::Result<i32> {
    let bytes = std::fs::read(&args.agent)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.agent.display()))?;
    match submit(&args.server, &args.token, &bytes)? {
        Answer::Accepted { version, report } => {
            if !args.quiet {
                out!("{report}");
            }
            outln!("accepted: version {version} plays from now on");
            Ok(0)
        }
        Answer::Refused { reason, report } => {
            if let (false, Some(r)) = (args.quiet, report) {
                out!("{r}");
            }
            outln!("refused: {reason}");
            Ok(1)
        }
        Answer::Unauthorized(why) => {
            eprintln!("error: the server does not accept this token: {why}");
            Ok(2)
        }
    }
}
