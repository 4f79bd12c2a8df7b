//! `arena check AGENT...`: loads each agent, describes it, plays a few smoke games of every game
//! it plays (each game's own, [`crate::game::Game::smoke`]) and gives a verdict; with several
//! agents, a summary at the end; with `--json`, one JSON document instead (for scripts).
//!
//! Exit status: 0 when every agent is fine (illegal trades and rejected drafts are only
//! warnings), 1 when one cannot be built or loaded or faults in a smoke game, 2 on usage errors
//! (no such file...) and when the host itself fails (it cannot set an agent up: not the agent's
//! fault).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use super::play::LimitArgs;
use crate::check::{check_module, fail};
use crate::game::{Game, SmokeOptions};
use crate::resolve::resolve_agent;
use crate::sandbox::{AgentModule, HostFailure, Sandbox};
use crate::terminal;

/// `writeln!` whose error is ignored: a closed standard output must not change the verdict (the
/// exit status says it), and a `Vec<u8>` never fails.
macro_rules! say {
    ($out:expr) => {
        let _ = writeln!($out);
    };
    ($out:expr, $($arg:tt)*) => {
        let _ = writeln!($out, $($arg)*);
    };
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The agents: .wasm (core modules or components) or .wat files, agent crate directories
    /// (built for wasm), folders made by `arena new` (built with their toolchain), or built-in
    /// agents (`builtin:greedy`)
    #[arg(value_name = "AGENT", required = true, num_args = 1..)]
    pub agents: Vec<PathBuf>,
    /// Number of smoke games (the agent changes seat every game)
    #[arg(long, default_value_t = 4)]
    pub games: u32,
    /// Round cap of the smoke games
    #[arg(long = "rounds", value_name = "CAP", default_value_t = 300)]
    pub round_cap: u32,
    /// Seed of the first smoke game (the next ones use the following seeds)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print what the agent logged in the first smoke game
    #[arg(long)]
    pub logs: bool,
    /// Print one JSON document (every agent's verdict, errors, warnings and description, and the
    /// counts) instead of the report
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

impl CheckArgs {
    /// The smoke games these arguments ask for.
    fn smoke(&self) -> SmokeOptions {
        SmokeOptions {
            games: self.games,
            seed: self.seed,
            round_cap: self.round_cap,
            logs: self.logs,
        }
    }
}

pub fn run(args: CheckArgs) -> anyhow::Result<i32> {
    // Every file is there before any is checked: a mistyped name is a usage error, at once.
    crate::resolve::check_agents_exist(&args.agents, |_| false)?;
    anyhow::ensure!(args.round_cap > 0, "--rounds must be at least 1");
    let limits = args.limits.limits();
    let sandbox = Sandbox::new(crate::games::registry().agents(), limits)?;
    let (mut stdout, mut sink) = (std::io::stdout(), std::io::sink());
    let out: &mut dyn Write = if args.json { &mut sink } else { &mut stdout };
    let mut verdicts = Vec::new();
    for (i, agent) in args.agents.iter().enumerate() {
        if i > 0 {
            say!(out);
        }
        verdicts.push(check_file(agent, &sandbox, &args, out)?);
    }
    let failed = verdicts.iter().filter(|v| !v.errors.is_empty()).count();
    if args.json {
        let doc = serde_json::json!({
            "agents": verdicts.iter().map(Verdict::json).collect::<Vec<_>>(),
            "checked": verdicts.len(),
            "passed": verdicts.len() - failed,
            "failed": failed,
        });
        super::to_stdout(|| {
            let mut w = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut w, &doc)?;
            writeln!(w)?;
            Ok(())
        })?;
    } else if verdicts.len() > 1 {
        say!(out, "\n{}", summary(&verdicts));
    }
    Ok(if failed == 0 { 0 } else { 1 })
}

/// What `arena check` found about one agent.
struct Verdict {
    path: PathBuf,
    /// None when it could not be built or loaded.
    module: Option<AgentModule>,
    errors: Vec<String>,
    warnings: BTreeMap<String, u32>,
}

