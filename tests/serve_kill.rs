//! `arena serve` killed with SIGKILL at random moments, during uploads and games, and started
//! again, repeatedly. Afterwards: every upload the client saw accepted is in the database with its
//! bytes on disk; every game is done once with a record that `arena verify` accepts; no game is
//! left leased; the leaderboard counts exactly the games the database holds; and the ladder goes
//! on after each restart.
//!
//! It runs on both databases: SQLite in the data folder, and PostgreSQL (`database = "postgres://
//! ..."`), where an `arena worker` process plays ladder games besides the server's own worker and
//! goes on while the server is down; the server counts its results once, whenever it comes back.
//! At the end the server is started once more with `workers = 0`, and new uploads' games are the
//! remote worker's alone.

mod pg_support;
mod serve_support;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pg_support::Database;
use serve_support::*;
use sqlx::Row;

const ROUNDS: u64 = 6;

/// A small deterministic generator for the moments of the kills.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Writes `bytes` to `DIR/db-records/NAME`.
fn write_bytes(dir: &std::path::Path, name: &std::ffi::OsStr, bytes: &[u8]) -> std::path::PathBuf {
    let folder = dir.join("db-records");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The version number `arena submit` printed (`... version N ...`).
fn submitted_version(out: &std::process::Output) -> i64 {
    let line = String::from_utf8_lossy(&out.stdout);
    line.split("version ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no version in {line:?}"))
}

async fn count(pool: &sqlx::AnyPool, sql: &'static str) -> i64 {
    sqlx::query(sql)
        .fetch_one(pool)
        .await
        .unwrap()
        .try_get::<i64, _>(0)
        .unwrap()
}

mod killed_at_any_moment_the_server_loses_no_upload_and_counts_every_game_once {
    #[test]
    fn sqlite() {
        super::killed_at_any_moment(super::Database::sqlite())
    }

    #[test]
    fn postgres() {
        super::killed_at_any_moment(super::Database::postgres("serve_kill"))
    }
}

