//! The referee: a game's rules and the sandbox, which checks an upload as `arena check` does
//! ([`Engine::check`]), loads agents that passed ([`Engine::load`]) and plays one game into its
//! record and result ([`Engine::play`]). `arena serve` checks and plays through it, and so do the
//! workers (`arena worker`) that play ladder and league games on other machines; the rules travel
//! between them in the database as JSON ([`Rules`]). Records are kept as the league keeps them
//! ([`stored_record`], [`record_text`]).

use std::io::Write;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Instant;

use anyhow::anyhow;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::check_loaded;
use crate::game::{GameSettings, Host, Seat, SmokeOptions, Table};
use crate::league;
use crate::records::RecordMeta;
use crate::sandbox::{AgentModule, HostFailure, Sandbox};

pub use crate::game::{FaultPolicy, Game};
pub use crate::league::config::Budgets;
pub use crate::league::result::GameResult;
/// Runs `f` on a thread with [`WORKER_STACK_BYTES`] of stack, as [`Engine::play`] needs.
pub use crate::sandbox::run_with_big_stack;
pub use crate::sandbox::{Limits, DEFAULT_COMPILE_CPU_MS, WORKER_STACK_BYTES};

/// Whether `e` is the host's own failure (see [`HostFailure`]) rather than an agent's doing.
pub fn is_host_failure(e: &anyhow::Error) -> bool {
    HostFailure::find(e).is_some()
}

/// A game by its name in challenge files (an error lists the games there are).
pub fn parse_game(name: &str) -> Result<&'static dyn Game, String> {
    crate::games::parse(name)
}

/// How many players a table of `game` may have.
pub fn seats(game: &dyn Game) -> RangeInclusive<usize> {
    game.seats()
}

/// Refuses budgets that cannot work, naming the key (as league files do).
pub fn check_budgets(b: &Budgets) -> anyhow::Result<()> {
    league::config::check_budgets(b)
}

/// The sandbox limits the budgets ask for.
pub fn limits(b: &Budgets) -> Limits {
    league::agents::limits(b)
}

/// The game a challenge (or a league) plays and how. Kept in the database as JSON for workers
/// on other machines (`arena worker`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    #[serde(with = "crate::games::serde_name")]
    pub game: &'static dyn Game,
    /// The game's own settings (the challenge file's table named after the game).
    #[serde(default)]
    pub settings: GameSettings,
    pub players: usize,
    pub round_cap: u32,
    pub policy: FaultPolicy,
    pub budgets: Budgets,
}

/// What the upload check concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub accepted: bool,
    /// The first error, when refused.
    pub reason: Option<String>,
    /// What `arena check` prints for this agent.
    pub report: String,
    /// SHA-256 of the WebAssembly module (of the binary, for an upload in text form); `None` when
    /// it could not be read.
    pub module_sha256: Option<String>,
}

/// A loaded agent, ready to take seats.
#[derive(Clone)]
pub struct Agent(AgentModule);

impl Agent {
    pub fn sha256(&self) -> &str {
        self.0.sha256()
    }
}

/// A played game: its record (JSON Lines, docs/RECORDS.md) and what the standings keep of it.
pub struct Played {
    pub record: Vec<u8>,
    pub result: GameResult,
}

/// The sandbox and the challenge's rules.
#[derive(Clone)]
pub struct Engine {
    sandbox: Sandbox,
    rules: Rules,
    limits_json: Arc<Value>,
    settings: Arc<GameSettings>,
}

impl Engine {
    /// A sandbox with the rules' budgets, compiling as the `arena` command does (in a bounded
    /// child process, with the module cache).
    pub fn new(rules: Rules) -> anyhow::Result<Engine> {
        let limits = limits(&rules.budgets);
        let limits_json = Arc::new(serde_json::to_value(&limits)?);
        Ok(Engine {
            sandbox: Sandbox::new(crate::games::registry().agents(), limits)?,
            settings: Arc::new(rules.settings.clone()),
            rules,
            limits_json,
        })
    }

    /// The same, whose compiles (of uploads, and of agents the ladder loads) stop after
    /// `compile_cpu_ms` of CPU time.
    pub fn with_compile_deadline(rules: Rules, compile_cpu_ms: u64) -> anyhow::Result<Engine> {
        let limits = limits(&rules.budgets);
        let limits_json = Arc::new(serde_json::to_value(&limits)?);
        let mut compiler = crate::sandbox::Compiler::process_default();
        compiler.limits.cpu_ms = compile_cpu_ms;
        Ok(Engine {
            sandbox: Sandbox::with_compiler(crate::games::registry().agents(), limits, compiler)?,
            settings: Arc::new(rules.settings.clone()),
            rules,
            limits_json,
        })
    }

