//! An agent's project folder: `arena new NAME --lang LANG [--game GAME]` creates a ready-to-build
//! agent in a new folder NAME from the game's template in that language
//! ([`crate::game::Game::templates`]: the agent's code) and the language's own files in
//! `project/templates/` (build files; the bindings are copied from
//! `agent-sdk/`; a Rust agent gets a copy of the SDK and the crates it depends on in `vendor/`, so
//! it builds without the arena's sources), and prints the commands that build and check it, one
//! per line, to be pasted one after the other. Python and JavaScript agents are WebAssembly
//! components (`project/components.rs`). The module an agent builds is named after its project (a
//! league names each agent after its file).

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::game::{Game, TemplateFile};

mod components;
pub mod folder;
pub mod sources;

/// The languages `arena new` knows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// Rust with the arena's SDK (agent-sdk/), for wasm32-unknown-unknown
    Rust,
    /// C without libc (clang --target=wasm32 and wasm-ld), with agent-sdk/c/arena.h
    C,
    /// WebAssembly text written by hand: nothing to build
    Wat,
    /// AssemblyScript (npm package assemblyscript), with agent-sdk/assemblyscript/arena.ts
    #[value(name = "assemblyscript", alias = "as")]
    AssemblyScript,
    /// Zig for wasm32-freestanding, with agent-sdk/zig/arena.zig
    Zig,
    /// Python, built into a WebAssembly component by componentize-py (PyPI)
    Python,
    /// JavaScript, built into a WebAssembly component by componentize-js (npm)
    #[value(name = "javascript", alias = "js")]
    JavaScript,
}

impl Lang {
    /// Every language, in the order messages list them.
    pub const ALL: [Lang; 7] = [
        Lang::Rust,
        Lang::C,
        Lang::Wat,
        Lang::AssemblyScript,
        Lang::Zig,
        Lang::Python,
        Lang::JavaScript,
    ];

    /// The name `--lang` takes, which games' templates give.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::C => "c",
            Lang::Wat => "wat",
            Lang::AssemblyScript => "assemblyscript",
            Lang::Zig => "zig",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
        }
    }
}

/// `--game`'s help: the games and the languages of their templates.
fn game_help() -> String {
    let games: Vec<String> = crate::games::registry()
        .all()
        .iter()
        .map(|g| {
            let langs: Vec<String> = Lang::ALL
                .into_iter()
                .filter(|l| files(*l, *g).is_some())
                .map(|l| l.to_string())
                .collect();
            format!("{} ({})", g.name(), langs.join(", "))
        })
        .collect();
    format!("The game the agent plays: {}", games.join("; "))
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lang::Rust => "Rust",
            Lang::C => "C",
            Lang::Wat => "WAT",
            Lang::AssemblyScript => "AssemblyScript",
            Lang::Zig => "Zig",
            Lang::Python => "Python",
            Lang::JavaScript => "JavaScript",
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// Folder to create; its last part names the agent
    #[arg(value_name = "NAME")]
    pub name: PathBuf,
    /// Language of the agent
    #[arg(long, value_enum, default_value = "rust")]
    pub lang: Lang,
    #[arg(
        long,
        value_name = "GAME",
        value_parser = crate::games::parse,
        default_value = crate::games::registry().first().name(),
        help = game_help()
    )]
    pub game: &'static dyn Game,
    /// Rust only: depend on this agent-sdk folder (of an arena checkout) instead of the copy of
    /// the SDK written into the project's vendor/ folder
    #[arg(long, value_name = "DIR")]
    pub sdk: Option<PathBuf>,
}

/// The version of the npm package `assemblyscript` the template pins (the one the example uses).
pub const ASSEMBLYSCRIPT_VERSION: &str = "0.28.20";

const C_HEADER: &str = include_str!("../../agent-sdk/c/arena.h");
const ZIG_BINDINGS: &str = include_str!("../../agent-sdk/zig/arena.zig");
const AS_BINDINGS: &str = include_str!("../../agent-sdk/assemblyscript/arena.ts");

// `VENDORED_SDK`: the Rust SDK and the crates it depends on, embedded by build.rs.
include!(concat!(env!("OUT_DIR"), "/vendored_sdk.rs"));

/// Where a Rust project holds its copy of the SDK (`VENDORED_SDK`'s paths are under it).
const VENDOR_DIR: &str = "vendor";

