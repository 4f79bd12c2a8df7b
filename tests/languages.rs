//! Agents in other languages, built from source with their real toolchains: C (freestanding and
//! with wasi-libc), WAT, Zig, AssemblyScript and Rust with std for wasm32-wasip1. Each example
//! passes `arena check` and plays a league against the Rust example agents without a fault, and
//! `arena new` makes, for every language, a project that builds with the command it prints and
//! passes `arena check`.
//!
//! A missing toolchain fails these tests (with the command that installs it); it never skips them.
//! The install steps are those of `.ci/run` and docs/languages/.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use common::*;

/// Where the examples are built (outside the source tree).
fn out_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = workspace().join("target").join("lang-agents");
        std::fs::create_dir_all(&dir).expect("create target/lang-agents");
        dir
    })
    .clone()
}

/// How to install each tool, for the failure messages.
fn install_hint(program: &str) -> &'static str {
    match program {
        "clang" => "apt-get install clang lld wasi-libc libclang-rt-dev-wasm32",
        "python3" => "pip install ziglang (see .ci/run for the pinned version)",
        "npm" | "node" => "install Node.js 20 with npm",
        "sh" => "a POSIX shell",
        _ => "rustup target add wasm32-wasip1",
    }
}

/// Runs `cmd`; a tool that cannot be started or fails is a test failure with its output.
fn must(cmd: &mut Command, what: &str) -> Output {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "{what}: cannot run `{program}` ({e}): the toolchain is missing; {}",
            install_hint(&program)
        )
    });
    assert!(
        out.status.success(),
        "{what} failed ({:?}):\n{}",
        cmd,
        text(&out)
    );
    out
}

fn zig() -> Command {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "ziglang"]);
    let cache = out_dir().join("zig-cache");
    cmd.env("ZIG_LOCAL_CACHE_DIR", &cache)
        .env("ZIG_GLOBAL_CACHE_DIR", &cache);
    cmd
}

/// The AssemblyScript compiler of example-agents/assemblyscript, installed by `npm ci` there
/// (CI does it; the test does it too if it was not done).
fn assemblyscript_installed() -> PathBuf {
    static DONE: OnceLock<PathBuf> = OnceLock::new();
    DONE.get_or_init(|| {
        let dir = workspace().join("example-agents").join("assemblyscript");
        if !dir.join("node_modules/.bin/asc").exists() {
            must(
                Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund"])
                    .current_dir(&dir),
                "npm ci in example-agents/assemblyscript",
            );
        }
        dir
    })
    .clone()
}

