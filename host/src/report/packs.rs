//! The replay packs: the data of every game's replay viewer, written without copying the records.
//!
//! Browsers refuse `fetch()` of `file://` URLs, so a viewer cannot read a record file; it loads a
//! script. One script per game (as the report once wrote) doubled a league's disk use: a replay's
//! data is the record's lines plus the position after each turn, and the file system spends at
//! least a block per file. So the games are grouped by id, [`PACK_GAMES`] to a pack
//! (`games/replays-012300.js` holds games 12300 to 12399), and the pack stores its games' replay
//! data as one gzip stream in base64:
//! `window.ARENA_PACK = {"first":12300,"games":[12300,12301,…],"data":"H4sI…"};`. Decompressed,
//! the data is one line per game, `ID JSON`. Games of a league look alike, so one stream for the
//! pack compresses far better than a stream per game (for the 100,000-game league of
//! docs/PERFORMANCE.md, 6 % of the records' size against 23 %). The viewer decompresses the pack
//! with the browser's own `DecompressionStream` and parses only its game's line.
//!
//! Packs are written on every core. Each depends on its games' records only, so the files are the
//! same whatever the number of threads; the rows come back in the order of the games, and an error
//! is the one of the first game that failed, as when the games were written one after the other.

use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use serde_json::json;
#[cfg(test)]
use serde_json::Value;

use super::data::{game_data, GameRow};
use super::games_folder;
use super::script::script;
use crate::league::result::GameResult;
use base64::prelude::{Engine as _, BASE64_STANDARD};

/// The rows of a pack's games, and the pack's name when it was written.
type PackRows = (Vec<GameRow>, Option<String>);

/// Games per replay pack: game N is in the pack of the games from N - N % PACK_GAMES.
pub const PACK_GAMES: usize = 100;

/// File name of the replay pack that holds game `id`.
pub fn pack_name(id: usize) -> String {
    format!("replays-{:06}.js", id - id % PACK_GAMES)
}

/// The packs of `games` (sorted by id): ranges of games that share a pack.
fn packs(games: &[GameResult]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        match out.last_mut() {
            Some(r) if games[r.start].id / PACK_GAMES == g.id / PACK_GAMES => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// Writes `games_dir/replays-NNNNNN.js` for every pack that holds a game whose record can be
/// read, and returns the games' rows in the order of `games` (sorted by id) and the names of the
/// packs written.
pub fn write_packs(
    output_dir: &Path,
    games_dir: &Path,
    games: &[GameResult],
) -> anyhow::Result<(Vec<GameRow>, Vec<String>)> {
    let packs = packs(games);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, packs.len().max(1));
    let next = AtomicUsize::new(0);
    // The first pack that could not be written. Packs after it need not be written; packs before
    // it still are, in case one of them fails too and is the error to report.
    let failed = AtomicUsize::new(usize::MAX);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= packs.len() || i > failed.load(Ordering::Relaxed) {
                return done;
            }
            let result = write_pack(output_dir, games_dir, &games[packs[i].clone()]);
            if result.is_err() {
                failed.fetch_min(i, Ordering::Relaxed);
            }
            done.push((i, result));
        }
    };
    let mut results: Vec<Option<anyhow::Result<PackRows>>> =
        std::iter::repeat_with(|| None).take(packs.len()).collect();
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
    let mut written = Vec::new();
    for result in results {
        match result {
            Some(Ok((pack_rows, name))) => {
                rows.extend(pack_rows);
                written.extend(name);
            }
            Some(Err(e)) => return Err(e),
            None => unreachable!("every pack before the first failure is written"),
        }
    }
    Ok((rows, written))
}

/// Writes the pack of `games` (games of one pack) if one of them can be shown; returns their rows
/// and the pack's name when written.
fn write_pack(
    output_dir: &Path,
    games_dir: &Path,
    games: &[GameResult],
) -> anyhow::Result<PackRows> {
    let mut rows = Vec::with_capacity(games.len());
    let mut held = Vec::new();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for g in games {
        let (row, json) = game_data(output_dir, g);
        if let Some(json) = json {
            // JSON text has no raw line break, so a line holds exactly one game.
            write!(gz, "{} ", g.id)?;
            gz.write_all(&json)?;
            gz.write_all(b"\n")?;
            held.push(g.id);
        }
        rows.push(row);
    }
    let (Some(first), false) = (games.first(), held.is_empty()) else {
        return Ok((rows, None));
    };
    let name = pack_name(first.id);
    let pack = json!({
        "first": first.id - first.id % PACK_GAMES,
        "games": held,
        "data": BASE64_STANDARD.encode(gz.finish()?),
    });
    let path = games_dir.join(&name);
    games_folder::rewrite(&path, &script("ARENA_PACK", &pack))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok((rows, Some(name)))
}

/// The replay data of game `id` (JSON text) as a pack written by [`write_packs`] holds it, or
/// `None` when the pack does not hold the game.
#[cfg(test)]
pub fn unpack(pack: &Value, id: usize) -> Option<String> {
    use std::io::Read;
    let bytes = BASE64_STANDARD.decode(pack["data"].as_str()?).ok()?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .ok()?;
    let prefix = format!("{id} ");
    let line = text.lines().find(|l| l.starts_with(&prefix))?;
    Some(line[prefix.len()..].to_owned())
}
