//! The report's replay page of a code war (`viewer/`): the page and its script. The page uses
//! the report's shared `report.css` and `common.js` (controls, palette, `Arena.loadGame`).

use std::path::{Path, PathBuf};

/// The page that shows one game: `codewar.html?game=N`.
pub const PAGE: &str = "codewar.html";

/// The viewer's own files: name and text.
pub const ASSETS: &[(&str, &str)] = &[
    (PAGE, include_str!("viewer/codewar.html")),
    ("codewar.js", include_str!("viewer/codewar.js")),
];

/// The report's shared files the page loads.
const SHARED: &[(&str, &str)] = &[
    ("report.css", include_str!("../../report/assets/report.css")),
    ("common.js", include_str!("../../report/assets/common.js")),
];

/// Writes a folder that shows one game on its own: the page, its script, the report's shared
/// files, and the game's data `replay` (from [`super::replay_json`]) as game `id` in
/// `games/game-NNNNNN.js`, the file `Arena.loadGame` reads when no replay pack holds the game.
/// Returns the page's path (open it with `?game=ID`).
pub fn write_standalone(dir: &Path, replay: &[u8], id: usize) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir.join("games"))?;
    for (name, text) in ASSETS.iter().chain(SHARED) {
        std::fs::write(dir.join(name), text)?;
    }
    // JSON is JavaScript, but for the line and paragraph separators of older engines.
    let json = String::from_utf8_lossy(replay)
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029");
    let mut value: serde_json::Value = serde_json::from_str(&json)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    value["id"] = id.into();
    std::fs::write(
        dir.join("games").join(format!("game-{id:06}.js")),
        format!("window.ARENA_GAME = {value};\n"),
    )?;
    Ok(dir.join(PAGE))
}
