//! The code war (docs/CODEWAR.md): Perlwar with WebAssembly agents living in the cells of the
//! Array. The rules are `codewar-rules`; this folder is the arena's side of the game:
//!
//! * [`imports`]: the host functions an agent imports (module `codewar`) and the visit's state
//!   they read and change;
//! * [`executor`]: the rules' executor over the sandbox's snippets (compiled once per content,
//!   a fresh instance per visit);
//! * [`play()`]: one game from the players' modules, a seed and [`CodewarSettings`], to a record
//!   and a [`crate::game::Summary`];
//! * [`record`]: the record's lines (modules by content hash, one line per iteration) and
//!   streamed verification, which runs every visit again;
//! * [`narrate()`]: the text of `arena play` (the Array after each iteration);
//! * `replay.rs` and `viewer/`: the report's replay data and page;
//! * [`templates`]: what `arena new` writes for a code war agent (Rust and WAT).
//!
//! All of it behind [`Game`] ([`CodewarGame`], the registry's); the rest of the arena knows the
//! code war only through that interface. Its agents are snippets (the sandbox's
//! [`crate::sandbox::Snippets`]): a module exporting `codewar_run` loads as its bytes, and the
//! game compiles and runs every module that enters the Array itself, in its own engine
//! ([`executor::engine`]).

pub mod code;
pub mod executor;
pub mod imports;
mod narrate;
mod play;
pub mod record;
mod replay;
pub mod settings;
mod smoke;

#[cfg(test)]
mod tests;

use std::io::Write;

use anyhow::Context;

use crate::game::record::{DiceOrigin, Line, RecordReader, VerifyError, VerifySummary};
use crate::game::replay::RecordLines;
use crate::game::{
    Game, GameInfo, GameSettings, Host, Narration, Played, Seat, Smoke, SmokeOptions, Table,
    Template, Viewer,
};
use crate::sandbox::{AgentInterface, AgentModule, SnippetInterface};

pub use code::Snippet;
pub use narrate::{mark, narrate};
pub use play::{play, play_in, play_with_stats, PlayStats, Report};
pub use settings::CodewarSettings;

/// The game's name in records and league files.
pub const NAME: &str = record::lines::GAME_NAME;

/// The game's name for people.
pub const TITLE: &str = "Code war";

/// Players at one table in a league.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=6;

/// Who the code war is, and what the sandbox is told about its agents: snippets exporting
/// `codewar_run` and importing from `codewar` only (docs/ABI.md, "Code war").
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: TITLE,
    seats: SEATS,
    solo_target: None,
    turn_word: "visit",
    dice: false,
    agent: AgentInterface {
        title: TITLE,
        abi_id: arena_abi::game::CODEWAR,
        decisions: &[],
        component: None,
        snippet: Some(SnippetInterface {
            entry: arena_abi::codewar::ENTRY,
            import_module: arena_abi::codewar::IMPORT_MODULE,
        }),
    },
};

/// The code war, for the registry.
pub struct CodewarGame;

/// The report's replay viewer (`codewar.html?game=N`, its script and style sheet in `viewer/`):
/// the Array as a grid over time, a row per iteration and a column per cell (owner colours,
/// facades, each visit's instruction, segfaults), in the report's viewer chrome.
static VIEWER: Viewer =
    crate::game::viewer!("codewar.html", "▶ array", ["codewar.js", "codewar.css"]);

/// `arena new`'s templates: a Rust agent on the SDK (`arena new` adds the Cargo.toml of every
/// Rust agent) and a WAT agent.
static TEMPLATES: [Template; 2] = crate::game::templates![
    "rust": "src/lib.rs" => include_str!("templates/rust/src/lib.rs"),
    "wat": "{{name}}.wat" => include_str!("templates/wat/agent.wat"),
];

/// The settings of a table: the game's map ([`Game::settings`]'s), as [`CodewarSettings`].
fn settings_of(map: &GameSettings) -> anyhow::Result<CodewarSettings> {
    let settings: CodewarSettings = serde_json::from_value(serde_json::Value::Object(map.clone()))
        .context("code war settings")?;
    settings.validate().context("code war settings")?;
    Ok(settings)
}