fn killed_at_any_moment(db: Database) {
    let dir = temp_dir(&format!("kill-{}", db.name()));
    let mut server = Server::start(
        &dir,
        &(db.challenge_line()
            + r#"
round_cap = 40
workers = 1
[ladder]
placement_games = 2
max_games_per_version = 24
[uploads]
per_hour = 10000
check_games = 1
"#),
    );
    // With PostgreSQL, a worker elsewhere plays too, and is never killed: its results written
    // while the server is down are counted when it is back.
    let worker = db.worker(&dir, "remote");
    let names = ["ann", "ben", "cat", "dan"];
    let tokens: Vec<String> = names.iter().map(|n| server.add_contestant(n)).collect();
    // Acknowledged uploads: (contestant, version) that `arena submit` reported accepted.
    let acknowledged = Arc::new(Mutex::new(Vec::<(String, i64)>::new()));
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64 ^ u64::from(std::process::id());
    let mut done_before = 0;
    for round in 0..ROUNDS {
        let stop = Arc::new(AtomicBool::new(false));
        let uploader = {
            let (stop, ack, url, dir) = (
                Arc::clone(&stop),
                Arc::clone(&acknowledged),
                server.url.clone(),
                dir.to_path_buf(),
            );
            let tokens = tokens.clone();
            std::thread::spawn(move || {
                let mut i = 0usize;
                while !stop.load(Ordering::SeqCst) {
                    let who = i % names.len();
                    // Distinct bytes every time: a climber tagged with the round and the upload.
                    let tag = format!("k{round:02}u{i:06}x");
                    let file = write(&dir, &format!("up-{round}-{i}.wat"), &climber(&tag[..11]));
                    let out = arena()
                        .args([
                            "submit",
                            "--quiet",
                            "--server",
                            &url,
                            "--token",
                            &tokens[who],
                        ])
                        .arg(&file)
                        .output()
                        .unwrap();
                    if out.status.code() == Some(0) {
                        let v = submitted_version(&out);
                        ack.lock().unwrap().push((names[who].to_string(), v));
                    }
                    i += 1;
                }
            })
        };
        // Let uploads and games run for a random moment, then kill the server mid-flight.
        std::thread::sleep(Duration::from_millis(800 + next(&mut rng) % 2500));
        server.kill();
        stop.store(true, Ordering::SeqCst);
        uploader.join().unwrap();
        server.restart();
        // After each restart the ladder goes on: games left in the queue get done.
        let status = server.wait_for("/api/status", 60, |s| {
            s["games_done"].as_i64().unwrap() > done_before || s["games_pending"] == 0
        });
        done_before = status["games_done"].as_i64().unwrap();
    }
    if db.url().is_some() {
        // Last, a server that leaves every game to workers elsewhere (`workers = 0`): the games
        // left in the queue and those a new version of each contestant brings are the remote
        // worker's alone (while the server plays too, its own worker, woken as games are
        // scheduled, may take every game before the remote one looks).
        server.kill();
        let config = dir.join("challenge.toml");
        let challenge = std::fs::read_to_string(&config).unwrap();
        assert!(challenge.contains("workers = 1"), "{challenge}");
        std::fs::write(&config, challenge.replace("workers = 1", "workers = 0")).unwrap();
        server.restart();
        for (who, token) in tokens.iter().enumerate() {
            let tag = format!("remote{who:04}x");
            let file = write(&dir, &format!("last-{who}.wat"), &climber(&tag[..11]));
            let out = server.submit(token, &file);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out));
            let v = submitted_version(&out);
            acknowledged
                .lock()
                .unwrap()
                .push((names[who].to_string(), v));
        }
    }
    // Let the ladder drain: nothing scheduled, nothing leased.
    let url = match db.url() {
        Some(url) => url.to_owned(),
        None => format!(
            "sqlite://{}?mode=ro",
            server.data().join("arena.sqlite3").display()
        ),
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    sqlx::any::install_default_drivers();
    let pool = rt.block_on(sqlx::AnyPool::connect(&url)).unwrap();
    let started = std::time::Instant::now();
    loop {
        let pending = rt.block_on(count(
            &pool,
            "SELECT COUNT(*) FROM games WHERE status IN ('scheduled', 'running')",
        ));
        if pending == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "{pending} games never finished"
        );
        std::thread::sleep(Duration::from_millis(500));
    }

    // The kills did land while games were being played: restarts put leased games back.
    let requeued: u64 = (1..=ROUNDS + 1)
        .filter_map(|n| std::fs::read_to_string(dir.join(format!("server-{n}.log"))).ok())
        .flat_map(|log| {
            log.lines()
                .filter_map(|l| {
                    l.strip_suffix(" game(s) left unfinished by the last run are scheduled again")
                })
                .filter_map(|n| n.trim().parse::<u64>().ok())
                .collect::<Vec<_>>()
        })
        .sum();
    assert!(requeued > 0, "no kill caught a game being played");

    // 1. Every acknowledged upload is there, accepted, with its bytes.
    let ack = acknowledged.lock().unwrap().clone();
    assert!(
        ack.len() >= ROUNDS as usize,
        "too few uploads got through: {ack:?}"
    );
    let storage = arena::jobs::storage::Storage::open(&server.data()).unwrap();
    for (name, number) in &ack {
        let row = rt
            .block_on(
                sqlx::query(
                    "SELECT v.accepted, v.sha256 FROM versions v JOIN contestants c \
                     ON c.id = v.contestant_id WHERE c.name = $1 AND v.number = $2",
                )
                .bind(name.as_str())
                .bind(*number)
                .fetch_optional(&pool),
            )
            .unwrap()
            .unwrap_or_else(|| panic!("{name} v{number} was acknowledged and is lost"));
        assert_eq!(row.try_get::<i64, _>("accepted").unwrap(), 1);
        let sha: String = row.try_get("sha256").unwrap();
        let bytes = storage.agent(&sha).unwrap();
        assert_eq!(arena::records::sha256_hex(&bytes), sha, "{name} v{number}");
        if db.url().is_some() {
            // Workers elsewhere load agents from the database: the bytes are there too.
            let kept: Vec<u8> = rt
                .block_on(
                    sqlx::query("SELECT bytes FROM code WHERE sha256 = $1")
                        .bind(sha.as_str())
                        .fetch_optional(&pool),
                )
                .unwrap()
                .unwrap_or_else(|| panic!("{name} v{number}: no bytes in the database"))
                .try_get("bytes")
                .unwrap();
            assert!(
                kept == bytes,
                "{name} v{number}: other bytes in the database"
            );
        }
    }

    // 2. Every game is done once, with a record that verifies.
    let rows = rt
        .block_on(
            sqlx::query("SELECT id, record, result FROM games WHERE status = 'done' ORDER BY id")
                .fetch_all(&pool),
        )
        .unwrap();
    assert!(
        rows.len() >= 6,
        "the ladder played too little: {}",
        rows.len()
    );
    let mut records = Vec::new();
    for r in &rows {
        let id: i64 = r.try_get("id").unwrap();
        let record: String = r.try_get("record").unwrap();
        let result: String = r.try_get("result").unwrap();
        let v: serde_json::Value = serde_json::from_str(&result).unwrap();
        assert_eq!(v["id"].as_i64(), Some(id));
        assert_eq!(v["record"].as_str(), Some(record.as_str()));
        match db.url() {
            None => records.push(server.data().join(record)),
            // PostgreSQL keeps the ladder's records (`game_records`), written in the result's
            // transaction: a counted game has its record.
            Some(_) => {
                let bytes: Vec<u8> = rt
                    .block_on(
                        sqlx::query("SELECT bytes FROM game_records WHERE game_id = $1")
                            .bind(id)
                            .fetch_optional(&pool),
                    )
                    .unwrap()
                    .unwrap_or_else(|| panic!("game {id} is done without its record"))
                    .try_get("bytes")
                    .unwrap();
                let name = std::path::Path::new(&record).file_name().unwrap();
                records.push(write_bytes(&dir, name, &bytes));
            }
        }
    }
    for chunk in records.chunks(200) {
        let out = arena()
            .arg("verify")
            .arg("-q")
            .args(chunk)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let dup = rt.block_on(count(
        &pool,
        "SELECT COUNT(*) FROM (SELECT group_key, cycle, rotation FROM games \
         GROUP BY group_key, cycle, rotation HAVING COUNT(*) > 1) d",
    ));
    assert_eq!(dup, 0, "a game was scheduled twice");
    if db.url().is_some() {
        let remote = rt.block_on(count(
            &pool,
            "SELECT COUNT(*) FROM games WHERE status = 'done' AND played_by LIKE 'remote#%'",
        ));
        assert!(
            remote > 0,
            "the worker elsewhere played no game; its log:\n{}",
            std::fs::read_to_string(dir.join("worker-remote.log")).unwrap_or_default()
        );
    }

    // 3. The leaderboard counts exactly the done games between active versions. The ladder may
    // still be scheduling games (no version has reached its cap), so the database is read again
    // with every look at the leaderboard: both must agree at one moment, not a stale count.
    let per_version = || -> BTreeMap<String, i64> {
        rt.block_on(
            sqlx::query(
                "SELECT c.name, COUNT(*) AS n FROM games g JOIN game_seats s ON s.game_id = g.id \
                 JOIN versions v ON v.id = s.version_id JOIN contestants c ON c.id = v.contestant_id \
                 WHERE g.status = 'done' AND NOT EXISTS (SELECT 1 FROM game_seats s2 JOIN versions v2 \
                 ON v2.id = s2.version_id WHERE s2.game_id = g.id AND v2.active = 0) GROUP BY c.name",
            )
            .fetch_all(&pool),
        )
        .unwrap()
        .iter()
        .map(|r| (r.try_get("name").unwrap(), r.try_get("n").unwrap()))
        .collect()
    };
    let board = server.wait_for("/api/leaderboard", 30, |b| {
        let counted = per_version();
        b["agents"].as_array().unwrap().iter().all(|a| {
            counted
                .get(a["name"].as_str().unwrap())
                .copied()
                .unwrap_or(0)
                == a["games"].as_i64().unwrap()
        })
    });
    assert!(board["agents"].as_array().unwrap().len() >= 2, "{board}");
    rt.block_on(pool.close());
    drop(worker);
    server.finish();
}