/// The files of a project of `game` in `lang`: the game's template and the language's own files;
/// `None` when the game has no template in that language.
fn files(lang: Lang, game: &dyn Game) -> Option<Vec<TemplateFile>> {
    let template = game.templates().iter().find(|t| t.lang == lang.name())?;
    let own: &[TemplateFile] = match lang {
        Lang::Rust => &[
            (
                "Cargo.toml",
                include_str!("project/templates/rust/Cargo.toml"),
            ),
            (".gitignore", "/target/\n"),
        ],
        Lang::C => &[("arena.h", C_HEADER), (".gitignore", "*.wasm\n")],
        Lang::Wat => &[],
        Lang::AssemblyScript => &[
            (
                "package.json",
                include_str!("project/templates/assemblyscript/package.json"),
            ),
            ("assembly/arena.ts", AS_BINDINGS),
            (
                ".gitignore",
                include_str!("project/templates/assemblyscript/gitignore"),
            ),
        ],
        Lang::Zig => &[
            ("arena.zig", ZIG_BINDINGS),
            (".gitignore", "*.wasm\n*.wasm.o\n.zig-cache/\nzig-out/\n"),
        ],
        Lang::Python | Lang::JavaScript => return Some(components::files(lang, template.files)),
    };
    Some(template.files.iter().chain(own).copied().collect())
}

/// The command that builds a project of `lang` for `game` named `name` (whose Rust library is
/// `lib`) inside its folder, and the module it produces (relative to the folder, named after the
/// project).
pub fn build_command(
    lang: Lang,
    game: &dyn Game,
    name: &str,
    lib: &str,
) -> (Option<String>, String) {
    match lang {
        Lang::Rust => (
            Some("cargo build --release --target wasm32-unknown-unknown".into()),
            format!("target/wasm32-unknown-unknown/release/{lib}.wasm"),
        ),
        Lang::C => (
            Some(format!(
                "clang --target=wasm32 -O2 -nostdlib -mbulk-memory -Wl,--no-entry \
                 -o {name}.wasm agent.c"
            )),
            format!("{name}.wasm"),
        ),
        Lang::Wat => (None, format!("{name}.wat")),
        Lang::AssemblyScript => (
            Some("npm install && npm run build".into()),
            format!("build/{name}.wasm"),
        ),
        Lang::Zig => (Some(zig_build(name, "zig")), format!("{name}.wasm")),
        Lang::Python | Lang::JavaScript => {
            let (command, module) = components::build_command(lang, game, name)
                .expect("a component language has a build command");
            (Some(command), module)
        }
    }
}

/// The Zig build command, with `zig` the way to run the compiler (`python3 -m ziglang` for Zig
/// from PyPI).
fn zig_build(name: &str, zig: &str) -> String {
    format!(
        "{zig} build-exe agent.zig -target wasm32-freestanding -O ReleaseFast -fno-entry \
         -rdynamic -femit-bin={name}.wasm"
    )
}

/// What `arena new` prints after creating a project: commands to paste one after the other (from
/// the folder `arena new` ran in), and comments (lines starting with `#`).
pub fn steps(lang: Lang, game: &dyn Game, dir: &Path, name: &str, lib: &str) -> Vec<String> {
    let (build, module) = build_command(lang, game, name, lib);
    let mut steps = vec![format!("cd {}", shell_word(&dir.display().to_string()))];
    match build {
        Some(b) => steps.push(b),
        None => steps.push("# nothing to build: the arena reads .wat files as they are".into()),
    }
    if lang == Lang::Zig {
        steps.push(format!(
            "# or, with Zig from PyPI (pip install ziglang): {}",
            zig_build(name, "python3 -m ziglang")
        ));
    }
    steps.push(format!("arena check {module}"));
    steps
}

/// `word` as one shell word: as it is when it holds nothing the shell would change, else quoted.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./+,:@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The agent's name from the folder's last part: letters, digits, `-` and `_` only.
fn agent_name(dir: &Path) -> anyhow::Result<String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ok = !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        bail!(
            "{name:?} cannot name an agent: use a letter, then letters, digits, '-' or '_' \
             (e.g. my-agent)"
        );
    }
    Ok(name)
}

