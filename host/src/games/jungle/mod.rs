//! Jungle (Dou Shou Qi) as the arena plays it: two players, the rules of the `jungle-rules`
//! crate, a fuel clock (docs/JUNGLE.md, "Playing Jungle in the arena"), the byte ABI's
//! observation and move (docs/ABI.md, "Jungle") and the WIT world `arena:games/jungle`. This
//! folder holds all of its host side, behind [`Game`]:
//!
//! * the game loop with the clock (`game.rs`: [`play_game`] / [`play_game_into`] with a
//!   [`Setup`] and two [`JunglePlayer`]s, giving a [`GameRecord`]); its settings (`settings.rs`:
//!   the clock and the start position, a league's `[jungle]` table);
//! * players: sandboxed agents (`wasm.rs`, `abi.rs`), components (`component.rs`), native SDK
//!   strategies (`native.rs`), a person at the terminal (`human.rs`, `person.rs`);
//! * records (`record/`): writing, and the streamed verification;
//! * the terminal: `arena play`'s narration with the board drawn (`narrate.rs`), `arena perft`
//!   (`perft.rs`); `arena check`'s smoke games (`smoke.rs`);
//! * the report: a game's replay data (`replay.rs`) and its viewer (`viewer/`); `arena new`'s
//!   templates (`templates/`).

pub mod abi;
pub(crate) mod component;
pub mod game;
pub mod human;
pub mod narrate;
pub mod native;
pub mod perft;
pub mod person;
pub mod player;
pub mod record;
pub mod replay;
pub mod settings;
pub mod smoke;
pub mod summary;
mod wasm;

use std::any::Any;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use anyhow::Context;
use arena_abi::names;

use crate::game::{
    check_host_failures, seat_players, Game, GameInfo, GameSettings, Host, Narration, Perft,
    Played, Seat, SeatUsage, Smoke, SmokeOptions, Table, Template, Terminal, Viewer,
};
use crate::records::lines::{Line, RecordReader};
use crate::records::{VerifyError, VerifySummary};
use crate::report::RecordLines;
use crate::sandbox::{AgentInterface, AgentModule, Limits};

pub use game::{
    passed, play_game, play_game_into, EndReason, FuelClock, GameEnd, GameRecord, GameSink,
    LoadFault, Ply, PlyFault, Setup,
};
pub use native::{Native, NativeJunglePlayer};
pub use player::{Ask, JunglePlayer, Reply};
pub use settings::Settings;
pub use summary::summary;

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "jungle";
const TITLE: &str = "Jungle";

/// Who Jungle is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: TITLE,
    // Two sides; seat 0 plays the first player (upper case, the bottom of the board).
    seats: 2..=2,
    solo_target: None,
    turn_word: "turn",
    dice: false,
    agent: AgentInterface {
        title: TITLE,
        abi_id: arena_abi::game::JUNGLE,
        decisions: &[names::JUNGLE_MOVE],
        component: Some(&component::JungleWorld),
        snippet: None,
    },
};

/// Jungle, for the registry.
pub struct JungleGame;

/// The game viewer (`jungle.html?game=N`): the board drawn from each position's notation, the
/// last move, captures and both fuel clocks, with the controls and keys of the other viewers.
static VIEWER: Viewer = Viewer {
    page: "jungle.html",
    link: "▶ board",
    assets: &[
        ("jungle.html", include_str!("viewer/jungle.html")),
        ("jungle.js", include_str!("viewer/jungle.js")),
    ],
};

