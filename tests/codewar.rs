//! The code war end to end: the Rust example agents built for wasm and played against the WAT
//! ones, verified from the record; the templates of `arena new --game codewar` built and played;
//! the replay page in headless Chromium (Chromium and ChromeDriver are required, as for the
//! server's browser test: `scripts/install-test-tools.sh`; `ARENA_CHROMIUM`, `ARENA_CHROMEDRIVER`).

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use arena::game::{FaultPolicy, Outcome, Table};
use arena::games::codewar::record::verify_record;
use arena::games::codewar::{play, replay_json, templates, viewer, CodewarSettings};
use arena::records::RecordMeta;
use arena::sandbox::{Compiler, Limits, Sandbox};
use common::{text, workspace};

const EXAMPLES: [&str; 5] = ["crawler", "berserker", "borg", "poisoner", "spy"];

fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| Sandbox::with_compiler(Limits::default(), Compiler::in_process()).unwrap())
}

/// The Rust example agents, built once with the wasm-agent profile (their own target folder:
/// the outer `cargo test` may hold the lock on the main one).
fn rust_example(name: &str) -> Vec<u8> {
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
        assert!(out.status.success(), "building the code war examples failed:\n{}", text(&out));
        target.join("wasm32-unknown-unknown").join("wasm-agent")
    });
    std::fs::read(dir.join(format!("codewar_{name}.wasm"))).unwrap()
}

fn wat_example(name: &str) -> Vec<u8> {
    let path = workspace().join(format!("example-agents/wat/codewar-{name}.wat"));
    arena::games::codewar::agent_bytes(&path, 4096).unwrap()
}

fn table(names: &[String], seed: u64) -> Table {
    Table {
        seed,
        round_cap: 0,
        policy: FaultPolicy::Forfeit,
        meta: RecordMeta {
            names: names.to_vec(),
            agent_hashes: vec![None; names.len()],
            limits: std::sync::Arc::new(serde_json::Value::Null),
        },
    }
}

fn play_and_verify(agents: &[(String, Vec<u8>)], seed: u64) -> Vec<u8> {
    let names: Vec<String> = agents.iter().map(|a| a.0.clone()).collect();
    let modules: Vec<Vec<u8>> = agents.iter().map(|a| a.1.clone()).collect();
    let settings = CodewarSettings::default();
    let played = play(sandbox(), &table(&names, seed), &settings, &modules).unwrap();
    let v = verify_record(std::str::from_utf8(&played.record).unwrap(), sandbox())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.names, names);
    assert_eq!(
        played.summary.scores,
        Some(v.cells.iter().map(|&c| i64::from(c)).collect())
    );
    played.record
}

#[test]
fn the_rust_examples_play_the_wat_examples_and_the_record_verifies() {
    for e in EXAMPLES {
        let bytes = rust_example(e);
        assert!(bytes.len() <= 4096, "{e} is {} bytes", bytes.len());
    }
    let rust: Vec<(String, Vec<u8>)> =
        EXAMPLES.iter().map(|e| (format!("{e} (Rust)"), rust_example(e))).collect();
    let wat: Vec<(String, Vec<u8>)> =
        EXAMPLES.iter().map(|e| (format!("{e} (WAT)"), wat_example(e))).collect();
    play_and_verify(&rust, 11);
    // Each Rust agent against its WAT twin: the same behaviour, so neither side is wiped out
    // by something the other cannot do.
    for (r, w) in rust.iter().zip(&wat) {
        play_and_verify(&[r.clone(), w.clone()], 3);
    }
    // The borg, in Rust, keeps its counter in its own bytes: alone, it claims further and
    // further away and stays one valid module (one per iteration in the record).
    let record = play_and_verify(&[rust[2].clone()], 5);
    let text = String::from_utf8(record).unwrap();
    let claims: Vec<i64> = text
        .lines()
        .filter(|l| l.contains("\"type\":\"iteration\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["visits"][0][2], "claim", "{l}");
            v["visits"][0][3].as_i64().unwrap()
        })
        .collect();
    assert_eq!(claims[..5], [1, 2, 3, 4, 5]);
}

#[test]
fn the_templates_build_and_play() {
    let dir = common::temp_dir("codewar-templates");
    let fill = |text: &str| {
        text.replace("{{name}}", "my-agent")
            .replace("{{crate}}", "my-agent")
            .replace("{{sdk}}", &workspace().join("agent-sdk").display().to_string())
    };
    for (lang, files) in templates::TEMPLATES {
        let project = dir.join(lang);
        for (path, text) in files.iter() {
            let path = project.join(fill(path));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, fill(text)).unwrap();
        }
        let module = if *lang == "rust" {
            let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .current_dir(&project)
                .args(["build", "--release", "--target", "wasm32-unknown-unknown"])
                .env("CARGO_TARGET_DIR", dir.join("rust-target"))
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", text(&out));
            std::fs::read(dir.join("rust-target/wasm32-unknown-unknown/release/my_agent.wasm"))
                .unwrap()
        } else {
            arena::games::codewar::agent_bytes(&project.join("my-agent.wat"), 4096).unwrap()
        };
        assert!(module.len() <= 4096, "{lang}: {} bytes", module.len());
        let record = play_and_verify(
            &[
                (format!("template ({lang})"), module),
                ("crawler".into(), wat_example("crawler")),
            ],
            9,
        );
        let end: serde_json::Value =
            serde_json::from_str(String::from_utf8(record).unwrap().lines().last().unwrap())
                .unwrap();
        assert!(end["cells"][0].as_u64().unwrap() > 1, "{lang}: the template spreads: {end}");
    }
}

