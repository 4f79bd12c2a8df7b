//! A league's output folder from the command line: one process at a time, and `--fresh` killed at
//! any instant leaves the old league whole or a consistent new one.

mod common;

use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::*;

const LEAGUE: &str = "players_per_game = 2\ngames_per_group = 40\nseed = 5\nround_cap = 300";

fn start_league(file: &Path, out: &Path, extra: &[&str]) -> Child {
    arena()
        .args(league_args(file, out, &["--threads", "1", "--quiet"]))
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
    let o = run(&league_args(&file, &whole, &["--quiet"]));
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
            .args(league_args(&file, &out, extra))
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
    let o = run(&league_args(&file, &out, &["--resume", "--quiet"]));
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
    let o = run(&league_args(&file, &whole, &["--quiet"]));
    assert!(o.status.success(), "{}", text(&o));
    let old = snapshot(&whole, ".arena.lock");
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

        let now = snapshot(&out, ".arena.lock");
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
        let o = run(&league_args(&file, &out, &["--resume", "--quiet"]));
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

/// The SHA-256 of a file, as the arena hashes agents.
fn file_hash(path: &Path) -> String {
    arena::records::sha256_hex(&std::fs::read(path).unwrap())
}

/// `record` with the end line's digest computed again over the lines before it, as a forger
/// who changed them would.
fn with_fresh_digest(record: &str) -> String {
    let body_end = record.trim_end_matches('\n').rfind('\n').unwrap() + 1;
    let (body, end) = record.split_at(body_end);
    let at = end.find("\"digest\":\"").expect("a digest") + "\"digest\":\"".len();
    format!(
        "{body}{}{}{}",
        &end[..at],
        arena::records::sha256_hex(body.as_bytes()),
        &end[at + 64..]
    )
}

/// A worker that holds the database's password can publish games its agents did not play: the
/// scheduled seeds played with another agent's answers in a seat, that agent's hash put back and
/// the digests computed again. Every such record verifies, and so does the league; played again
/// with the published agents, the games give other records, and `--rerun` says which.
#[test]
fn games_replayed_with_another_agent_s_answers_pass_the_audit_and_fail_the_rerun() {
    let dir = temp_dir("rerun");
    let agents = dir.join("agents");
    std::fs::create_dir_all(&agents).unwrap();
    for a in ["passer", "greedy", "insurance"] {
        std::fs::copy(example_wasm(a), agents.join(format!("{a}.wasm"))).unwrap();
    }
    let header = "players_per_game = 2\ngames_per_group = 6\nseed = 3\nround_cap = 80\n";
    let league = |name: &str, passer_code: &str| {
        let mut toml = header.to_owned();
        for (a, code) in [
            ("passer", passer_code),
            ("greedy", "greedy"),
            ("insurance", "insurance"),
        ] {
            toml.push_str(&format!(
                "[[agent]]\nname = \"{a}\"\npath = \"agents/{code}.wasm\"\n"
            ));
        }
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, toml).unwrap();
        let out = dir.join(name);
        let o = run(&league_args(&file, &out, &["-q"]));
        assert!(o.status.success(), "{}", text(&o));
        out
    };
    let real = league("real", "passer");
    // The forger's league: greedy's answers in the passer's seat, the same schedule and seeds.
    let forged = league("forged", "greedy");
    let (passer, greedy) = (
        file_hash(&agents.join("passer.wasm")),
        file_hash(&agents.join("greedy.wasm")),
    );
    let seat = |hash: &str| format!("\"name\":\"passer\",\"agent\":\"{hash}\"");
    let mut forged_games = 0;
    for entry in std::fs::read_dir(forged.join("records")).unwrap() {
        let path = entry.unwrap().path();
        let record = std::fs::read_to_string(&path).unwrap();
        if record.contains(&seat(&greedy)) {
            forged_games += 1;
            let record = with_fresh_digest(&record.replacen(&seat(&greedy), &seat(&passer), 1));
            std::fs::write(&path, record).unwrap();
        }
    }
    assert_eq!(forged_games, 12, "the passer plays 12 games of 18");
    // The passer's published hash put back in the league's settings (its first agent).
    let standings = std::fs::read_to_string(forged.join("standings.json")).unwrap();
    let at = standings.find(&greedy).unwrap();
    assert!(standings[..at].rfind("passer") > standings[..at].rfind("greedy"));
    std::fs::write(
        forged.join("standings.json"),
        standings.replacen(&greedy, &passer, 1),
    )
    .unwrap();
    assert_ne!(
        std::fs::read(forged.join("standings.csv")).unwrap(),
        std::fs::read(real.join("standings.csv")).unwrap(),
        "the forgery changes the standings"
    );

    let verify = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "verify",
            "--league",
            out.to_str().unwrap(),
            "--agents",
            agents.to_str().unwrap(),
        ];
        args.extend(extra);
        run(&args)
    };
    // The audit replays the recorded answers: the forged league passes it.
    let o = verify(&forged, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("league ok"), "{}", text(&o));
    // Played again with the published agents, its passer's games are not what they record.
    let o = verify(&forged, &["--rerun"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("rerun FAILED: every game played again with the published agents, 6 the same records, 12 not"),
        "{t}"
    );
    assert_eq!(
        t.lines()
            .filter(|l| l.starts_with("FAIL records/game-")
                && l.contains(
                    "not the game its agents play: played again with the published agents, line "
                ))
            .count(),
        12,
        "{t}"
    );
    // The real league plays again to the same records, whole or a sample of it.
    let o = verify(&real, &["--rerun"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains(
            "rerun ok: every game played again with the published agents, 18 the same records"
        ),
        "{}",
        text(&o)
    );
    let o = verify(&real, &["--rerun", "--sample", "0.5"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("rerun ok: a random sample of 9 of 18 games played again with the published agents, 9 the same records"),
        "{}",
        text(&o)
    );
    let o = verify(&real, &["--rerun", "--sample", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--sample takes a fraction"),
        "{}",
        text(&o)
    );
}
