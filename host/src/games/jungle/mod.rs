//! Jungle (Dou Shou Qi) as the arena plays it: two players, the rules of the `jungle-rules`
//! crate, a fuel clock (docs/JUNGLE.md, "Playing Jungle in the arena"), the byte ABI's
//! observation and move (docs/ABI.md, "Jungle") and the WIT world `arena:games/jungle`. This
//! folder holds all of its host side, behind [`Game`]:
//!
//! * the rules as the arena plays them, with the clock (`rules.rs`: a state machine the host's
//!   game loop runs) and what a game is made of (`turn.rs`: setup, plies, the end); its
//!   settings (`settings.rs`: the clock and the start position, a league's `[jungle]` table);
//! * the agents' side: the byte ABI (`abi.rs`), components (`component.rs`), native SDK
//!   strategies (`native.rs`), a person at the terminal (`person.rs`);
//! * records (`record/`): their lines, written and read back for the verifier;
//! * the terminal: `arena play`'s narration with the board drawn (`narrate.rs`), `arena perft`
//!   (`perft.rs`); `arena check`'s smoke games (`smoke.rs`);
//! * the report: a game's replay data (`replay.rs`) and its viewer (`viewer/`); `arena new`'s
//!   templates (`templates/`).

pub mod abi;
pub(crate) mod component;
pub mod narrate;
pub mod native;
pub mod perft;
pub mod person;
pub mod record;
pub mod replay;
pub mod rules;
pub mod settings;
pub mod smoke;
pub mod turn;

use arena_abi::names;

use crate::game::info::WithPerson;
use crate::game::replay::RecordLines;
use crate::game::{
    GameInfo, GameSettings, Kept, Narration, Perft, Played, Present, SeatUsage, Template, Viewer,
};

pub use native::{native, sdk};
pub use settings::Settings;

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "jungle";
const TITLE: &str = "Jungle";

/// Who Jungle is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo::deciding(
    NAME,
    TITLE,
    // Two sides; seat 0 plays the first player (upper case, the bottom of the board).
    2..=2,
    arena_abi::game::JUNGLE,
    &[names::JUNGLE_MOVE],
    &component::JungleWorld,
);

/// Jungle's rules, records and words.
pub struct Jungle;

/// A game of Jungle as played.
pub type GameRecord = Kept<Jungle>;

impl Present for Jungle {
    /// The game viewer (`jungle.html?game=N`): the board drawn from each position's notation, the
    /// last move, captures and both fuel clocks, with the controls and keys of the other viewers.
    const VIEWER: &'static Viewer =
        &crate::game::viewer!("jungle.html", "▶ board", ["jungle.js", "jungle.css"]);

    /// `arena new`'s templates: a Rust agent on the SDK and the rules crate, a WAT agent, and
    /// Python and JavaScript components (the example agents `jungle_random.py` and
    /// `jungle-random.js`).
    const TEMPLATES: &'static [Template] = &crate::game::templates![
        "rust": "src/lib.rs" => include_str!("templates/rust/src/lib.rs"),
        "wat": "{{name}}.wat" => include_str!("templates/wat/jungle.wat"),
        "python": "agent.py" => include_str!("../../../../example-agents/python/jungle_random.py"),
        "javascript": "agent.js" => include_str!("../../../../example-agents/javascript/jungle-random.js"),
    ];

    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        Settings::from_keys(keys)?.to_map()
    }

    /// Each seat's fuel on its clock: the total and each decision's.
    fn usage(&self, game: &GameRecord, seat: usize) -> Option<SeatUsage> {
        let mine = game.turns.iter().filter(|p| p.seat == seat);
        Some(SeatUsage::of_decisions(
            game.end.fuel[seat],
            mine.map(|p| p.fuel),
        ))
    }

    fn narrate(&self, game: &GameRecord, opts: &Narration<'_>) -> String {
        narrate::narrate(opts.names, game, opts.logs, opts.boards)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        replay::replay(record)
    }

    fn perft(&self) -> Option<&'static dyn Perft> {
        Some(&perft::JunglePerft)
    }

    fn play_person(&self, game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
        person::play_person(game)
    }
}

#[cfg(test)]
mod tests;
