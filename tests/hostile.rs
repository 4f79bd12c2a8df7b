//! The hostile zoo (tests/hostile/): agents that loop, trap, overflow, bomb memory, answer
//! garbage, flood their logs, snoop through WASI, or are not agents at all. Each is played in a
//! league by the `arena` binary against ordinary agents (or refused when loaded), and the tests
//! check that the league completes, that the right fault is blamed on the right agent, that the
//! other agents' games are byte-identical to a league without the hostile agents, that every
//! record verifies, and that the arena's memory stays bounded.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::*;

/// Agents of the zoo that load and play, with what must happen to them.
const IN_GAME: &[(&str, Expect)] = &[
    (
        "loop_trade",
        Expect::Fault(
            "trade",
            "decision_fuel",
            "farm_trade used up the fuel of one decision",
        ),
    ),
    (
        "loop_accept",
        Expect::Fault(
            "accept",
            "decision_fuel",
            "farm_accept used up the fuel of one decision",
        ),
    ),
    (
        "loop_init",
        Expect::Fault(
            "init",
            "decision_fuel",
            "arena_init used up the fuel of one decision",
        ),
    ),
    (
        "game_fuel",
        Expect::Fault(
            "trade",
            "game_fuel",
            "farm_trade used up the fuel left for the game",
        ),
    ),
    (
        "memory_bomb",
        Expect::Fault(
            "trade",
            "memory_limit",
            "linear memory of 33619968 bytes requested, the limit is 33554432 bytes",
        ),
    ),
    (
        "recursion",
        Expect::Fault(
            "trade",
            "stack_overflow",
            "farm_trade exhausted the WebAssembly stack",
        ),
    ),
    (
        "trap_unreachable",
        Expect::Fault("trade", "trap", "wasm `unreachable` instruction executed"),
    ),
    (
        "trap_div_zero",
        Expect::Fault("trade", "trap", "integer divide by zero"),
    ),
    (
        "trap_oob",
        Expect::Fault("trade", "trap", "out of bounds memory access"),
    ),
    (
        "trap_indirect",
        Expect::Fault("trade", "trap", "indirect call type mismatch"),
    ),
    (
        "hostile_panicker",
        Expect::Fault("trade", "trap", "wasm `unreachable` instruction executed"),
    ),
    (
        "bad_len_negative",
        Expect::Fault("trade", "bad_answer", "farm_trade returned length -1"),
    ),
    (
        "bad_len_short",
        Expect::Fault("trade", "bad_answer", "farm_trade returned length 10"),
    ),
    (
        "bad_len_huge",
        Expect::Fault(
            "trade",
            "bad_answer",
            "farm_trade returned length 2147483647",
        ),
    ),
    (
        "bad_accept",
        Expect::Fault("accept", "bad_answer", "farm_accept returned 7"),
    ),
    (
        "malformed",
        Expect::FailedTrades(&[
            "wrong_type",
            "invalid_amount",
            "not_enough_animals",
            "self_trade",
            "no_such_player",
        ]),
    ),
    ("log_flood", Expect::NoFault),
    ("wasi_snoop", Expect::NoFault),
];

/// Ordinary agents every hostile agent meets: two example agents and `dealer`, a WAT helper that
/// offers trades to other players so that their `farm_accept` is called.
const ORDINARY: &[&str] = &["greedy", "trader", "dealer"];

const SETTINGS: &str = "name = \"zoo\"\nplayers_per_game = 2\ngames_per_group = 2\nseed = 21\n\
round_cap = 120\ncompress_records_over = 100000000\n\
[budgets]\nfuel_per_decision = 1000000\nfuel_per_game = 20000000\n";

/// Peak resident memory the arena process may reach while playing the whole zoo.
const RSS_BOUND_KIB: u64 = 200 << 10;

#[derive(Clone, Copy, Debug)]
enum Expect {
    /// Faults of this decision and kind, with this text in the detail, and no other fault.
    Fault(&'static str, &'static str, &'static str),
    /// No fault; trades failing with each of these reasons.
    FailedTrades(&'static [&'static str]),
    NoFault,
}

fn hostile_dir() -> PathBuf {
    workspace().join("tests").join("hostile")
}

/// The agent file of `name`: a WAT file of the zoo, the Rust panicker built for wasm, or an
/// example agent.
fn agent_path(name: &str) -> PathBuf {
    if name == "hostile_panicker" {
        return panicker_wasm();
    }
    let wat = hostile_dir().join(format!("{name}.wat"));
    if wat.exists() {
        return wat;
    }
    example_wasm(name)
}

fn panicker_wasm() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let target = workspace().join("target").join("hostile-agents");
            let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .current_dir(workspace())
                .args(["build", "--release", "--target", "wasm32-unknown-unknown"])
                .args(["-p", "hostile-panicker", "--target-dir"])
                .arg(&target)
                .output()
                .expect("run cargo");
            assert!(
                out.status.success(),
                "building the panicker failed:\n{}",
                text(&out)
            );
            target.join("wasm32-unknown-unknown/release/hostile_panicker.wasm")
        })
        .clone()
}

fn write_league(dir: &Path, agents: &[&str]) -> PathBuf {
    let mut toml = String::from(SETTINGS);
    for a in agents {
        toml.push_str(&format!(
            "[[agent]]\nname = \"{a}\"\npath = \"{}\"\n",
            agent_path(a).display()
        ));
    }
    let file = dir.join(format!("league-{}.toml", agents.len()));
    std::fs::write(&file, toml).unwrap();
    file
}

