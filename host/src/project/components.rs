//! The files of agents built as WebAssembly components (`arena new --lang python` and
//! `--lang javascript`): the game's template, the WIT package of the arena (`wit/`: the shared
//! types and every game's world), and the toolchain's build files and command. A JavaScript
//! project's build.mjs is example-agents/javascript/build.mjs, which its package.json runs for the
//! project's world.

use super::Lang;
use crate::game::{Game, TemplateFile};

/// The shared types of the WIT package, copied into every component project with every game's
/// world (the build reads the package from `wit/`).
const TYPES: TemplateFile = ("wit/types.wit", include_str!("../../../wit/types.wit"));

/// The files of a component project whose agent is `template` (the game's); `lang` is Python or
/// JavaScript.
pub(super) fn files(lang: Lang, template: &[TemplateFile]) -> Vec<TemplateFile> {
    let own: &[TemplateFile] = match lang {
        Lang::JavaScript => &[
            ("README.md", include_str!("templates/javascript/README.md")),
            (
                "build.mjs",
                include_str!("../../../example-agents/javascript/build.mjs"),
            ),
            (
                "package.json",
                include_str!("templates/javascript/package.json"),
            ),
            (".gitignore", "*.wasm\nnode_modules/\n"),
        ],
        _ => &[
            ("README.md", include_str!("templates/python/README.md")),
            (".gitignore", "*.wasm\n__pycache__/\n.venv/\n"),
        ],
    };
    let worlds = crate::games::registry()
        .all()
        .iter()
        .filter_map(|g| g.info().agent.component)
        .map(|w| w.wit_file());
    template
        .iter()
        .chain(own)
        .copied()
        .chain([TYPES])
        .chain(worlds)
        .collect()
}

/// The WIT world of `game`'s agents (the `{{world}}` placeholder); empty for a game without one.
pub(super) fn world(game: &dyn Game) -> &'static str {
    game.info().agent.component.map_or("", |w| w.short_name())
}

/// The built-in agent a component project's README plays against (`{{opponent}}`): the game's
/// second (they are listed weakest first, and the weakest may never win: `passer`).
pub(super) fn opponent(game: &dyn Game) -> &'static str {
    let mine: Vec<&'static str> = crate::builtin::all()
        .filter(|b| b.game == game.name())
        .map(|b| b.name)
        .collect();
    mine.get(1).or(mine.first()).copied().unwrap_or_default()
}

/// The build command of a component project named `name` (run in its folder) and the component
/// it makes, named after the project; `None` for a language that builds core modules.
pub fn build_command(lang: Lang, game: &dyn Game, name: &str) -> Option<(String, String)> {
    let command = match lang {
        // An empty virtual environment: only the standard library and this folder go into the
        // component, whatever packages the machine's Python has.
        Lang::Python => format!(
            "python3 -m venv --without-pip .venv && VIRTUAL_ENV=$PWD/.venv componentize-py \
             -d wit -w {} componentize agent -p . -o {name}.wasm",
            world(game)
        ),
        Lang::JavaScript => "npm install && npm run build".to_owned(),
        _ => return None,
    };
    Some((command, format!("{name}.wasm")))
}
