//! `arena perft DEPTH [--game GAME] [--position NOTATION] [--divide]`: the number of move
//! sequences of DEPTH plies (leaf nodes), the time and the speed: the standard check of a move
//! generator, for the games of positions and moves that have one ([`crate::game::Perft`]).
//!
//! Exit status: 0; 2 on usage errors (a game without a move counter, a position the rules
//! refuse).

use crate::game::{Game, Perft};

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Plies to look ahead
    #[arg(value_name = "DEPTH")]
    pub depth: u32,
    /// The game [default: the first game with a move counter]
    #[arg(long, value_name = "GAME", value_parser = crate::games::parse)]
    pub game: Option<&'static dyn Game>,
    /// The position to count from, in the game's notation [default: the start]
    #[arg(long, value_name = "NOTATION")]
    pub position: Option<String>,
    /// Also print each legal move with the count under it
    #[arg(long)]
    pub divide: bool,
}

/// The games with a move counter.
fn counters() -> impl Iterator<Item = (&'static dyn Game, &'static dyn Perft)> {
    crate::games::registry()
        .all()
        .iter()
        .filter_map(|g| g.perft().map(|p| (*g, p)))
}

pub fn run(args: PerftArgs) -> anyhow::Result<i32> {
    let perft = match args.game {
        Some(game) => game.perft().ok_or_else(|| {
            let with: Vec<&str> = counters().map(|(g, _)| g.name()).collect();
            anyhow::anyhow!(
                "perft counts the moves of a game of positions: {} has none to count (games \
                 with a move counter: {})",
                game.title(),
                with.join(", ")
            )
        })?,
        None => counters()
            .map(|(_, p)| p)
            .next()
            .ok_or_else(|| anyhow::anyhow!("no game has a move counter"))?,
    };
    super::to_stdout(|| {
        perft.count(
            args.position.as_deref(),
            args.depth,
            args.divide,
            &mut std::io::stdout().lock(),
        )
    })?;
    Ok(0)
}