/// What one `arena` run gave: its output, exit code, wall time and peak resident memory (KiB).
struct Run {
    output: String,
    code: Option<i32>,
    elapsed: Duration,
    max_rss_kib: u64,
}

fn run_measured(args: &[&str], cache: &Path) -> Run {
    let start = Instant::now();
    let mut child = arena()
        .args(args)
        .env("ARENA_CACHE_DIR", cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start arena");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    // Peak resident memory of the arena process itself: its VmHWM, read while it runs (the
    // high-water mark only grows; rusage would also count the test process it was forked from).
    let status_file = format!("/proc/{}/status", child.id());
    let mut max_rss_kib = 0;
    let status = loop {
        if let Ok(s) = std::fs::read_to_string(&status_file) {
            if let Some(kib) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                max_rss_kib = max_rss_kib.max(kib);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let code = status.code();
    Run {
        output: format!("{}{}", out.join().unwrap(), err.join().unwrap()),
        code,
        elapsed,
        max_rss_kib,
    }
}

fn cache_dir() -> PathBuf {
    workspace().join("target").join("hostile-cache")
}

/// A league's records, as (names by seat, the record's text).
fn records(out: &Path) -> Vec<(Vec<String>, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(out.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let setup: serde_json::Value =
                serde_json::from_str(text.lines().next().unwrap()).unwrap();
            let names = setup["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["name"].as_str().unwrap().to_owned())
                .collect();
            (names, text)
        })
        .collect()
}

/// Every event of a record with the seat it concerns.
fn events(record: &str) -> Vec<serde_json::Value> {
    let mut all = Vec::new();
    for line in record.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(evs) = v["events"].as_array() {
            all.extend(evs.iter().cloned());
        }
    }
    all
}

struct Zoo {
    dir: TempDir, // in a static: never dropped, so it stays for the tests that share it
    run: Run,
    records: Vec<(Vec<String>, String)>,
}

/// The whole in-game zoo and the ordinary agents in one league, played once per test binary.
fn zoo() -> &'static Zoo {
    static ZOO: OnceLock<Zoo> = OnceLock::new();
    ZOO.get_or_init(|| {
        let dir = temp_dir("hostile-zoo");
        let mut agents: Vec<&str> = ORDINARY.to_vec();
        agents.extend(IN_GAME.iter().map(|(n, _)| *n));
        let file = write_league(&dir, &agents);
        let out = dir.join("out");
        let run = run_measured(
            &[
                "league",
                "--config",
                file.to_str().unwrap(),
                "--output",
                out.to_str().unwrap(),
                "--threads",
                "2",
                "--quiet",
            ],
            &cache_dir(),
        );
        assert_eq!(
            run.code,
            Some(0),
            "the zoo league must complete:\n{}",
            run.output
        );
        eprintln!(
            "zoo league: {} agents, {:.1} s, peak RSS {} MiB",
            agents.len(),
            run.elapsed.as_secs_f64(),
            run.max_rss_kib >> 10
        );
        let records = records(&out);
        Zoo { dir, run, records }
    })
}

fn check(name: &str) {
    let expect = IN_GAME.iter().find(|(n, _)| *n == name).unwrap().1;
    let zoo = zoo();
    let mut faults_seen = 0;
    let mut reasons = BTreeSet::new();
    let mut games = 0;
    for (names, record) in &zoo.records {
        let Some(seat) = names.iter().position(|n| n == name) else {
            continue;
        };
        let other = names[1 - seat].as_str();
        if !ORDINARY.contains(&other) {
            continue;
        }
        games += 1;
        for e in events(record) {
            let ty = e["type"].as_str().unwrap();
            if ty == "fault" {
                assert_eq!(
                    e["seat"], seat,
                    "{name}: a fault blamed on its opponent {other}: {e}"
                );
                match expect {
                    Expect::Fault(decision, kind, detail) => {
                        assert_eq!(e["decision"], decision, "{name}: {e}");
                        assert_eq!(e["kind"], kind, "{name}: {e}");
                        assert!(
                            e["detail"].as_str().unwrap().contains(detail),
                            "{name}: {e}"
                        );
                        faults_seen += 1;
                    }
                    _ => panic!("{name} must not fault: {e}"),
                }
            }
            if ty == "trade_failed" && e["seat"] == seat {
                reasons.insert(e["reason"].as_str().unwrap().to_owned());
            }
        }
        if let Expect::Fault(decision, ..) = expect {
            if decision != "accept" {
                assert!(
                    record.contains("\"type\":\"fault\""),
                    "{name} vs {other}: no fault recorded"
                );
                assert!(
                    record.contains("\"type\":\"forfeit\""),
                    "{name} vs {other}: no forfeit"
                );
            }
        }
    }
    assert_eq!(
        games,
        2 * ORDINARY.len(),
        "{name}: games against the ordinary agents"
    );
    match expect {
        Expect::Fault(..) => assert!(faults_seen > 0, "{name}: the expected fault never happened"),
        Expect::FailedTrades(want) => {
            for r in want {
                assert!(
                    reasons.contains(*r),
                    "{name}: no trade failed with {r}: {reasons:?}"
                );
            }
        }
        Expect::NoFault => {}
    }
}

macro_rules! zoo_tests {
    ($($test:ident => $name:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            check($name);
        }
    )*};
}

