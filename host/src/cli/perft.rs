//! `arena perft --game jungle DEPTH [--position NOTATION] [--divide]`: the number of move
//! sequences of DEPTH plies (leaf nodes), the time and the speed: the standard check of a move
//! generator. Only Jungle, the board game, has one.
//!
//! Exit status: 0; 2 on usage errors (an unknown game, a position the rules refuse).

use crate::game::GameKind;
use crate::games::jungle::perft;

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Plies to look ahead
    #[arg(value_name = "DEPTH")]
    pub depth: u32,
    /// The game: jungle (the only game with a move generator to count)
    #[arg(long, value_name = "GAME", default_value = "jungle")]
    pub game: GameKind,
    /// The position to count from, in the notation (docs/JUNGLE.md) [default: the start]
    #[arg(long, value_name = "NOTATION")]
    pub position: Option<String>,
    /// Also print each legal move with the count under it
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: PerftArgs) -> anyhow::Result<i32> {
    anyhow::ensure!(
        args.game == GameKind::Jungle,
        "perft counts the moves of a board game: only jungle has them, not {}",
        args.game
    );
    let pos = perft::position(args.position.as_deref())?;
    let mut each = |mv: String, n: u64| outln!("{mv}: {n}");
    let divide: Option<&mut dyn FnMut(String, u64)> = if args.divide && args.depth > 0 {
        Some(&mut each)
    } else {
        None
    };
    let count = perft::count(&pos, args.depth, divide);
    outln!("{}", perft::describe(args.depth, &count));
    Ok(0)
}
