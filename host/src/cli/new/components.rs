//! The templates of agents built as WebAssembly components (`arena new --lang python` and
//! `--lang javascript`): the example strategies, the WIT package of the arena in `wit/`, and the
//! toolchain's build command.

use super::{Lang, TemplateFile};
use crate::game::GameKind;

/// The WIT package, copied into every component project (the build reads it from `wit/`).
const WIT: [TemplateFile; 4] = [
    ("wit/types.wit", include_str!("../../../../wit/types.wit")),
    ("wit/farm.wit", include_str!("../../../../wit/farm.wit")),
    ("wit/farkle.wit", include_str!("../../../../wit/farkle.wit")),
    ("wit/jungle.wit", include_str!("../../../../wit/jungle.wit")),
];

const PYTHON_FARM: &[TemplateFile] = &[
    ("agent.py", include_str!("templates/python/farm.py")),
    (".gitignore", "*.wasm\n__pycache__/\n.venv/\n"),
    WIT[0],
    WIT[1],
    WIT[2],
    WIT[3],
];

const PYTHON_FARKLE: &[TemplateFile] = &[
    ("agent.py", include_str!("templates/python/farkle.py")),
    (".gitignore", "*.wasm\n__pycache__/\n.venv/\n"),
    WIT[0],
    WIT[1],
    WIT[2],
    WIT[3],
];

const JAVASCRIPT_FARM: &[TemplateFile] = &[
    ("agent.js", include_str!("templates/javascript/farm.js")),
    ("build.mjs", include_str!("templates/javascript/build.mjs")),
    (
        "package.json",
        include_str!("templates/javascript/package.json"),
    ),
    (".gitignore", "*.wasm\nnode_modules/\n"),
    WIT[0],
    WIT[1],
    WIT[2],
    WIT[3],
];

const JAVASCRIPT_FARKLE: &[TemplateFile] = &[
    ("agent.js", include_str!("templates/javascript/farkle.js")),
    ("build.mjs", include_str!("templates/javascript/build.mjs")),
    (
        "package.json",
        include_str!("templates/javascript/package.json"),
    ),
    (".gitignore", "*.wasm\nnode_modules/\n"),
    WIT[0],
    WIT[1],
    WIT[2],
    WIT[3],
];

/// The files of a component project; `None` for a language that builds core modules.
pub(super) fn files(lang: Lang, game: GameKind) -> Option<&'static [TemplateFile]> {
    Some(match (lang, game) {
        (Lang::Python, GameKind::Farm) => PYTHON_FARM,
        (Lang::Python, GameKind::Farkle) => PYTHON_FARKLE,
        (Lang::JavaScript, GameKind::Farm) => JAVASCRIPT_FARM,
        (Lang::JavaScript, GameKind::Farkle) => JAVASCRIPT_FARKLE,
        _ => return None,
    })
}

/// The WIT world of `game`'s agents (the `{{world}}` placeholder).
pub(super) fn world(game: GameKind) -> &'static str {
    match game {
        GameKind::Farm => "farm",
        GameKind::Farkle => "farkle",
        GameKind::Jungle => "jungle",
    }
}

/// The build command of a component project named `name` (run in its folder) and the component
/// it makes, named after the project; `None` for a language that builds core modules.
pub fn build_command(lang: Lang, game: GameKind, name: &str) -> Option<(String, String)> {
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
