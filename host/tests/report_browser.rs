//! End-to-end test of the league report in a real browser: plays a small league of the example
//! strategies (natively, through the same ABI bytes a wasm agent sees) plus an agent that crashes,
//! writes the report, opens it from file:// in headless Chromium, and checks what the pages show
//! against the league's own files. Screenshots go to target/report-screenshots/.
//!
//! The browser is driven with Chromium's own command-line modes: `--dump-dom` prints the page
//! after its scripts ran, `--screenshot` saves a PNG. The replay viewer takes its position from
//! the URL (`replay.html?game=N&turn=end`), so no remote-control protocol is needed.
//!
//! Chromium is required: without it this test fails (it never skips). Install it with
//! `apt-get install -y chromium`, or point `ARENA_CHROMIUM` at a Chromium or Chrome binary.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arena::farm::{AcceptView, FarmGame, FarmPlayer, Fault, FaultKind, Observation};
use arena::league::{play_league, Contestant, LeagueConfig, RunOptions};
use arena::native::NativePlayer;
use arena_agent_sdk::FarmAgent;
use farm_rules::Offer;
use serde_json::Value;

const ANIMALS: [&str; 7] = [
    "rabbit",
    "sheep",
    "pig",
    "cow",
    "horse",
    "small_dog",
    "big_dog",
];

struct Native<A>(std::marker::PhantomData<fn() -> A>, u32);

impl<A: FarmAgent + Default + 'static> Contestant<FarmGame> for Native<A> {
    fn new_player(&self) -> Box<dyn FarmPlayer> {
        Box::new(NativePlayer::<A>::new().round_cap(self.1))
    }
    fn code_hash(&self) -> Option<String> {
        None
    }
}

/// Passes, then traps on its fifth trade decision of every game.
struct Crasher;
struct CrasherPlayer(u32);

impl FarmPlayer for CrasherPlayer {
    fn trade(&mut self, _obs: &Observation) -> Result<Offer, Fault> {
        self.0 += 1;
        if self.0 == 5 {
            return Err(Fault::new(
                FaultKind::Trap,
                "wasm trap: unreachable executed",
            ));
        }
        Ok(Offer::PASS)
    }
    fn accept(&mut self, _obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        Ok(false)
    }
}

impl Contestant<FarmGame> for Crasher {
    fn new_player(&self) -> Box<dyn FarmPlayer> {
        Box::new(CrasherPlayer(0))
    }
    fn code_hash(&self) -> Option<String> {
        None
    }
}

fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("ARENA_CHROMIUM") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "Chromium is needed for the report's browser test and was not found on PATH \
         (install it with `apt-get install -y chromium`, or set ARENA_CHROMIUM)"
    );
}

struct Browser {
    exe: PathBuf,
    profile: PathBuf,
}

impl Browser {
    fn new(work: &Path) -> Browser {
        let profile = work.join("chromium-profile");
        std::fs::create_dir_all(&profile).unwrap();
        Browser {
            exe: chromium(),
            profile,
        }
    }

    /// Runs headless Chromium on `url` with `extra` arguments; returns its standard output.
    fn run(&self, url: &str, extra: &[String]) -> String {
        let mut cmd = Command::new(&self.exe);
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            // Lets the replay's script-loaded data and any timers settle before the dump.
            "--virtual-time-budget=4000",
        ])
        .arg(format!("--user-data-dir={}", self.profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.exe.display()));
        let mut stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let out_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let deadline = Instant::now() + Duration::from_secs(90);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium did not finish within 90 s on {url}");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let out = out_reader.join().unwrap();
        let err = err_reader.join().unwrap();
        assert!(
            status.success(),
            "chromium failed ({status}) on {url}:\n{err}"
        );
        out
    }

    fn dom(&self, url: &str) -> String {
        let dom = self.run(url, &["--dump-dom".into()]);
        assert!(dom.contains("</html>"), "no page from {url}: {dom:.500}");
        dom
    }

    fn screenshot(&self, url: &str, file: &Path, width: u32, height: u32) {
        let _ = std::fs::remove_file(file);
        self.run(
            url,
            &[
                format!("--screenshot={}", file.display()),
                format!("--window-size={width},{height}"),
            ],
        );
        let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        assert!(
            size > 10_000,
            "screenshot {} is missing or empty",
            file.display()
        );
    }
}

fn file_url(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap();
    format!("file://{}", abs.display())
}