    /// An engine that plays up to `games` games at once (a worker's threads), or fewer when the
    /// address space holds fewer agent instances: returns it with how many it plays at once.
    pub fn for_games_at_once(rules: Rules, games: usize) -> anyhow::Result<(Engine, usize)> {
        let limits = limits(&rules.budgets);
        let limits_json = Arc::new(serde_json::to_value(&limits)?);
        let instances = u32::try_from(games.saturating_mul(rules.players)).unwrap_or(u32::MAX);
        let sandbox = Sandbox::for_instances(crate::games::registry().agents(), limits, instances)?;
        let at_once = sandbox.games_at_once(rules.players, games)?;
        let engine = Engine {
            sandbox,
            settings: Arc::new(rules.settings.clone()),
            rules,
            limits_json,
        };
        Ok((engine, at_once))
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The sandbox limits as every record of this engine's games states them.
    pub fn limits_json(&self) -> &Value {
        &self.limits_json
    }

    /// Largest module the sandbox loads, in bytes.
    pub fn module_bytes(&self) -> u64 {
        self.sandbox.limits().module_bytes
    }

    /// Checks an upload as `arena check` does, for the challenge's game only: validation and a
    /// bounded compile, then `smoke_games` smoke games. Never runs the upload outside the
    /// sandbox. Blocks for as long as the check takes (seconds): call it off the async threads.
    /// An error is the host's own failure (see [`HostFailure`]): no verdict on the upload.
    pub fn check(&self, name: &str, bytes: &[u8], smoke_games: u32) -> anyhow::Result<Verdict> {
        run_with_big_stack(|| {
            let mut out = Vec::new();
            let refused = |mut out: Vec<u8>, reason: String, sha: Option<String>| {
                let _ = writeln!(out, "\nFAIL:\n  {reason}");
                Verdict {
                    accepted: false,
                    reason: Some(reason),
                    report: String::from_utf8_lossy(&out).into_owned(),
                    module_sha256: sha,
                }
            };
            let _ = writeln!(out, "checking {name} ({} bytes)", bytes.len());
            let started = Instant::now();
            let module = match self.sandbox.load_bytes(name, bytes) {
                Ok(m) => m,
                Err(e) if HostFailure::find(&e).is_some() => return Err(e),
                Err(e) => return Ok(refused(out, format!("cannot load the agent: {e:#}"), None)),
            };
            let sha = Some(module.sha256().to_owned());
            if let Err(e) = module.check_plays(&self.rules.game.info().agent) {
                return Ok(refused(out, format!("{e:#}"), sha));
            }
            let opts = SmokeOptions {
                games: smoke_games,
                round_cap: self.rules.round_cap,
                seed: 1,
                logs: false,
            };
            let errors = check_loaded(
                &module,
                started.elapsed(),
                &[self.rules.game],
                &opts,
                &mut out,
            )?;
            Ok(Verdict {
                accepted: errors.is_empty(),
                reason: errors.into_iter().next(),
                report: String::from_utf8_lossy(&out).into_owned(),
                module_sha256: sha,
            })
        })
    }

    /// Loads an agent that passed the check (compiled artifacts come from the module cache).
    pub fn load(&self, name: &str, bytes: &[u8]) -> anyhow::Result<Agent> {
        let module = self.sandbox.load_bytes(name, bytes)?;
        module.check_plays(&self.rules.game.info().agent)?;
        Ok(Agent(module))
    }

    /// Plays one game with `agents[s]`, named `names[s]`, in seat `s`. `id` and `key` identify
    /// the game in its result; `record` is where its record will be, as the result says it.
    /// Must run on a thread with [`WORKER_STACK_BYTES`] of stack.
    pub fn play(
        &self,
        agents: &[&Agent],
        names: &[String],
        seed: u64,
        id: usize,
        key: &str,
        record: &str,
    ) -> anyhow::Result<Played> {
        let table = Table {
            seed,
            round_cap: self.rules.round_cap,
            policy: self.rules.policy,
            settings: Arc::clone(&self.settings),
            meta: RecordMeta {
                names: names.to_vec(),
                agent_hashes: agents.iter().map(|a| Some(a.sha256().to_owned())).collect(),
                limits: Arc::clone(&self.limits_json),
            },
        };
        let seats: Vec<Seat> = agents.iter().map(|a| Seat::Agent(&a.0)).collect();
        let host = Host {
            sandbox: Some(&self.sandbox),
        };
        let played = self.rules.game.play(&host, &table, &seats)?;
        Ok(Played {
            result: GameResult::new(
                id,
                key,
                seed,
                names.to_vec(),
                played.summary,
                record.to_owned(),
            ),
            record: played.record,
        })
    }
}

/// Records larger than this are kept gzip-compressed, as the league keeps them.
pub const COMPRESS_RECORDS_OVER: usize = 256 * 1024;

/// The record as kept on disk: gzip-compressed past [`COMPRESS_RECORDS_OVER`] bytes.
pub fn stored_record(record: Vec<u8>) -> anyhow::Result<(Vec<u8>, bool)> {
    if record.len() <= COMPRESS_RECORDS_OVER {
        return Ok((record, false));
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&record)?;
    Ok((gz.finish()?, true))
}

/// The text of a stored record (gunzipped when it was compressed). The server wrote it itself,
/// so it is read whole; the bound only keeps a damaged database from exhausting memory.
pub fn record_text(stored: &[u8]) -> anyhow::Result<String> {
    const MAX_TEXT: u64 = 1 << 30;
    let raw = if stored.starts_with(&[0x1f, 0x8b]) {
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(flate2::read::MultiGzDecoder::new(stored), MAX_TEXT + 1),
            &mut text,
        )
        .map_err(|e| anyhow!("unreadable record: not a valid gzip stream: {e}"))?;
        anyhow::ensure!(
            text.len() as u64 <= MAX_TEXT,
            "unreadable record: larger than 1 GiB"
        );
        text
    } else {
        stored.to_vec()
    };
    String::from_utf8(raw).map_err(|_| anyhow!("unreadable record: not UTF-8 text"))
}