/// The module of each seat: a code war agent's bytes, or an error naming the seat.
fn seat_modules(seats: &[Seat<'_>]) -> anyhow::Result<Vec<Vec<u8>>> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| match seat {
            Seat::Agent(m) => m.snippet().map(<[u8]>::to_vec).ok_or_else(|| {
                anyhow::anyhow!(
                    "seat {s} ({}): not a code war agent (it does not export `{}`)",
                    m.name(),
                    arena_abi::codewar::ENTRY
                )
            }),
            Seat::Native(_) => Err(anyhow::anyhow!(
                "seat {s}: the code war has no native players (its agents are modules)"
            )),
        })
        .collect()
}

impl Game for CodewarGame {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        match CodewarSettings::from_toml(keys)?.to_json() {
            serde_json::Value::Object(map) => Ok(map),
            _ => unreachable!("the settings are a JSON object"),
        }
    }

    fn play(&self, _host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        let settings = settings_of(&table.settings)?;
        play(table, &settings, &seat_modules(seats)?)
    }

    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError> {
        let v = record::verify_lines(reader, setup)?;
        Ok(VerifySummary {
            game: NAME,
            turn_word: INFO.turn_word,
            rolls_dice: INFO.dice,
            players: v.names.len(),
            result: v.describe_outcome(),
            names: v.names,
            agent_hashes: v.agent_hashes.into_iter().map(Some).collect(),
            round_cap: v.round_cap,
            policy: v.fault_policy,
            limits: v.limits,
            turns: v.visits.min(usize::MAX as u64) as usize,
            rounds: v.iterations,
            outcome: v.outcome,
            dice: DiceOrigin::Seeded(v.seed),
            forfeits: v.eliminated,
            faults: Default::default(),
            load_faults: Vec::new(),
            scores: Some(v.cells.iter().map(|&c| i64::from(c)).collect()),
            settings: match v.settings.to_json() {
                serde_json::Value::Object(map) => Some(map),
                _ => None,
            },
        })
    }

    fn narrate(
        &self,
        played: &Played,
        _opts: &Narration<'_>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        narrate(&played.record, out)
    }

    fn smoke(
        &self,
        _host: &Host<'_>,
        agent: &AgentModule,
        opts: &SmokeOptions,
        out: &mut dyn Write,
    ) -> anyhow::Result<Smoke> {
        smoke::smoke_games(agent, opts, out)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        replay::replay(record)
    }

    fn viewer(&self) -> &'static Viewer {
        &VIEWER
    }

    fn templates(&self) -> &'static [Template] {
        &TEMPLATES
    }
}

/// An agent's module from a file: a `.wasm` binary as it is, a `.wat` text (or any file that
/// starts as WebAssembly text) converted to binary. Files larger than `max_bytes` (the module's
/// size cap, or its text's 16 times that) are refused without being read whole.
pub fn agent_bytes(path: &std::path::Path, max_bytes: usize) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context;
    use std::io::Read;
    let cap = (max_bytes as u64).saturating_mul(16).max(1 << 16);
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > cap {
        anyhow::bail!("{}: larger than {cap} bytes", path.display());
    }
    if bytes.starts_with(b"\0asm") {
        return Ok(bytes);
    }
    let text = std::str::from_utf8(&bytes).ok();
    let looks_like_text = text.is_some_and(|t| {
        let t = t.trim_start();
        t.starts_with('(') || t.starts_with(";;")
    });
    if path.extension().is_some_and(|e| e == "wat") || looks_like_text {
        return wat::parse_bytes(&bytes)
            .map(|b| b.into_owned())
            .map_err(|e| anyhow::anyhow!("{}: invalid WebAssembly text: {e}", path.display()));
    }
    anyhow::bail!(
        "{}: not a WebAssembly module (a .wasm file starts with \\0asm; or give a .wat text)",
        path.display()
    )
}
