//! A league's output folder from the command line: one process at a time, and `--fresh` killed at
//! any instant leaves the old league whole or a consistent new one.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::*;

const LEAGUE: &str = "players_per_game = 2\ngames_per_group = 40\nseed = 5\nround_cap = 300";

fn start_league(file: &Path, out: &Path, extra: &[&str]) -> Child {
    arena()
        .args(["league", "--config", file.to_str().unwrap(), "--output"])
        .arg(out)
        .args(["--threads", "1", "--quiet"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arena league")
}

/// Waits (polling the folder) until `ready` holds, while `child` runs.
fn wait_for(child: &mut Child, what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the league ended before {what}; make it longer"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "never {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn journal_lines(out: &Path) -> usize {
    std::fs::read_to_string(out.join("journal.jsonl"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Every file under `dir` but the lock file, by relative path, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else if path.file_name().unwrap() != ".arena.lock" {
                let rel = path
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn a_second_run_on_a_busy_folder_is_refused_and_the_folder_stays_usable() {
    let dir = temp_dir("busy");
    let file = league_file(&dir, &EXAMPLES, LEAGUE);
    let whole = dir.join("whole");
    let o = run(&[
        "league",
        "--config",
        file.to_str().unwrap(),
        "--output",
        whole.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));

    let out = dir.join("out");
    let mut first = start_league(&file, &out, &[]);
    wait_for(&mut first, "it journaled a game", || {
        journal_lines(&out) > 2
    });
    let pid = first.id();
    for extra in [&["--resume"][..], &["--fresh"], &[]] {
        let t = Instant::now();
        let o = arena()
            .args(["league", "--config", file.to_str().unwrap(), "--output"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o));
        let msg = text(&o);
        assert!(
            msg.contains("is in use by another arena process")
                && msg.contains(&format!("(process {pid} on host "))
                && msg.contains("league --config"),
            "{extra:?}: {msg}"
        );
        assert!(t.elapsed() < Duration::from_secs(30), "refused at once");
    }
    let o = run(&["report", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("(process {pid} on host ")),
        "{}",
        text(&o)
    );

    // The first run goes on undisturbed; killed, it resumes to the whole league's results.
    wait_for(&mut first, "more games", || journal_lines(&out) > 12);
    first.kill().unwrap();
    first.wait().unwrap();
    let o = run(&[
        "league",
        "--config",
        file.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--resume",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(result_files(&out), result_files(&whole));
    let o = run(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_fresh_start_killed_at_any_instant_leaves_one_whole_league() {
    let dir = temp_dir("fresh-kill");
    let file = league_file(&dir, &EXAMPLES, LEAGUE);
    let whole = dir.join("whole");
    let o = run(&[
        "league",
        "--config",
        file.to_str().unwrap(),
        "--output",
        whole.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let old = snapshot(&whole);
    let old_lines = journal_lines(&whole);

    // Instants to kill at, each found by watching the folder (a kill lands a little later: the
    // folder must be right whenever it lands).
    type Ready = fn(&Path, usize) -> bool;
    let instants: [(&str, Ready); 5] = [
        ("at once", |_, _| true),
        ("when the folder is locked", |out, _| {
            out.join(".arena.lock").exists()
        }),
        ("when the new journal appears", |out, old| {
            (1..old).contains(&journal_lines(out))
        }),
        ("after the first new games", |out, old| {
            (4..old).contains(&journal_lines(out))
        }),
        ("after 50 ms", |_, _| {
            std::thread::sleep(Duration::from_millis(50));
            true
        }),
    ];
    for (when, ready) in instants {
        let out = dir.join(format!("out-{}", when.replace(' ', "-")));
        copy_dir(&whole, &out);
        let mut child = start_league(&file, &out, &["--fresh"]);
        wait_for(&mut child, when, || ready(&out, old_lines));
        child.kill().unwrap();
        child.wait().unwrap();

        let now = snapshot(&out);
        if now != old {
            // Not the old league: then a consistent new one, whose journal names only records
            // that are there, and nothing computed from the old one.
            let journal = std::fs::read_to_string(out.join("journal.jsonl"))
                .unwrap_or_else(|e| panic!("{when}: no journal ({e}): {:?}", now.keys()));
            assert!(journal.lines().count() < old_lines, "{when}");
            for line in journal.lines().skip(1) {
                let Ok(game) = serde_json::from_str::<serde_json::Value>(line) else {
                    continue; // a line torn by the kill
                };
                let record = game["record"].as_str().unwrap();
                assert!(out.join(record).is_file(), "{when}: {record} missing");
            }
            for derived in ["standings.json", "standings.csv", "games.csv", "report"] {
                assert!(!out.join(derived).exists(), "{when}: old {derived} left");
            }
        }
        let o = run(&[
            "league",
            "--config",
            file.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--resume",
            "--quiet",
        ]);
        assert!(o.status.success(), "{when}: {}", text(&o));
        assert_eq!(result_files(&out), result_files(&whole), "{when}");
        assert_eq!(
            journal_lines(&out),
            old_lines,
            "{when}: no game lost or repeated"
        );
        let beside = dir.join(format!(".out-{}.arena-swap", when.replace(' ', "-")));
        assert!(!beside.exists(), "{when}: leftovers are cleared");
    }
}

#[test]
fn a_fresh_start_works_in_a_folder_named_relative_to_the_current_one() {
    let dir = temp_dir("relative");
    league_file(
        &dir,
        &["greedy", "passer"],
        "games_per_group = 4\nseed = 3\noutput = \"results\"",
    );
    // `results` beside the league file, run from its folder: a path with no parent part.
    for _ in 0..2 {
        let o = arena()
            .current_dir(&dir)
            .args(["league", "--config", "league.toml", "--fresh", "--quiet"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
    }
    assert_eq!(journal_lines(&dir.join("results")), 5);
    assert!(!dir.join(".results.arena-swap").exists());
}