impl Verdict {
    fn json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "agent": self.path.display().to_string(),
            "ok": self.errors.is_empty(),
            "errors": self.errors,
            "warnings": self.warnings,
        });
        if let Some(m) = &self.module {
            v["name"] = m.name().into();
            v["sha256"] = m.sha256().into();
            v["size"] = m.size().into();
            // Only a core module of the byte ABI has a version.
            v["abi_version"] = if m.is_component() || m.snippet().is_some() {
                serde_json::Value::Null
            } else {
                m.abi_version().into()
            };
            v["games"] = m
                .games()
                .iter()
                .map(|g| crate::games::registry().of_agent(g).name())
                .collect();
        }
        v
    }
}

/// The last lines of a check of several agents: the counts, and each failed agent with its
/// first error.
fn summary(verdicts: &[Verdict]) -> String {
    let failed: Vec<&Verdict> = verdicts.iter().filter(|v| !v.errors.is_empty()).collect();
    let mut text = format!(
        "{} agents checked: {} passed, {} failed",
        verdicts.len(),
        verdicts.len() - failed.len(),
        failed.len()
    );
    for v in failed {
        let first = v.errors[0].lines().next().unwrap_or_default();
        text.push_str(&format!(
            "\n  FAIL {}: {}",
            terminal::line(&v.path.display().to_string()),
            terminal::line(first)
        ));
    }
    text
}