zoo_tests! {
    infinite_loop_in_farm_trade => "loop_trade",
    infinite_loop_in_farm_accept => "loop_accept",
    infinite_loop_in_arena_init => "loop_init",
    per_game_budget_exhausted_within_per_decision_budget => "game_fuel",
    memory_grow_bomb => "memory_bomb",
    deep_recursion => "recursion",
    trap_unreachable => "trap_unreachable",
    trap_integer_divide_by_zero => "trap_div_zero",
    trap_out_of_bounds => "trap_oob",
    trap_indirect_call_type_mismatch => "trap_indirect",
    rust_agent_that_panics => "hostile_panicker",
    negative_answer_length => "bad_len_negative",
    answer_too_short_for_an_offer => "bad_len_short",
    answer_longer_than_the_buffer => "bad_len_huge",
    accept_answer_out_of_range => "bad_accept",
    malformed_offers_are_failed_trades_with_reasons => "malformed",
    log_flood => "log_flood",
    wasi_snooping => "wasi_snoop",
}

#[test]
fn the_ordinary_agents_games_are_byte_identical_to_a_league_without_the_zoo() {
    let zoo = zoo();
    let dir = zoo.dir.join("baseline");
    std::fs::create_dir_all(&dir).unwrap();
    let file = write_league(&dir, ORDINARY);
    let out = dir.join("out");
    let run = run_measured(
        &[
            "league",
            "--config",
            file.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--quiet",
        ],
        &cache_dir(),
    );
    assert_eq!(run.code, Some(0), "{}", run.output);
    let baseline = records(&out);
    assert_eq!(baseline.len(), 6);
    let in_zoo: BTreeSet<&str> = zoo.records.iter().map(|(_, t)| t.as_str()).collect();
    for (names, text) in &baseline {
        assert!(
            in_zoo.contains(text.as_str()),
            "{names:?}: this game differs in the zoo league"
        );
    }
}

#[test]
fn every_record_of_the_zoo_verifies_and_the_arena_stays_small() {
    let zoo = zoo();
    let out = zoo.dir.join("out").join("records");
    let mut args = vec!["verify".to_string()];
    for e in std::fs::read_dir(&out).unwrap() {
        args.push(e.unwrap().path().to_string_lossy().into_owned());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
    let n = IN_GAME.len() + ORDINARY.len();
    assert_eq!(
        zoo.records.len(),
        n * (n - 1),
        "every game of the schedule was played"
    );
    assert!(
        zoo.run.max_rss_kib < RSS_BOUND_KIB,
        "peak RSS {} KiB exceeds {} KiB",
        zoo.run.max_rss_kib,
        RSS_BOUND_KIB
    );
}

#[test]
fn logs_stay_bounded_and_wasi_finds_nothing_and_does_not_sleep() {
    let zoo = zoo();
    // Generous: the league runs 18 hostile agents; an hour-long sleep would show.
    assert!(
        zoo.run.elapsed < Duration::from_secs(120),
        "{:?}",
        zoo.run.elapsed
    );
    let mut snoop_lines = BTreeSet::new();
    for (names, record) in &zoo.records {
        let mut per_seat: BTreeMap<u64, usize> = BTreeMap::new();
        for line in record.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            for log in v["logs"].as_array().into_iter().flatten() {
                let seat = log["seat"].as_u64().unwrap();
                let t = log["text"].as_str().unwrap();
                *per_seat.entry(seat).or_default() += t.len();
                if names[seat as usize] == "wasi_snoop" {
                    snoop_lines.extend(
                        t.lines()
                            .filter(|l| l.starts_with("wasi:"))
                            .map(|l| l[..l.find(" clock=").unwrap()].to_owned()),
                    );
                }
            }
        }
        for (seat, bytes) in per_seat {
            assert!(
                bytes <= 16 << 10,
                "{}: {bytes} bytes of log in one game",
                names[seat as usize]
            );
        }
    }
    // No preopened directory (EBADF = 8), so no file; an empty environment.
    assert_eq!(
        snoop_lines.into_iter().collect::<Vec<_>>(),
        vec!["wasi: prestat=008 open=008 env=000".to_string()]
    );
}

#[test]
fn a_wasi_agent_reading_the_clock_plays_identically_twice() {
    let dir = temp_dir("hostile-determinism");
    let file = write_league(&dir, &["wasi_snoop", "greedy"]);
    let mut results = Vec::new();
    for out in ["one", "two"] {
        let out = dir.join(out);
        let run = run_measured(
            &[
                "league",
                "--config",
                file.to_str().unwrap(),
                "--output",
                out.to_str().unwrap(),
                "--quiet",
            ],
            &cache_dir(),
        );
        assert_eq!(run.code, Some(0), "{}", run.output);
        results.push(result_files(&out));
    }
    assert_eq!(results[0], results[1]);
}

/// The hammers of the zoo: each spends every decision on one kind of host call, at its cheapest
/// price per call (tests/hostile/hammer_*.wat).
const HAMMERS: &[&str] = &[
    "hammer_log",
    "hammer_fuel_left",
    "hammer_random_get",
    "hammer_fd_write",
    "hammer_fd_write_iovecs",
    "hammer_fd_read",
    "hammer_poll_oneoff",
    "hammer_path_open",
    "hammer_clock",
    "hammer_fdstat",
    "hammer_memory_grow",
    "hammer_table_grow",
];

