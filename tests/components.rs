//! Component agents (Python with componentize-py, JavaScript with componentize-js, Rust with
//! wit-bindgen) play wherever a core module plays: `arena play`, `check` and leagues of every
//! game, against core modules, with the same records, which `arena verify` accepts.
//!
//! The examples are built once into target/component-agents (see `common/components.rs`); a
//! missing toolchain fails the test with the command that installs it.

mod common;

use std::path::Path;

use common::components::{arena_cached, component};
use common::*;

fn run_cached(args: &[impl AsRef<std::ffi::OsStr>]) -> std::process::Output {
    arena_cached().args(args).output().expect("run arena")
}

fn write_league(dir: &Path, game: &str, agents: &[(&str, &Path)]) -> std::path::PathBuf {
    let head = format!(
        "name = \"components\"\ngame = \"{game}\"\nplayers_per_game = 2\ngames_per_group = 2\n\
         seed = 7\nround_cap = 120\nthreads = 2"
    );
    named_league_file(dir, &head, agents)
}

/// Runs the league of `file` into `dir/out`, checks that no game had a fault, and verifies the
/// league's records.
fn league_without_faults(dir: &Path, file: &Path) {
    let out = dir.join("out");
    let o = run_cached(&league_args(file, &out, &["--quiet"]));
    assert!(o.status.success(), "{}", text(&o));
    let records: Vec<_> = std::fs::read_dir(out.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!records.is_empty(), "the league wrote no record");
    for r in &records {
        let body = std::fs::read_to_string(r).unwrap();
        assert!(
            !body.contains("\"type\":\"fault\""),
            "{} records a fault:\n{body}",
            r.display()
        );
    }
    let o = run(&["verify", "--quiet", "--league", out.to_str().unwrap()]);
    assert!(o.status.success(), "arena verify --league: {}", text(&o));
}

#[test]
fn python_javascript_and_rust_components_play_a_farm_league_with_a_core_module() {
    let dir = temp_dir("components-farm");
    let (py, js, rs) = (
        component("py-climber"),
        component("js-climber"),
        component("rs-greedy"),
    );
    let greedy = example_wasm("greedy");
    let file = write_league(
        &dir,
        "little-animal-farm",
        &[("py", &py), ("js", &js), ("rs", &rs), ("greedy", &greedy)],
    );
    league_without_faults(&dir, &file);
}

#[test]
fn python_and_javascript_components_play_a_farkle_league_with_a_core_module() {
    let dir = temp_dir("components-farkle");
    let (py, js) = (component("py-farkle"), component("js-farkle"));
    let threshold = example_wasm("farkle-threshold");
    let file = write_league(
        &dir,
        "farkle",
        &[("py", &py), ("js", &js), ("threshold", &threshold)],
    );
    league_without_faults(&dir, &file);
}

#[test]
fn a_python_component_plays_a_jungle_league_with_core_modules_and_reads_its_fuel() {
    let dir = temp_dir("components-jungle");
    let py = component("py-jungle");
    let random = example_wasm("jungle-random");
    let greedy = example_wasm("jungle-greedy");
    let file = write_league(
        &dir,
        "jungle",
        &[("py", &py), ("random", &random), ("greedy", &greedy)],
    );
    league_without_faults(&dir, &file);
    // The component asked `fuel-left` in its first decision of every game: it has the cap less
    // what it spent so far.
    let record = std::fs::read_to_string(dir.join("out/records/game-000001.jsonl")).unwrap();
    let told = record
        .split("fuel left: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no fuel-left log in:\n{record}"));
    let left: u64 = told.split(' ').next().unwrap().parse().unwrap();
    assert!(left > 5_000_000 && left < 10_000_000, "{told}");
}

