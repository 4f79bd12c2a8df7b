//! The host's own limits never become an agent's fault: a league on many threads or under an
//! address-space limit gives the same results as one on one thread without a limit, or is
//! refused with what to change; `arena play` and `arena check` say it is the host's failure
//! (exit status 2), never that the agent is bad (exit status 1). A record the disk has no room
//! for stops the league with nothing counted, and `--resume` completes it.

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;

/// `arena` with `args` under an address-space limit of `bytes` (`ulimit -v`).
fn run_limited(args: &[impl AsRef<std::ffi::OsStr>], bytes: Option<u64>) -> Output {
    let mut cmd = arena();
    cmd.args(args).env(
        "ARENA_CACHE_DIR",
        workspace().join("target").join("hostile-cache"),
    );
    if let Some(bytes) = bytes {
        // SAFETY: the closure only calls setrlimit, which is async-signal-safe.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    cmd.output().expect("run arena")
}

fn league(dir: &Path, players: usize, per_group: u32, agents: &[(&str, PathBuf)]) -> PathBuf {
    let head = format!(
        "name = \"host\"\nplayers_per_game = {players}\ngames_per_group = {per_group}\n\
         seed = 7\nround_cap = 80"
    );
    named_league_file(dir, &head, agents)
}

fn examples() -> Vec<(&'static str, PathBuf)> {
    ["passer", "greedy", "insurance", "trader", "shepherd"]
        .into_iter()
        .map(|a| (a, example_wasm(a)))
        .collect()
}

fn play_league(file: &Path, out: &Path, threads: &str, limit: Option<u64>) -> Output {
    let o = run_limited(
        &league_args(file, out, &["--threads", threads, "--quiet"]),
        limit,
    );
    assert!(o.status.success(), "{}", text(&o));
    o
}

#[test]
fn two_hundred_threads_of_six_player_games_never_run_out_of_instances() {
    let dir = temp_dir("host-many-threads");
    let mut agents = examples();
    agents.push((
        "dealer",
        workspace().join("tests").join("hostile").join("dealer.wat"),
    ));
    // 240 games of 6: every one of 200 threads busy at once, 1,200 live instances.
    let file = league(&dir, 6, 240, &agents);
    play_league(&file, &dir.join("one"), "1", None);
    play_league(&file, &dir.join("many"), "200", None);
    let one = result_files(&dir.join("one"));
    assert!(
        !one.iter()
            .any(|(_, b)| String::from_utf8_lossy(b).contains("load_failed")),
        "an agent failed to load"
    );
    assert_eq!(one, result_files(&dir.join("many")));
}

#[test]
fn under_an_address_space_limit_a_league_plays_fewer_games_at_once_with_the_same_results() {
    let dir = temp_dir("host-ulimit");
    let file = league(&dir, 2, 4, &examples());
    play_league(&file, &dir.join("free"), "2", None);
    // `ulimit -v 16000000`: room for two instances, one 2-player game at a time.
    let o = play_league(&file, &dir.join("limited"), "2", Some(16_000_000 << 10));
    assert!(
        text(&o).contains("note: 1 worker thread(s) instead of 2"),
        "{}",
        text(&o)
    );
    assert_eq!(
        result_files(&dir.join("free")),
        result_files(&dir.join("limited"))
    );
}

#[test]
fn an_address_space_limit_too_small_for_a_game_is_refused_saying_what_to_change() {
    let dir = temp_dir("host-ulimit-small");
    let file = league(&dir, 2, 2, &examples());
    let out = dir.join("out");
    let says_what_to_change = |o: &Output| {
        let t = text(o);
        assert_eq!(o.status.code(), Some(2), "{t}");
        assert!(t.contains("ulimit -v"), "{t}");
        assert!(t.contains("MemoryMax"), "{t}");
    };
    // `ulimit -v 8000000`: room for one instance only.
    let eight = Some(8_000_000 << 10);
    let o = run_limited(&league_args(&file, &out, &["--quiet"]), eight);
    says_what_to_change(&o);
    assert!(!out.join("journal.jsonl").exists(), "no game was played");

    let (a, b) = (example_wasm("greedy"), example_wasm("trader"));
    let o = run_limited(
        &[
            "play",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--seed",
            "1",
        ],
        eight,
    );
    says_what_to_change(&o);

    // Not even one instance: `arena check` says it is the host, not that the agent is bad.
    let o = run_limited(&["check", a.to_str().unwrap()], Some(5_000_000 << 10));
    says_what_to_change(&o);
    assert!(!text(&o).contains("FAIL"), "{}", text(&o));
}

/// The journal's lines of the games numbered below `n` (and its header): the folder as a league
/// stopped after those games leaves it.
fn keep_first_games(out: &Path, n: u64) {
    let journal = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines = text.lines();
    let mut kept = vec![lines.next().unwrap()];
    kept.extend(lines.filter(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["id"].as_u64().unwrap() < n
    }));
    std::fs::write(&journal, kept.join("\n") + "\n").unwrap();
    for f in [
        "standings.json",
        "standings.csv",
        "crosstable.csv",
        "games.csv",
    ] {
        std::fs::remove_file(out.join(f)).unwrap();
    }
}

#[test]
fn a_record_that_cannot_be_written_stops_the_league_and_resume_completes_it() {
    let dir = temp_dir("host-full-disk");
    let file = league(&dir, 2, 2, &examples());
    let clean = dir.join("clean");
    play_league(&file, &clean, "1", None);

    // A league stopped after its first 4 games, on a disk that is full when game 4's record is
    // written: the record's path leads to /dev/full, where every write fails with ENOSPC.
    let out = dir.join("out");
    play_league(&file, &out, "1", None);
    keep_first_games(&out, 4);
    let journal = std::fs::read(out.join("journal.jsonl")).unwrap();
    let record = out.join("records").join("game-000004.jsonl");
    std::fs::remove_file(&record).unwrap();
    std::os::unix::fs::symlink("/dev/full", &record).unwrap();

    let args = league_args(&file, &out, &["--threads", "1", "--quiet", "--resume"]);
    let o = run_limited(&args, None);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains(&format!("cannot write {}", record.display())),
        "names the file: {t}"
    );
    assert!(
        t.contains("No space left on device"),
        "names the error: {t}"
    );
    assert!(t.contains("could not play game 4 "), "{t}");
    assert!(t.contains("not of an agent"), "{t}");
    assert!(t.contains("the 4 finished games are kept"), "{t}");
    assert!(t.contains("--resume"), "says how to continue: {t}");
    // Nothing recorded for the game, nothing counted: the journal is as it was, and no
    // standings were written.
    assert_eq!(std::fs::read(out.join("journal.jsonl")).unwrap(), journal);
    assert!(!out.join("standings.json").exists(), "{t}");
    assert!(!out.join("games.csv").exists(), "{t}");

    // With room on the disk again, `--resume` completes the league as if nothing had happened.
    std::fs::remove_file(&record).unwrap();
    let o = run_limited(&args, None);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(result_files(&out), result_files(&clean));
    std::fs::remove_dir_all(&dir).unwrap();
}
