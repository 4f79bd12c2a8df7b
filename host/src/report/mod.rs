//! The league report: a static HTML site written into the league's output folder
//! (`report/index.html`, and each game's viewer, `report/PAGE?game=N`, from the game's folder)
//! that works from `file://` on a machine with no network, e.g. the laptop plugged into the
//! projector at the end of a challenge.
//!
//! Browsers refuse `fetch()` of `file://` URLs, so every piece of data is a small script that
//! assigns a global (`report/data.js`, and the replay packs `report/games/replays-NNNNNN.js`, see
//! [`packs`]); the pages load them with
//! `<script src>`, which `file://` allows. The pages themselves are fixed templates
//! (`assets/`, and the replay viewers' chrome in [`viewer`] around each game's drawing script), so
//! that the HTML, CSS and JS can be read and changed without touching Rust; `games.js` tells the
//! pages which viewer shows which game.

mod data;
mod games_folder;
pub use crate::game::json;
mod packs;
pub mod replay;
mod rows;
pub mod script;
mod viewer;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::Context;

pub use data::{game_data, load_league, report_data, GameRow, LeagueFiles};
use packs::{pack_name, write_packs};
pub use replay::{game_script_of_text, RecordLines};
use script::script;

/// Folder of the report inside a league output folder (the league's list of its files names it).
pub use crate::league::output::REPORT_DIR;
/// Folder of the replay packs inside [`REPORT_DIR`].
pub const GAMES_DIR: &str = "games";

/// The report's own pages, style sheet and scripts, shared by every game.
const ASSETS: [(&str, &str); 7] = [
    ("index.html", include_str!("assets/index.html")),
    ("game.html", include_str!("assets/game.html")),
    ("game.js", include_str!("assets/game.js")),
    ("report.css", include_str!("assets/report.css")),
    ("common.js", include_str!("assets/common.js")),
    ("index.js", include_str!("assets/index.js")),
    ("game-list.js", include_str!("assets/game-list.js")),
];

/// The script that tells the pages about the games (`window.ARENA_GAMES`): each game's title, its
/// viewer's page, the label of its link and the target of its solo games.
const GAMES_SCRIPT: &str = "games.js";

/// Every file of the report that is the same in every report: the shared assets, the viewers'
/// chrome, each game's viewer (its page, made from the chrome, and its own files), and `games.js`.
fn assets() -> &'static [(&'static str, &'static str)] {
    static ALL: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let games = crate::games::registry().all();
        let viewers = games.iter().flat_map(|g| {
            let page: &'static str = Box::leak(viewer::page(*g).into_boxed_str());
            std::iter::once((g.viewer().page, page)).chain(g.viewer().assets.iter().copied())
        });
        let info: serde_json::Map<String, serde_json::Value> = games
            .iter()
            .map(|g| {
                let info = g.info();
                let viewer = g.viewer();
                let about = serde_json::json!({
                    "title": info.title,
                    "page": viewer.page,
                    "link": viewer.link,
                    "solo_target": info.solo_target,
                });
                (info.name.to_owned(), about)
            })
            .collect();
        let script =
            String::from_utf8(script("ARENA_GAMES", &info)).expect("a script is UTF-8 text");
        let script: &'static str = Box::leak(script.into_boxed_str());
        ASSETS
            .iter()
            .copied()
            .chain(viewer::ASSETS)
            .chain(viewers)
            .chain([(GAMES_SCRIPT, script)])
            .collect()
    })
}

/// The report's fixed page, style sheet or script named `name` (`common.js`, a viewer's page...):
/// `arena serve` serves the replay viewers from these same files.
pub fn asset(name: &str) -> Option<&'static str> {
    assets()
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The page of the viewer of `game`'s replays (`PAGE?game=N` shows game N).
pub fn viewer_page(game: &dyn crate::game::Game) -> &'static str {
    game.viewer().page
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
    for (name, text) in assets() {
        write(&dir.join(name), text.as_bytes())?;
    }
    Ok(dir.join("index.html"))
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests;
