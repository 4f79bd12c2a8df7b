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

use crate::game::record::{Line, RecordReader, VerifyError, VerifySummary};
use crate::game::replay::RecordLines;
use crate::game::{
    Game, GameInfo, GameSettings, Host, Narration, Played, Seat, Smoke, SmokeOptions, Table,
    Template, Viewer,
};
use crate::sandbox::{AgentInterface, AgentModule, SnippetInterface};

pub use code::Snippet;
pub use narrate::{mark, narrate};
pub use play::{play, play_in, PlayStats, Report};
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
    let settings = CodewarSettings::of_map(map)?;
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
        CodewarSettings::from_toml(keys)?.to_map()
    }

    fn play(&self, _host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        let settings = settings_of(&table.settings)?;
        play(table, &settings, &seat_modules(seats)?)
    }

    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError> {
        record::verify_lines(reader, setup)
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
