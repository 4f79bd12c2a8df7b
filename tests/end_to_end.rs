//! End-to-end tests of the `arena` command with real example agents compiled to wasm: play and
//! verify, check, leagues that are identical whatever the thread count, and a league killed with
//! SIGKILL that resumes to the same standings.

mod common;

use std::time::{Duration, Instant};

use common::*;

#[test]
fn a_played_game_writes_a_record_that_verify_accepts() {
    let dir = temp_dir("play");
    let record = dir.join("game.jsonl");
    let out = run(&[
        "play",
        example_wasm("greedy").to_str().unwrap(),
        example_wasm("insurance").to_str().unwrap(),
        "--seed",
        "7",
        "--record",
        record.to_str().unwrap(),
    ]);
    let narration = text(&out);
    assert!(out.status.success(), "{narration}");
    assert!(
        narration.contains("greedy") && narration.contains("insurance"),
        "{narration}"
    );
    assert!(
        narration.to_lowercase().contains("roll"),
        "narration shows the dice:\n{narration}"
    );

    let out = run(&["verify", record.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));

    // Any edit of a count is caught.
    let original = std::fs::read_to_string(&record).unwrap();
    let tampered = original.replacen("\"rabbit\":1", "\"rabbit\":2", 1);
    assert_ne!(
        tampered, original,
        "the record mentions a single rabbit somewhere"
    );
    let bad = dir.join("tampered.jsonl");
    std::fs::write(&bad, tampered).unwrap();
    let out = run(&["verify", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("tampered.jsonl"), "{}", text(&out));
}

#[test]
fn check_accepts_every_example_agent() {
    for name in EXAMPLES {
        let out = run(&["check", example_wasm(name).to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", text(&out));
    }
}

#[test]
fn a_broken_league_file_is_refused_before_any_game() {
    let dir = temp_dir("broken");
    let file = league_file(
        &dir,
        &["greedy", "passer"],
        "players_per_game = 2\ngames_per_grup = 4",
    );
    let out = run(&league_args(&file, &dir.join("out"), &[]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("games_per_grup"), "{}", text(&out));
    assert!(!dir.join("out").join("journal.jsonl").exists());

    let not_wasm = dir.join("notwasm.wasm");
    std::fs::write(&not_wasm, "hello").unwrap();
    let mut toml = std::fs::read_to_string(&file)
        .unwrap()
        .replace("games_per_grup", "games_per_group");
    toml.push_str(&format!(
        "[[agent]]\nname = \"bad\"\npath = \"{}\"\n",
        not_wasm.display()
    ));
    std::fs::write(&file, toml).unwrap();
    let out = run(&league_args(&file, &dir.join("out"), &[]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("notwasm.wasm"), "{}", text(&out));
    assert!(!dir.join("out").join("journal.jsonl").exists());
}

fn league(dir: &std::path::Path, file: &std::path::Path, out: &str, threads: &str) {
    let o = run(&league_args(
        file,
        &dir.join(out),
        &["--threads", threads, "--quiet"],
    ));
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("rating"),
        "prints the standings table:\n{}",
        text(&o)
    );
}

#[test]
fn league_results_are_identical_with_one_and_two_threads_and_every_record_verifies() {
    let dir = temp_dir("threads");
    let file = league_file(
        &dir,
        &EXAMPLES,
        "players_per_game = 2\ngames_per_group = 4\nseed = 11\nround_cap = 200",
    );
    league(&dir, &file, "one", "1");
    league(&dir, &file, "two", "2");
    assert!(
        dir.join("one").join("report").join("index.html").exists(),
        "the league writes its HTML report"
    );
    let one = result_files(&dir.join("one"));
    assert_eq!(one.len(), 4 + 10 * 4);
    assert_eq!(one, result_files(&dir.join("two")));

    records_verify(&dir.join("one"));
}

#[test]
fn a_four_player_league_rotates_seats_and_completes() {
    let dir = temp_dir("four");
    let file = league_file(
        &dir,
        &EXAMPLES,
        "players_per_game = 4\ngames_per_group = 4\nseed = 3\nround_cap = 200",
    );
    league(&dir, &file, "out", "2");
    let standings = standings(&dir.join("out"));
    // 5 groups of 4 agents, 4 games each; every agent sits in 4 of the 5 groups.
    assert_eq!(standings["games"], 20);
    for a in standings["agents"].as_array().unwrap() {
        assert_eq!(a["games"], 16, "{a}");
    }
}

#[test]
fn a_league_killed_with_sigkill_resumes_to_the_same_standings() {
    let dir = temp_dir("kill");
    let file = league_file(
        &dir,
        &EXAMPLES,
        "players_per_game = 2\ngames_per_group = 40\nseed = 5\nround_cap = 300",
    );
    league(&dir, &file, "whole", "2");
    let total = result_files(&dir.join("whole")).len() - 4;

    let out = dir.join("killed");
    let mut child = arena()
        .args(league_args(&file, &out, &["--threads", "1", "--quiet"]))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = out.join("journal.jsonl");
    let start = Instant::now();
    loop {
        let lines = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines > 10 {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the league finished before it could be killed; make it longer"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no progress in the journal"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
    assert!(done < total, "killed before the end ({done} of {total})");

    let o = run(&league_args(&file, &out, &["--resume", "--quiet"]));
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(result_files(&out), result_files(&dir.join("whole")));
    let journal_games = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
    assert_eq!(journal_games, total, "no game lost or repeated");
}

/// The WAT Farkle agent that `arena new --game farkle --lang wat` writes.
fn farkle_wat() -> std::path::PathBuf {
    workspace().join("host/src/games/farkle/templates/wat/farkle.wat")
}

#[test]
fn farkle_solo_and_race_play_check_and_verify_from_the_command_line() {
    let dir = temp_dir("play-farkle");
    let agent = farkle_wat();
    let agent = agent.to_str().unwrap();
    // One agent: the solo benchmark, found from the agent's exports.
    let solo = dir.join("solo.jsonl");
    let out = run(&[
        "play",
        agent,
        "--seed",
        "5",
        "--record",
        solo.to_str().unwrap(),
    ]);
    let narration = text(&out);
    assert!(out.status.success(), "{narration}");
    assert!(narration.contains("Farkle, solo benchmark"), "{narration}");
    assert!(narration.contains("turns taken: "), "{narration}");
    assert!(narration.contains(" -> drafts "), "{narration}");
    let out = run(&["verify", "-v", solo.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("farkle: "), "{}", text(&out));

    // A race, printed as JSON lines, verifies the same.
    let out = run(&[
        "play", agent, agent, "--game", "farkle", "--seed", "6", "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let race = dir.join("race.jsonl");
    std::fs::write(&race, &out.stdout).unwrap();
    let out = run(&["verify", race.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    // A changed answer is caught.
    let original = std::fs::read_to_string(&race).unwrap();
    let tampered = original.replacen("\"action\":1", "\"action\":0", 1);
    assert_ne!(tampered, original);
    std::fs::write(&race, tampered).unwrap();
    let out = run(&["verify", race.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));

    // A Farkle agent cannot play Little Animal Farm; a farm agent and a Farkle agent share no game.
    let out = run(&["play", agent, agent, "--game", "little-animal-farm"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("missing export `farm_trade`"),
        "{}",
        text(&out)
    );
    let out = run(&["play", agent, example_wasm("greedy").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no game in common"), "{}", text(&out));

    let out = run(&["check", agent, "--games", "3"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("Farkle smoke games"), "{}", text(&out));
    assert!(
        text(&out).contains("game 3 (seed 3): reached 10000 in "),
        "{}",
        text(&out)
    );
}

/// An agent whose log and export name are terminal escape sequences: an OSC window title, a
/// carriage return that erases the line and writes a forged verdict, a C1 CSI.
const EVIL_WAT: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "\1b]0;pwned\07\0d\1b[2Kok  forged verdict\0a\c2\9b31mred")
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "farm_trade") (param i32) (result i32) (call $log (i32.const 0) (i32.const 42)) i32.const 0)
  (func (export "farm_accept") (param i32) (result i32) i32.const 0)
  (func (export "x\1b[2J") (result i32) i32.const 0))"#;

/// Whether `bytes` hold anything that acts on a terminal: C0 controls but the line break, DEL,
/// C1 controls.
fn acts_on_a_terminal(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes)
        .chars()
        .any(|c| c.is_control() && c != '\n')
}

#[test]
fn nothing_an_agent_or_a_record_says_reaches_the_terminal_raw() {
    let dir = temp_dir("terminal");
    let agent = dir.join("evil\u{1b}[31m.wat");
    std::fs::write(&agent, EVIL_WAT).unwrap();
    let agent = agent.to_str().unwrap();
    let record = dir.join("game.jsonl");
    let runs = [
        run(&["check", agent, "--logs", "--games", "1"]),
        run(&[
            "play",
            agent,
            agent,
            "--rounds",
            "3",
            "--seed",
            "1",
            "--logs",
            "--record",
            record.to_str().unwrap(),
        ]),
    ];
    for out in &runs {
        assert!(out.status.success(), "{}", text(out));
        assert!(
            !acts_on_a_terminal(&out.stdout) && !acts_on_a_terminal(&out.stderr),
            "{:?}",
            text(out)
        );
        // Shown, not sent: the log's line break stays one, the rest is escaped.
        assert!(
            text(out).contains("] \\x1b]0;pwned\\x07\\r\\x1b[2Kok  forged verdict\n"),
            "{}",
            text(out)
        );
        assert!(text(out).contains("\\u{9b}31mred"), "{}", text(out));
    }
    assert!(text(&runs[0]).contains("x\\x1b[2J"), "{}", text(&runs[0]));

    // A record whose format string would rewrite its FAIL line as an ok one.
    let good = std::fs::read_to_string(&record).unwrap();
    let forged = good.replacen(
        "\"format\":\"arena-record\"",
        "\"format\":\"\\r\\u001b[2Kok  game.jsonl  (little-animal-farm)\\u001b]0;pwned\\u0007\"",
        1,
    );
    assert_ne!(forged, good);
    let bad = dir.join("forged.jsonl");
    std::fs::write(&bad, forged).unwrap();
    let out = run(&[
        "verify",
        "-v",
        record.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!acts_on_a_terminal(&out.stdout), "{:?}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("ok  "), "{stdout}");
    assert!(
        lines[1].starts_with("FAIL ") && lines[1].contains("\\r\\u{1b}[2Kok  game.jsonl"),
        "{stdout}"
    );
    assert_eq!(lines[2], "1 record verified, 1 failed");
}
