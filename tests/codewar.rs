//! The code war end to end, through the `arena` command: the Rust example agents built for wasm
//! (with the wasm-agent profile) in a league with the WAT ones, which verifies, repeats with
//! another thread count, and whose changed records are refused; `arena play`'s narration and
//! `arena check`'s smoke games; the report's replay page in headless Chromium (Chromium and
//! ChromeDriver are required, as for the server's browser test: `scripts/install-test-tools.sh`;
//! `ARENA_CHROMIUM`, `ARENA_CHROMEDRIVER`). The templates of `arena new --game codewar` are built
//! and checked in tests/languages.rs with the other games'.

mod browser_support;
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use browser_support::{browser, chromedriver, click, text_of, wait_for};
use common::{
    arena, league_args, named_league_file, run, s, standings, temp_dir, text,
    verifies_with_its_viewer, workspace,
};

const EXAMPLES: [&str; 5] = ["crawler", "berserker", "borg", "poisoner", "spy"];

/// The Rust example agents, built once with the wasm-agent profile (their own target folder:
/// the outer `cargo test` may hold the lock on the main one).
fn rust_example(name: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let target = workspace().join("target").join("e2e-codewar");
        let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cmd.current_dir(workspace()).args([
            "build",
            "--profile",
            "wasm-agent",
            "--target",
            "wasm32-unknown-unknown",
            "--target-dir",
        ]);
        cmd.arg(&target);
        for e in EXAMPLES {
            cmd.args(["-p", &format!("codewar-{e}")]);
        }
        let out = cmd.output().expect("run cargo");
        assert!(
            out.status.success(),
            "building the code war examples failed:\n{}",
            text(&out)
        );
        target.join("wasm32-unknown-unknown").join("wasm-agent")
    });
    dir.join(format!("codewar_{name}.wasm"))
}

fn wat_example(name: &str) -> PathBuf {
    workspace().join(format!("example-agents/wat/codewar-{name}.wat"))
}

/// A league file of `agents` (name, path) with the code war's keys.
fn league_file(dir: &Path, agents: &[(String, PathBuf)], head: &str) -> PathBuf {
    named_league_file(
        dir,
        &format!("name = \"code war test\"\ngame = \"codewar\"\n{head}"),
        agents,
    )
}

/// `arena play --game codewar` of the agent files `agents`, then `extra`.
fn play(agents: &[PathBuf], extra: &[&str]) -> Output {
    arena()
        .args(["play", "--game", "codewar"])
        .args(agents)
        .args(extra)
        .output()
        .expect("run arena")
}

fn records(out: &Path) -> Vec<PathBuf> {
    let mut r: Vec<PathBuf> = std::fs::read_dir(out.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    r.sort();
    r
}

#[test]
fn a_league_of_the_rust_and_wat_examples_verifies_repeats_and_refuses_changed_records() {
    let dir = temp_dir("codewar-league");
    let mut agents = Vec::new();
    for e in EXAMPLES {
        let rust = rust_example(e);
        let size = std::fs::metadata(&rust).unwrap().len();
        assert!(size <= 4096, "the Rust {e} is {size} bytes, more than S");
        agents.push((format!("{e}-rust"), rust));
        agents.push((format!("{e}-wat"), wat_example(e)));
    }
    let head = |threads: usize| {
        format!(
            "players_per_game = 3\ngames_per_group = 3\nseed = 17\nthreads = {threads}\n\
             [codewar]\narray_size = 80\niterations = 60\nmambo_step = 20\nreentry_every = 7\n"
        )
    };
    let out1 = dir.join("one-thread");
    let o = run(&league_args(
        &league_file(&dir, &agents, &head(1)),
        &out1,
        &["--quiet"],
    ));
    assert!(o.status.success(), "{}", text(&o));
    let standings = standings(&out1);
    let settings = &standings["settings"]["game_settings"];
    assert_eq!(
        (
            &settings["array_size"],
            &settings["iterations"],
            &settings["mambo_step"],
            &settings["reentry_every"],
            &settings["max_size"]
        ),
        (
            &serde_json::json!(80),
            &serde_json::json!(60),
            &serde_json::json!(20),
            &serde_json::json!(7),
            &serde_json::json!(4096)
        )
    );
    // C(10, 3) groups of 3 games.
    let records1 = records(&out1);
    assert_eq!(records1.len(), 360);
    verifies_with_its_viewer(&out1, "codewar");

    // Two threads play the very same games.
    let out2 = dir.join("two-threads");
    let o = run(&league_args(
        &league_file(&dir, &agents, &head(2)),
        &out2,
        &["--quiet"],
    ));
    assert!(o.status.success(), "{}", text(&o));
    for (a, b) in records1.iter().zip(records(&out2)) {
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(&b).unwrap(),
            "{a:?}"
        );
    }

    // A record whose cells were changed, whose module bytes were changed, or which was cut short
    // is refused, naming the line.
    let record = std::fs::read_to_string(&records1[0]).unwrap();
    let lines: Vec<&str> = record.lines().collect();
    let iteration = lines
        .iter()
        .position(|l| l.contains("\"type\":\"iteration\"") && l.contains("[0,0,"))
        .expect("an iteration line with a cell of seat 0");
    let module = lines
        .iter()
        .position(|l| l.contains("\"type\":\"module\""))
        .unwrap();
    let tampered = |i: usize, from: &str, to: &str| -> String {
        let mut l: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        assert!(l[i].contains(from), "{}", l[i]);
        l[i] = l[i].replacen(from, to, 1);
        l.join("\n") + "\n"
    };
    let b64 = serde_json::from_str::<serde_json::Value>(lines[module]).unwrap()["bytes"]
        .as_str()
        .unwrap()
        .to_owned();
    let changed_byte = {
        let mut b = b64.clone().into_bytes();
        b[10] = if b[10] == b'A' { b'B' } else { b'A' };
        String::from_utf8(b).unwrap()
    };
    for (what, text_of, wanted) in [
        (
            "a cell's owner",
            tampered(iteration, "[0,0,", "[1,0,"),
            format!(":{}: cells[", iteration + 1),
        ),
        (
            "a module's bytes",
            tampered(module, &b64, &changed_byte),
            format!(":{}: ", module + 1),
        ),
        (
            "the end line",
            lines[..lines.len() - 1].join("\n") + "\n",
            "truncated".to_owned(),
        ),
    ] {
        let file = dir.join("tampered.jsonl");
        std::fs::write(&file, text_of).unwrap();
        let o = run(&["verify", s(&file)]);
        assert!(!o.status.success(), "{what}: accepted");
        assert!(text(&o).contains(&wanted), "{what}: {}", text(&o));
    }
}