/// Builds one example agent from source (once per test binary) and returns its module.
fn example(lang: &str) -> PathBuf {
    static BUILT: OnceLock<std::sync::Mutex<std::collections::HashMap<String, PathBuf>>> =
        OnceLock::new();
    let map = BUILT.get_or_init(Default::default);
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = map.get(lang) {
        return p.clone();
    }
    let ws = workspace();
    let out = out_dir();
    let sdk_c = ws.join("agent-sdk/c");
    let path = match lang {
        "c" => {
            let wasm = out.join("climber-c.wasm");
            must(
                Command::new("clang")
                    .args(["--target=wasm32", "-O2", "-nostdlib", "-mbulk-memory", "-I"])
                    .arg(&sdk_c)
                    .arg("-Wl,--no-entry")
                    .arg("-o")
                    .arg(&wasm)
                    .arg(ws.join("example-agents/c/climber.c")),
                "building the freestanding C example",
            );
            wasm
        }
        "c-wasi" => {
            let wasm = out.join("climber-c-wasi.wasm");
            must(
                Command::new("clang")
                    .args(["--target=wasm32-wasi", "-mexec-model=reactor", "-O2", "-I"])
                    .arg(&sdk_c)
                    .arg("-o")
                    .arg(&wasm)
                    .arg(ws.join("example-agents/c-wasi/climber.c")),
                "building the C example with wasi-libc",
            );
            wasm
        }
        "wat" => ws.join("example-agents/wat/climber.wat"),
        "zig" => {
            let wasm = out.join("climber-zig.wasm");
            must(
                zig()
                    .args([
                        "build-exe",
                        "-target",
                        "wasm32-freestanding",
                        "-O",
                        "ReleaseFast",
                        "-fno-entry",
                        "-rdynamic",
                        "--dep",
                        "arena",
                    ])
                    .arg(format!(
                        "-Mroot={}",
                        ws.join("example-agents/zig/climber.zig").display()
                    ))
                    .arg(format!(
                        "-Marena={}",
                        ws.join("agent-sdk/zig/arena.zig").display()
                    ))
                    .arg(format!("-femit-bin={}", wasm.display()))
                    .current_dir(&out),
                "building the Zig example",
            );
            wasm
        }
        "assemblyscript" => {
            let dir = assemblyscript_installed();
            must(
                Command::new("npm")
                    .args(["run", "--silent", "build"])
                    .current_dir(&dir),
                "building the AssemblyScript example (npm run build)",
            );
            let wasm = out.join("climber-as.wasm");
            std::fs::copy(dir.join("climber.wasm"), &wasm).expect("copy climber.wasm");
            wasm
        }
        "rust-wasi" => {
            let target = out.join("cargo");
            must(
                Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                    .current_dir(&ws)
                    .args([
                        "build",
                        "--profile",
                        "wasm-agent",
                        "--target",
                        "wasm32-wasip1",
                        "-p",
                        "rust-wasi-planner",
                        "--target-dir",
                    ])
                    .arg(&target),
                "building the Rust wasm32-wasip1 example (needs `rustup target add wasm32-wasip1`)",
            );
            let wasm = out.join("planner.wasm");
            std::fs::copy(target.join("wasm32-wasip1/wasm-agent/planner.wasm"), &wasm)
                .expect("copy planner.wasm");
            wasm
        }
        other => panic!("no example for {other}"),
    };
    map.insert(lang.to_owned(), path.clone());
    path
}

/// `arena check --logs` on a module: must pass; returns its output.
fn check(module: &Path) -> String {
    let out = run(&["check", "--logs", module.to_str().unwrap()]);
    let t = text(&out);
    assert!(
        out.status.success(),
        "arena check {}:\n{t}",
        module.display()
    );
    assert!(t.contains("valid arena agent"), "{t}");
    t
}

/// The agent names (file stems) that `arena check` gives these modules.
const LANGS: [&str; 6] = ["c", "c-wasi", "wat", "zig", "assemblyscript", "rust-wasi"];

#[test]
fn freestanding_c_example_passes_check() {
    let t = check(&example("c"));
    assert!(t.contains("arena::log"), "it logs through arena.log:\n{t}");
    assert!(t.contains("buying"), "its log shows its trades:\n{t}");
}

#[test]
fn wasi_c_example_passes_check_and_its_printf_lands_in_the_log() {
    let t = check(&example("c-wasi"));
    assert!(t.contains("_initialize"), "a WASI reactor:\n{t}");
    assert!(
        t.contains("players, round cap 300") && t.contains("from the stock"),
        "printf output is in the agent's log:\n{t}"
    );
}

#[test]
fn the_jungle_agent_of_the_c_page_builds_with_its_line_and_passes_check() {
    // docs/languages/c.md, "Other games": the C code and the clang line as the page gives them.
    let page = std::fs::read_to_string(workspace().join("docs/languages/c.md")).unwrap();
    let section = &page[page.find("## Other games").expect("the section")..];
    let block = |lang: &str| {
        let start = section.find(&format!("```{lang}\n")).unwrap() + lang.len() + 4;
        section[start..start + section[start..].find("```").unwrap()].to_owned()
    };
    let line = "clang --target=wasm32 -O2 -nostdlib -mbulk-memory -Wl,--no-entry -o first-move.wasm first-move.c";
    assert!(block("sh").starts_with(line), "{}", block("sh"));
    let dir = out_dir().join("c-page");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("first-move.c"), block("c")).unwrap();
    let args: Vec<&str> = line.split(' ').skip(1).collect();
    must(
        Command::new("clang").args(&args).current_dir(&dir),
        "building the Jungle agent of docs/languages/c.md",
    );
    let t = check(&dir.join("first-move.wasm"));
    assert!(t.contains("jungle_move: func(i32) -> i32"), "{t}");
    assert!(t.contains("Jungle"), "{t}");
}

