//! `arena agents [--game GAME] [--export DIR]`: the built-in agents (the example agents of every
//! game, built into the binary), by game, one line each; `--export` writes their modules into a
//! folder, to publish them beside a league's results (`arena verify --league --agents DIR`).
//!
//! Exit status: 0; 2 when the folder cannot be written.

use std::path::PathBuf;

use anyhow::Context;

use crate::builtin::{self, Builtin};
use crate::game::Game;
use crate::terminal;

#[derive(clap::Args, Debug)]
pub struct AgentsArgs {
    /// Only the agents of this game
    #[arg(long, value_name = "GAME", value_parser = crate::games::parse)]
    pub game: Option<&'static dyn Game>,
    /// Write each agent's module into this folder as NAME.wasm (created if needed)
    #[arg(long, value_name = "DIR")]
    pub export: Option<PathBuf>,
}

pub fn run(args: AgentsArgs) -> anyhow::Result<i32> {
    let games = crate::games::registry()
        .all()
        .iter()
        .filter(|g| args.game.is_none_or(|only| only.name() == g.name()));
    let mut first = true;
    for game in games {
        let agents: Vec<Builtin> = builtin::all().filter(|b| b.game == game.name()).collect();
        if agents.is_empty() {
            continue;
        }
        if !first {
            outln!();
        }
        first = false;
        outln!("{} (--game {}):", game.title(), game.name());
        let width = agents.iter().map(|b| b.spelled().len()).max().unwrap_or(0);
        for b in &agents {
            outln!("  {:width$}  {}", b.spelled(), b.summary);
        }
        if let Some(dir) = &args.export {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            for b in &agents {
                let path = dir.join(format!("{}.wasm", b.name));
                std::fs::write(&path, b.bytes)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
    }
    if let Some(dir) = &args.export {
        outln!();
        outln!(
            "wrote their modules into {}",
            terminal::line(&dir.display().to_string())
        );
    }
    Ok(0)
}
