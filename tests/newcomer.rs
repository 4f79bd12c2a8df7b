//! What a newcomer does, done literally: the commands are copied out of README.md and out of what
//! `arena new` prints, and run as they are in a temporary folder outside the checkout, with the
//! `arena` of this build on the PATH (in place of `cargo install --path host`). And the host's
//! side of a first challenge: checking many files, piping into `head`, Ctrl-C, a refused resume
//! that says why, a league that grows.
//!
//! (`tests/languages.rs` runs `arena new`'s printed steps for every language.)

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn readme() -> String {
    std::fs::read_to_string(workspace().join("README.md")).expect("README.md")
}

/// The fenced code blocks of `text` in `section` (from its heading to the next heading of the
/// same or a higher level), with their language.
fn code_blocks(text: &str, section: &str) -> Vec<(String, String)> {
    let start = text
        .find(&format!("{section}\n"))
        .unwrap_or_else(|| panic!("README.md has no heading {section:?}"));
    let level = section.chars().take_while(|&c| c == '#').count();
    let body = &text[start + section.len()..];
    // The next heading outside a code block (where `# ` starts a comment).
    let (mut end, mut offset, mut fenced) = (body.len(), 0, false);
    for l in body.split_inclusive('\n') {
        fenced ^= l.starts_with("```");
        let hashes = l.chars().take_while(|&c| c == '#').count();
        if !fenced && hashes > 0 && hashes <= level && l[hashes..].starts_with(' ') {
            end = offset;
            break;
        }
        offset += l.len();
    }
    let mut blocks = Vec::new();
    let mut lines = body[..end].lines();
    while let Some(line) = lines.next() {
        if let Some(lang) = line.strip_prefix("```") {
            let code: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push((lang.to_owned(), code.join("\n") + "\n"));
        }
    }
    blocks
}

/// A fresh folder for one test in the system's temporary folder: outside the checkout, so that no
/// cargo workspace or path around it leads back into the arena's sources.
fn outside_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-newcomer-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(!dir.starts_with(workspace()));
    dir
}