#[test]
fn wat_example_passes_check() {
    let t = check(&example("wat"));
    assert!(t.contains("climber.wat: buying kind"), "{t}");
}

#[test]
fn zig_example_passes_check() {
    let t = check(&example("zig"));
    assert!(t.contains("buying a"), "{t}");
}

#[test]
fn assemblyscript_example_passes_check_without_env_abort() {
    let t = check(&example("assemblyscript"));
    assert!(
        !t.contains("env::abort"),
        "built with --use abort=...:\n{t}"
    );
    assert!(t.contains("buying a"), "{t}");
}

#[test]
fn rust_wasi_example_passes_check_and_its_println_lands_in_the_log() {
    let t = check(&example("rust-wasi"));
    assert!(t.contains("wasi_snapshot_preview1::fd_write"), "{t}");
    assert!(
        t.contains("planner: seat"),
        "println! output is in the log:\n{t}"
    );
}

#[test]
fn every_language_plays_a_league_against_the_rust_examples_without_faults() {
    let dir = temp_dir("languages-league");
    let mut toml = String::from("players_per_game = 2\ngames_per_group = 4\nround_cap = 300\n");
    for lang in LANGS {
        toml.push_str(&format!(
            "[[agent]]\nname = \"{lang}\"\npath = \"{}\"\n",
            example(lang).display()
        ));
    }
    for rust in EXAMPLES {
        toml.push_str(&format!(
            "[[agent]]\nname = \"{rust}\"\npath = \"{}\"\n",
            example_wasm(rust).display()
        ));
    }
    let file = dir.join("league.toml");
    std::fs::write(&file, toml).unwrap();
    let results = dir.join("out");
    let out = run(&league_args(&file, &results, &["--quiet"]));
    assert!(out.status.success(), "{}", text(&out));
    let standings = standings(&results);
    let agents = standings["agents"].as_array().expect("agents");
    assert_eq!(agents.len(), LANGS.len() + EXAMPLES.len());
    let row = |name: &str| {
        agents
            .iter()
            .find(|a| a["name"] == name)
            .unwrap_or_else(|| panic!("{name} is in the standings"))
    };
    for lang in LANGS {
        let a = row(lang);
        assert_eq!(
            a["faults"],
            serde_json::json!({}),
            "{lang} faulted:\n{}",
            text(&out)
        );
        assert_eq!(a["games"], 4 * (LANGS.len() + EXAMPLES.len() - 1) as u64);
        // Playing a real strategy: it wins games, and more than the passer, which cannot.
        let wins = a["wins"].as_u64().unwrap();
        assert!(
            wins > row("passer")["wins"].as_u64().unwrap() && wins >= 10,
            "{lang} won only {wins} games:\n{}",
            text(&out)
        );
    }
    // The records of the foreign agents replay.
    records_verify(&results);
}

/// `arena new NAME --lang LANG` in a fresh folder, then the printed build and check commands.
fn new_project_builds_and_passes_check(lang: &str) {
    new_game_project_builds_and_passes_check(lang, "little-animal-farm");
}

