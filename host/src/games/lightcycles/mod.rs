//! Light cycles (the Tron game) as the arena plays it: 2 to 6 players moving at once each tick,
//! the rules of the `lightcycles-rules` crate, a fuel clock per player (docs/LIGHTCYCLES.md, "Playing light cycles in the arena"), the byte ABI's observation and
//! turn (docs/ABI.md, "Light cycles") and the WIT world `arena:games/lightcycles`. This folder
//! holds all of its host side, behind [`Game`]:
//!
//! * the rules as the arena plays them (`rules.rs`: every living seat asked at once, the ticks
//!   applied together, the clock, the fault policy); its settings (`settings.rs`: the grid and
//!   the clock, a league's `[lightcycles]` table);
//! * the agents' side: the byte ABI (`abi.rs`), components (`component.rs`), native SDK
//!   strategies (`native.rs`), a person at the terminal (`human.rs`);
//! * records (`record.rs`): their lines, written and read back for the verifier;
//! * the terminal: `arena play`'s narration with the grid drawn (`narrate.rs`); `arena check`'s
//!   smoke games (`smoke.rs`);
//! * the report: a game's replay data (`replay.rs`) and its viewer (`viewer/`); `arena new`'s
//!   templates (`templates/`).

pub mod abi;
pub(crate) mod component;
pub mod human;
pub mod narrate;
pub mod native;
pub mod record;
pub mod replay;
pub mod rules;
pub mod settings;
pub mod smoke;

use arena_abi::names;

use crate::game::info::WithPerson;
use crate::game::replay::RecordLines;
use crate::game::{
    GameInfo, GameSettings, Kept, Narration, Played, Present, SeatUsage, Template, Viewer,
};

pub use native::{native, sdk};
pub use rules::{GameEnd, Setup, TickPlayed};
pub use settings::Settings;

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "lightcycles";
const TITLE: &str = "Light cycles";

/// Who light cycles is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo::deciding(
    NAME,
    TITLE,
    2..=6,
    arena_abi::game::LIGHTCYCLES,
    &[names::LIGHTCYCLES_TURN],
    &component::LightcyclesWorld,
)
.with_turn_word("tick");

/// Light cycles' rules, records and words.
pub struct Lightcycles;

/// A game of light cycles as played.
pub type GameRecord = Kept<Lightcycles>;

impl Present for Lightcycles {
    /// The game viewer (`lightcycles.html?game=N`): the grid animating tick by tick, trails in each
    /// player's colour, crashes and fuel clocks, with the controls and keys of the other viewers.
    const VIEWER: &'static Viewer = &crate::game::viewer!(
        "lightcycles.html",
        "▶ grid",
        ["lightcycles.js", "lightcycles.css"]
    );

    /// `arena new`'s templates: a Rust agent on the SDK and the rules crate, a WAT agent, and
    /// Python and JavaScript components.
    const TEMPLATES: &'static [Template] = &crate::game::templates![
        "rust": "src/lib.rs" => include_str!("templates/rust/src/lib.rs"),
        "wat": "{{name}}.wat" => include_str!("templates/wat/lightcycles.wat"),
        "python": "agent.py" => include_str!("templates/python/agent.py"),
        "javascript": "agent.js" => include_str!("templates/javascript/agent.js"),
    ];

    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        Settings::from_keys(keys)?.to_map()
    }

    /// Each seat's fuel on its clock: the total and each decision's.
    fn usage(&self, game: &GameRecord, seat: usize) -> Option<SeatUsage> {
        let moves = game.turns.iter().flat_map(|t| &t.moves);
        let mine = moves.filter(|m| m.seat == seat && m.asked);
        Some(SeatUsage::of_decisions(
            game.end.fuel[seat],
            mine.map(|m| m.fuel),
        ))
    }

    fn narrate(&self, game: &GameRecord, opts: &Narration<'_>) -> String {
        narrate::narrate(opts.names, game, opts.logs, opts.boards)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        replay::replay(record)
    }

    fn play_person(&self, game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
        human::play(game)
    }
}

#[cfg(test)]
mod tests;