#[test]
fn a_played_component_game_replays_exactly_and_its_record_verifies() {
    let dir = temp_dir("components-play");
    let py = component("py-climber");
    let js = component("js-climber");
    let greedy = example_wasm("greedy");
    let mut records = Vec::new();
    for n in 0..2 {
        let record = dir.join(format!("game{n}.jsonl"));
        let o = run_cached(&[
            "play",
            py.to_str().unwrap(),
            greedy.to_str().unwrap(),
            js.to_str().unwrap(),
            "--seed",
            "99",
            "--record",
            record.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
        let o = run(&["verify", record.to_str().unwrap()]);
        assert!(o.status.success(), "arena verify: {}", text(&o));
        records.push(std::fs::read(&record).unwrap());
    }
    assert_eq!(
        records[0], records[1],
        "the same seed gives the same record"
    );
}

#[test]
fn check_reports_a_components_world_size_load_time_and_fuel() {
    let py = component("py-climber");
    let o = run_cached(&["check", py.to_str().unwrap()]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let size = std::fs::metadata(&py).unwrap().len();
    for expected in [
        "kind:        WebAssembly component".to_string(),
        "world:       arena:games/farm@1.0.0".to_string(),
        format!("size:        {size} bytes"),
        "load time:".to_string(),
        "fuel per decision:".to_string(),
        "OK:".to_string(),
    ] {
        assert!(out.contains(&expected), "missing {expected:?} in:\n{out}");
    }

    // The load time says whether it compiled or read the compiled code from the cache.
    let rs = component("rs-greedy");
    let compiled = arena_cached()
        .env("ARENA_CACHE_DIR", "")
        .args(["check", rs.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        text(&compiled).contains("(validate, compile, probe)"),
        "{}",
        text(&compiled)
    );
    // Once to fill the shared cache (if no other test did), then from it.
    let o = run_cached(&["check", rs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run_cached(&["check", rs.to_str().unwrap()]);
    assert!(
        text(&o).contains("(validate, compiled code read from the module cache, probe)"),
        "{}",
        text(&o)
    );
}

/// A JavaScript farm agent built for world `farm-json` (the view as JSON text) is given the same
/// views as when built for world `farm` (its log of a hash of each view is the same), plays the
/// same moves, and its record is the same but for the agent's identity (the setup line, and the
/// digest over it); both records verify.
#[test]
fn a_farm_json_component_sees_and_records_what_the_same_agent_of_world_farm_does() {
    let dir = temp_dir("components-farm-json");
    let mut records = Vec::new();
    for (name, world) in [
        ("js-viewlog", "arena:games/farm@1.0.0"),
        ("js-viewlog-json", "arena:games/farm-json@1.0.0"),
    ] {
        let agent = component(name);
        let o = run_cached(&["check", agent.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert!(
            text(&o).contains(&format!("world:       {world}\n")),
            "{name}: {}",
            text(&o)
        );
        let record = dir.join(format!("{name}.jsonl"));
        let o = run_cached(&[
            "play",
            agent.to_str().unwrap(),
            "builtin:greedy",
            agent.to_str().unwrap(),
            "--seed",
            "11",
            "--record",
            record.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let o = run(&["verify", record.to_str().unwrap()]);
        assert!(o.status.success(), "arena verify {name}: {}", text(&o));
        let text = std::fs::read_to_string(&record).unwrap();
        assert!(!text.contains("\"fault\""), "{name} faulted:\n{text}");
        let mut lines: Vec<String> = text.lines().skip(1).map(str::to_owned).collect();
        let end = lines.last_mut().expect("an end line");
        let digest = end.rfind(",\"digest\"").expect("a digest");
        end.truncate(digest);
        records.push(lines.join("\n"));
    }
    assert!(
        records[0].matches("view ").count() > 20,
        "the views are logged:\n{}",
        records[0]
    );
    assert_eq!(
        records[0], records[1],
        "world farm and world farm-json: the same views, moves and record"
    );
}

#[test]
fn a_component_of_the_other_world_is_refused_naming_its_world() {
    let farkle = component("js-farkle");
    let greedy = example_wasm("greedy");
    let o = run_cached(&[
        "play",
        "--game",
        "little-animal-farm",
        farkle.to_str().unwrap(),
        greedy.to_str().unwrap(),
    ]);
    assert!(!o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("component of world arena:games/farkle@1.0.0"),
        "{out}"
    );
}

#[test]
fn a_python_folder_made_by_arena_new_plays_is_rebuilt_only_when_a_source_changes() {
    let dir = temp_dir("components-new-python");
    let bot = dir.join("my-bot");
    let o = run(&["new", bot.to_str().unwrap(), "--lang", "python"]);
    assert!(o.status.success(), "{}", text(&o));
    let printed = text(&o);
    assert!(
        printed.contains("componentize-py -d wit -w farm componentize agent -p . -o my-bot.wasm"),
        "prints the build command: {printed}"
    );
    for file in ["agent.py", "wit/farm.wit", "wit/types.wit", ".gitignore"] {
        assert!(bot.join(file).is_file(), "{file} is missing");
    }
    let greedy = example_wasm("greedy");
    let play = || {
        run_cached(&[
            "play",
            bot.to_str().unwrap(),
            greedy.to_str().unwrap(),
            "--seed",
            "3",
        ])
    };
    let o = play();
    assert!(o.status.success(), "{}", text(&o));
    let built = bot.join("my-bot.wasm");
    let first = std::fs::metadata(&built).unwrap().modified().unwrap();
    let o = play();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::metadata(&built).unwrap().modified().unwrap(),
        first,
        "nothing changed: not built again"
    );

    // A source that does not compile: the build fails, naming the command and the error.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let source = bot.join("agent.py");
    let mut text_py = std::fs::read_to_string(&source).unwrap();
    text_py.push_str("\ndef broken(:\n");
    std::fs::write(&source, text_py).unwrap();
    let o = play();
    assert!(!o.status.success(), "{}", text(&o));
    let said = text(&o);
    assert!(said.contains("cannot build the Python agent"), "{said}");
    assert!(said.contains("componentize-py"), "{said}");
    assert!(said.contains("SyntaxError"), "{said}");
}

#[test]
fn arena_new_javascript_prints_its_build_writes_a_project_of_the_world_and_the_folder_plays() {
    let dir = temp_dir("components-new-javascript");
    let bot = dir.join("dice-bot");
    let o = run(&[
        "new",
        bot.to_str().unwrap(),
        "--lang",
        "javascript",
        "--game",
        "farkle",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("npm install && npm run build"),
        "{}",
        text(&o)
    );
    let package = std::fs::read_to_string(bot.join("package.json")).unwrap();
    assert!(
        package.contains("\"build\": \"node build.mjs farkle agent.js dice-bot.wasm\""),
        "{package}"
    );
    assert!(package.contains("\"name\": \"dice-bot\""), "{package}");
    assert!(
        package.contains("\"@bytecodealliance/componentize-js\": \"0.23.0\""),
        "{package}"
    );
    let agent = std::fs::read_to_string(bot.join("agent.js")).unwrap();
    assert!(agent.contains("export function draft"), "{agent}");

    // The folder is an agent: named on the command line, it is built (npm install, then the
    // build with componentize-js, from npm's cache when it can) and plays the solo benchmark.
    let o = arena_cached()
        .args(["play", bot.to_str().unwrap(), "--seed", "2"])
        .env("npm_config_prefer_offline", "true")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(bot.join("dice-bot.wasm").is_file(), "{}", text(&o));
    assert!(text(&o).contains("dice-bot"), "{}", text(&o));

    // A second install and build work: the template pins what componentize-js needs at run
    // time (@bytecodealliance/preview2-shim), as the example's package.json does.
    for step in [
        &["install", "--no-audit", "--no-fund"][..],
        &["run", "build"],
    ] {
        let o = std::process::Command::new("npm")
            .args(step)
            .current_dir(&bot)
            .env("npm_config_prefer_offline", "true")
            .output()
            .unwrap();
        assert!(o.status.success(), "npm {step:?}: {}", text(&o));
    }
    assert!(bot
        .join("node_modules/@bytecodealliance/preview2-shim")
        .is_dir());
}

#[test]
fn bench_components_measures_start_decision_and_games_of_each_agent() {
    let rs = component("rs-greedy");
    let o = arena_cached()
        .current_dir(workspace())
        .args(["bench", "--quick", "--json", "--components"])
        .arg(&rs)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let all = report["agents"].as_array().unwrap();
    assert_eq!(all.len(), 2, "greedy and the component: {all:?}");
    assert_eq!(all[1]["world"], "arena:games/farm@1.0.0");
    // The component's first load as a new agent; the core module has none.
    assert!(all[0]["first_compile"].is_null(), "{}", all[0]);
    assert!(
        all[1]["first_compile"]["wall_ms"].as_f64().unwrap() > 0.0,
        "{}",
        all[1]
    );
    // Each target of the component, with its value and whether it was met.
    let targets = report["targets"].as_array().unwrap();
    let figures: Vec<&str> = targets
        .iter()
        .map(|t| t["figure"].as_str().unwrap())
        .collect();
    assert_eq!(
        figures,
        [
            "first_compile_ms",
            "instantiate_vs_starter",
            "game_vs_starter"
        ]
    );
    for t in targets {
        assert_eq!(t["agent"], "rs-greedy", "{t}");
        let (value, target) = (t["value"].as_f64().unwrap(), t["target"].as_f64().unwrap());
        assert!(value > 0.0, "{t}");
        assert_eq!(t["met"].as_bool().unwrap(), value <= target, "{t}");
    }
    for f in all {
        for key in [
            "instantiate_us",
            "instantiate_cpu_us",
            "start_us",
            "decision_us",
            "games_per_s",
            "ms_per_game",
            "cpu_ms_per_game",
            "load_ms",
            "league_games_per_s",
        ] {
            assert!(f[key].as_f64().unwrap() > 0.0, "{key}: {f}");
        }
    }
}

/// A component's randomness and clocks come from the game's seed (docs/COMPONENTS.md,
/// "Imports"): Python's `random` and `os.urandom`, JavaScript's `Math.random` and the clocks of
/// both. The same seed gives the same numbers; another seed, or the other seat, other ones.
#[test]
fn python_and_javascript_randomness_and_clocks_follow_the_game_seed() {
    let dir = temp_dir("components-random");
    let cases = [
        (
            "python",
            "agent.py",
            "import os, random, time\n",
            "    def trade(self, view: View) -> Offer | None:\n",
            "        print('rnd', random.random(), os.urandom(4).hex(), time.time(), \
             time.monotonic(), 'seat', view.seat)\n",
        ),
        (
            "javascript",
            "agent.js",
            "",
            "export function trade(view) {\n",
            "  console.log('rnd', Math.random(), Date.now(), performance.now(), 'seat', view.seat);\n",
        ),
    ];
    for (lang, file, imports, at, line) in cases {
        let bot = dir.join(format!("{lang}-dice"));
        let o = run(&["new", bot.to_str().unwrap(), "--lang", lang]);
        assert!(o.status.success(), "{}", text(&o));
        let source = std::fs::read_to_string(bot.join(file)).unwrap();
        assert!(source.contains(at), "{lang}: the template has no {at:?}");
        let source = format!(
            "{imports}{}",
            source.replacen(at, &format!("{at}{line}"), 1)
        );
        std::fs::write(bot.join(file), source).unwrap();
        let logs = |seed: &str| -> Vec<String> {
            let o = arena_cached()
                .args(["play", bot.to_str().unwrap(), bot.to_str().unwrap()])
                .args(["--seed", seed, "--logs", "--rounds", "5"])
                .env("npm_config_prefer_offline", "true")
                .output()
                .unwrap();
            assert!(o.status.success(), "{lang}: {}", text(&o));
            let lines: Vec<String> = text(&o)
                .lines()
                .filter_map(|l| l.split_once("] rnd ").map(|(_, r)| r.to_owned()))
                .collect();
            assert!(lines.len() >= 4, "{lang}: {}", text(&o));
            lines
        };
        let (first, again, other) = (logs("1"), logs("1"), logs("2"));
        assert_eq!(first, again, "{lang}: the same seed, the same numbers");
        let number = |l: &str| l.split_whitespace().next().unwrap().to_owned();
        assert_ne!(
            first.iter().map(|l| number(l)).collect::<Vec<_>>(),
            other.iter().map(|l| number(l)).collect::<Vec<_>>(),
            "{lang}: another seed, other numbers"
        );
        let seat = |s: &str| {
            first
                .iter()
                .find(|l| l.ends_with(&format!("seat {s}")))
                .map(|l| number(l))
                .unwrap_or_else(|| panic!("{lang}: no line of seat {s}: {first:?}"))
        };
        assert_ne!(seat("0"), seat("1"), "{lang}: each seat its own numbers");
    }
}

/// An exception in a Python or JavaScript agent is told in its language, once with its count, in
/// `arena check` (whose failing report stays short), `arena play` and the record, which verifies.
#[test]
fn an_exception_is_told_in_the_agents_language_once_with_its_count() {
    let dir = temp_dir("components-exceptions");
    for (name, error) in [
        (
            "py-indexerror",
            "trade: IndexError: list index out of range [Python traceback, most recent call \
             last: File \"py_indexerror.py\", line 57, in trade]",
        ),
        (
            "js-typeerror",
            "trade: can't access property \"animals\", view.herds[(view.seat + 5)] is undefined \
             [JavaScript stack: trade@js-typeerror.js:49:23]",
        ),
    ] {
        let agent = component(name);
        let o = run_cached(&["check", agent.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let report = text(&o);
        assert!(report.lines().count() <= 60, "a short report:\n{report}");
        assert_eq!(
            report.matches(error).count(),
            2,
            "FAULT and FAIL:\n{report}"
        );
        assert!(!report.contains("unreachable"), "{report}");
        assert!(
            report.contains(&format!("{error} (the same fault in 199 more decisions)")),
            "{report}"
        );

        let record = dir.join(format!("{name}.jsonl"));
        let o = run_cached(&[
            "play",
            agent.to_str().unwrap(),
            "builtin:greedy",
            "--seed",
            "5",
            "--record",
            record.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
        assert!(text(&o).contains(error), "{}", text(&o));
        let recorded = std::fs::read_to_string(&record).unwrap();
        let json = serde_json::to_string(error).unwrap();
        assert!(recorded.contains(&json[1..json.len() - 1]), "{recorded}");
        let o = run(&["verify", record.to_str().unwrap()]);
        assert!(o.status.success(), "arena verify: {}", text(&o));
    }
}

/// `arena new --lang python --game jungle` makes a Jungle agent that builds, passes its check and
/// plays a built-in agent.
#[test]
fn a_python_jungle_agent_made_by_arena_new_builds_checks_and_plays() {
    let dir = temp_dir("components-new-jungle-python");
    let bot = dir.join("den-bot");
    let o = run(&[
        "new",
        bot.to_str().unwrap(),
        "--lang",
        "python",
        "--game",
        "jungle",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("componentize-py -d wit -w jungle"),
        "{}",
        text(&o)
    );
    assert!(bot.join("README.md").is_file());
    let o = run_cached(&[
        "play",
        bot.to_str().unwrap(),
        "builtin:jungle-greedy",
        "--seed",
        "4",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Result: "), "{}", text(&o));
    let o = run_cached(&["check", bot.join("den-bot.wasm").to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("OK: den-bot is a valid arena agent"),
        "{}",
        text(&o)
    );
}
