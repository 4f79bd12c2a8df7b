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

use arena::game::{Host, Hosted, Native, Player, Question, Reply};
use arena::games::farkle::Farkle;
use arena::games::farm::{Answer, Asked, Farm, Fault, FaultKind};
use arena::games::jungle::Jungle;
use arena::league::result::GameResult;
use arena::league::{play_league, Contestant, LeagueConfig, NativeEntrant, RunOptions};
use arena::sandbox::Init;
use arena_agent_sdk::FarmAgent;
use arena_doc_support::thousands;
use farm_rules::{Animal, Offer, ANIMALS};
use serde_json::Value;

/// Plays the league `cfg` of `game` afresh between native `contestants` on 2 threads, quietly.
fn play_natives(
    game: &'static dyn arena::game::Game,
    cfg: &LeagueConfig,
    contestants: &[&dyn Contestant],
) -> arena::league::LeagueRun {
    let opts = RunOptions {
        fresh: true,
        threads: Some(2),
        quiet: true,
        ..RunOptions::default()
    };
    let limits = serde_json::json!({"native": true});
    play_league(game, &Host::default(), cfg, contestants, &limits, &opts).unwrap()
}

/// An example strategy in a league, natively (told the table's round cap).
fn native<A: FarmAgent + Default + Send + 'static>(_round_cap: u32) -> NativeEntrant {
    NativeEntrant(arena::games::farm::native::<A>())
}

/// Passes, then traps on its fifth trade decision of every game.
struct Crasher;
struct CrasherPlayer(u32);

impl Player<Farm> for CrasherPlayer {
    fn start(&mut self, _rules: &Farm, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _: &Farm, _: &Question, asked: &Asked<'_>) -> Reply<Answer> {
        let answer = match asked.offer {
            Some(_) => Ok(Answer::Accept(false)),
            None => {
                self.0 += 1;
                if self.0 == 5 {
                    Err(Fault::new(
                        FaultKind::Trap,
                        "wasm trap: unreachable executed",
                    ))
                } else {
                    Ok(Answer::Offer(Offer::PASS))
                }
            }
        };
        Reply { answer, fuel: 0 }
    }
}