fn binary(var: &str, names: &[&str]) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "{} is needed for the viewer's browser test and was not found on PATH (install chromium \
         and chromium-driver with scripts/install-test-tools.sh, or set {var})",
        names[0]
    );
}

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn the_replay_page_shows_the_array_over_time() {
    use fantoccini::{ClientBuilder, Locator};

    let agents: Vec<(String, Vec<u8>)> =
        EXAMPLES.iter().map(|e| (e.to_string(), wat_example(e))).collect();
    let record = play_and_verify(&agents, 7);
    let replay = replay_json(&record).unwrap();
    let data: serde_json::Value = serde_json::from_slice(&replay).unwrap();
    let iterations = data["iterations"].as_array().unwrap().len();
    let outcome: Outcome = serde_json::from_value(data["end"]["outcome"].clone()).unwrap();
    let dir = common::temp_dir("codewar-viewer");
    let page = viewer::write_standalone(&dir, &replay, 3).unwrap();

    let chromium = binary("ARENA_CHROMIUM", &["chromium", "chromium-browser", "google-chrome"]);
    let chromedriver = binary("ARENA_CHROMEDRIVER", &["chromedriver"]);
    let port = free_port();
    let _driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let profile = dir.join("chromium-profile");
    std::fs::create_dir_all(&profile).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": chromium,
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-background-networking", "--no-first-run",
                         "--allow-file-access-from-files", "--window-size=1280,1000",
                         format!("--user-data-dir={}", profile.display())],
            }),
        );
        let started = Instant::now();
        let c = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(c) => break c,
                Err(_) if started.elapsed() < Duration::from_secs(30) => {
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Err(e) => panic!("cannot start a browser session: {e}"),
            }
        };
        let url = format!("file://{}?game=3", page.display());
        c.goto(&url).await.unwrap();
        c.wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css("#grid g.row"))
            .await
            .unwrap();
        let error = c.find(Locator::Id("load-error")).await.unwrap();
        assert!(!error.is_displayed().await.unwrap(), "{}", error.text().await.unwrap());
        let title = c.find(Locator::Id("title")).await.unwrap().text().await.unwrap();
        assert!(title.contains("Game 3") && title.contains("crawler"), "{title}");
        // A row per iteration, a rectangle per cell; at the start every row is hidden.
        let rows = c.find_all(Locator::Css("#grid g.row")).await.unwrap();
        assert_eq!(rows.len(), iterations);
        let cells = c.find_all(Locator::Css("#grid g.row[data-iteration='1'] rect.cell")).await.unwrap();
        assert_eq!(cells.len(), 100);
        let shown = |n: usize| {
            let c = c.clone();
            async move {
                let visible = c.find_all(Locator::Css("#grid g.row:not(.future)")).await.unwrap();
                assert_eq!(visible.len(), n);
            }
        };
        shown(0).await;
        let position = || {
            let c = c.clone();
            async move { c.find(Locator::Id("position")).await.unwrap().text().await.unwrap() }
        };
        assert!(position().await.starts_with("Start"));
        // Keyboard and buttons: forward twice, back once.
        let body = c.find(Locator::Css("body")).await.unwrap();
        body.send_keys("\u{E014}").await.unwrap(); // →
        body.send_keys("\u{E014}").await.unwrap();
        shown(2).await;
        c.find(Locator::Id("back")).await.unwrap().click().await.unwrap();
        shown(1).await;
        assert!(position().await.starts_with("Iteration 1 of"), "{}", position().await);
        // Iteration 1: every player's module entered, and the visits are listed.
        let visits = c.find(Locator::Id("visits")).await.unwrap().text().await.unwrap();
        assert!(visits.contains("its module entered"), "{visits}");
        assert!(visits.contains("copy 0 → +1"), "{visits}");
        // The end: every row, the outcome, the cells owned.
        c.find(Locator::Id("last")).await.unwrap().click().await.unwrap();
        shown(iterations).await;
        let banner = c.find(Locator::Id("banner")).await.unwrap().text().await.unwrap();
        match outcome {
            Outcome::Win { seat, .. } => {
                assert!(banner.contains(EXAMPLES[seat]) && banner.contains("wins"), "{banner}")
            }
            _ => assert!(banner.contains("Draw"), "{banner}"),
        }
        for (seat, n) in data["end"]["cells"].as_array().unwrap().iter().enumerate() {
            let row = format!("#counts tr[data-seat='{seat}'] td");
            let tds = c.find_all(Locator::Css(&row)).await.unwrap();
            assert!(tds[0].text().await.unwrap().contains(EXAMPLES[seat]));
            assert_eq!(tds[1].text().await.unwrap(), n.to_string(), "cells of seat {seat}");
        }
        // A click on a cell names its owner and its visit.
        let occupied = data["iterations"][0]["cells"]
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
        let picked = c.find(Locator::Id("picked")).await.unwrap().text().await.unwrap();
        assert!(picked.starts_with(&format!("Cell {occupied} after iteration 1")), "{picked}");
        assert!(picked.contains("Its visit"), "{picked}");
        // Play runs to the end by itself.
        c.find(Locator::Id("first")).await.unwrap().click().await.unwrap();
        for _ in 0..5 {
            c.find(Locator::Id("faster")).await.unwrap().click().await.unwrap();
        }
        c.find(Locator::Id("play")).await.unwrap().click().await.unwrap();
        let started = Instant::now();
        loop {
            let n = c.find_all(Locator::Css("#grid g.row:not(.future)")).await.unwrap().len();
            if n == iterations {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "play stopped at {n}");
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
