//! The replay viewers' chrome, written once for every game: the page (`viewer.html`, rendered for
//! each game as its viewer's page, `PAGE?game=N`), its script (`viewer.js`: loading the game,
//! the title, the controls, the keys, stepping through the frames, the banner) and its style
//! sheet (`viewer.css`). A game's viewer is only what is its own: a script that draws its frames
//! and registers itself with `Arena.viewer({...})` (the interface is described at the top of
//! `viewer.js`), and its style sheet, listed in its [`Viewer`](crate::game::Viewer).

use askama::Template;

/// The chrome's own files, shared by every game's viewer: name and text.
pub const ASSETS: [(&str, &str); 2] = [
    ("viewer.js", include_str!("viewer.js")),
    ("viewer.css", include_str!("viewer.css")),
];

/// A game's viewer page: the chrome around the game's own scripts and style sheets.
#[derive(Template)]
#[template(path = "viewer.html")]
struct Page<'a> {
    /// The game's name (the page's `data-game`, by which the chrome finds its own viewer).
    game: &'a str,
    /// Shown until the game is loaded.
    title: &'a str,
    styles: Vec<&'a str>,
    scripts: Vec<&'a str>,
}

/// The viewer page of `game`: the chrome, with the game's files of `viewer.assets` that end in
/// `.css` as style sheets and in `.js` as scripts.
pub fn page(game: &dyn crate::game::Game) -> String {
    let files = || game.viewer().assets.iter().map(|(name, _)| *name);
    Page {
        game: game.info().name,
        title: game.info().title,
        styles: files().filter(|n| n.ends_with(".css")).collect(),
        scripts: files().filter(|n| n.ends_with(".js")).collect(),
    }
    .render()
    .expect("the viewer page renders (its values are plain strings)")
}

#[cfg(test)]
mod tests {
    /// Every game's viewer page is the chrome around the game's own files, and a game brings no
    /// page of its own: only scripts that register with the chrome, and style sheets.
    #[test]
    fn every_viewer_is_the_chrome_around_the_games_own_drawing() {
        for game in crate::games::registry().all() {
            let viewer = game.viewer();
            let name = game.info().name;
            let page = crate::report::asset(viewer.page)
                .unwrap_or_else(|| panic!("{name}: no page {}", viewer.page));
            assert!(page.contains(&format!("data-game=\"{name}\"")), "{page}");
            let chrome = page
                .find("<script src=\"viewer.js\">")
                .expect("the chrome's script");
            assert!(page.contains("<link rel=\"stylesheet\" href=\"viewer.css\">"));
            assert!(page.contains("id=\"controls\"") && page.contains("id=\"view\""));
            let scripts = viewer.assets.iter().filter(|(n, _)| n.ends_with(".js"));
            assert!(scripts.clone().count() > 0, "{name} has no script");
            for (file, text) in scripts {
                let at = page.find(&format!("<script src=\"{file}\">"));
                assert!(
                    at > Some(chrome),
                    "{name}: {file} after the chrome's script"
                );
                assert!(
                    text.contains("Arena.viewer({"),
                    "{file} registers with the chrome"
                );
            }
            for (file, _) in viewer.assets.iter().filter(|(n, _)| n.ends_with(".css")) {
                assert!(page.contains(&format!("href=\"{file}\"")), "{name}: {file}");
            }
            assert!(
                viewer
                    .assets
                    .iter()
                    .all(|(n, _)| n.ends_with(".js") || n.ends_with(".css")),
                "{name}: a viewer is its scripts and style sheets"
            );
        }
    }
}