/// The text of the element that follows `attr` (e.g. `data-k="wins"`) inside `html`.
fn text_after<'a>(html: &'a str, attr: &str) -> Option<&'a str> {
    let at = html.find(attr)?;
    let rest = &html[at..];
    let start = rest.find('>')? + 1;
    let end = rest[start..].find('<')? + start;
    Some(rest[start..end].trim())
}

/// The part of `html` from `start` to the next `end`.
fn slice<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let at = html
        .find(start)
        .unwrap_or_else(|| panic!("`{start}` is not on the page"));
    let rest = &html[at..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

fn number(shown: &str) -> f64 {
    shown
        .replace('\u{2212}', "-")
        .replace('+', "")
        .parse()
        .unwrap_or_else(|_| panic!("`{shown}` is not a number"))
}

fn read_record(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap();
    let text = if path.extension().is_some_and(|e| e == "gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    };
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn report_and_replay_in_headless_chromium() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-browser");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("report-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let browser = Browser::new(&work);

    // A league like a small real one: four example strategies and one agent that crashes.
    let names = ["greedy", "insurance", "trader", "shepherd", "crasher"];
    let mut text = String::from(
        "name = 'Browser test league'\nplayers_per_game = 2\ngames_per_group = 4\nseed = 2024\nround_cap = 300\ncompress_records_over = 20000\n",
    );
    for name in names {
        std::fs::write(work.join(format!("{name}.wasm")), b"").unwrap();
        text.push_str(&format!("[[agent]]\npath = '{name}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, &work).unwrap();
    cfg.output = work.join("results");
    let cap = cfg.round_cap;
    let greedy = Native::<greedy::Greedy>(Default::default(), cap);
    let insurance = Native::<insurance::Insurance>(Default::default(), cap);
    let trader = Native::<trader::Trader>(Default::default(), cap);
    let shepherd = Native::<shepherd::Shepherd>(Default::default(), cap);
    let contestants: [&dyn Contestant<FarmGame>; 5] =
        [&greedy, &insurance, &trader, &shepherd, &Crasher];
    let opts = RunOptions {
        fresh: true,
        threads: Some(2),
        quiet: true,
        ..RunOptions::default()
    };
    let run = play_league(
        &FarmGame,
        &cfg,
        &contestants,
        &serde_json::json!({"native": true}),
        &opts,
    )
    .unwrap();
    let index = arena::report::write_report(&cfg.output).unwrap();

    // The standings table lists every agent with the numbers of standings.json.
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(cfg.output.join("standings.json")).unwrap())
            .unwrap();
    let dom = browser.dom(&file_url(&index));
    assert!(dom.contains("Browser test league"), "league name shown");
    let table = slice(&dom, "id=\"standings\"", "</table>");
    let agents = standings["agents"].as_array().unwrap();
    assert_eq!(agents.len(), names.len());
    assert_eq!(table.matches("<tr data-agent=").count(), names.len());
    for a in agents {
        let name = a["name"].as_str().unwrap();
        let row = slice(table, &format!("data-agent=\"{name}\""), "</tr>");
        let cell = |k: &str| {
            text_after(row, &format!("data-k=\"{k}\""))
                .unwrap_or_else(|| panic!("{name}: no {k} cell"))
                .to_owned()
        };
        assert_eq!(cell("name"), name);
        for k in ["rank", "games", "wins", "draws", "losses"] {
            assert_eq!(cell(k), a[k].to_string(), "{name}: {k}");
        }
        let close = |k: &str, shown: f64, want: f64, tol: f64| {
            assert!(
                (shown - want).abs() <= tol + 1e-9,
                "{name}: {k} shown {shown}, standings.json {want}"
            )
        };
        close(
            "win_rate",
            number(&cell("win_rate")),
            100.0 * a["win_rate"].as_f64().unwrap(),
            0.05,
        );
        close(
            "rating",
            number(&cell("rating")),
            a["rating"].as_f64().unwrap(),
            0.5,
        );
        close(
            "rating_error",
            number(&cell("rating_error")),
            a["rating_error"].as_f64().unwrap(),
            0.5,
        );
    }
    // The crasher's faults are listed with their reason, and every game links to its replay.
    let faults = slice(&dom, "id=\"faults\"", "</section>");
    assert!(faults.contains("crasher") && faults.contains("wasm trap: unreachable executed"));
    let games = slice(&dom, "id=\"games\"", "</table>");
    assert_eq!(
        games.matches("<tr data-game=").count(),
        run.results.len(),
        "every game is listed"
    );
    for r in &run.results {
        assert!(
            games.contains(&format!("href=\"replay.html?game={}\"", r.id)),
            "game {} links to its replay",
            r.id
        );
    }
    assert!(dom.contains("<svg viewBox"), "charts are drawn");

    // A replay stepped to the win shows the record's final herds and the winner.
    let game = run
        .results
        .iter()
        .filter(|r| r.outcome.winner().is_some() && r.forfeits.is_empty())
        .max_by_key(|r| (r.turns, std::cmp::Reverse(r.id)))
        .expect("a game with a winner");
    let record = read_record(&cfg.output.join(&game.record));
    let end = record.last().unwrap();
    assert_eq!(end["type"], "end");
    let replay = cfg.output.join("report/replay.html");
    let url = format!("{}?game={}&turn=end", file_url(&replay), game.id);
    let dom = browser.dom(&url);
    assert!(
        !dom.contains("id=\"load-error\" class=\"error\">"),
        "replay loaded"
    );
    let winner = &game.seats[game.outcome.winner().unwrap()];
    let banner = text_after(&dom, "id=\"banner\"").unwrap();
    assert!(
        banner.contains(&format!("{winner} wins")),
        "banner `{banner}`"
    );
    let shown = |seat: &str, animal: &str| -> u64 {
        let attr = format!("data-seat=\"{seat}\" data-animal=\"{animal}\"");
        number(text_after(&dom, &attr).unwrap_or_else(|| panic!("no count {attr}"))) as u64
    };
    for (seat, herd) in end["final"]["herds"].as_array().unwrap().iter().enumerate() {
        for animal in ANIMALS {
            let want = herd.get(animal).and_then(Value::as_u64).unwrap_or(0);
            assert_eq!(
                shown(&seat.to_string(), animal),
                want,
                "game {} seat {seat} {animal}",
                game.id
            );
        }
    }
    for animal in ANIMALS {
        let want = end["final"]["stock"]
            .get(animal)
            .and_then(Value::as_u64)
            .unwrap_or(0);
        assert_eq!(shown("stock", animal), want, "stock {animal}");
    }
    assert!(dom.contains("class=\"ev win\""), "the win is narrated");

    // An agent's captured debug log shows beside its turn when the record has one. Records only
    // gain an optional per-turn `logs` field, so this game's data gets one added by hand.
    let data = cfg
        .output
        .join("report/games")
        .join(format!("game-{:06}.js", game.id));
    let text = std::fs::read_to_string(&data).unwrap();
    let json = text
        .trim_end()
        .strip_prefix("window.ARENA_GAME = ")
        .and_then(|t| t.strip_suffix(';'))
        .unwrap();
    let mut with_logs: Value = serde_json::from_str(json).unwrap();
    with_logs["id"] = 999_999.into();
    with_logs["turns"][0]["logs"] = serde_json::json!([
        {"seat": 0, "text": "plan: buy a sheep <first>\nrabbits: 2"}
    ]);
    std::fs::write(
        cfg.output.join("report/games/game-999999.js"),
        format!("window.ARENA_GAME = {with_logs};\n"),
    )
    .unwrap();
    let logs_url = format!("{}?game=999999&turn=1", file_url(&replay));
    let dom = browser.dom(&logs_url);
    assert!(
        !dom.contains("id=\"logs-box\" hidden"),
        "the log panel is shown"
    );
    assert!(
        dom.contains("plan: buy a sheep &lt;first&gt;"),
        "the log text is shown, escaped"
    );
    assert!(dom.contains("Turn 1 of "), "the viewer is at turn 1");

    // Screenshots, for people to judge readability (not compared automatically).
    browser.screenshot(
        &file_url(&index),
        &shots.join("report-laptop.png"),
        1366,
        3600,
    );
    browser.screenshot(
        &format!("{}?large=1", file_url(&index)),
        &shots.join("report-projector-large.png"),
        1920,
        4200,
    );
    browser.screenshot(&url, &shots.join("replay-end.png"), 1600, 1100);
    let mid = game.turns / 2;
    browser.screenshot(
        &format!("{}?game={}&turn={mid}&large=1", file_url(&replay), game.id),
        &shots.join("replay-projector-large.png"),
        1920,
        1080,
    );
    browser.screenshot(&logs_url, &shots.join("replay-logs.png"), 1366, 900);
    let faulty = run
        .results
        .iter()
        .find(|r| !r.faults.is_empty())
        .expect("a game with a fault");
    browser.screenshot(
        &format!("{}?game={}&turn=end", file_url(&replay), faulty.id),
        &shots.join("replay-fault.png"),
        1366,
        900,
    );
}
