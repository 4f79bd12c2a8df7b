//! `arena submit --server URL --token TOKEN AGENT`: uploads an agent to an `arena serve` server
//! and prints the verdict. The agent is named as `check` and `play` take it: a `.wasm` or `.wat`
//! file and a built-in agent are sent as modules; a Python (`.py`) or JavaScript (`.js`) source
//! file, or a Python or JavaScript folder made by `arena new`, is sent as sources for the server
//! to build (a server builds them when it has the language's toolchain); an agent crate or a
//! folder made by `arena new` in another language is built here, and its module sent.
//!
//! Exit status: 0 accepted, 1 refused (by the check, or not taken: submissions closed, too many
//! uploads, too large, sources the server cannot build), 2 usage or connection error (no such
//! file, wrong token, server unreachable).

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::project::sources::{sources, Sources};
use crate::serve::submit::{submit, Answer, Upload};

#[derive(clap::Args, Debug)]
pub struct SubmitArgs {
    /// The server's address: https://arena.example.org, or HOST:PORT for plain HTTP
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// Your token (the host gave it to you); or set ARENA_TOKEN
    #[arg(long, env = "ARENA_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The agent: a .wasm or .wat file, a Python (.py) or JavaScript (.js) source file, a folder
    /// made by `arena new` (Python and JavaScript folders are sent as sources, others built
    /// here), an agent crate (built here), or a built-in agent (builtin:greedy)
    #[arg(value_name = "AGENT")]
    pub agent: PathBuf,
    /// Print only the verdict, not the check's report
    #[arg(long, short)]
    pub quiet: bool,
}

/// What `arena submit` sends for the agent named `path`.
#[derive(Debug)]
pub enum Payload {
    Module(Vec<u8>),
    Sources(Sources),
}

/// The payload for `path`, built first where the server takes a module (an agent crate, a
/// folder of a language the server does not build).
pub fn payload(path: &Path) -> anyhow::Result<Payload> {
    crate::resolve::check_agents_exist([&path.to_path_buf()], |_| false)?;
    if crate::builtin::name_of(path).is_none() {
        if let Some(sources) = sources(path)? {
            return Ok(Payload::Sources(sources));
        }
    }
    let module = crate::resolve::resolve_agent(path)?;
    let bytes =
        std::fs::read(&module).with_context(|| format!("cannot read {}", module.display()))?;
    Ok(Payload::Module(bytes))
}

pub fn run(args: SubmitArgs) -> anyhow::Result<i32> {
    let payload = payload(&args.agent)?;
    let upload = match &payload {
        Payload::Module(bytes) => Upload::Module(bytes),
        Payload::Sources(sources) => Upload::Sources(sources),
    };
    match submit(&args.server, &args.token, upload)? {
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