/// The PATH of a newcomer who installed the arena: this build's `arena` first.
fn path_with_arena() -> std::ffi::OsString {
    let arena_dir = Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap();
    let mut dirs = vec![arena_dir.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

/// Runs `script` (commands copied from the README or from `arena new`) in `dir` as a shell would,
/// one line after the other, stopping at the first that fails. Cargo works offline: the agent's
/// crates must all be there.
fn shell(dir: &Path, script: &str) -> Output {
    Command::new("sh")
        .arg("-e")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path_with_arena())
        .env("CARGO_NET_OFFLINE", "true")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("run sh")
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().unwrap() != "target" {
                files_under(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

#[test]
fn the_readme_rust_agent_builds_checks_and_plays_outside_the_checkout() {
    let readme = readme();
    let blocks = code_blocks(&readme, "## Writing an agent");
    let sh: Vec<&String> = blocks
        .iter()
        .filter(|(l, _)| l == "sh")
        .map(|(_, c)| c)
        .collect();
    let toml = &blocks
        .iter()
        .find(|(l, _)| l == "toml")
        .expect("a toml block")
        .1;
    let rust = &blocks
        .iter()
        .find(|(l, _)| l == "rust")
        .expect("a rust block")
        .1;
    assert!(sh.len() >= 2, "{blocks:?}");
    let dir = outside_dir("rust");

    let out = shell(&dir, sh[0]);
    assert!(out.status.success(), "{}:\n{}", sh[0], text(&out));
    let project = dir.join("my-agent");
    // The README shows the manifest `arena new` writes.
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).unwrap();
    assert_eq!(
        manifest, *toml,
        "README.md's Cargo.toml is not the one `arena new` writes"
    );
    // Nothing in the project points back into the arena's checkout.
    let mut files = Vec::new();
    files_under(&project, &mut files);
    let checkout = workspace().to_string_lossy().into_owned();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        assert!(
            !text.contains(&checkout) && !text.contains("../agent-sdk"),
            "{} refers to the arena's sources",
            f.display()
        );
    }
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("vendor/farm-rules/src/lib.rs")),
        "the rules crate the SDK re-exports is not shipped: {files:?}"
    );

    std::fs::write(project.join("src/lib.rs"), rust).unwrap();
    let out = shell(&dir, sh[1]);
    let printed = text(&out);
    assert!(out.status.success(), "{}:\n{printed}", sh[1]);
    assert!(
        printed.contains("OK: my_agent is a valid arena agent"),
        "{printed}"
    );
    assert!(
        printed.contains("fuel used"),
        "the game was not played:\n{printed}"
    );
    let size =
        std::fs::metadata(project.join("target/wasm32-unknown-unknown/release/my_agent.wasm"))
            .unwrap()
            .len();
    assert!(size < 100_000, "my_agent.wasm is {size} bytes");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_readme_says_how_to_install_arena_before_typing_it_and_the_rust_it_needs() {
    let readme = readme();
    let install = readme
        .find("cargo install --path host\n")
        .expect("README.md says `cargo install --path host` in a code block");
    let first_use = readme
        .match_indices("```sh\n")
        .flat_map(|(i, _)| {
            let block = &readme[i + 6..];
            let block = &block[..block.find("```").unwrap()];
            block
                .lines()
                .filter(|l| l.starts_with("arena "))
                .map(move |l| i + 6 + block.find(l).unwrap())
                .collect::<Vec<_>>()
        })
        .min()
        .expect("README.md types `arena`");
    assert!(
        install < first_use,
        "README.md types `arena` (at byte {first_use}) before saying how to install it"
    );
    assert!(readme.contains("`arena-stdio-agent`"));
    let workspace_toml = std::fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    let msrv = workspace_toml
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("rust-version")
        .trim_matches('"');
    assert!(
        readme.contains(&format!("needs Rust {msrv} or newer")),
        "README.md does not give the minimum Rust version {msrv}"
    );
}

/// The defaults of the league file's `[budgets]` in README.md's table are those `arena play
/// --help` shows (the sandbox's own defaults), key by key.
#[test]
fn the_readme_gives_the_budgets_defaults_the_arena_uses() {
    let readme = readme();
    let help = text(&run(&["play", "--help"]));
    let mut keys = 0;
    for line in readme.lines() {
        let Some(rest) = line.strip_prefix("| `[budgets]` `") else {
            continue;
        };
        let (key, rest) = rest.split_once('`').unwrap();
        let readme_default = rest
            .trim_start_matches([' ', '|'])
            .split('`')
            .nth(1)
            .unwrap_or_else(|| panic!("no default for {key} in {line:?}"));
        let flag = format!("--{} <", key.replace('_', "-"));
        let option = help
            .split("\n      --")
            .map(|o| format!("--{o}"))
            .find(|o| o.starts_with(&flag))
            .unwrap_or_else(|| panic!("`arena play --help` has no {flag}>:\n{help}"));
        let help_default = option
            .split("[default: ")
            .nth(1)
            .and_then(|d| d.split(']').next())
            .unwrap_or_else(|| panic!("no default in {option:?}"));
        assert_eq!(
            readme_default, help_default,
            "README.md's default of [budgets] {key}"
        );
        keys += 1;
    }
    assert_eq!(keys, 7, "the seven [budgets] keys are in README.md's table");
}

#[test]
fn example_agents_are_built_with_the_agent_profile() {
    // The README's first command names the example crates in arena.toml; the arena builds them.
    // (A target folder of its own: the outer `cargo test` may hold the main one's lock.)
    let out = arena()
        .args(["check", "--games", "1"])
        .arg(workspace().join("example-agents/greedy"))
        .env(
            "CARGO_TARGET_DIR",
            workspace().join("target/newcomer-agents"),
        )
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let size: u64 = text(&out)
        .lines()
        .find_map(|l| l.trim().strip_prefix("size:"))
        .and_then(|s| s.trim().strip_suffix(" bytes"))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no size in:\n{}", text(&out)));
    assert!(size < 100_000, "greedy.wasm is {size} bytes");
    assert!(
        text(&out).contains("wasm-agent/greedy.wasm"),
        "{}",
        text(&out)
    );
}

/// Every example agent's README gives the command that builds it ("Build: `cargo build …`"):
/// run as written from the checkout, it uses the agent profile and makes a module of the size
/// the README says, where the README says.
#[test]
fn the_example_agents_readmes_build_small_modules_as_written() {
    // A target folder of its own: the outer `cargo test` may hold the main one's lock.
    let target = workspace().join("target/newcomer-agents");
    let mut built = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace().join("example-agents"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let Ok(readme) = std::fs::read_to_string(dir.join("README.md")) else {
            continue;
        };
        let Some((_, rest)) = readme.split_once("Build: `cargo build") else {
            continue;
        };
        let (args, after) = rest.split_once('`').unwrap();
        let command = format!("cargo build{args}");
        let name = command.rsplit(" -p ").next().unwrap().to_owned();
        assert_eq!(
            command,
            format!("cargo build --profile wasm-agent --target wasm32-unknown-unknown -p {name}"),
            "{}",
            dir.display()
        );
        let o = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .current_dir(workspace())
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}: {}", text(&o));

        let module = format!(
            "target/wasm32-unknown-unknown/wasm-agent/{}.wasm",
            name.replace('-', "_")
        );
        let size = std::fs::metadata(target.join(&module["target/".len()..]))
            .unwrap_or_else(|e| panic!("{command}: {module}: {e}"))
            .len();
        assert!(size < 100_000, "{module} is {size} bytes");
        // What the README says of the module, up to the end of its paragraph.
        let said = after.split("\n\n").next().unwrap();
        if let Some((_, path)) = said.split_once("(`") {
            let path = path.split('`').next().unwrap();
            assert_eq!(path, module, "{}", dir.display());
        }
        if let Some((_, about)) = said.split_once("about ") {
            let kb: u64 = about.split(" KB").next().unwrap().parse().unwrap();
            assert!(
                size.abs_diff(kb * 1000) <= (kb * 1000 / 5).max(1000),
                "{}: about {kb} KB, built {size} bytes",
                dir.display()
            );
        }
        built.push(name);
    }
    for farm in EXAMPLES {
        assert!(built.iter().any(|b| b == farm), "{farm}: {built:?}");
    }
}