/// Checks the agent at `path`, reporting to `out`.
fn check_file(
    path: &std::path::Path,
    sandbox: &Sandbox,
    args: &CheckArgs,
    out: &mut dyn Write,
) -> anyhow::Result<Verdict> {
    say!(
        out,
        "checking {}",
        terminal::line(&path.display().to_string())
    );
    let failed = |error: String, out: &mut dyn Write| {
        let errors = vec![error];
        fail(&errors, out);
        Verdict {
            path: path.to_path_buf(),
            module: None,
            errors,
            warnings: BTreeMap::new(),
        }
    };
    let wasm = match resolve_agent(path) {
        Ok(w) => w,
        Err(e) => return Ok(failed(format!("cannot build the agent: {e:#}"), out)),
    };
    let started = Instant::now();
    let module = match crate::activity::load(sandbox, &wasm) {
        Ok(m) => m,
        // The host's own failure is no verdict on the agent: an error, exit status 2.
        Err(e) if HostFailure::find(&e).is_some() => return Err(e),
        Err(e) => return Ok(failed(format!("cannot load the agent: {e:#}"), out)),
    };
    let games: Vec<&'static dyn Game> = module
        .games()
        .iter()
        .map(|g| crate::games::registry().of_agent(g))
        .collect();
    let (errors, warnings) = check_module(&module, started.elapsed(), &games, &args.smoke(), out)?;
    Ok(Verdict {
        path: path.to_path_buf(),
        module: Some(module),
        errors,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::check::{by_package, describe};

    const GOOD: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "farm_trade") (param i32) (result i32) i32.const 0)
  (func (export "farm_accept") (param i32) (result i32) i32.const 1))"#;

    fn check(name: &str, content: &str) -> anyhow::Result<i32> {
        check_with(name, content, 50, false)
    }

    /// `arena check` of the agent `content` written as `name` (each test its own name), on two
    /// smoke games of `round_cap` rounds with small fuel budgets.
    fn check_with(name: &str, content: &str, round_cap: u32, logs: bool) -> anyhow::Result<i32> {
        let dir = std::env::temp_dir().join(format!("arena-check-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        run(CheckArgs {
            agents: vec![path],
            games: 2,
            round_cap,
            seed: 1,
            logs,
            json: false,
            limits: LimitArgs {
                fuel_per_decision: Some(200_000),
                fuel_per_game: Some(5_000_000),
                ..LimitArgs::default()
            },
        })
    }

    #[test]
    fn component_imports_are_grouped_by_package() {
        let names = [
            "wasi:io/poll@0.2.9",
            "wasi:clocks/wall-clock@0.2.9",
            "wasi:io/error@0.2.9",
            "arena:games/host@1.0.0",
            "odd",
        ];
        let groups = by_package(names.into_iter());
        assert_eq!(
            groups,
            [
                ("wasi:io@0.2.9".to_owned(), vec!["poll", "error"]),
                ("wasi:clocks@0.2.9".to_owned(), vec!["wall-clock"]),
                ("arena:games@1.0.0".to_owned(), vec!["host"]),
                ("odd".to_owned(), vec![""]),
            ]
        );
    }

    #[test]
    fn check_accepts_a_good_agent_and_refuses_bad_ones() {
        assert_eq!(check("good.wat", GOOD).unwrap(), 0);
        let looping = GOOD.replace(
            "(param i32) (result i32) i32.const 0)",
            "(param i32) (result i32) (loop $l br $l) i32.const 0)",
        );
        assert_eq!(check("loop.wat", &looping).unwrap(), 1);
        assert_eq!(check("notwasm.wasm", "hello").unwrap(), 1);
        let v2 = GOOD.replace(
            "(result i32) i32.const 1)\n  (func (export \"arena_buffer\")",
            "(result i32) i32.const 2)\n  (func (export \"arena_buffer\")",
        );
        assert_eq!(check("v2.wat", &v2).unwrap(), 1);
        let missing = std::env::temp_dir().join("arena-check-no-such-agent.wasm");
        assert!(run(CheckArgs {
            agents: vec![missing],
            games: 1,
            round_cap: 10,
            seed: 1,
            logs: false,
            json: false,
            limits: LimitArgs::default(),
        })
        .is_err());
    }

    #[test]
    fn a_code_war_agent_is_described_with_its_signatures_and_no_abi_version() {
        let sandbox = Sandbox::new(
            crate::games::registry().agents(),
            crate::sandbox::Limits::default(),
        )
        .unwrap();
        let spy = include_str!("../../../example-agents/wat/codewar-spy.wat");
        let module = sandbox.load_bytes("spy", spy.as_bytes()).unwrap();
        let mut out = Vec::new();
        describe(&module, Duration::ZERO, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "kind:        WebAssembly core module, a code war agent (run by its game, with no ABI version)"
            ),
            "{text}"
        );
        assert!(!text.contains("ABI version:"), "{text}");
        assert!(
            text.contains("(validate; compiled when its game runs it)"),
            "{text}"
        );
        assert!(text.contains("    codewar_run: func() -> i64\n"), "{text}");
        assert!(
            text.contains("    codewar::owner: func() -> i32\n"),
            "{text}"
        );
        assert!(
            text.contains("    codewar::set_facade: func(i32) -> i32\n"),
            "{text}"
        );
        let verdict = Verdict {
            path: "spy.wat".into(),
            module: Some(module),
            errors: Vec::new(),
            warnings: BTreeMap::new(),
        };
        assert_eq!(verdict.json()["abi_version"], serde_json::Value::Null);
    }

    /// The WAT Farkle agent of `arena new --game farkle --lang wat`.
    const BANKER: &str = include_str!("../games/farkle/templates/wat/farkle.wat");

    fn check_farkle(name: &str, content: &str) -> i32 {
        check_with(name, content, 100, true).unwrap()
    }

    #[test]
    fn check_passes_a_farkle_agent_warns_on_rejections_and_fails_on_faults() {
        assert_eq!(check_farkle("banker.wat", BANKER), 0);
        // Drafting nothing is rejected every turn: warnings, not a failure.
        let empty = BANKER.replace(
            "(i32.store (i32.const 4) (local.get $k))",
            "(local.set $k (i32.const 0)) (i32.store (i32.const 4) (local.get $k))",
        );
        assert_ne!(empty, BANKER);
        assert_eq!(check_farkle("empty.wat", &empty), 0);
        // An unreadable answer is a fault.
        let short = BANKER.replace(
            "(i32.add (i32.const 8) (i32.shl (local.get $k) (i32.const 2))))\n)",
            "(i32.const 4))\n)",
        );
        assert_ne!(short, BANKER);
        assert_eq!(check_farkle("short.wat", &short), 1);
    }
}
