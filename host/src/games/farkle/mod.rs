//! Farkle, the press-your-luck dice game of the seed's bot harness (docs/FARKLE.md): the solo
//! benchmark (turns to reach 10,000 alone) and a race for 2 to 6 players. Scoring and answer
//! checks are in the `farkle-rules` crate; this folder holds all of its host side: the game loop
//! (`game.rs`), dice, the byte ABI (`abi.rs`), the sandboxed (`wasm.rs`) and component
//! (`component.rs`) agents' adapters and native strategies (`native.rs`), its records
//! (`record/`), `arena play`'s narration, `arena check`'s smoke games, the report's replay data
//! and viewer (`viewer/`) and `arena new`'s templates (`templates/`).

pub mod abi;
pub(crate) mod component;
pub mod dice;
pub mod game;
pub mod narrate;
pub mod native;
pub mod player;
pub mod record;
mod replay;
mod smoke;
pub mod summary;
mod wasm;

use std::any::Any;
use std::io::Write;

use anyhow::Context;
use arena_abi::names;

use crate::game::{
    check_host_failures, seat_players, Game, GameInfo, Host, Narration, Played, Seat, Smoke,
    SmokeOptions, Table, Template, Viewer,
};
use crate::records::lines::{Line, RecordReader};
use crate::records::{VerifyError, VerifySummary};
use crate::report::RecordLines;
use crate::sandbox::{AgentInterface, AgentModule};

pub use game::{
    play_game, play_game_into, GameEnd, GameRecord, GameSink, LoadFault, RollRecord, Setup,
    TurnEnd, TurnRecord,
};
pub use native::{Native, NativeFarklePlayer};
pub use player::{Answer, FarklePlayer, Observation};

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "farkle";
const TITLE: &str = "Farkle";

/// Who Farkle is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: TITLE,
    // The observation has a score slot per seat.
    seats: 1..=arena_abi::farkle::MAX_SEATS,
    solo_target: Some("10,000"),
    turn_word: "turn",
    dice: true,
    agent: AgentInterface {
        title: TITLE,
        abi_id: arena_abi::game::FARKLE,
        decisions: &[names::FARKLE_DRAFT],
        component: Some(&component::FarkleWorld),
        snippet: None,
    },
};

/// Farkle, for the registry.
pub struct FarkleGame;

/// The game viewer (`farkle.html?game=N`): the score by round, every turn with its rolls, drafts,
/// points and how it ended.
static VIEWER: Viewer = Viewer {
    page: "farkle.html",
    link: "▶ turns",
    assets: &[
        ("farkle.html", include_str!("viewer/farkle.html")),
        ("farkle.js", include_str!("viewer/farkle.js")),
        ("farkle.css", include_str!("viewer/farkle.css")),
    ],
};

/// `arena new`'s templates: Rust and WAT modules, components in Python and JavaScript.
static TEMPLATES: [Template; 4] = [
    Template {
        lang: "rust",
        files: &[("src/lib.rs", include_str!("templates/rust/lib.rs"))],
    },
    Template {
        lang: "wat",
        files: &[("{{name}}.wat", include_str!("templates/wat/farkle.wat"))],
    },
    Template {
        lang: "python",
        files: &[("agent.py", include_str!("templates/python/agent.py"))],
    },
    Template {
        lang: "javascript",
        files: &[("agent.js", include_str!("templates/javascript/agent.js"))],
    },
];

impl Game for FarkleGame {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn play(&self, _host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        let mut players = seat_players(
            &INFO,
            table,
            seats,
            |agent| Box::new(agent) as Box<dyn FarklePlayer>,
            native_player,
        )?;
        let setup = Setup {
            policy: table.policy,
            ..Setup::new(players.len(), table.seed, table.round_cap)
        };
        let mut at_table: Vec<&mut dyn FarklePlayer> =
            players.iter_mut().map(|p| &mut **p as _).collect();
        let record = play_game(&setup, &mut at_table);
        drop(at_table);
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        Ok(Played {
            record: record::write_record(&record, &table.meta)?,
            summary: summary::summary(&record),
            usage: players.iter().map(|p| p.usage()).collect(),
            detail: Box::new(record),
        })
    }

    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError> {
        record::verify_lines(reader, setup)
    }

    fn narrate(
        &self,
        played: &Played,
        opts: &Narration<'_>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let record = played
            .detail
            .downcast_ref::<GameRecord>()
            .context("the game played is not a game of Farkle")?;
        let text = narrate::narrate(opts.names, record, opts.logs);
        out.write_all(crate::terminal::block(&text).as_bytes())?;
        Ok(())
    }

    fn smoke(
        &self,
        _host: &Host<'_>,
        agent: &AgentModule,
        opts: &SmokeOptions,
        out: &mut dyn Write,
    ) -> anyhow::Result<Smoke> {
        smoke::smoke(agent, opts, out)
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

/// The player of a native seat: a [`Native`] strategy's fresh player.
fn native_player(native: &(dyn Any + Sync)) -> Option<Box<dyn FarklePlayer>> {
    (native as &dyn Any)
        .downcast_ref::<Native>()
        .map(Native::player)
}

#[cfg(test)]
mod tests;
