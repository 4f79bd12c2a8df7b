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

use std::io::Write;

use arena_abi::names;

use crate::game::replay::RecordLines;
use crate::game::{
    GameInfo, Host, Kept, Narration, Present, Smoke, SmokeOptions, Template, Viewer,
};
use crate::sandbox::{AgentInterface, AgentModule};

pub use native::{native, Sdk};
pub use turn::{Answer, GameEnd, LoadFault, Observation, RollRecord, Setup, TurnEnd, TurnRecord};

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

/// Farkle's rules, records and words.
pub struct Farkle;

/// A game of Farkle as played.
pub type GameRecord = Kept<Farkle>;

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

impl Present for Farkle {
    fn narrate(
        &self,
        game: &GameRecord,
        opts: &Narration<'_>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let text = narrate::narrate(opts.names, game, opts.logs);
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

#[cfg(test)]
mod tests;
