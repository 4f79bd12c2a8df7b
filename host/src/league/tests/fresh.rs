//! The output folder: starting fresh where a league is, killed at every step; resuming refuses a
//! folder that lost records; resuming nothing starts the league; one process at a time.

use std::collections::BTreeMap;

use super::super::folder::{self, Header, Start};
use super::super::lock::{FolderLock, LOCK_FILE};
use super::super::runner::fingerprint;
use super::*;

/// Every file under `dir` (but the lock file) by relative path, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    arena_test_support::folders::snapshot(dir, LOCK_FILE)
}

fn league_fingerprint(cfg: &LeagueConfig) -> String {
    fingerprint(
        cfg,
        &[None, None, None, None],
        &serde_json::json!({"test": true}),
    )
}

/// What a kill left: the old league whole, or the new one consistent; or (replacing in place
/// only) the old league's journal and records whole with some of the files computed from them
/// gone, which `--resume` writes again.
#[derive(Debug, PartialEq)]
enum State {
    Old,
    OldWithoutStandings,
    New,
}

fn state(out: &Path, old: &BTreeMap<String, Vec<u8>>, new_fingerprint: &str) -> State {
    let now = snapshot(out);
    if &now == old {
        return State::Old;
    }
    let derived = |name: &str| {
        [STANDINGS_JSON, STANDINGS_CSV, CROSSTABLE_CSV, GAMES_CSV].contains(&name)
            || name.starts_with("report/")
    };
    if now.iter().all(|(name, bytes)| old.get(name) == Some(bytes))
        && old
            .iter()
            .all(|(name, bytes)| derived(name) || now.get(name) == Some(bytes))
    {
        return State::OldWithoutStandings;
    }
    let journal = std::fs::read_to_string(out.join(JOURNAL_FILE))
        .unwrap_or_else(|e| panic!("neither league: no journal ({e}); files {:?}", now.keys()));
    let header: serde_json::Value = serde_json::from_str(journal.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["fingerprint"],
        new_fingerprint,
        "neither the old league whole nor the new one: {:?}",
        now.keys()
    );
    for line in journal.lines().skip(1) {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let record = r["record"].as_str().unwrap();
        assert!(out.join(record).is_file(), "{record} is named but missing");
    }
    for derived in [
        STANDINGS_JSON,
        STANDINGS_CSV,
        CROSSTABLE_CSV,
        GAMES_CSV,
        "report",
    ] {
        assert!(
            !out.join(derived).exists(),
            "the new league has {derived} of the old one"
        );
    }
    State::New
}

/// Starts league `new` in `out` (holding league `old`) and stops it at each step in turn, as a
/// kill would; after each, the folder must be one league or the other, and resuming (or starting
/// again) must end with exactly the results of an undisturbed run. Returns the number of steps.
fn kill_at_every_step(dir: &Path, out: &Path, foreign: bool) -> usize {
    let old_cfg = config(dir, 2);
    let mut new_cfg = old_cfg.clone();
    new_cfg.seed = 6;
    let new_fingerprint = league_fingerprint(&new_cfg);
    let expected_new = {
        run(&new_cfg, &dir.join("expected-new"), 2, false);
        files(&dir.join("expected-new"))
    };
    let beside = out.with_file_name(format!(
        ".{}.arena-swap",
        out.file_name().unwrap().to_string_lossy()
    ));
    for k in 0.. {
        let _ = std::fs::remove_dir_all(out);
        run(&old_cfg, out, 2, false);
        crate::report::write_report(out).unwrap();
        if foreign {
            std::fs::write(out.join("notes.txt"), b"the organiser's notes").unwrap();
        }
        let old = snapshot(out);
        let header = Header {
            fingerprint: &new_fingerprint,
            name: &new_cfg.name,
            games: 24,
            settings: None,
        };
        let mut steps = 0;
        let mut checkpoint = || {
            steps += 1;
            if steps > k {
                anyhow::bail!("killed")
            }
            Ok(())
        };
        let lock = folder::lock(out).unwrap();
        let opened =
            folder::open_with(out, lock, Start::Fresh, &header, &|_| None, &mut checkpoint);
        if let Ok(opened) = opened {
            // Every step passed: the new league is open and empty.
            drop(opened);
            assert_eq!(state(out, &old, &new_fingerprint), State::New);
            assert!(!beside.exists(), "the old league is deleted");
            return k;
        }
        match state(out, &old, &new_fingerprint) {
            State::OldWithoutStandings => {
                assert!(foreign, "the exchange never takes the old league apart");
                // Resuming the old league writes its standings again, byte for byte.
                assert_eq!(run(&old_cfg, out, 2, true).played, 0);
                crate::report::write_report(out).unwrap();
                assert_eq!(snapshot(out), old);
                run(&new_cfg, out, 2, false);
            }
            State::Old => {
                // Resuming with the new settings is refused (the folder holds the old league),
                // and --fresh starts the new one.
                let e = try_run(&new_cfg, out, &habits(), 2, true).err().unwrap();
                assert!(e.to_string().contains("different settings"), "{e}");
                run(&new_cfg, out, 2, false);
            }
            State::New => {
                run(&new_cfg, out, 2, true);
            }
        }
        assert_eq!(files(out), expected_new, "kill after step {k}");
        assert!(!beside.exists(), "leftovers beside the folder are cleared");
        assert!(!out.join(".arena-discard").exists());
        if foreign {
            assert_eq!(
                std::fs::read(out.join("notes.txt")).unwrap(),
                b"the organiser's notes",
                "files that are not the league's are kept"
            );
        }
    }
    unreachable!()
}