/// The SDK folder given with `--sdk`, made absolute.
fn sdk_dir(dir: &Path) -> anyhow::Result<PathBuf> {
    let dir = std::fs::canonicalize(dir).with_context(|| {
        format!(
            "the agent SDK folder {} is not there; --sdk must name the agent-sdk/ folder of an \
             arena checkout",
            dir.display()
        )
    })?;
    if !dir.join("Cargo.toml").is_file() {
        bail!(
            "{} holds no Cargo.toml: --sdk must name the arena's agent-sdk/ folder",
            dir.display()
        );
    }
    Ok(dir)
}

/// Fills the `{{key}}` placeholders of a template.
fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = text.to_owned();
    for (key, value) in values {
        out = out.replace(&format!("{{{{{key}}}}}"), value);
    }
    out
}

/// Creates the project; returns the steps to print (see [`steps`]).
pub fn create(args: &NewArgs) -> anyhow::Result<Vec<String>> {
    let dir = &args.name;
    let name = agent_name(dir)?;
    if dir.exists() {
        bail!("{} already exists: choose a new folder", dir.display());
    }
    if args.sdk.is_some() && args.lang != Lang::Rust {
        bail!("--sdk is for Rust agents only");
    }
    let Some(files) = files(args.lang, args.game) else {
        let langs: Vec<String> = Lang::ALL
            .into_iter()
            .filter(|l| files(*l, args.game).is_some())
            .map(|l| l.to_string())
            .collect();
        bail!(
            "there is no {} template for {} (there is one for {}; docs/ABI.md describes the \
             exports to write by hand)",
            args.game.title(),
            args.lang,
            langs.join(" and ")
        );
    };
    let lib = name.replace('-', "_");
    let sdk = match (args.lang, &args.sdk) {
        (Lang::Rust, Some(dir)) => sdk_dir(dir)?.to_string_lossy().replace('\\', "/"),
        (Lang::Rust, None) => format!("{VENDOR_DIR}/arena-agent-sdk"),
        _ => String::new(),
    };
    if sdk.contains('\'') {
        bail!("the SDK path {sdk} contains a quote; move the arena's sources or use --sdk");
    }
    let values = [
        ("name", name.as_str()),
        ("crate", name.as_str()),
        ("lib", lib.as_str()),
        ("package", name.as_str()),
        ("sdk", sdk.as_str()),
        ("assemblyscript", ASSEMBLYSCRIPT_VERSION),
        ("world", components::world(args.game)),
        ("game", args.game.name()),
        ("title", args.game.title()),
        ("opponent", components::opponent(args.game)),
    ];
    let write = |path: &Path, text: &str| -> anyhow::Result<()> {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&target, text).with_context(|| format!("cannot write {}", target.display()))
    };
    for (path, text) in &files {
        write(Path::new(&fill(path, &values)), &fill(text, &values))?;
    }
    if args.lang == Lang::Rust && args.sdk.is_none() {
        for (path, text) in VENDORED_SDK {
            write(&Path::new(VENDOR_DIR).join(path), text)?;
        }
    }
    Ok(steps(args.lang, args.game, dir, &name, &lib))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(agent_name(Path::new("x/my-agent_2")).unwrap(), "my-agent_2");
        for bad in ["2fast", "my agent", "", "a.b", "-x"] {
            assert!(agent_name(Path::new(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn placeholders_are_filled_in_every_template() {
        for lang in Lang::ALL {
            let all = crate::games::registry()
                .all()
                .iter()
                .filter_map(|g| files(lang, *g));
            for (path, text) in all.flatten() {
                let filled = fill(
                    text,
                    &[
                        ("name", "n"),
                        ("crate", "n"),
                        ("lib", "n"),
                        ("package", "n"),
                        ("sdk", "/sdk"),
                        ("assemblyscript", ASSEMBLYSCRIPT_VERSION),
                        ("world", "farm"),
                        ("game", "little-animal-farm"),
                        ("title", "Little Animal Farm"),
                        ("opponent", "passer"),
                    ],
                );
                assert!(!filled.contains("{{"), "{lang}: {path} keeps a placeholder");
            }
        }
    }

    fn new_args(name: PathBuf, lang: Lang, game: &str) -> NewArgs {
        NewArgs {
            name,
            lang,
            game: crate::games::registry().by_name(game).unwrap(),
            sdk: None,
        }
    }

    #[test]
    fn farkle_agents_come_in_rust_and_wat() {
        let dir = std::env::temp_dir().join(format!("arena-new-farkle-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wat = dir.join("dice-bot");
        let _ = std::fs::remove_dir_all(&wat);
        let steps = create(&new_args(wat.clone(), Lang::Wat, "farkle")).unwrap();
        assert_eq!(steps[0], format!("cd {}", wat.display()));
        assert!(steps[1].starts_with("# nothing to build"), "{steps:?}");
        assert_eq!(steps[2], "arena check dice-bot.wat");
        let sb = crate::sandbox::Sandbox::new(
            crate::games::registry().agents(),
            crate::sandbox::Limits::default(),
        )
        .unwrap();
        let m = sb.load(&wat.join("dice-bot.wat")).unwrap();
        assert_eq!(m.games().len(), 1);
        assert_eq!(
            crate::games::registry().of_agent(m.games()[0]).name(),
            "farkle"
        );

        let rust = dir.join("rusty-dice");
        let _ = std::fs::remove_dir_all(&rust);
        create(&new_args(rust.clone(), Lang::Rust, "farkle")).unwrap();
        let lib = std::fs::read_to_string(rust.join("src/lib.rs")).unwrap();
        assert!(lib.contains("export_farkle_agent!(Agent);"), "{lib}");
        assert!(lib.contains("rusty_dice.wasm"), "{lib}");
        let manifest = std::fs::read_to_string(rust.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("name = \"rusty-dice\""), "{manifest}");

        let c = dir.join("c-dice");
        let err = create(&new_args(c.clone(), Lang::C, "farkle")).unwrap_err();
        assert!(
            err.to_string()
                .contains("no Farkle template for C (there is one for Rust and WAT"),
            "{err}"
        );
        assert!(!c.exists());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_javascript_template_pins_what_the_example_pins() {
        let example: serde_json::Value =
            serde_json::from_str(include_str!("../../example-agents/javascript/package.json"))
                .unwrap();
        let template: serde_json::Value =
            serde_json::from_str(include_str!("project/templates/javascript/package.json"))
                .unwrap();
        let pins = &example["devDependencies"];
        assert!(
            pins["@bytecodealliance/preview2-shim"].is_string(),
            "{pins}"
        );
        assert_eq!(&template["devDependencies"], pins);
    }

    #[test]
    fn component_projects_say_how_to_install_build_check_play_match_and_submit() {
        let dir = std::env::temp_dir().join(format!("arena-new-readme-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (lang, game, install, opponent) in [
            (
                Lang::Python,
                "jungle",
                "pip install componentize-py==0.25.1",
                "jungle-greedy",
            ),
            (Lang::JavaScript, "jungle", "npm install", "jungle-greedy"),
            (
                Lang::Python,
                "farkle",
                "pip install componentize-py==0.25.1",
                "farkle-banker",
            ),
            (
                Lang::JavaScript,
                "little-animal-farm",
                "npm install",
                "greedy",
            ),
        ] {
            let bot = dir.join(format!("{}-{game}", lang.name()));
            let steps = create(&new_args(bot.clone(), lang, game)).unwrap();
            let readme = std::fs::read_to_string(bot.join("README.md")).unwrap();
            let name = bot.file_name().unwrap().to_str().unwrap();
            assert!(readme.contains(install), "{readme}");
            // The build line `arena new` prints is in the README.
            assert!(
                readme.contains(steps[1].trim_start_matches("npm install && ")),
                "{readme}"
            );
            for line in [
                format!("arena check {name}.wasm"),
                format!("arena play {name}.wasm builtin:{opponent}"),
                format!("arena match {name}.wasm builtin:{opponent} --sprt"),
                "arena submit --server HOST:PORT --token TOKEN".to_owned(),
            ] {
                assert!(readme.contains(&line), "{line:?} not in\n{readme}");
            }
            assert!(!readme.contains("{{"), "{readme}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_template_pins_the_examples_assemblyscript() {
        let example = include_str!("../../example-agents/assemblyscript/package.json");
        assert!(
            example.contains(&format!("\"assemblyscript\": \"{ASSEMBLYSCRIPT_VERSION}\"")),
            "example-agents/assemblyscript/package.json pins another assemblyscript"
        );
    }
}
