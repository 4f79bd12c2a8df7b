//! The league report: a static HTML site written into the league's output folder
//! (`report/index.html`, `report/replay.html?game=N`, `report/farkle.html?game=N` for Farkle
//! games and `report/jungle.html?game=N` for Jungle games) that works from `file://` on a machine with no network, e.g. the laptop plugged into
//! the projector at the end of a challenge.
//!
//! Browsers refuse `fetch()` of `file://` URLs, so every piece of data is a small script that
//! assigns a global (`report/data.js`, and the replay packs `report/games/replays-NNNNNN.js`, see
//! [`packs`]); the pages load them with
//! `<script src>`, which `file://` allows. The pages themselves are fixed templates
//! (`assets/`), so that the HTML, CSS and JS can be read and changed without touching Rust.

mod base64;
mod data;
mod games_folder;
pub(crate) mod json;
mod packs;
mod replay;
mod rows;
mod script;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::Context;

pub use data::{game_data, load_league, report_data, GameRow, LeagueFiles};
use packs::{pack_name, write_packs};
pub use replay::game_script_of_text;
use script::script;

/// Folder of the report inside a league output folder.
pub const REPORT_DIR: &str = "report";
/// Folder of the replay packs inside [`REPORT_DIR`].
pub const GAMES_DIR: &str = "games";

const ASSETS: [(&str, &str); 11] = [
    ("index.html", include_str!("assets/index.html")),
    ("replay.html", include_str!("assets/replay.html")),
    ("farkle.html", include_str!("assets/farkle.html")),
    ("farkle.js", include_str!("assets/farkle.js")),
    ("report.css", include_str!("assets/report.css")),
    ("common.js", include_str!("assets/common.js")),
    ("index.js", include_str!("assets/index.js")),
    ("game-list.js", include_str!("assets/game-list.js")),
    ("replay.js", include_str!("assets/replay.js")),
    ("jungle.html", crate::games::jungle::viewer::HTML),
    ("jungle.js", crate::games::jungle::viewer::JS),
];

/// The report's fixed page, style sheet or script named `name` (`replay.html`, `common.js`...):
/// `arena serve` serves the replay viewers from these same files.
pub fn asset(name: &str) -> Option<&'static str> {
    ASSETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// (Re)writes the report of the league in `output_dir` and returns the path of its
/// `index.html`. Reads only files of the output folder (standings.json, journal.jsonl, records).
/// A record that cannot be read is shown as such in the report rather than failing the whole
/// report: one damaged file must not hide the standings from the room.
pub fn write_report(output_dir: &Path) -> anyhow::Result<PathBuf> {
    let league = load_league(output_dir)?;
    let dir = output_dir.join(REPORT_DIR);
    let games_dir = dir.join(GAMES_DIR);
    // Packs of an earlier, different league must not linger next to the new ones.
    let names: HashSet<String> = league.games.iter().map(|g| pack_name(g.id)).collect();
    games_folder::prepare(&games_dir, &names)?;
    let (rows, written) = write_packs(output_dir, &games_dir, &league.games)?;
    let unwritten: Vec<String> = names.into_iter().filter(|n| !written.contains(n)).collect();
    games_folder::remove_unwritten(&games_dir, &unwritten)?;
    let summary = report_data(&league, &rows);
    write(&dir.join("data.js"), &script("ARENA_REPORT", &summary))?;
    for (name, text) in ASSETS {
        write(&dir.join(name), text.as_bytes())?;
    }
    Ok(dir.join("index.html"))
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests;