#[test]
fn a_fresh_start_killed_at_any_step_leaves_the_old_league_or_a_consistent_new_one() {
    let dir = temp("fresh-swap");
    // A folder holding only a league: built beside it and exchanged (two steps).
    assert_eq!(kill_at_every_step(&dir, &dir.join("out"), false), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fresh_start_in_a_folder_with_other_files_is_truthful_at_every_step() {
    let dir = temp("fresh-in-place");
    // Other files in the folder: the league is replaced in place, step by step.
    assert_eq!(kill_at_every_step(&dir, &dir.join("out"), true), 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_refuses_a_journal_that_names_missing_records() {
    let dir = temp("missing-records");
    let cfg = config(&dir, 2);
    let out = dir.join("out");
    run(&cfg, &out, 2, false);
    for id in [17, 3] {
        std::fs::remove_file(out.join(format!("records/game-{id:06}.jsonl"))).unwrap();
    }
    let before = snapshot(&out);
    let e = try_run(&cfg, &out, &habits(), 2, true)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("the journal names records that are not there")
            && e.contains("the first: records/game-000003.jsonl, of game 3")
            && e.contains("--fresh"),
        "{e}"
    );
    assert_eq!(snapshot(&out), before, "the folder is left as it was");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resuming_a_league_that_never_began_starts_it() {
    let dir = temp("resume-nothing");
    let cfg = config(&dir, 2);
    let whole = run(&cfg, &dir.join("whole"), 2, false);
    // Killed before its journal existed: an empty folder, or one with a stale lock file.
    for (name, stale_lock) in [("empty", false), ("stale-lock", true)] {
        let out = dir.join(name);
        std::fs::create_dir_all(&out).unwrap();
        if stale_lock {
            std::fs::write(out.join(LOCK_FILE), b"{\"pid\":999999}\n").unwrap();
        }
        let resumed = run(&cfg, &out, 2, true);
        assert_eq!(resumed.played, 24, "{name}");
        assert_eq!(resumed.standings, whole.standings, "{name}");
        assert_eq!(files(&out), files(&dir.join("whole")), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_league_refuses_a_folder_another_process_holds() {
    let dir = temp("held");
    let cfg = config(&dir, 2);
    let out = dir.join("out");
    run(&cfg, &out, 2, false);
    let before = snapshot(&out);
    let lock = FolderLock::acquire(&out).unwrap();
    for resume in [true, false] {
        let e = try_run(&cfg, &out, &habits(), 2, resume)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("is in use by another arena process")
                && e.contains(&format!("process {} on host", std::process::id())),
            "{e}"
        );
    }
    assert_eq!(snapshot(&out), before, "nothing touched");
    drop(lock);
    // The run holds the lock until its result is dropped.
    let held = run(&cfg, &out, 2, true);
    assert!(FolderLock::acquire(&out).is_err());
    drop(held);
    drop(FolderLock::acquire(&out).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}