#[test]
fn host_call_hammers_run_out_of_fuel_not_into_the_backstop_and_replay_identically() {
    let dir = temp_dir("hostile-hammers");
    // The default budgets: 10,000,000 fuel per decision, the 2 s backstop.
    let mut toml = String::from(
        "name = \"hammers\"\nplayers_per_game = 2\ngames_per_group = 2\nseed = 23\n\
         round_cap = 60\ncompress_records_over = 100000000\n",
    );
    let mut agents = HAMMERS.to_vec();
    agents.push("greedy");
    for a in &agents {
        toml.push_str(&format!(
            "[[agent]]\nname = \"{a}\"\npath = \"{}\"\n",
            agent_path(a).display()
        ));
    }
    let file = dir.join("league.toml");
    std::fs::write(&file, toml).unwrap();
    let mut results = Vec::new();
    for out in ["one", "two"] {
        let out = dir.join(out);
        let run = run_measured(
            &[
                "league",
                "--config",
                file.to_str().unwrap(),
                "--output",
                out.to_str().unwrap(),
                "--threads",
                "2",
                "--quiet",
            ],
            &cache_dir(),
        );
        assert_eq!(run.code, Some(0), "{}", run.output);
        eprintln!("hammer league: {:.1} s", run.elapsed.as_secs_f64());
        results.push(result_files(&out));
    }
    assert_eq!(results[0], results[1], "two runs gave different results");

    let records = records(&dir.join("one"));
    assert_eq!(records.len(), agents.len() * (agents.len() - 1));
    for (names, record) in &records {
        assert!(!record.contains("\"timeout\""), "{names:?}: {record}");
        for e in events(record).iter().filter(|e| e["type"] == "fault") {
            let who = names[e["seat"].as_u64().unwrap() as usize].as_str();
            assert!(HAMMERS.contains(&who), "{who} faulted: {e}");
            assert_eq!(e["kind"], "decision_fuel", "{who}: {e}");
            assert_eq!(
                e["detail"], "farm_trade used up the fuel of one decision",
                "{who}: {e}"
            );
        }
        // Every hammer that played a turn faulted on it.
        for (seat, name) in names.iter().enumerate() {
            let played = record.lines().any(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["type"] == "turn" && v["seat"] == seat
            });
            let faulted = events(record)
                .iter()
                .any(|e| e["type"] == "fault" && e["seat"] == seat);
            if HAMMERS.contains(&name.as_str()) && played {
                assert!(faulted, "{name} played without a fault");
            }
        }
    }
}

/// A league with `greedy` and one agent that must be refused at load: exit 2 before any game,
/// with a message naming the agent's file and containing `why`.
fn refused(dir: &Path, agent: &Path, why: &str) -> Run {
    let mut toml = String::from(SETTINGS);
    toml.push_str(&format!(
        "[[agent]]\nname = \"greedy\"\npath = \"{}\"\n",
        example_wasm("greedy").display()
    ));
    toml.push_str(&format!(
        "[[agent]]\nname = \"hostile\"\npath = \"{}\"\n",
        agent.display()
    ));
    let file = dir.join("league.toml");
    std::fs::write(&file, toml).unwrap();
    let out = dir.join("out");
    let run = run_measured(
        &[
            "league",
            "--config",
            file.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--quiet",
        ],
        &cache_dir(),
    );
    assert_eq!(run.code, Some(2), "{}: {}", agent.display(), run.output);
    let file_name = agent.file_name().unwrap().to_string_lossy();
    assert!(
        run.output.contains(&*file_name),
        "names the file: {}",
        run.output
    );
    assert!(
        run.output.contains(why),
        "{}: expected {why:?} in:\n{}",
        agent.display(),
        run.output
    );
    assert!(!out.join("journal.jsonl").exists(), "no game was played");
    run
}

#[test]
fn modules_that_cannot_be_agents_are_refused_before_any_game() {
    let dir = temp_dir("hostile-refused");
    let cases: &[(&str, &str)] = &[
        (
            "loop_start",
            "instantiation used up the fuel of one decision",
        ),
        (
            "huge_memory",
            "linear memory of 3932160000 bytes requested, the limit is 33554432 bytes",
        ),
        (
            "huge_table",
            "table of 10000000 elements requested, the limit is 10000 elements",
        ),
        ("unknown_import", "the module imports `env::system`"),
    ];
    for (name, why) in cases {
        let run = refused(&dir, &hostile_dir().join(format!("{name}.wat")), why);
        assert!(
            run.elapsed < Duration::from_secs(10),
            "{name}: {:?}",
            run.elapsed
        );
    }

    let not_wasm = dir.join("not_wasm.wasm");
    std::fs::write(&not_wasm, "#!/bin/sh\nrm -rf /\n").unwrap();
    refused(&dir, &not_wasm, "not a WebAssembly module");

    let full = wat::parse_file(hostile_dir().join("dealer.wat")).unwrap();
    let truncated = dir.join("truncated.wasm");
    std::fs::write(&truncated, &full[..full.len() / 2]).unwrap();
    refused(&dir, &truncated, "invalid WebAssembly module");

    // The preamble of a component (version 0x0d, layer 1) and an empty body: a component of
    // no world.
    let component = dir.join("component.wasm");
    std::fs::write(&component, b"\0asm\x0d\x00\x01\x00").unwrap();
    refused(
        &dir,
        &component,
        "not an arena agent: the component exports nothing",
    );

    // 100 MB: a valid module header and one custom section, generated here, never committed.
    let big = dir.join("big.wasm");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&big).unwrap());
        let payload = 100_000_000u32;
        f.write_all(b"\0asm\x01\x00\x00\x00\x00").unwrap();
        let mut n = payload + 2;
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            f.write_all(&[if n > 0 { b | 0x80 } else { b }]).unwrap();
            if n == 0 {
                break;
            }
        }
        f.write_all(b"\x01x").unwrap();
        let chunk = vec![0u8; 1 << 20];
        let mut left = payload as usize;
        while left > 0 {
            let k = left.min(chunk.len());
            f.write_all(&chunk[..k]).unwrap();
            left -= k;
        }
    }
    let run = refused(&dir, &big, "larger than the module size limit");
    assert!(
        run.max_rss_kib < 200 << 10,
        "the big file was not read: {} KiB",
        run.max_rss_kib
    );
    std::fs::remove_file(&big).unwrap();
}