/// WAT agents (nothing to build) copied under the given names into `dir`.
fn wat_agents(dir: &Path, names: &[(&str, &str)]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|(name, source)| {
            let path = dir.join(format!("{name}.wat"));
            std::fs::copy(workspace().join("example-agents/wat").join(source), &path).unwrap();
            path
        })
        .collect()
}

#[test]
fn check_takes_many_files_with_one_verdict_each_a_summary_and_json() {
    let dir = outside_dir("check-many");
    let agents = wat_agents(
        &dir,
        &[("climber", "climber.wat"), ("passer", "passer.wat")],
    );
    let bad = dir.join("broken.wasm");
    std::fs::write(&bad, b"not wasm").unwrap();
    let out = arena()
        .args(["check", "--games", "1"])
        .args(&agents)
        .arg(&bad)
        .output()
        .unwrap();
    let printed = text(&out);
    assert_eq!(out.status.code(), Some(1), "{printed}");
    assert_eq!(printed.matches("\nchecking ").count() + 1, 3, "{printed}");
    assert_eq!(
        printed.matches("is a valid arena agent").count(),
        2,
        "{printed}"
    );
    assert!(
        printed.contains("3 agents checked: 2 passed, 1 failed")
            && printed.contains(&format!("FAIL {}: cannot load the agent", bad.display())),
        "{printed}"
    );

    let out = arena()
        .args(["check", "--games", "1", "--json"])
        .args(&agents)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["checked"], 3);
    assert_eq!(doc["passed"], 2);
    assert_eq!(doc["failed"], 1);
    let verdicts = doc["agents"].as_array().unwrap();
    assert_eq!(verdicts[0]["name"], "climber");
    assert_eq!(verdicts[0]["ok"], true);
    assert_eq!(
        verdicts[0]["games"],
        serde_json::json!(["little-animal-farm"])
    );
    assert_eq!(verdicts[2]["ok"], false);
    assert!(verdicts[2]["errors"][0]
        .as_str()
        .unwrap()
        .starts_with("cannot load the agent"));

    let out = arena()
        .args(["check", "--json"])
        .arg(&agents[0])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["passed"], 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `arena args` with its standard output closed from the start (a `| head` that has already
/// stopped reading).
fn with_stdout_closed(args: &[&std::ffi::OsStr], dir: &Path) -> Output {
    let mut child = arena()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

fn league_text(agents: &[PathBuf], extra: &str) -> String {
    let mut text = format!("{extra}\n");
    for a in agents {
        text.push_str(&format!("[[agent]]\npath = \"{}\"\n", a.display()));
    }
    text
}

#[test]
fn a_closed_stdout_is_quiet_and_the_league_still_writes_its_report() {
    let dir = outside_dir("pipe");
    let agents = wat_agents(
        &dir,
        &[("climber", "climber.wat"), ("passer", "passer.wat")],
    );
    std::fs::write(
        dir.join("league.toml"),
        league_text(&agents, "games_per_group = 4\noutput = \"out\""),
    )
    .unwrap();
    let os = |s: &str| std::ffi::OsString::from(s);
    let out = with_stdout_closed(
        &[&os("league"), &os("-q"), &os("-c"), &os("league.toml")],
        &dir,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    assert!(dir.join("out/report/index.html").is_file());
    assert!(dir.join("out/standings.json").is_file());

    for args in [
        vec![os("verify"), os("out")],
        vec![os("verify"), os("-v"), os("out")],
        vec![
            os("play"),
            agents[0].clone().into(),
            agents[1].clone().into(),
            os("--seed"),
            os("3"),
        ],
        vec![
            os("play"),
            agents[0].clone().into(),
            agents[1].clone().into(),
            os("--json"),
            os("--seed"),
            os("3"),
        ],
        vec![os("check"), agents[0].clone().into()],
        vec![os("new"), os("piped"), os("--lang"), os("wat")],
    ] {
        let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let out = with_stdout_closed(&refs, &dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn journal_games(out: &Path) -> usize {
    std::fs::read_to_string(out.join("journal.jsonl"))
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn ctrl_c_stops_a_league_saying_how_far_it_got() {
    let dir = outside_dir("ctrl-c");
    let agents = wat_agents(
        &dir,
        &[("climber", "climber.wat"), ("passer", "passer.wat")],
    );
    // Long enough that it is still playing when Ctrl-C comes.
    std::fs::write(
        dir.join("league.toml"),
        league_text(
            &agents,
            "games_per_group = 200000\nthreads = 1\noutput = \"out\"",
        ),
    )
    .unwrap();
    let child = arena()
        .args(["league", "-q", "-c", "league.toml"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while journal_games(&dir.join("out")) < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no game journaled"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let done = journal_games(&dir.join("out"));
    assert!(
        stderr.contains(&format!("interrupted after {done} of 200000 games"))
            && stderr.contains("`arena league --config league.toml --resume` continues"),
        "{stderr}"
    );
    assert!(done < 200_000);

    // The same league, now small enough to finish: the resume is refused and names the change.
    std::fs::write(
        dir.join("league.toml"),
        league_text(
            &agents,
            "games_per_group = 20\nthreads = 1\noutput = \"out\"",
        ),
    )
    .unwrap();
    let out = arena()
        .args(["league", "-q", "-c", "league.toml", "--resume"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("`games_per_group` was 200000, is now 20"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_refused_resume_names_what_changed_and_a_league_grows_with_extend() {
    let dir = outside_dir("extend");
    let agents = wat_agents(
        &dir,
        &[
            ("zebra", "climber.wat"),
            ("passer", "passer.wat"),
            ("climber", "climber.wat"),
            ("ant", "climber.wat"),
        ],
    );
    // The league file lives in a folder of its own and writes beside it, as leagues/ does.
    std::fs::create_dir(dir.join("leagues")).unwrap();
    let file = |agents: &[PathBuf], extra: &str| {
        std::fs::write(
            dir.join("leagues/grow.toml"),
            league_text(
                agents,
                &format!("games_per_group = 4\nthreads = 2\n{extra}"),
            ),
        )
        .unwrap();
    };
    let league = |args: &[&str]| {
        arena()
            .args(["league", "-q", "-c", "leagues/grow.toml"])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    file(&agents[..3], "output = \"../results/grow\"");
    let out = league(&[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("results: results/grow  (records in results/grow/records"),
        "the output folder is not shown as written plainly:\n{}",
        text(&out)
    );
    assert!(
        text(&out).contains("12 games (12 played now)"),
        "{}",
        text(&out)
    );

    // Other settings, or other code: refused, naming each change.
    file(
        &agents[..3],
        "output = \"../results/grow\"\nround_cap = 200",
    );
    let out = league(&["--resume"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("`round_cap` was 300, is now 200"),
        "{}",
        text(&out)
    );
    let out = league(&["--resume", "--extend"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("`round_cap` was 300, is now 200"),
        "{}",
        text(&out)
    );
    std::fs::copy(
        workspace().join("example-agents/wat/passer.wat"),
        &agents[0],
    )
    .unwrap();
    file(&agents[..3], "output = \"../results/grow\"");
    let out = league(&["--resume"]);
    assert!(
        text(&out).contains("agent `zebra`'s code changed"),
        "{}",
        text(&out)
    );
    std::fs::copy(
        workspace().join("example-agents/wat/climber.wat"),
        &agents[0],
    )
    .unwrap();

    // One agent more: --resume says --extend would do; --extend plays only its games.
    file(&agents, "output = \"../results/grow\"");
    let out = league(&["--resume"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("agent `ant` was added") && text(&out).contains("--resume --extend"),
        "{}",
        text(&out)
    );
    let out = league(&["--resume", "--extend"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("24 games (12 played now)"),
        "{}",
        text(&out)
    );

    // Byte for byte the league a fresh run of the grown file gives.
    file(&agents, "output = \"../results/fresh\"");
    let out = league(&[]);
    assert!(out.status.success(), "{}", text(&out));
    let (grown, fresh) = (
        result_files(&dir.join("results/grow")),
        result_files(&dir.join("results/fresh")),
    );
    assert_eq!(grown.len(), fresh.len());
    for ((gn, g), (fname, f)) in grown.iter().zip(&fresh) {
        assert_eq!(gn, fname);
        assert!(g == f, "{gn} differs from a fresh league's");
    }
    let out = arena()
        .args(["verify", "--league", "results/grow"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));

    // Extending what is already the league of the file plays nothing.
    file(&agents, "output = \"../results/grow\"");
    let out = league(&["--resume", "--extend"]);
    assert!(
        text(&out).contains("24 games (0 played now)"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_missing_agent_file_is_named_by_its_path() {
    let dir = outside_dir("missing");
    std::fs::write(
        dir.join("league.toml"),
        "[[agent]]\npath = \"./gone/../missing.wasm\"\n[[agent]]\npath = \"other.wasm\"\n",
    )
    .unwrap();
    let out = arena()
        .args(["league", "-c", "league.toml"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("agent file not found: missing.wasm ([[agent]] number 1)"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena` run in `dir` with its module cache (and so the built-in agents' files) in `dir/cache`.
fn arena_in(dir: &Path, args: &[&str]) -> Output {
    arena()
        .args(args)
        .current_dir(dir)
        .env("ARENA_CACHE_DIR", dir.join("cache"))
        .output()
        .unwrap()
}

#[test]
fn built_in_agents_play_match_league_and_verify_from_an_empty_folder_outside_the_checkout() {
    let dir = outside_dir("builtin");
    let out = arena_in(&dir, &["agents"]);
    assert!(out.status.success(), "{}", text(&out));
    let listed = text(&out);
    for game in [
        "--game little-animal-farm",
        "--game farkle",
        "--game jungle",
        "--game lightcycles",
        "--game codewar",
    ] {
        assert!(listed.contains(game), "{listed}");
    }
    let agents: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("builtin:"))
        .collect();
    assert_eq!(agents.len(), 20, "one line per agent:\n{listed}");
    assert!(
        agents.iter().any(|a| a.starts_with("jungle-search ")),
        "{listed}"
    );

    let out = arena_in(
        &dir,
        &["play", "builtin:greedy", "builtin:shepherd", "--seed", "3"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("shepherd wins"), "{}", text(&out));
    let out = arena_in(
        &dir,
        &[
            "match",
            "builtin:shepherd",
            "builtin:greedy",
            "--sprt",
            "-q",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "shepherd is better: {}",
        text(&out)
    );

    // A league of built-ins, its records naming the built-ins' hashes, verifies as a whole; the
    // published agents are the binary's, or the files `arena agents --export` writes.
    std::fs::write(
        dir.join("league.toml"),
        "games_per_group = 4\noutput = \"out\"\n\
         [[agent]]\npath = \"builtin:greedy\"\n\
         [[agent]]\npath = \"builtin:shepherd\"\n\
         [[agent]]\nname = \"dogs\"\npath = \"builtin:insurance\"\n",
    )
    .unwrap();
    let out = arena_in(&dir, &["league", "-c", "league.toml"]);
    assert!(out.status.success(), "{}", text(&out));
    let standings = std::fs::read_to_string(dir.join("out/standings.csv")).unwrap();
    for name in ["greedy", "shepherd", "dogs"] {
        assert!(standings.contains(name), "{standings}");
    }
    std::fs::create_dir_all(dir.join("none")).unwrap();
    let out = arena_in(&dir, &["verify", "--league", "out", "--agents", "none"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = arena_in(
        &dir,
        &["agents", "--game", "little-animal-farm", "--export", "pub"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(dir.join("pub/shepherd.wasm").is_file());
    let out = arena_in(&dir, &["verify", "--league", "out", "--agents", "pub"]);
    assert!(out.status.success(), "{}", text(&out));
    // A published file that is not the league's agent is named.
    std::fs::copy(dir.join("pub/passer.wasm"), dir.join("pub/greedy.wasm")).unwrap();
    let out = arena_in(&dir, &["verify", "--league", "out", "--agents", "pub"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("agent \"greedy\""), "{}", text(&out));

    // An unknown built-in is a usage error in a league file and on the command line.
    std::fs::write(
        dir.join("bad.toml"),
        "[[agent]]\npath = \"builtin:greedier\"\n",
    )
    .unwrap();
    let out = arena_in(&dir, &["league", "-c", "bad.toml"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("no built-in agent \"greedier\""),
        "{}",
        text(&out)
    );
    let out = arena_in(&dir, &["play", "builtin:greedy", "builtin:greedier"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("arena agents"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_missing_agent_is_a_usage_error_before_any_agent_is_built() {
    let dir = outside_dir("missing-before-build");
    let out = arena_in(&dir, &["new", "my-bot", "--lang", "wat"]);
    assert!(out.status.success(), "{}", text(&out));
    // An agent crate: building it would take a while, and leave target/ behind.
    let out = arena_in(&dir, &["new", "my-crate"]);
    assert!(out.status.success(), "{}", text(&out));
    for command in ["play", "match", "check"] {
        let out = arena_in(&dir, &[command, "my-crate", "example-agents/greedy"]);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", text(&out));
        assert!(
            text(&out).contains("agent example-agents/greedy: no such file or directory"),
            "{command}: {}",
            text(&out)
        );
        assert!(
            !dir.join("my-crate/target").exists(),
            "{command} built the crate first"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// What the stand-in server received: one request's content type and its form fields or body.
#[derive(Debug, Clone, Default)]
struct Received {
    authorization: String,
    content_type: String,
    /// Form fields: name, file name, contents.
    fields: Vec<(String, Option<String>, Vec<u8>)>,
    body: Vec<u8>,
}

/// A stand-in for `arena serve`'s `POST /api/submissions` on a free loopback port: it keeps what
/// it receives (parsing a multipart body with axum's extractor, as the server does) and accepts
/// every upload as version 7, but sources sent with the token `no-toolchain` (415). Returns the port and what it received so far.
fn stand_in_server() -> (u16, std::sync::Arc<std::sync::Mutex<Vec<Received>>>) {
    use axum::extract::{FromRequest, Multipart, Request};
    use axum::http::header;
    let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::<Received>::new()));
    let keep = received.clone();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let app = axum::Router::new().route(
                "/api/submissions",
                axum::routing::post(move |request: Request| {
                    let keep = keep.clone();
                    async move {
                        let (authorization, content_type) = {
                            let head = |name| {
                                request
                                    .headers()
                                    .get(name)
                                    .and_then(|v| v.to_str().ok())
                                    .unwrap_or_default()
                                    .to_owned()
                            };
                            (head(header::AUTHORIZATION), head(header::CONTENT_TYPE))
                        };
                        let mut got = Received {
                            authorization,
                            content_type,
                            ..Received::default()
                        };
                        if got.content_type.starts_with("multipart/form-data") {
                            let mut form = Multipart::from_request(request, &()).await.unwrap();
                            while let Some(field) = form.next_field().await.unwrap() {
                                let name = field.name().unwrap_or_default().to_owned();
                                let file = field.file_name().map(str::to_owned);
                                let bytes = field.bytes().await.unwrap().to_vec();
                                got.fields.push((name, file, bytes));
                            }
                        } else {
                            let body = axum::body::to_bytes(request.into_body(), 1 << 20);
                            got.body = body.await.unwrap().to_vec();
                        }
                        // The token `no-toolchain`: a server that cannot build sources.
                        let cannot_build =
                            got.authorization == "Bearer no-toolchain" && !got.fields.is_empty();
                        keep.lock().unwrap().push(got);
                        if cannot_build {
                            return (
                                axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE,
                                axum::Json(serde_json::json!({
                                    "error": "this server does not build python sources",
                                })),
                            );
                        }
                        (
                            axum::http::StatusCode::CREATED,
                            axum::Json(serde_json::json!({
                                "version": 7, "accepted": true, "report": "checked\n",
                            })),
                        )
                    }
                }),
            );
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    (port, received)
}

#[test]
fn submit_sends_sources_and_modules_to_a_server_named_without_its_scheme() {
    let dir = outside_dir("submit");
    let (port, received) = stand_in_server();
    let server = format!("127.0.0.1:{port}");
    let submit = |agent: &str| {
        arena()
            .args(["submit", "--server", &server, "--token", "t0k", agent])
            .current_dir(&dir)
            .env("ARENA_CACHE_DIR", dir.join("cache"))
            .output()
            .unwrap()
    };

    // A Python source file: its sources, for the server to build.
    std::fs::write(dir.join("bot.py"), "class WitWorld: pass\n").unwrap();
    let out = submit("bot.py");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("accepted: version 7"), "{}", text(&out));
    // A JavaScript folder made by `arena new`: its JavaScript sources, not its build files.
    let out = arena_in(
        &dir,
        &["new", "js-bot", "--lang", "javascript", "--game", "jungle"],
    );
    assert!(out.status.success(), "{}", text(&out));
    std::fs::create_dir_all(dir.join("js-bot/lib")).unwrap();
    std::fs::write(dir.join("js-bot/lib/moves.js"), "export const x = 1;\n").unwrap();
    let out = submit("js-bot");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // A built-in agent: its module.
    let out = submit("builtin:farkle-banker");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // A missing agent: a usage error, and nothing is sent.
    let out = submit("no-such-bot.py");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("no-such-bot.py: no such file"),
        "{}",
        text(&out)
    );

    let got = received.lock().unwrap().clone();
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(
        got.iter().all(|r| r.authorization == "Bearer t0k"),
        "{got:?}"
    );
    let field = |r: &Received, name: &str| -> Vec<(Option<String>, String)> {
        r.fields
            .iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, f, b)| (f.clone(), String::from_utf8_lossy(b).into_owned()))
            .collect()
    };
    assert!(
        got[0].content_type.starts_with("multipart/form-data"),
        "{got:?}"
    );
    assert_eq!(field(&got[0], "lang"), [(None, "python".to_owned())]);
    assert_eq!(field(&got[0], "entry"), [(None, "bot.py".to_owned())]);
    assert_eq!(
        field(&got[0], "file"),
        [(
            Some("bot.py".to_owned()),
            "class WitWorld: pass\n".to_owned()
        )]
    );
    assert_eq!(field(&got[1], "lang"), [(None, "javascript".to_owned())]);
    assert_eq!(field(&got[1], "entry"), [(None, "agent.js".to_owned())]);
    let files: Vec<Option<String>> = field(&got[1], "file").into_iter().map(|f| f.0).collect();
    assert_eq!(
        files,
        [Some("agent.js".to_owned()), Some("lib/moves.js".to_owned())]
    );
    assert_eq!(got[2].content_type, "application/wasm");
    let out = arena_in(&dir, &["agents", "--game", "farkle", "--export", "pub"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        got[2].body,
        std::fs::read(dir.join("pub/farkle-banker.wasm")).unwrap()
    );

    // A server without the language's toolchain: a refusal that says so, exit 1.
    let out = arena()
        .args([
            "submit",
            "--server",
            &server,
            "--token",
            "no-toolchain",
            "bot.py",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("refused: this server does not build python sources"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&dir).ok();
}
