//! Writing the data script of every game (one file per game), on every core. Each file depends on
//! its own record only, so the files are the same whatever the number of threads; the rows come
//! back in the order of the games, and an error is the one of the first game that failed, as when
//! the games were written one after the other.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;

use super::data::{game_data, game_script_name, GameRow};
use super::games_folder;
use crate::league::result::GameResult;

/// Writes `games_dir/game-NNNNNN.js` for every game whose record can be read, and returns the
/// games' rows in the order of `games`.
pub fn write_game_scripts(
    output_dir: &Path,
    games_dir: &Path,
    games: &[GameResult],
) -> anyhow::Result<Vec<GameRow>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, games.len().max(1));
    let next = AtomicUsize::new(0);
    // The first game whose file could not be written. Games after it need not be written; games
    // before it still are, in case one of them fails too and is the error to report.
    let failed = AtomicUsize::new(usize::MAX);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= games.len() || i > failed.load(Ordering::Relaxed) {
                return done;
            }
            let result = write_game_script(output_dir, games_dir, &games[i]);
            if result.is_err() {
                failed.fetch_min(i, Ordering::Relaxed);
            }
            done.push((i, result));
        }
    };
    let mut results: Vec<Option<anyhow::Result<GameRow>>> =
        std::iter::repeat_with(|| None).take(games.len()).collect();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads).map(|_| s.spawn(worker)).collect();
        for w in workers {
            let done = w.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            for (i, result) in done {
                results[i] = Some(result);
            }
        }
    });
    let mut rows = Vec::with_capacity(games.len());
    for result in results {
        match result {
            Some(Ok(row)) => rows.push(row),
            Some(Err(e)) => return Err(e),
            None => unreachable!("every game before the first failure is written"),
        }
    }
    Ok(rows)
}

fn write_game_script(
    output_dir: &Path,
    games_dir: &Path,
    g: &GameResult,
) -> anyhow::Result<GameRow> {
    let (row, script) = game_data(output_dir, g);
    if let Some(script) = script {
        let path = games_dir.join(game_script_name(g.id));
        games_folder::rewrite(&path, &script)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(row)
}