/// `arena new NAME --lang LANG --game GAME`, then the printed steps, pasted as they are into one
/// shell script (so a `cd` in one step holds for the next), with `arena` and `zig` on the PATH;
/// the check step plays smoke games of that game and passes.
fn new_game_project_builds_and_passes_check(lang: &str, game: &str) {
    let dir = temp_dir(&format!("new-{lang}-{game}"));
    let name = format!("my-{lang}-agent");
    let out = arena()
        .args(["new", &name, "--lang", lang, "--game", game])
        .current_dir(&dir)
        .output()
        .unwrap();
    let printed = text(&out);
    assert!(out.status.success(), "{printed}");
    let steps = printed_steps(&printed);
    assert_eq!(steps[0], format!("cd {name}"), "{printed}");
    assert!(
        steps.last().unwrap().starts_with("arena check "),
        "{printed}"
    );
    if lang == "assemblyscript" {
        // npm ci of the example filled npm's cache: install from it when it can.
        assemblyscript_installed();
    }
    let mut sh = Command::new("sh");
    sh.arg("-e")
        .arg("-c")
        .arg(steps.join("\n"))
        .current_dir(&dir)
        .env("PATH", tools_path())
        // The printed command builds into the project's own target/ folder, whatever
        // target folder the outer `cargo test` uses.
        .env_remove("CARGO_TARGET_DIR")
        .env("npm_config_prefer_offline", "true")
        .env("ZIG_LOCAL_CACHE_DIR", out_dir().join("zig-cache"))
        .env("ZIG_GLOBAL_CACHE_DIR", out_dir().join("zig-cache"));
    let out = must(
        &mut sh,
        &format!("the printed steps of `arena new --lang {lang} --game {game}`"),
    );
    let smoke = match game {
        "farkle" => "Farkle smoke games",
        "jungle" => "Jungle smoke games",
        "codewar" => "Code war smoke games",
        _ => "Little Animal Farm smoke games",
    };
    assert!(text(&out).contains(smoke), "{}", text(&out));
    assert!(text(&out).contains("OK: "), "{}", text(&out));
    // The module is named after the project, so agents of several projects do not clash.
    let module = steps.last().unwrap().trim_start_matches("arena check ");
    let stem = Path::new(module).file_stem().unwrap().to_string_lossy();
    assert_eq!(stem.replace('_', "-"), name, "{printed}");
}

/// The steps `arena new` printed: the indented lines after "Build and check it".
fn printed_steps(printed: &str) -> Vec<String> {
    printed
        .lines()
        .skip_while(|l| !l.starts_with("Build and check it"))
        .filter_map(|l| l.strip_prefix("    "))
        .map(str::to_owned)
        .collect()
}