/// One function with `n` i64 locals all live across a loop (the register allocator's worst case).
pub fn bomb_locals(n: usize) -> String {
    bomb_locals_passes(n, 1)
}

/// [`bomb_locals`] whose loop updates every local `passes` times: a longer body with all `n`
/// locals live throughout, which makes the compiler use more memory.
pub fn bomb_locals_passes(n: usize, passes: usize) -> String {
    let mut body = String::new();
    for i in (0..passes).flat_map(|_| 0..n) {
        body.push_str(&format!(
            "(local.set {} (i64.add (local.get {}) (local.get {})))\n",
            i + 1,
            i + 1,
            (i + 1) % n + 1
        ));
    }
    format!(
        r#"(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_accept") (param i32) (result i32) (i32.const 0))
  (func (export "farm_trade") (param $len i32) (result i32) (local {})
    (loop $l {body} (br_if $l (i64.eqz (local.get 1))))
    (i32.wrap_i64 (local.get 2)))
)"#,
        "i64 ".repeat(n)
    )
}

/// `n` small functions.
pub fn bomb_functions(n: usize) -> String {
    let mut funcs = String::new();
    for i in 0..n {
        funcs.push_str(&format!(
            "(func (param i32) (result i32) (i32.add (local.get 0) (i32.const {i})))\n"
        ));
    }
    format!(
        r#"(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_accept") (param i32) (result i32) (i32.const 0))
  (func (export "farm_trade") (param i32) (result i32) (i32.const 0))
  {funcs})"#
    )
}

/// A component holding `modules` copies of the core module `core` (a binary), none of them
/// instantiated: the component preamble and one core module section (id 1) per copy. Compiling a
/// component compiles every core module in it, and the shape limits hold each core module on
/// its own (only their bytes of code add up), so many modules, each within the limits, make a
/// component that is slow to compile.
pub fn component_of(core: &[u8], modules: usize) -> Vec<u8> {
    let mut c = b"\0asm\x0d\x00\x01\x00".to_vec();
    for _ in 0..modules {
        c.push(1);
        let mut n = core.len();
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            c.push(if n > 0 { b | 0x80 } else { b });
            if n == 0 {
                break;
            }
        }
        c.extend_from_slice(core);
    }
    c
}

#[test]
fn compile_bombs_are_refused_by_the_shape_limits_in_milliseconds() {
    let dir = temp_dir("hostile-bombs");
    for (name, wat, why) in [
        (
            "bomb_locals.wat",
            bomb_locals(20_000),
            "locals, the arena's limit per function",
        ),
        (
            "bomb_functions.wat",
            bomb_functions(50_000),
            "functions, more than the arena's limit of 20000",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, wat).unwrap();
        let run = refused(&dir, &path, why);
        eprintln!("{name}: refused in {:?}", run.elapsed);
        assert!(
            run.elapsed < Duration::from_secs(5),
            "{name}: {:?}",
            run.elapsed
        );
    }
}