/// `arena new`'s templates: a Rust agent on the SDK and the rules crate, a WAT agent, and Python
/// and JavaScript components (copies of the example agents `jungle_random.py` and
/// `jungle-random.js`).
static TEMPLATES: [Template; 4] = [
    Template {
        lang: "rust",
        files: &[("src/lib.rs", include_str!("templates/rust/src/lib.rs"))],
    },
    Template {
        lang: "wat",
        files: &[("{{name}}.wat", include_str!("templates/wat/jungle.wat"))],
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

/// The per-decision cap of a game: the sandbox's, or the default limits' where only native
/// strategies play.
fn decision_cap(host: &Host<'_>) -> u64 {
    host.sandbox
        .map_or(Limits::default().fuel_per_decision, |s| {
            s.limits().fuel_per_decision
        })
}

/// The setup of one game of `table`.
fn setup(host: &Host<'_>, table: &Table) -> anyhow::Result<Setup> {
    let settings = Settings::of_map(&table.settings)?;
    Ok(Setup {
        policy: table.policy,
        start: settings.start()?,
        ..Setup::new(
            table.seed,
            table.round_cap,
            FuelClock {
                start: settings.clock,
                increment: settings.increment,
                decision_cap: decision_cap(host),
            },
        )
    })
}

/// Each seat's fuel in a game's decisions: the total and the largest decision.
fn usage(record: &GameRecord, seat: usize) -> SeatUsage {
    let mine = record.plies.iter().filter(|p| p.seat == seat);
    SeatUsage {
        fuel: record.end.fuel[seat],
        max_decision_fuel: mine.clone().map(|p| p.fuel).max().unwrap_or(0),
        decisions: mine.count() as u64,
    }
}

impl Game for JungleGame {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        Settings::from_keys(keys)?.to_map()
    }

    fn play(&self, host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        let setup = setup(host, table)?;
        let mut players = seat_players(
            &INFO,
            table,
            seats,
            |agent| Box::new(agent) as Box<dyn JunglePlayer>,
            native_player,
        )?;
        let [a, b] = &mut players[..] else {
            anyhow::bail!("Jungle is played by 2 players, not {}", players.len());
        };
        let record = play_game(&setup, [&mut **a, &mut **b])
            .ok_or_else(|| anyhow::anyhow!("a player left the game before its end"))?;
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        let usage = seats
            .iter()
            .enumerate()
            .map(|(s, seat)| matches!(seat, Seat::Agent(_)).then(|| usage(&record, s)))
            .collect();
        Ok(Played {
            record: record::write_record(&record, &table.meta)?,
            summary: summary(&record),
            usage,
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
            .context("the game played is not a game of Jungle")?;
        let text = narrate::narrate(opts.names, record, opts.logs, opts.boards);
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
        let mut smoke = Smoke::default();
        smoke::smoke_games(agent, opts, &mut smoke, out)?;
        Ok(smoke)
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

    fn perft(&self) -> Option<&'static dyn Perft> {
        Some(&perft::JunglePerft)
    }

    fn play_person(
        &self,
        host: &Host<'_>,
        table: &Table,
        seats: &[Option<Seat<'_>>],
        io: Terminal,
        opts: &Narration<'_>,
    ) -> anyhow::Result<Option<Played>> {
        let setup = setup(host, table)?;
        let (person, agent) = match seats {
            [None, Some(Seat::Agent(m))] => (0, *m),
            [Some(Seat::Agent(m)), None] => (1, *m),
            _ => anyhow::bail!(
                "a person plays Jungle against one agent: `arena play human AGENT` (or `arena \
                 play AGENT human` to play second)"
            ),
        };
        let screen: human::Screen = Rc::new(RefCell::new(io.screen));
        let Some(record) = person::play_with_person(
            &setup, agent, opts.names, person, io.input, screen, opts.logs,
        )?
        else {
            return Ok(None);
        };
        let mut usage = vec![None, None];
        usage[1 - person] = Some(self::usage(&record, 1 - person));
        Ok(Some(Played {
            record: record::write_record(&record, &table.meta)?,
            summary: summary(&record),
            usage,
            detail: Box::new(record),
        }))
    }
}

/// The player of a native seat: a [`Native`] strategy's fresh player.
fn native_player(native: &(dyn Any + Sync)) -> Option<Box<dyn JunglePlayer>> {
    (native as &dyn Any)
        .downcast_ref::<Native>()
        .map(Native::player)
}

#[cfg(test)]
mod tests;