/// The PATH for the printed steps: `arena` (this build), `zig` (the PyPI Zig the tests use,
/// behind a two-line script), then the PATH of the test.
fn tools_path() -> std::ffi::OsString {
    let shim = out_dir().join("zig-shim");
    std::fs::create_dir_all(&shim).unwrap();
    let zig = shim.join("zig");
    std::fs::write(&zig, "#!/bin/sh\nexec python3 -m ziglang \"$@\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&zig, std::fs::Permissions::from_mode(0o755)).unwrap();
    let arena_dir = Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap();
    let mut dirs = vec![arena_dir.to_path_buf(), shim];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

#[test]
fn arena_new_farkle_rust_builds_and_passes_check() {
    new_game_project_builds_and_passes_check("rust", "farkle");
}

#[test]
fn arena_new_farkle_wat_passes_check() {
    new_game_project_builds_and_passes_check("wat", "farkle");
}

#[test]
fn arena_new_codewar_rust_builds_and_passes_check() {
    new_game_project_builds_and_passes_check("rust", "codewar");
}

#[test]
fn arena_new_codewar_wat_passes_check() {
    new_game_project_builds_and_passes_check("wat", "codewar");
}

#[test]
fn arena_new_jungle_rust_builds_and_passes_check() {
    new_game_project_builds_and_passes_check("rust", "jungle");
}

#[test]
fn arena_new_jungle_wat_passes_check() {
    new_game_project_builds_and_passes_check("wat", "jungle");
}

#[test]
fn arena_new_c_builds_and_passes_check() {
    new_project_builds_and_passes_check("c");
}

#[test]
fn arena_new_wat_passes_check() {
    new_project_builds_and_passes_check("wat");
}

#[test]
fn arena_new_zig_builds_and_passes_check() {
    new_project_builds_and_passes_check("zig");
}

#[test]
fn arena_new_assemblyscript_builds_and_passes_check() {
    new_project_builds_and_passes_check("assemblyscript");
}

#[test]
fn arena_new_rust_builds_and_passes_check() {
    new_project_builds_and_passes_check("rust");
}

/// A folder made by `arena new` in every language that builds a core module (Rust crate folders
/// are built by cargo, as every example agent's), named wherever an agent is expected: `arena
/// check` (of all of them at once), `arena play` and a league file's `[[agent]] path`. The arena
/// builds each with its toolchain, and finds Zig from PyPI without a `zig` command on the PATH
/// (this test's PATH has none, as on a machine set up by scripts/install-test-tools.sh).
#[test]
fn a_folder_made_by_arena_new_in_any_language_is_an_agent_for_check_play_and_leagues() {
    let dir = temp_dir("new-folders");
    assemblyscript_installed();
    let langs = ["c", "zig", "assemblyscript", "wat"];
    let folder = |lang: &str| dir.join(format!("{lang}-bot"));
    for lang in langs {
        must(
            arena()
                .arg("new")
                .arg(folder(lang))
                .args(["--lang", lang])
                .current_dir(&dir),
            &format!("arena new --lang {lang}"),
        );
    }
    let with_tools = |cmd: &mut Command| {
        cmd.current_dir(&dir)
            .env_remove("CARGO_TARGET_DIR")
            .env("npm_config_prefer_offline", "true")
            .env("ZIG_LOCAL_CACHE_DIR", out_dir().join("zig-cache"))
            .env("ZIG_GLOBAL_CACHE_DIR", out_dir().join("zig-cache"));
    };
    let mut check = arena();
    check.arg("check");
    for lang in langs {
        check.arg(folder(lang));
    }
    with_tools(&mut check);
    let out = must(&mut check, "arena check of the folders");
    assert!(
        text(&out).contains(&format!(
            "{} agents checked: {} passed",
            langs.len(),
            langs.len()
        )),
        "{}",
        text(&out)
    );

    let mut play = arena();
    play.arg("play")
        .arg(folder("zig"))
        .arg(folder("assemblyscript"))
        .args(["--seed", "5"]);
    with_tools(&mut play);
    let out = must(&mut play, "arena play of two folders");
    assert!(text(&out).contains("zig-bot"), "{}", text(&out));

    let mut toml = String::from("players_per_game = 2\ngames_per_group = 2\nround_cap = 100\n");
    for lang in langs {
        toml.push_str(&format!("[[agent]]\npath = \"{lang}-bot\"\n"));
    }
    std::fs::write(dir.join("league.toml"), toml).unwrap();
    let mut league = arena();
    league.args([
        "league",
        "--config",
        "league.toml",
        "--output",
        "out",
        "--quiet",
    ]);
    with_tools(&mut league);
    must(&mut league, "a league of the folders");
    let standings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out/standings.json")).unwrap()).unwrap();
    let mut names: Vec<&str> = standings["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["assemblyscript-bot", "c-bot", "wat-bot", "zig-bot"]);
}

#[test]
fn arena_new_refuses_an_existing_folder_and_a_bad_name() {
    let dir = temp_dir("new-refused");
    std::fs::create_dir(dir.join("taken")).unwrap();
    let out = arena()
        .args(["new", "taken", "--lang", "c"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("already exists"), "{}", text(&out));
    let out = arena()
        .args(["new", "9 lives", "--lang", "zig"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(!dir.join("9 lives").exists());
}

#[test]
fn an_assemblyscript_abort_is_logged_with_its_message_and_is_a_trap() {
    let dir = assemblyscript_installed();
    let src = temp_dir("as-abort");
    std::fs::create_dir_all(src.join("assembly")).unwrap();
    std::fs::copy(
        workspace().join("agent-sdk/assemblyscript/arena.ts"),
        src.join("assembly/arena.ts"),
    )
    .unwrap();
    std::fs::write(
        src.join("assembly/index.ts"),
        "export { arena_abi_version, arena_buffer, arena_buffer_size } from \"./arena\";\n\
         export function farm_trade(len: i32): i32 { assert(len < 0, \"the sky fell\"); return 0; }\n\
         export function farm_accept(len: i32): i32 { return 0; }\n",
    )
    .unwrap();
    let wasm = src.join("abort.wasm");
    must(
        Command::new(dir.join("node_modules/.bin/asc"))
            .arg(src.join("assembly/index.ts"))
            .arg("--outFile")
            .arg(&wasm)
            .args([
                "--runtime",
                "stub",
                "--use",
                "abort=assembly/arena/arenaAbort",
            ])
            .current_dir(&src),
        "building an AssemblyScript agent that aborts",
    );
    let out = run(&["check", "--logs", "--games", "1", wasm.to_str().unwrap()]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "a trap fails the check:\n{t}");
    assert!(!t.contains("env::abort"), "{t}");
    assert!(
        t.contains("abort: the sky fell at assembly/index.ts:2"),
        "{t}"
    );
}
