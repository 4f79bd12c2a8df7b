//! Farkle, the press-your-luck dice game of the seed's bot harness (docs/FARKLE.md): the solo
//! benchmark (turns to reach 10,000 alone) and a race for 2 to 6 players. Scoring and answer
//! checks are in the `farkle-rules` crate; this folder holds its host side: the rules as the
//! arena plays them (`rules.rs`, the host's game loop runs them; `turn.rs`: what a game is made
//! of), the byte ABI (`abi.rs`), the component world (`component.rs`), native SDK strategies
//! (`native.rs`), its records' lines
//! (`record/`), `arena play`'s narration, `arena check`'s smoke games, the report's replay data
//! and viewer (`viewer/`) and `arena new`'s templates (`templates/`).

pub mod abi;
pub(crate) mod component;
pub mod narrate;
pub mod native;
pub mod record;
mod replay;
pub mod rules;
mod smoke;
pub mod turn;

use arena_abi::names;

use crate::game::replay::RecordLines;
use crate::game::{GameInfo, Kept, Narration, Present, Template, Viewer};

pub use native::{native, sdk};
pub use turn::{Answer, GameEnd, Observation, RollRecord, Setup, TurnEnd, TurnRecord};

/// The game's name in league files, records and on the command line.
pub const NAME: &str = "farkle";
const TITLE: &str = "Farkle";

/// Who Farkle is, and what the sandbox is told about its agents.
pub static INFO: GameInfo = GameInfo::deciding(
    NAME,
    TITLE,
    // The observation has a score slot per seat.
    1..=arena_abi::farkle::MAX_SEATS,
    arena_abi::game::FARKLE,
    &[names::FARKLE_DRAFT],
    &component::FarkleWorld,
)
.with_dice()
.with_solo_target("10,000");

/// Farkle's rules, records and words.
pub struct Farkle;

/// A game of Farkle as played.
pub type GameRecord = Kept<Farkle>;

impl Present for Farkle {
    /// The game viewer (`farkle.html?game=N`): the score by round, every turn with its rolls,
    /// drafts, points and how it ended.
    const VIEWER: &'static Viewer =
        &crate::game::viewer!("farkle.html", "▶ turns", ["farkle.js", "farkle.css"]);

    /// `arena new`'s templates: Rust and WAT modules, components in Python and JavaScript.
    const TEMPLATES: &'static [Template] = &crate::game::templates![
        "rust": "src/lib.rs" => include_str!("templates/rust/lib.rs"),
        "wat": "{{name}}.wat" => include_str!("templates/wat/farkle.wat"),
        "python": "agent.py" => include_str!("../../../../example-agents/python/farkle_threshold.py"),
        "javascript": "agent.js" => include_str!("../../../../example-agents/javascript/farkle-threshold.js"),
    ];

    fn narrate(&self, game: &GameRecord, opts: &Narration<'_>) -> String {
        narrate::narrate(opts.names, game, opts.logs)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        replay::replay(record)
    }
}

#[cfg(test)]
mod tests;