#[test]
fn play_narrates_the_array_and_check_runs_smoke_games() {
    let dir = temp_dir("codewar-play");
    let record = dir.join("game.jsonl");
    let o = play(
        &["crawler", "borg", "spy"].map(wat_example),
        &[
            "--seed",
            "3",
            "--set",
            "array_size=30",
            "--set",
            "iterations=12",
            "--record",
            s(&record),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("Code war: 3 players, an Array of 30 cells"),
        "{out}"
    );
    // A row of 30 owner marks per iteration, numbered.
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.trim_start()
                .split(' ')
                .next()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .collect();
    assert_eq!(rows.len(), 12, "{out}");
    for (i, row) in rows.iter().enumerate() {
        let mut words = row.split_whitespace();
        assert_eq!(words.next(), Some((i + 1).to_string().as_str()), "{row}");
        let marks = words.next().unwrap();
        assert_eq!(marks.len(), 30, "{row}");
        assert!(marks.chars().all(|c| ".ABCabc".contains(c)), "{row}");
    }
    assert!(out.contains("Result after 12 iterations"), "{out}");
    let o = run(&["verify", "-v", s(&record)]);
    assert!(o.status.success(), "{}", text(&o));
    // In the code war's words: it counts visits and rolls no dice.
    let said = text(&o);
    assert!(said.contains("(codewar: "), "{said}");
    assert!(said.contains(" visits, "), "{said}");
    assert!(said.contains(", seed 3)"), "{said}");
    assert!(!said.contains("dice"), "{said}");

    // Settings the game does not have, or out of bounds, and too many players are refused.
    for (set, named) in [("colour=red", "colour"), ("array_size=1", "array_size")] {
        let o = play(&["crawler", "borg"].map(wat_example), &["--set", set]);
        assert!(
            !o.status.success() && text(&o).contains(named),
            "{}",
            text(&o)
        );
    }
    let o = play(&vec![wat_example("crawler"); 7], &[]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("panicked"), "{}", text(&o));

    // `arena check`: an example passes its smoke games; an agent that traps at once fails them;
    // an agent of another game is not a code war agent.
    let o = run(&["check", s(&wat_example("poisoner"))]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Code war smoke games"), "{}", text(&o));
    let trap = workspace().join("tests/hostile/codewar/trap.wat");
    let o = run(&["check", s(&trap)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("segfaults at its first visit: trap"),
        "{}",
        text(&o)
    );
    let farkle = workspace().join("example-agents/wat/farkle-banker.wat");
    let o = play(&[farkle, wat_example("crawler")], &[]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("codewar_run"), "{}", text(&o));
}

#[test]
fn the_reports_replay_page_shows_the_array_over_time() {
    use fantoccini::Locator;

    // A league of the five WAT examples, all at one table: its report is the page under test.
    let dir = temp_dir("codewar-viewer");
    let agents: Vec<(String, PathBuf)> = EXAMPLES
        .iter()
        .map(|e| (e.to_string(), wat_example(e)))
        .collect();
    let out = dir.join("league");
    let file = league_file(
        &dir,
        &agents,
        "players_per_game = 5\ngames_per_group = 5\nseed = 7\n",
    );
    let o = run(&league_args(&file, &out, &["--quiet"]));
    assert!(o.status.success(), "{}", text(&o));
    let record = std::fs::read_to_string(out.join("records/game-000003.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = record
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let names: Vec<String> = lines[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    let iterations: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["type"] == "iteration").collect();
    let end = lines.last().unwrap();
    let page = out.join("report/codewar.html");
    assert!(page.is_file());

    let (_driver, port) = chromedriver();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let c = browser(port, &dir).await;
        // Another game's viewer sends a code war to its own page.
        let url = format!("file://{}?game=3", out.join("report/replay.html").display());
        c.goto(&url).await.unwrap();
        wait_for(&c, "#grid g.row", 20).await;
        assert!(c
            .current_url()
            .await
            .unwrap()
            .as_str()
            .contains("codewar.html"));
        let error = c.find(Locator::Id("load-error")).await.unwrap();
        assert!(
            !error.is_displayed().await.unwrap(),
            "{}",
            error.text().await.unwrap()
        );
        let title = text_of(&c, "title").await;
        assert!(
            title.contains("Game 3") && title.contains(&names[0]),
            "{title}"
        );
        // A row per iteration, a rectangle per cell; at the start every row is hidden.
        let rows = c.find_all(Locator::Css("#grid g.row")).await.unwrap();
        assert_eq!(rows.len(), iterations.len());
        let cells = c
            .find_all(Locator::Css("#grid g.row[data-iteration='1'] rect.cell"))
            .await
            .unwrap();
        assert_eq!(cells.len(), 100);
        let shown = |n: usize| {
            let c = c.clone();
            async move {
                let visible = c
                    .find_all(Locator::Css("#grid g.row:not(.future)"))
                    .await
                    .unwrap();
                assert_eq!(visible.len(), n);
            }
        };
        shown(0).await;
        let position = || {
            let c = c.clone();
            async move { text_of(&c, "position").await }
        };
        assert!(position().await.starts_with("Start"));
        // Keyboard and buttons: forward twice, back once.
        let body = c.find(Locator::Css("body")).await.unwrap();
        body.send_keys("\u{E014}").await.unwrap(); // →
        body.send_keys("\u{E014}").await.unwrap();
        shown(2).await;
        click(&c, "back").await;
        shown(1).await;
        assert!(
            position().await.starts_with("Iteration 1 of"),
            "{}",
            position().await
        );
        // Iteration 1: every player's module entered, and the visits are listed with their
        // instructions.
        let visits = text_of(&c, "visits").await;
        assert!(visits.contains("its module entered"), "{visits}");
        assert!(visits.contains("copy 0 → +1"), "{visits}");
        // The end: every row, the outcome, the cells owned.
        click(&c, "last").await;
        shown(iterations.len()).await;
        let banner = text_of(&c, "banner").await;
        match end["outcome"]["seat"].as_u64() {
            Some(seat) if end["outcome"]["result"] == "win" => assert!(
                banner.contains(&names[seat as usize]) && banner.contains("wins"),
                "{banner}"
            ),
            _ => assert!(banner.contains("Draw"), "{banner}"),
        }
        for (seat, n) in end["cells"].as_array().unwrap().iter().enumerate() {
            let row = format!("#counts tr[data-seat='{seat}'] td");
            let tds = c.find_all(Locator::Css(&row)).await.unwrap();
            assert!(tds[0].text().await.unwrap().contains(&names[seat]));
            assert_eq!(
                tds[1].text().await.unwrap(),
                n.to_string(),
                "cells of seat {seat}"
            );
        }
        // A click on a cell names its owner and its visit.
        let occupied = iterations[0]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| !c.is_null())
            .unwrap();
        c.find(Locator::Css(&format!(
            "#grid g.row[data-iteration='1'] rect.cell[data-cell='{occupied}']"
        )))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
        let picked = text_of(&c, "picked").await;
        assert!(
            picked.starts_with(&format!("Cell {occupied} after iteration 1")),
            "{picked}"
        );
        assert!(picked.contains("Its visit"), "{picked}");
        // Play runs to the end by itself.
        click(&c, "first").await;
        for _ in 0..5 {
            click(&c, "faster").await;
        }
        click(&c, "play").await;
        let started = Instant::now();
        loop {
            let n = c
                .find_all(Locator::Css("#grid g.row:not(.future)"))
                .await
                .unwrap()
                .len();
            if n == iterations.len() {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "play stopped at {n}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let shots = workspace().join("target").join("codewar-screenshots");
        std::fs::create_dir_all(&shots).unwrap();
        if let Ok(png) = c.screenshot().await {
            std::fs::write(shots.join("replay.png"), png).unwrap();
        }
        c.close().await.unwrap();
    });
}