#[test]
fn a_component_compile_bomb_is_refused_by_the_shape_limits_and_the_check_goes_on() {
    let dir = temp_dir("hostile-component-bomb");
    // One core module of 20,000 live locals (the bomb the shape limits exist for), in a
    // component.
    let bomb = dir.join("bomb_component.wasm");
    let core = wat::parse_str(bomb_locals(20_000)).unwrap();
    std::fs::write(&bomb, component_of(&core, 1)).unwrap();
    let why = "declares more than 2000 locals, the arena's limit per function";
    let run = refused(&dir, &bomb, why);
    assert!(run.elapsed < Duration::from_secs(5), "{:?}", run.elapsed);

    // `arena check` of several files gives the component its verdict and checks the next file.
    let greedy = common::components::component("rs-greedy");
    let o = run_arena(&["check", bomb.to_str().unwrap(), greedy.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains(&format!("FAIL {}: cannot load the agent", bomb.display())) && t.contains(why),
        "{t}"
    );
    assert!(t.contains("2 agents checked: 1 passed, 1 failed"), "{t}");
    assert!(t.contains("OK: rs-greedy is a valid arena agent"), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

mod compiler {
    use super::*;
    use arena::sandbox::{
        check_shape, CompileLimits, Compiler, HostFailure, Limits, Lookup, ModuleCache, Sandbox,
        ShapeLimits,
    };

    fn child_compiler(limits: CompileLimits) -> Compiler {
        Compiler {
            executable: Some(PathBuf::from(env!("CARGO_BIN_EXE_arena"))),
            cache: None,
            limits,
        }
    }

    #[test]
    fn a_bomb_past_the_shape_limits_is_stopped_by_the_compile_deadline() {
        let limits = CompileLimits {
            shape: ShapeLimits::unlimited(),
            time_ms: 1500,
            ..CompileLimits::default()
        };
        let sb = Sandbox::with_compiler(
            arena::games::registry().agents(),
            Limits::default(),
            child_compiler(limits),
        )
        .unwrap();
        let t = Instant::now();
        let err = format!(
            "{:#}",
            sb.load_bytes("bomb", bomb_locals(20_000).as_bytes())
                .unwrap_err()
        );
        let took = t.elapsed();
        eprintln!("20,000-locals bomb with the shape limits off: refused after {took:?}: {err}");
        assert!(err.contains("took longer than 1.5 s"), "{err}");
        assert!(took < Duration::from_secs(6), "{took:?}");
    }

    #[test]
    fn a_bomb_past_the_shape_limits_is_stopped_by_the_compile_memory_limit() {
        let limits = CompileLimits {
            shape: ShapeLimits::unlimited(),
            memory_bytes: 100 << 20,
            time_ms: 60_000,
            ..CompileLimits::default()
        };
        let sb = Sandbox::with_compiler(
            arena::games::registry().agents(),
            Limits::default(),
            child_compiler(limits),
        )
        .unwrap();
        // An ordinary agent compiles within that limit; the bomb does not.
        sb.load(&agent_path("dealer")).unwrap();
        let wasm = wat::parse_str(bomb_locals(20_000)).unwrap();
        let t = Instant::now();
        let err = format!("{:#}", sb.load_bytes("bomb", &wasm).unwrap_err());
        eprintln!(
            "20,000-locals bomb, 100 MiB address space: refused after {:?}: {err}",
            t.elapsed()
        );
        assert!(
            err.contains("compiler process") || err.contains("memory"),
            "{err}"
        );
    }

    /// 8 core modules, each one function of 1,999 live locals (one fewer than the shape limits
    /// allow) updated 16 times around its loop (313 KB of code, within the limit per function):
    /// a component that passes the default shape limits, and whose compilation took 16 s and
    /// more than 140 MiB of address space on a loaded 2-core machine (the Rust greedy component
    /// compiles within 60 MiB).
    fn component_bomb() -> Vec<u8> {
        let core = wat::parse_str(bomb_locals_passes(1_999, 16)).unwrap();
        let wasm = component_of(&core, 8);
        check_shape(&wasm, &ShapeLimits::default()).expect("within the shape limits");
        wasm
    }

    /// After `sb` refused a component bomb (`err`), the refusal is the agent's (not a failure
    /// of the host), and the same sandbox goes on: an ordinary component loads after it.
    fn refused_and_the_arena_goes_on(sb: &Sandbox, err: &anyhow::Error) {
        assert!(
            HostFailure::find(err).is_none(),
            "a bomb is the agent's doing: {err:#}"
        );
        let agent = sb
            .load(&common::components::component("rs-greedy"))
            .expect("an ordinary component loads after the bomb");
        let farm = arena::games::registry()
            .by_name("little-animal-farm")
            .unwrap();
        assert!(agent.plays(&farm.info().agent), "{:?}", agent.games());
    }

    #[test]
    fn a_component_bomb_within_the_shape_limits_is_stopped_by_the_compile_deadline() {
        let wasm = component_bomb();
        let limits = CompileLimits {
            time_ms: 1500,
            ..CompileLimits::default()
        };
        let sb = Sandbox::with_compiler(
            arena::games::registry().agents(),
            Limits::default(),
            child_compiler(limits),
        )
        .unwrap();
        let t = Instant::now();
        let err = sb.load_bytes("bomb", &wasm).unwrap_err();
        let took = t.elapsed();
        let text = format!("{err:#}");
        eprintln!(
            "component of 8 modules of 1,999 locals ({} bytes): refused after {took:?}: {text}",
            wasm.len()
        );
        assert!(
            text.contains("compiling the component took longer than 1.5 s"),
            "{text}"
        );
        assert!(took < Duration::from_secs(6), "{took:?}");
        refused_and_the_arena_goes_on(&sb, &err);
    }

    #[test]
    fn a_component_bomb_within_the_shape_limits_is_stopped_by_the_compile_memory_limit() {
        let wasm = component_bomb();
        let limits = CompileLimits {
            memory_bytes: 100 << 20,
            time_ms: 60_000,
            ..CompileLimits::default()
        };
        let sb = Sandbox::with_compiler(
            arena::games::registry().agents(),
            Limits::default(),
            child_compiler(limits),
        )
        .unwrap();
        let t = Instant::now();
        let err = sb.load_bytes("bomb", &wasm).unwrap_err();
        let text = format!("{err:#}");
        eprintln!(
            "component of 8 modules of 1,999 locals, 100 MiB address space: refused after {:?}: {text}",
            t.elapsed()
        );
        assert!(
            text.contains("compiler process") || text.contains("memory"),
            "{text}"
        );
        refused_and_the_arena_goes_on(&sb, &err);
    }

    #[test]
    fn ordinary_agents_compile_in_the_child_and_come_back_from_the_cache_unless_tampered() {
        let dir = temp_dir("hostile-cache");
        let cache = ModuleCache::open(&dir.join("cache")).unwrap();
        let compiler = Compiler {
            cache: Some(cache.clone()),
            ..child_compiler(CompileLimits::default())
        };
        let agents = ["greedy", "trader", "dealer", "malformed", "wasi_snoop"];
        let load_all = || {
            let sb = Sandbox::with_compiler(
                arena::games::registry().agents(),
                Limits::default(),
                compiler.clone(),
            )
            .unwrap();
            let t = Instant::now();
            let hashes: Vec<String> = agents
                .iter()
                .map(|a| sb.load(&agent_path(a)).unwrap().sha256().to_owned())
                .collect();
            (t.elapsed(), hashes, sb)
        };
        let (cold, hashes, sb) = load_all();
        let (warm, again, _) = load_all();
        eprintln!(
            "loading {} agents: {cold:?} compiling, {warm:?} from the cache",
            agents.len()
        );
        assert_eq!(hashes, again);
        assert!(
            warm < cold,
            "the cache makes the second start faster ({warm:?} vs {cold:?})"
        );

        // The secret and the folder are private.
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir.join("cache").join("secret")), 0o600);
        assert_eq!(mode(&dir.join("cache")), 0o700);

        // One flipped byte in an artifact: refused (and removed), then compiled again.
        let wasm = wat::parse_file(agent_path("dealer")).unwrap();
        let key = ModuleCache::key(sb.engine(), sb.limits(), &wasm);
        let path = cache.path(&key);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        match cache.load(sb.engine(), &key) {
            Lookup::Refused(why) => assert!(why.contains("HMAC"), "{why}"),
            Lookup::Hit(_) => panic!("a tampered artifact was loaded"),
            Lookup::Miss => panic!("the artifact vanished"),
        }
        assert!(!path.exists(), "the tampered file is removed");
        std::fs::write(&path, &bytes).unwrap();
        let m = sb.load(&agent_path("dealer")).unwrap();
        assert_eq!(m.sha256(), hashes[2]);
        assert!(
            matches!(cache.load(sb.engine(), &key), Lookup::Hit(_)),
            "recompiled and stored again"
        );

        // A secret other users can read disables the cache.
        std::fs::set_permissions(
            dir.join("cache").join("secret"),
            std::fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        let err = ModuleCache::open(&dir.join("cache")).unwrap_err();
        assert!(
            format!("{err:#}").contains("can be read by other users"),
            "{err:#}"
        );
    }
}

/// A hostile component (tests/hostile/rust-component, one cargo feature each) plays a farm game
/// against greedy: returns the record's events and text, after checking that it verifies.
fn component_game(feature: &str) -> (Vec<serde_json::Value>, String) {
    let (events, record, _) = component_game_with(feature, &[]);
    (events, record)
}

/// [`component_game`] with more arguments for `arena play` (budgets, fault policy); also
/// returns what `arena play` printed.
fn component_game_with(feature: &str, extra: &[&str]) -> (Vec<serde_json::Value>, String, String) {
    let agent = common::components::component(&format!("hostile-{feature}"));
    // A folder per feature and arguments: tests of one feature run at the same time.
    let tag: String = extra
        .concat()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let dir = temp_dir(&format!("hostile-component-{feature}-{tag}"));
    let record = dir.join("game.jsonl");
    let greedy = example_wasm("greedy");
    let mut args = vec![
        "play",
        agent.to_str().unwrap(),
        greedy.to_str().unwrap(),
        "--seed",
        "5",
        "--record",
        record.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let run = run_measured(&args, &cache_dir());
    assert_eq!(run.code, Some(0), "{feature}: {}", run.output);
    let o = run_arena(&["verify", record.to_str().unwrap()]);
    assert!(o.status.success(), "{feature}: arena verify: {}", text(&o));
    let text = std::fs::read_to_string(&record).unwrap();
    (events(&text), text, run.output)
}

fn run_arena(args: &[&str]) -> std::process::Output {
    run(args)
}

/// The one fault of seat 0 in `events`.
fn only_fault(events: &[serde_json::Value]) -> &serde_json::Value {
    let faults: Vec<_> = events.iter().filter(|e| e["type"] == "fault").collect();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["seat"], 0, "{}", faults[0]);
    faults[0]
}

#[test]
fn a_component_looping_in_init_loses_its_game_on_decision_fuel() {
    let (events, _) = component_game("loop-init");
    let fault = only_fault(&events);
    assert_eq!(fault["decision"], "init", "{fault}");
    assert_eq!(fault["kind"], "decision_fuel", "{fault}");
    assert!(
        fault["detail"]
            .as_str()
            .unwrap()
            .contains("init used up the fuel of one decision"),
        "{fault}"
    );
}

/// A component's decisions share the game's fuel as a core module's do: a `trade` that never
/// returns, with less fuel for the game than for one decision, ends on `game_fuel`.
#[test]
fn a_component_runs_out_of_the_games_fuel() {
    let (events, _, _) = component_game_with("loop-trade", &["--fuel-per-game", "3000000"]);
    let fault = only_fault(&events);
    assert_eq!(fault["decision"], "trade", "{fault}");
    assert_eq!(fault["kind"], "game_fuel", "{fault}");
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "forfeit" && e["seat"] == 0),
        "forfeit by default: {events:?}"
    );
}

