//! Little Animal Farm, the flagship game (docs/RULES.md): a dice-and-trading game for 2 to 6
//! players over the `farm-rules` crate. Its folder holds its host side: the rules as the arena
//! plays them (`rules.rs`, the host's game loop runs them; `rules/trades.rs`, the trade phase),
//! what a game is made of (`turn.rs`: setup, observation, answer, the record's turns), its
//! events and faults; the byte ABI
//! (`abi.rs`), the component world (`component.rs`) and native SDK strategies (`native.rs`); its
//! records' lines (`record/`); `arena play`'s narration, `arena check`'s smoke games, the
//! report's replay data and viewer (`viewer/`), `arena new`'s templates (`templates/`) and the
//! bench's strategies (`strategies.rs`).

pub mod abi;
pub(crate) mod component;
pub mod event;
pub mod fault;
pub mod narrate;
pub mod native;
pub mod record;
mod replay;
pub mod rules;
mod smoke;
pub mod strategies;
pub mod turn;

use arena_abi::names;

use crate::game::replay::RecordLines;
use crate::game::{GameInfo, Kept, Narration, Present, Strategies, Template, Viewer};

pub use crate::game::{AgentLog, Outcome};
pub use event::{Event, Party};
pub use fault::{Decision, Fault, FaultKind, FaultPolicy};
pub use native::{native, sdk};
pub use rules::roll_faces;
pub use turn::{AcceptView, Answer, Asked, GameEnd, Observation, Setup, StartPosition, TurnRecord};

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "little-animal-farm";
const TITLE: &str = "Little Animal Farm";

/// Who Little Animal Farm is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo::deciding(
    NAME,
    TITLE,
    2..=farm_rules::MAX_PLAYERS,
    arena_abi::game::LITTLE_ANIMAL_FARM,
    &[names::FARM_TRADE, names::FARM_ACCEPT],
    &component::FarmWorld,
)
.with_dice();

/// Little Animal Farm's rules, records and words.
pub struct Farm;

/// A game of Little Animal Farm as played.
pub type GameRecord = Kept<Farm>;

impl Present for Farm {
    /// The replay viewer (`replay.html?game=N`): herds and stock, the dice, trades, attacks,
    /// breeding, faults and the win, with play controls.
    const VIEWER: &'static Viewer =
        &crate::game::viewer!("replay.html", "▶ replay", ["replay.js", "replay.css"]);

    /// `arena new`'s templates: every language of the SDK, and components in Python and JavaScript.
    const TEMPLATES: &'static [Template] = &crate::game::templates![
        "rust": "src/lib.rs" => include_str!("templates/rust/lib.rs"),
        "c": "agent.c" => include_str!("../../../../example-agents/c/climber.c"),
        "wat": "{{name}}.wat" => include_str!("../../../../example-agents/wat/climber.wat"),
        "assemblyscript": "assembly/index.ts" => include_str!("templates/assemblyscript/index.ts"),
        "zig": "agent.zig" => include_str!("templates/zig/agent.zig"),
        "python": "agent.py" => include_str!("../../../../example-agents/python/climber.py"),
        "javascript": "agent.js" => include_str!("../../../../example-agents/javascript/climber.js"),
    ];

    fn narrate(&self, game: &GameRecord, opts: &Narration<'_>) -> String {
        narrate::Narrator::new(opts.names, &game.setup, opts.logs).narrate(game)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        replay::replay(record)
    }

    fn strategies(&self) -> Option<&'static Strategies> {
        Some(&strategies::STRATEGIES)
    }
}

#[cfg(test)]
pub(crate) mod tests;
