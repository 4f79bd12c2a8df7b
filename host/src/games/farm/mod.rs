//! Little Animal Farm, the flagship game (docs/RULES.md): a dice-and-trading game for 2 to 6
//! players over the `farm-rules` crate. Its folder holds all of its host side: the game loop
//! (`game.rs`) and the players' interface, dice, events and faults; the byte ABI (`abi.rs`), the
//! sandboxed (`wasm.rs`) and component (`component.rs`) agents' adapters and native strategies
//! (`native.rs`); its records (`record/`); `arena play`'s narration, `arena check`'s smoke games,
//! the report's replay data and viewer (`viewer/`), `arena new`'s templates (`templates/`) and the
//! bench's workload (`bench/`).

pub mod abi;
pub mod bench;
pub(crate) mod component;
pub mod dice;
pub mod event;
pub mod fault;
pub mod fuzz_checks;
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

pub use dice::{DiceSource, ExplicitDice, SeededDice};
pub use event::{Event, Party};
pub use fault::{Decision, Fault, FaultKind, FaultPolicy};
pub use game::{
    play_game, play_game_into, AgentLog, GameEnd, GameRecord, GameSink, Outcome, Setup,
    StartPosition, TurnRecord,
};
pub use native::{Native, NativePlayer};
pub use player::{AcceptView, FarmPlayer, Observation};

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "little-animal-farm";
const TITLE: &str = "Little Animal Farm";

/// Who Little Animal Farm is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: TITLE,
    seats: 2..=farm_rules::MAX_PLAYERS,
    solo_target: None,
    turn_word: "turn",
    dice: true,
    agent: AgentInterface {
        title: TITLE,
        abi_id: arena_abi::game::LITTLE_ANIMAL_FARM,
        decisions: &[names::FARM_TRADE, names::FARM_ACCEPT],
        component: Some(&component::FarmWorld),
        snippet: None,
    },
};

/// Little Animal Farm, for the registry.
pub struct FarmGame;

/// The replay viewer (`replay.html?game=N`): herds and stock, the dice, trades, attacks,
/// breeding, faults and the win, with play controls.
static VIEWER: Viewer = Viewer {
    page: "replay.html",
    link: "▶ replay",
    assets: &[
        ("replay.html", include_str!("viewer/replay.html")),
        ("replay.js", include_str!("viewer/replay.js")),
        ("replay.css", include_str!("viewer/replay.css")),
    ],
};

/// `arena new`'s templates: every language of the SDK, and components in Python and JavaScript.
static TEMPLATES: [Template; 7] = [
    Template {
        lang: "rust",
        files: &[("src/lib.rs", include_str!("templates/rust/lib.rs"))],
    },
    Template {
        lang: "c",
        files: &[("agent.c", include_str!("templates/c/agent.c"))],
    },
    Template {
        lang: "wat",
        files: &[(
            "{{name}}.wat",
            include_str!("../../../../example-agents/wat/climber.wat"),
        )],
    },
    Template {
        lang: "assemblyscript",
        files: &[(
            "assembly/index.ts",
            include_str!("templates/assemblyscript/index.ts"),
        )],
    },
    Template {
        lang: "zig",
        files: &[("agent.zig", include_str!("templates/zig/agent.zig"))],
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

impl Game for FarmGame {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn play(&self, _host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        let mut players = seat_players(
            &INFO,
            table,
            seats,
            |agent| Box::new(agent) as Box<dyn FarmPlayer>,
            native_player,
        )?;
        let setup = Setup {
            players: players.len(),
            seed: Some(table.seed),
            round_cap: table.round_cap,
            policy: table.policy,
            start: None,
        };
        let mut at_table: Vec<&mut dyn FarmPlayer> =
            players.iter_mut().map(|p| &mut **p as _).collect();
        let record = play_game(&setup, &mut at_table, &mut SeededDice::new(table.seed));
        drop(at_table);
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        Ok(Played {
            record: record::record_bytes(&record, &table.meta)?,
            summary: summary::summary(&record),
            usage: players.iter().map(|p| p.usage()).collect(),
            detail: Box::new(record),
        })
    }

    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError> {
        record::verify(reader, setup)
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
            .context("the game played is not a game of Little Animal Farm")?;
        let logs = opts.logs.then(|| narrate::logs_of(record));
        let text = narrate::Narrator::new(opts.names, &record.setup).narrate(record, logs.as_ref());
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

    fn workload(&self) -> Option<&'static dyn crate::bench::Workload> {
        Some(&bench::WORKLOAD)
    }
}

/// The player of a native seat: a [`Native`] strategy's fresh player.
fn native_player(native: &(dyn Any + Sync)) -> Option<Box<dyn FarmPlayer>> {
    (native as &dyn Any)
        .downcast_ref::<Native>()
        .map(Native::player)
}

#[cfg(test)]
mod tests;