/// With the fault policy `lose_move` a faulty component only loses its moves: it is not
/// forfeited, its first `trade` ends on `decision_fuel`, and since its instance is not entered
/// again after that, each later `trade` fails at once with the same fault and no fuel: the
/// agent's fuel for the game is that of about one decision.
#[test]
fn a_faulty_component_loses_its_moves_under_lose_move_without_spending_more_fuel() {
    let (events, _, printed) = component_game_with("loop-trade", &["--fault-policy", "lose_move"]);
    assert!(
        events.iter().all(|e| e["type"] != "forfeit"),
        "no forfeit under lose_move: {events:?}"
    );
    let faults: Vec<_> = events.iter().filter(|e| e["type"] == "fault").collect();
    assert!(
        faults.len() >= 3,
        "a fault at each of its turns: {faults:?}"
    );
    for f in &faults {
        assert_eq!(f["seat"], 0, "{f}");
        assert_eq!(f["decision"], "trade", "{f}");
        assert_eq!(f["kind"], "decision_fuel", "{f}");
    }
    // "hostile-loop-trade: N fuel used, ...": one decision's 10,000,000 and its loading.
    let line = printed
        .lines()
        .find(|l| l.starts_with("hostile-loop-trade: ") && l.contains(" fuel used"))
        .unwrap_or_else(|| panic!("no fuel line:\n{printed}"));
    let used: u64 = line["hostile-loop-trade: ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (10_000_000..11_000_000).contains(&used),
        "fuel of about one decision, not one per turn: {line}"
    );
}