impl Crasher {
    fn entrant() -> NativeEntrant {
        NativeEntrant(Native::typed::<Farm>(|| Box::new(CrasherPlayer(0))))
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

/// The text of a dumped element, with the entities a text node is written with decoded.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Opens a copy of the report page `page` (in `report`) with the test's script `check` (named
/// `name`, e.g. `layout-check.js`) added at its end, in a `width`×`height` window; returns the
/// JSON the script wrote into `<pre id="NAME">` (the name without `.js`).
fn checked(
    browser: &Browser,
    report: &Path,
    page: &str,
    query: &str,
    (name, check): (&str, &str),
    width: u32,
    height: u32,
) -> Value {
    let html = std::fs::read_to_string(report.join(page)).unwrap();
    let id = name.trim_end_matches(".js");
    let copy = page.replace(".html", &format!("-{id}.html"));
    std::fs::write(
        report.join(&copy),
        html.replace(
            "</body>",
            &format!("<script src=\"{name}\"></script>\n</body>"),
        ),
    )
    .unwrap();
    std::fs::write(report.join(name), check).unwrap();
    let url = format!("{}{query}", file_url(&report.join(&copy)));
    let dom = browser.run(
        &url,
        &[
            "--dump-dom".into(),
            format!("--window-size={width},{height}"),
        ],
    );
    let found = text_after(&dom, &format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("{name} did not run on {url}"));
    serde_json::from_str(&unescape(found)).unwrap()
}

/// Opens a copy of the report page `page` (in `report`) that runs the layout check
/// (fixtures/report-layout-check.js) in a `width`×`height` window; returns its findings:
/// `{"measured": {...}, "problems": [...]}`.
fn layout(
    browser: &Browser,
    report: &Path,
    page: &str,
    query: &str,
    width: u32,
    height: u32,
) -> Value {
    let check = include_str!("fixtures/report-layout-check.js");
    let found = checked(
        browser,
        report,
        page,
        query,
        ("layout-check.js", check),
        width,
        height,
    );
    // Headless Chromium keeps part of the window's height for itself; the width is the page's.
    assert_eq!(
        found["width"].as_u64(),
        Some(width.into()),
        "{page}{query}: window width"
    );
    found
}

/// Works the shared controls of the viewer page `page` (in `report`) on `query`'s game
/// (fixtures/viewer-controls-check.js) and asserts that each key and button did what it says:
/// frames are `one`/`many` (`ply`/`plies`), the speeds those of Jungle's and the farm's viewers.
fn assert_controls_work(
    browser: &Browser,
    report: &Path,
    page: &str,
    query: &str,
    one: &str,
    many: &str,
) {
    let check = include_str!("fixtures/viewer-controls-check.js");
    let context = format!("{page}{query}");
    let seen = checked(
        browser,
        report,
        page,
        query,
        ("controls-check.js", check),
        1366,
        900,
    );
    let step = |name: &str| -> &Value {
        seen.as_array()
            .unwrap()
            .iter()
            .find(|s| s["step"] == name)
            .unwrap_or_else(|| panic!("{context}: no step {name} in {seen}"))
    };
    let frame = |name: &str| step(name)["frame"].as_u64().unwrap();
    let text = |name: &str, what: &str| step(name)[what].as_str().unwrap().to_owned();
    let flag = |name: &str, what: &str| step(name)[what].as_bool().unwrap();
    let last = step("loaded")["last"].as_u64().unwrap();
    assert!(
        last >= 5,
        "{context}: a game of {last} frames is too short for the check"
    );
    assert!(
        text("loaded", "position").starts_with("Start"),
        "{context}: {seen}"
    );
    assert_eq!(
        text("loaded", "step_key"),
        format!("one {one} forward / back")
    );
    let frames = [
        ("loaded", 0),
        ("right right", 2),
        ("back", 1),
        ("End", last),
        ("Home", 0),
        ("forward", 1),
        ("last", last),
        ("first", 0),
        ("seek 3", 3),
        ("played", 4),
    ];
    for (name, want) in frames {
        assert_eq!(frame(name), want, "{context}: frame after {name}: {seen}");
    }
    assert!(text("seek 3", "position").contains(&format!("3 of {last}")));
    assert!(
        flag("End", "banner") && !flag("Home", "banner"),
        "{context}: the banner at the end only"
    );
    assert_eq!(text("loaded", "speed"), format!("2 {many}/s"));
    assert_eq!(text("+", "speed"), format!("4 {many}/s"));
    assert_eq!(text("slower slower", "speed"), format!("1 {one}/s"));
    assert!(!flag("loaded", "large") && flag("L", "large") && !flag("L again", "large"));
    assert_eq!(text("space", "play"), "‖ Pause");
    assert_eq!(text("space again", "play"), "▶ Play");
}

/// Asserts that the layout check found nothing wrong, and measured at least `least` of `what`.
fn assert_laid_out(found: &Value, what: &str, least: u64, context: &str) {
    assert!(
        found["problems"].as_array().unwrap().is_empty(),
        "{context}: {:#}",
        found["problems"]
    );
    let n = found["measured"][what].as_u64().unwrap_or(0);
    assert!(n >= least, "{context}: measured {n} {what}: {found}");
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
    let greedy = native::<greedy::Greedy>(cap);
    let insurance = native::<insurance::Insurance>(cap);
    let trader = native::<trader::Trader>(cap);
    let shepherd = native::<shepherd::Shepherd>(cap);
    let crasher = Crasher::entrant();
    let contestants: [&dyn Contestant; 5] = [&greedy, &insurance, &trader, &shepherd, &crasher];
    let run = play_natives(&Hosted(Farm), &cfg, &contestants);
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
        for animal in ANIMALS.map(Animal::name) {
            let want = herd.get(animal).and_then(Value::as_u64).unwrap_or(0);
            assert_eq!(
                shown(&seat.to_string(), animal),
                want,
                "game {} seat {seat} {animal}",
                game.id
            );
        }
    }
    for animal in ANIMALS.map(Animal::name) {
        let want = end["final"]["stock"]
            .get(animal)
            .and_then(Value::as_u64)
            .unwrap_or(0);
        assert_eq!(shown("stock", animal), want, "stock {animal}");
    }
    assert!(dom.contains("class=\"ev win\""), "the win is narrated");

    // The report holds no file per game: the replays are in packs of 100 games, compressed.
    let report_dir = cfg.output.join("report");
    let pack_files: Vec<_> = std::fs::read_dir(report_dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(pack_files, ["replays-000000.js"]);

    // An agent's captured debug log shows beside its turn when the record has one. Records only
    // gain an optional per-turn `logs` field, so this game's data gets one added by hand, as a
    // script of its own (as `arena serve` serves a game), which the viewer reads when no pack
    // holds the game.
    let json = arena::report::game_data(&cfg.output, game).1.unwrap();
    let mut with_logs: Value = serde_json::from_slice(&json).unwrap();
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

    // The shared controls: keys, buttons, the slider, the speed, playing.
    assert_controls_work(
        &browser,
        &report_dir,
        "replay.html",
        &format!("?game={}&large=0", game.id),
        "turn",
        "turns",
    );

    // The games list is filtered from the URL, and pages past 100 games.
    let dom = browser.dom(&format!("{}?agent=CRASH", file_url(&index)));
    let crasher_games = run
        .results
        .iter()
        .filter(|r| r.seats.iter().any(|s| s == "crasher"))
        .count();
    let games = slice(&dom, "id=\"games\"", "</table>");
    assert_eq!(games.matches("<tr data-game=").count(), crasher_games);
    assert!(dom.contains(&format!("{crasher_games} of {} games", run.results.len())));

    // Projector sizes in large type: herd cards clear of the dice and of each other, chart labels
    // inside their charts, nothing wider than the screen.
    for (width, height) in [(1024, 768), (1280, 800)] {
        let query = format!("?game={}&turn={}&large=1", game.id, game.turns / 2);
        let found = layout(&browser, &report_dir, "replay.html", &query, width, height);
        assert_laid_out(
            &found,
            "herd cards",
            3,
            &format!("replay at {width}×{height}"),
        );
        let found = layout(
            &browser,
            &report_dir,
            "index.html",
            "?large=1",
            width,
            height,
        );
        assert_laid_out(
            &found,
            "chart texts",
            20,
            &format!("index at {width}×{height}"),
        );
    }

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
    for (width, height) in [(1024, 768), (1280, 800)] {
        browser.screenshot(
            &format!("{}?game={}&turn={mid}&large=1", file_url(&replay), game.id),
            &shots.join(format!("replay-projector-{width}x{height}.png")),
            width,
            height,
        );
    }
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

/// A Farkle example bot played natively, standing in for an agent file.
fn farkle_bot<A: arena_agent_sdk::FarkleAgent + Default + Send + 'static>() -> NativeEntrant {
    NativeEntrant(arena::games::farkle::native::<A>())
}

/// Plays a Farkle league of the banker, the one-and-done bot and the threshold bot (under long
/// names, as real agents have) into `work/NAME`, writes its report and returns the league.
fn farkle_league(work: &Path, name: &str, players: usize) -> (PathBuf, Vec<GameResult>) {
    let names = [
        "wat-banker-deluxe",
        "one-and-done-forever",
        "threshold-3000",
    ];
    let mut text = format!(
        "name = '{name}'\ngame = 'farkle'\nplayers_per_game = {players}\ngames_per_group = 6\nseed = 5\nround_cap = 200\n"
    );
    for n in names {
        std::fs::write(work.join(format!("{n}.wasm")), b"").unwrap();
        text.push_str(&format!("[[agent]]\npath = '{n}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, work).unwrap();
    cfg.output = work.join(name);
    let banker = farkle_bot::<farkle_banker::Banker>();
    let one = farkle_bot::<farkle_one_and_done::OneAndDone>();
    let threshold = farkle_bot::<farkle_threshold::Threshold>();
    let contestants: [&dyn Contestant; 3] = [&banker, &one, &threshold];
    let run = play_natives(&Hosted(Farkle), &cfg, &contestants);
    arena::report::write_report(&cfg.output).unwrap();
    (cfg.output, run.results)
}

#[test]
fn farkle_pages_in_headless_chromium() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-browser-farkle");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let browser = Browser::new(&work);

    // Solo: the score chart's target label clear of the agent's name, counts in the singular
    // when there is one.
    let (solo, games) = farkle_league(&work, "solo", 1);
    let report = solo.join("report");
    for g in games.iter().take(3) {
        let found = layout(
            &browser,
            &report,
            "farkle.html",
            &format!("?game={}", g.id),
            1280,
            800,
        );
        assert_laid_out(&found, "chart texts", 8, &format!("solo game {}", g.id));
        let found = layout(
            &browser,
            &report,
            "farkle.html",
            &format!("?game={}&large=1", g.id),
            1024,
            768,
        );
        assert_laid_out(
            &found,
            "chart texts",
            8,
            &format!("solo game {} large", g.id),
        );
    }
    let mut singular = false;
    for g in &games {
        let dom = browser.dom(&format!(
            "{}?game={}",
            file_url(&report.join("farkle.html")),
            g.id
        ));
        let facts = text_after(&dom, "id=\"facts\"").unwrap();
        for word in ["turns", "farkles", "rolls", "faults", "rejected drafts"] {
            assert!(
                !facts.contains(&format!(" 1 {word}")) && !facts.starts_with(&format!("1 {word}")),
                "{facts}"
            );
        }
        singular |= facts.contains(" 1 farkle,") || facts.contains(" 1 farkle;");
    }
    assert!(singular, "some solo game has exactly one farkle");

    // Race: the filter's labels read apart, the standings say what the rating measures.
    let (race, games) = farkle_league(&work, "race", 3);
    let report = race.join("report");
    let dom = browser.dom(&format!(
        "{}?game={}",
        file_url(&report.join("farkle.html")),
        games[0].id
    ));
    assert!(
        dom.contains("Only turns that banked nothing</label>"),
        "checkbox label"
    );
    assert!(
        dom.contains("<label for=\"seat\">Player:</label>"),
        "player label"
    );
    assert!(
        dom.contains("<option value=\"\">every player</option>"),
        "every player"
    );
    let found = layout(
        &browser,
        &report,
        "farkle.html",
        &format!("?game={}", games[0].id),
        1280,
        800,
    );
    assert_laid_out(&found, "chart texts", 8, "race game");
    let index = file_url(&report.join("index.html"));
    let dom = browser.dom(&index);
    let standings = slice(&dom, "id=\"standings-section\"", "</section>");
    assert!(
        standings.contains("finishing"),
        "the rating is explained: {standings}"
    );
    let found = layout(&browser, &report, "index.html", "", 1280, 800);
    assert_laid_out(&found, "chart texts", 20, "race index");
}

/// A Jungle example agent played natively, standing in for an agent file.
fn jungle_bot<A: arena_agent_sdk::JungleAgent + Default + Send + 'static>() -> NativeEntrant {
    NativeEntrant(arena::games::jungle::native::<A>())
}

/// The pieces a position in the notation has (its letters).
fn pieces(notation: &str) -> usize {
    notation
        .split(' ')
        .next()
        .unwrap()
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count()
}

#[test]
fn jungle_pages_in_headless_chromium() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-browser-jungle");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let browser = Browser::new(&work);
    let mut text = "name = 'jungle'\ngame = 'jungle'\ngames_per_group = 4\nseed = 3\nround_cap = 150\n[jungle]\nclock = 20_000_000\nincrement = 500_000\n".to_string();
    for n in ["the-search-agent", "greedy", "random"] {
        std::fs::write(work.join(format!("{n}.wasm")), b"").unwrap();
        text.push_str(&format!("[[agent]]\npath = '{n}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, &work).unwrap();
    cfg.output = work.join("out");
    let search = jungle_bot::<jungle_search::SearchAgent>();
    let greedy = jungle_bot::<jungle_greedy::Greedy>();
    let random = jungle_bot::<jungle_random::Random>();
    let contestants: [&dyn Contestant; 3] = [&search, &greedy, &random];
    let run = play_natives(&Hosted(Jungle), &cfg, &contestants);
    arena::report::write_report(&cfg.output).unwrap();
    let report = cfg.output.join("report");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-screenshots");
    std::fs::create_dir_all(&shots).unwrap();

    // The index links every Jungle game to its viewer.
    let dom = browser.dom(&file_url(&report.join("index.html")));
    assert!(dom.contains("games of Jungle"), "summary");
    assert!(
        dom.contains("href=\"jungle.html?game=1\""),
        "a link to game 1"
    );

    // At the end of each game: the final position drawn piece by piece, the result, both
    // clocks as the record's end line states them.
    let mut captures_seen = false;
    for g in &run.results {
        let lines = read_record(&cfg.output.join(&g.record));
        let end = lines.last().unwrap();
        let final_position = end["position"].as_str().unwrap();
        let url = format!(
            "{}?game={}&turn=end",
            file_url(&report.join("jungle.html")),
            g.id
        );
        let dom = browser.dom(&url);
        let board = slice(&dom, "id=\"board\"", "</svg>");
        assert_eq!(
            board.matches("<g class=\"piece").count(),
            pieces(final_position),
            "game {}: {board}",
            g.id
        );
        assert_eq!(
            unescape(text_after(&dom, "id=\"notation\"").unwrap()),
            final_position,
            "game {}",
            g.id
        );
        let banner = text_after(&dom, "id=\"banner\"").unwrap();
        let reason = end["reason"].as_str().unwrap();
        let words = match reason {
            "den" => "entering the den",
            "all_captured" => "capturing every enemy piece",
            "no_moves" => "leaving the opponent no legal move",
            "time" => "time",
            "no_capture" => "100 plies without a capture",
            other => other,
        };
        assert!(banner.contains(words), "game {}: {banner}", g.id);
        let clocks = slice(&dom, "id=\"clocks\"", "</aside>");
        for c in end["clocks"].as_array().unwrap() {
            let shown = thousands(c.as_u64().unwrap());
            assert!(
                clocks.contains(&shown),
                "game {}: clock {shown} in {clocks}",
                g.id
            );
        }
        // A ply that captured: its narration says so, and the board marks the square.
        let turns: Vec<&Value> = lines.iter().filter(|l| l["type"] == "turn").collect();
        if let Some(k) = turns.iter().position(|t| t.get("captured").is_some()) {
            let url = format!(
                "{}?game={}&turn={}",
                file_url(&report.join("jungle.html")),
                g.id,
                k + 1
            );
            let dom = browser.dom(&url);
            let narration = slice(&dom, "id=\"narration\"", "</ol>");
            assert!(narration.contains("and takes the"), "{narration}");
            assert!(
                dom.contains("class=\"taken\""),
                "game {} ply {}",
                g.id,
                k + 1
            );
            let board = slice(&dom, "id=\"board\"", "</svg>");
            let position = turns[k]["position"].as_str().unwrap();
            assert_eq!(board.matches("<g class=\"piece").count(), pieces(position));
            if !captures_seen {
                browser.screenshot(&url, &shots.join("jungle-capture.png"), 1366, 900);
            }
            captures_seen = true;
        }
    }
    assert!(captures_seen, "some game has a capture");
    // The start: every piece of the start position, nothing marked.
    let url = format!("{}?game=1", file_url(&report.join("jungle.html")));
    let dom = browser.dom(&url);
    let board = slice(&dom, "id=\"board\"", "</svg>");
    assert_eq!(board.matches("<g class=\"piece").count(), 16);
    assert!(!board.contains("class=\"from\""));
    assert!(text_after(&dom, "id=\"position\"")
        .unwrap()
        .starts_with("Start"));
    // The same shared controls as the farm's viewer.
    assert_controls_work(
        &browser,
        &report,
        "jungle.html",
        "?game=1&large=0",
        "ply",
        "plies",
    );
    browser.screenshot(
        &format!("{url}&turn=end&large=1"),
        &shots.join("jungle-end-large.png"),
        1024,
        768,
    );
}
