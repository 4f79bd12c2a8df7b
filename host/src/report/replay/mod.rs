//! The replay viewers' data for one game, from its record's lines: this file reads the record and
//! hands its lines to the game its setup line names ([`crate::game::Game::replay`]), which makes
//! the data its viewer animates (`crate::game::replay` says how).

use std::io::Read;
use std::path::Path;

use anyhow::Context;

use super::script::script_of_json;
use crate::game::json::Json;
use crate::game::Game;

pub use crate::game::replay::{of_type, player_names, RecordLines, NULL};

/// The replay data of game `id` as JSON, from its record file, whose path from the report folder
/// is `record`; and the game's name. The report stores it compressed in its replay packs.
pub fn game_json(path: &Path, id: usize, record: &str) -> anyhow::Result<(&'static str, Vec<u8>)> {
    let text = read_record_text(path)?;
    let lines = parse_record_lines(path, &text)?;
    replay_data(id, record, &lines)
}

/// The data script of game `id` (`window.ARENA_GAME = ...;`) from its record file, whose path
/// from the report folder is `record`; and the game's name.
#[cfg(test)]
pub fn game_script(
    path: &Path,
    id: usize,
    record: &str,
) -> anyhow::Result<(&'static str, Vec<u8>)> {
    let text = read_record_text(path)?;
    game_script_of_text(&path.display().to_string(), &text, id, record)
}

/// The data script of game `id` from the text of its record (`source` names it in errors), with a
/// link to the record at `record`; and the game's name. `arena serve` makes its replays with it.
pub fn game_script_of_text(
    source: &str,
    text: &str,
    id: usize,
    record: &str,
) -> anyhow::Result<(&'static str, Vec<u8>)> {
    let lines = parse_record_lines(Path::new(source), text)?;
    let (game, data) = replay_data(id, record, &lines)?;
    Ok((game, script_of_json("ARENA_GAME", &data)))
}

/// The text of a record file (`.jsonl`, or gzip-compressed `.jsonl.gz`).
fn read_record_text(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .with_context(|| format!("cannot decompress {}", path.display()))?;
        Ok(s)
    } else {
        String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))
    }
}

/// The non-blank lines of a record's text, parsed; an error names the file and the line.
fn parse_record_lines<'t>(path: &Path, text: &'t str) -> anyhow::Result<Vec<Json<'t>>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).with_context(|| format!("{}:{}", path.display(), i + 1))
        })
        .collect()
}

/// The replay data of game `id` (JSON), whose record file is at `record` (relative to the report
/// folder), by the game its setup line names (a record without `game` is the first game's, as
/// records were before there were other games); and the game's name.
fn replay_data(
    id: usize,
    record: &str,
    lines: &[Json<'_>],
) -> anyhow::Result<(&'static str, Vec<u8>)> {
    let setup = of_type(lines, "setup")
        .next()
        .context("the record has no setup line")?;
    let game: &'static dyn Game = match setup.get("game").and_then(Json::as_str) {
        Some(name) => crate::games::registry().by_name(name)?,
        None => crate::games::registry().first(),
    };
    let record = RecordLines {
        id,
        record,
        setup,
        lines,
    };
    Ok((game.name(), game.replay(&record)?))
}