#[test]
fn a_component_allocating_without_bound_hits_the_memory_limit() {
    let (events, _) = component_game("allocate");
    let fault = only_fault(&events);
    assert_eq!(fault["decision"], "trade", "{fault}");
    assert_eq!(fault["kind"], "memory_limit", "{fault}");
}

/// The largest count logged after `prefix` in `record` (the agents' logs are in it).
fn largest_count(record: &str, prefix: &str) -> u64 {
    record
        .match_indices(prefix)
        .filter_map(|(at, _)| {
            let digits: String = record[at + prefix.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .max()
        .unwrap_or_else(|| panic!("no {prefix:?} in the record:\n{record}"))
}

#[test]
fn a_component_hammering_host_calls_pays_for_their_bytes() {
    // With the default budgets (10,000,000 fuel a decision), host calls whose work grows with an
    // argument cost its bytes as well as the call's 1,000 fuel, as for a core module: 4 KiB of
    // random bytes 5,096 fuel (at most 1,962 calls), a lookup of a 1 MiB name 1,049,576 (at most
    // 9). Before, each cost 1,000 fuel: 7,800 random calls took 1.4 s of a 2 s backstop, and
    // 8 MiB names ran into it (a `timeout`).
    for (feature, prefix, most) in [
        ("random-bytes", "random calls: ", 1_962),
        ("name-lookup", "lookups: ", 9),
    ] {
        let (events, record) = component_game(feature);
        let fault = only_fault(&events);
        assert_eq!(fault["kind"], "decision_fuel", "{feature}: {fault}");
        let calls = largest_count(&record, prefix);
        assert!(
            (1..=most).contains(&calls),
            "{feature}: {calls} calls in one decision, at most {most} are paid for"
        );
    }
}

#[test]
fn a_component_finds_no_file_no_environment_and_no_network() {
    let (events, record) = component_game("snoop");
    assert!(
        events.iter().all(|e| e["type"] != "fault"),
        "the snooping is not a fault: {events:?}"
    );
    for refused in [
        "read /etc/passwd: Err",
        "list /: Err",
        "write /tmp/x: Err",
        "environment: []",
        "arguments: []",
        "connect 127.0.0.1:22: Err",
        "bind udp: Err",
    ] {
        assert!(
            record.contains(refused),
            "{refused:?} not in the log:\n{record}"
        );
    }
    assert!(
        !std::path::Path::new("/tmp/hostile-component").exists(),
        "the component wrote a file"
    );
}

#[test]
fn components_that_cannot_be_agents_are_refused_before_any_game() {
    let dir = temp_dir("hostile-components-refused");
    let cases: &[(&str, &str)] = &[
        (
            "component_loop_start",
            "instantiation used up the fuel of one decision",
        ),
        (
            "component_huge_memory",
            "linear memory of 3932160000 bytes requested, the limit is 33554432 bytes",
        ),
        (
            "component_huge_table",
            "table of 10000000 elements requested, the limit is 10000 elements",
        ),
        ("component_http", "wasi:http/outgoing-handler@0.2.0"),
        (
            "component_other_world",
            "not an arena agent: the component exports play",
        ),
    ];
    for (name, why) in cases {
        let run = refused(&dir, &hostile_dir().join(format!("{name}.wat")), why);
        assert!(
            run.elapsed < Duration::from_secs(10),
            "{name}: {:?}",
            run.elapsed
        );
    }

    // The farm's decisions by name with other types: of neither of the farm's worlds, and the
    // refusal says why for each and lists both.
    let run = refused(
        &dir,
        &hostile_dir().join("component_wrong_types.wat"),
        "(world farm: ",
    );
    for part in [
        "; world farm-json: ",
        "farm-json (init, trade, accept-offer)",
    ] {
        assert!(run.output.contains(part), "{part}: {}", run.output);
    }

    // A component of the other game's world.
    refused(
        &dir,
        &common::components::component("js-farkle"),
        "it is a component of world arena:games/farkle@1.0.0",
    );

    // Larger than the module size cap (32 MiB): a component preamble and a custom section.
    let big = dir.join("big-component.wasm");
    {
        let mut bytes = b"\0asm\x0d\x00\x01\x00".to_vec();
        bytes.resize(33 << 20, 0);
        std::fs::write(&big, bytes).unwrap();
    }
    refused(&dir, &big, "larger than the module size limit");
    std::fs::remove_file(&big).unwrap();
}
