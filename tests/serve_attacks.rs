//! `arena serve` attacked as a hostile contestant at a meetup would: uploads abandoned by their
//! client, uploads sent at once, slow compiles, connections left half-open or dripping, bodies
//! sent before the token is known, names that impersonate, and the host acting on contestants.
//! Each test reproduces an attack and asserts that the server holds.

#[macro_use]
mod pg_support;
mod serve_support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use pg_support::Database;
use serde_json::Value;
use serve_support::*;
use sqlx::Row;

/// A POST of `body` to `url` with `token`: (status, `Retry-After`, body).
fn post(url: &str, token: &str, body: &[u8]) -> (u16, Option<String>, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into();
    let mut resp = agent
        .post(url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/wasm")
        .send(body)
        .unwrap_or_else(|e| panic!("{url}: {e}"));
    let retry = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap_or_default();
    (status, retry, text)
}

/// Sends an upload and goes away after `after`, before the answer (as `curl -m`).
fn abandon(server: &Server, token: &str, body: &[u8], after: Duration) {
    let head = format!(
        "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/wasm\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let answer = raw(&server.url, &head, body, after);
    assert!(
        answer.is_empty(),
        "answered before the client left: {answer}"
    );
}

fn versions(server: &Server, token: &str) -> Vec<Value> {
    let (status, body) = server.get_as(token, "/api/me");
    assert_eq!(status, 200, "{body}");
    let me: Value = serde_json::from_str(&body).unwrap();
    me["versions"].as_array().unwrap().clone()
}

/// A client that gives up on its upload (`curl -m 2`) does not free the checker, does not escape
/// the hourly limit, and does not lose the verdict; a compile is bounded in CPU time; a compile
/// dies with its server, and the check it belonged to runs again at the next start.
#[test]
fn abandoned_uploads_hold_their_checker_count_and_keep_their_verdict() {
    let dir = temp_dir("attack-abandoned");
    let config = |cpu_s: u32| {
        let uploads = format!("per_hour = 3\nchecks_at_once = 1\ncompile_cpu_s = {cpu_s}\n");
        upload_ladder("", &uploads)
    };
    let mut server = Server::start(&dir, &config(2));
    let mallory = server.add_contestant("mallory");
    for i in 0..2 {
        let bomb = slow_to_compile(6, &format!("bomb{i}"));
        abandon(
            &server,
            &mallory,
            bomb.as_bytes(),
            Duration::from_millis(500),
        );
    }
    // Both are recorded as soon as they are taken, before their verdicts.
    let started = Instant::now();
    let v = loop {
        let v = versions(&server, &mallory);
        if v.len() == 2 || started.elapsed() > Duration::from_secs(20) {
            break v;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(v.iter().any(|v| v["status"] == "checking"), "{v:?}");
    // One checker: never two compiles at once, while both are checked; then both verdicts are
    // kept: refused at the compile deadline, in CPU time.
    let started = Instant::now();
    let mut most = 0;
    let v = loop {
        most = most.max(compile_children(server.pid()).len());
        let v = versions(&server, &mallory);
        if v.iter().all(|v| v["status"] != "checking") {
            break v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no verdicts: {v:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(most, 1, "compiles at once with checks_at_once = 1");
    for v in &v {
        assert_eq!(v["status"], "refused", "{v}");
        let reason = v["reason"].as_str().unwrap();
        assert!(reason.contains("more than 2 s of CPU time"), "{reason}");
    }
    // The abandoned uploads counted: one more is taken, the next is refused until the oldest
    // leaves the hour, and says when.
    let url = format!("{}/api/submissions", server.url);
    let (status, _, body) = post(&url, &mallory, passer().as_bytes());
    assert_eq!(status, 201, "{body}");
    let (status, retry, body) = post(&url, &mallory, passer().as_bytes());
    assert_eq!(status, 429, "{body}");
    let retry: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((3000..=3600).contains(&retry), "Retry-After: {retry}");
    assert!(body.contains("at most 3 uploads an hour"), "{body}");

    // A compile under way dies with its server, however the server is stopped.
    std::fs::write(
        &server.config,
        format!("data = \"data\"\nlisten = \"127.0.0.1:0\"\n{}", config(60)),
    )
    .unwrap();
    server.restart();
    let trudy = server.add_contestant("trudy");
    abandon(
        &server,
        &trudy,
        slow_to_compile(8, "bomb-kill").as_bytes(),
        Duration::from_millis(200),
    );
    let started = Instant::now();
    let child = loop {
        if let Some(&pid) = compile_children(server.pid()).first() {
            break pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "no compile started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    server.kill();
    let killed = Instant::now();
    while !gone(child) {
        assert!(
            killed.elapsed() < Duration::from_secs(3),
            "the compile child {child} outlived its server"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // What the killed server left is cleaned at the next start, and the check it cut short is
    // run again: the upload gets its verdict.
    let leftovers = [
        server.data().join(".secret.99-0.tmp"),
        server
            .data()
            .join("records/000/.game-000001.jsonl.99-1.tmp"),
    ];
    std::fs::create_dir_all(server.data().join("records/000")).unwrap();
    for f in &leftovers {
        std::fs::write(f, b"half").unwrap();
    }
    std::fs::write(
        &server.config,
        format!("data = \"data\"\nlisten = \"127.0.0.1:0\"\n{}", config(2)),
    )
    .unwrap();
    server.restart();
    for f in &leftovers {
        assert!(!f.exists(), "{} left", f.display());
    }
    let started = Instant::now();
    loop {
        let v = versions(&server, &trudy);
        assert_eq!(v.len(), 1, "{v:?}");
        if v[0]["status"] == "refused" {
            assert!(
                v[0]["reason"].as_str().unwrap().contains("CPU time"),
                "{v:?}"
            );
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{v:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    server.finish();
}

on_both_databases!(
    uploads_sent_at_once_cannot_pass_the_hourly_limit,
    "attack_rate"
);

/// 12 uploads sent at once with `per_hour = 5`: 5 are taken, 7 refused with `Retry-After`.
fn uploads_sent_at_once_cannot_pass_the_hourly_limit(db: Database) {
    let uploads = "per_hour = 5\nchecks_at_once = 2\n";
    let (_dir, server) = db.serve("attack-rate", &upload_ladder("", uploads));
    let eve = server.add_contestant("eve");
    let url = format!("{}/api/submissions", server.url);
    let answers: Vec<(u16, Option<String>, String)> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..12)
            .map(|i| {
                let (url, eve) = (&url, &eve);
                s.spawn(move || post(url, eve, chatty(&format!("eve-{i:07}")).as_bytes()))
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let taken = answers.iter().filter(|a| a.0 == 201).count();
    let refused: Vec<_> = answers.iter().filter(|a| a.0 == 429).collect();
    let statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
    assert_eq!((taken, refused.len()), (5, 7), "{statuses:?}");
    for (_, retry, _) in refused {
        let retry: u64 = retry.as_deref().expect("Retry-After").parse().unwrap();
        assert!((3500..=3600).contains(&retry), "{retry}");
    }
    assert_eq!(versions(&server, &eve).len(), 5);
    server.finish();
}

/// The server's database, for what the API does not show.
fn count(server: &Server, sql: &'static str) -> i64 {
    let url = format!(
        "sqlite://{}?mode=ro",
        server.data().join("arena.sqlite3").display()
    );
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            sqlx::any::install_default_drivers();
            let pool = sqlx::AnyPool::connect(&url).await.unwrap();
            let n = sqlx::query(sql)
                .fetch_one(&pool)
                .await
                .unwrap()
                .try_get::<i64, _>(0)
                .unwrap();
            pool.close().await;
            n
        })
}

/// Whether the server closed `s` (it reads the end of the stream, or an error) within `wait`.
fn closed_within(s: &mut TcpStream, wait: Duration) -> bool {
    s.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            // An answer (408, 400) before the close is fine.
            Ok(_) => continue,
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

/// Connections left open, silent or dripping a byte at a time, are closed; they can take no
/// more than `server.max_connections`; and when they take every file descriptor, the ladder's
/// games that could not write their records go back to the queue instead of being cancelled.
#[test]
fn connections_cannot_pile_up_or_cancel_games() {
    let dir = temp_dir("attack-connections");
    // First, more connections allowed than the open-files limit: the flood takes every file
    // descriptor while the ladder plays.
    let mut server = Server::start_with_open_files(
        &dir,
        "workers = 1\nround_cap = 30\n[ladder]\nmax_games_per_version = 100000\n\
         target_interval = 0.001\n[uploads]\ncheck_games = 1\n[server]\nmax_connections = 2000\n\
         header_timeout_s = 2\n",
        256,
    );
    for name in ["ann", "bob"] {
        let token = server.add_contestant(name);
        let file = write(
            &dir,
            &format!("{name}.wat"),
            &climber(&format!("{name}-climbxx")),
        );
        assert_eq!(server.submit(&token, &file).status.code(), Some(0));
    }
    server.wait_for("/api/status", 60, |s| s["games_done"].as_i64() > Some(20));
    let addr = server.url.trim_start_matches("http://").to_string();
    let flood: Vec<TcpStream> = (0..400)
        .filter_map(|_| TcpStream::connect(&addr).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    drop(flood);
    let log = || std::fs::read_to_string(dir.join("server-1.log")).unwrap_or_default();
    assert!(
        log().contains("Too many open files"),
        "the flood did not reach the open-files limit:\n{}",
        log()
    );
    let done = server.json("/api/status")["games_done"].as_i64().unwrap();
    server.wait_for("/api/status", 60, |s| {
        s["games_done"].as_i64() > Some(done + 20)
    });
    assert_eq!(
        count(
            &server,
            "SELECT COUNT(*) FROM games WHERE status = 'cancelled'"
        ),
        0,
        "games cancelled for the host's failure:\n{}",
        log()
    );

    // Then the default way: a cap well under the limit. Silent, dripping and idle connections
    // are closed after the header timeout, and a flood leaves room for everyone else in turn.
    server.kill();
    let config = std::fs::read_to_string(&server.config)
        .unwrap()
        .replace("max_connections = 2000", "max_connections = 32");
    std::fs::write(&server.config, config).unwrap();
    server.restart();
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut silent = TcpStream::connect(&addr).unwrap();
    let mut dripping = TcpStream::connect(&addr).unwrap();
    let mut idle = TcpStream::connect(&addr).unwrap();
    idle.write_all(b"GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let drip = std::thread::spawn(move || {
        for b in b"GET /api/status HTTP/1.1\r\nHost: x\r\nX-Slow: "
            .iter()
            .cycle()
            .take(40)
        {
            if dripping.write_all(&[*b]).is_err() {
                return dripping;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        dripping
    });
    let t = Instant::now();
    assert!(
        closed_within(&mut silent, Duration::from_secs(5)),
        "a silent connection stayed open"
    );
    assert!(
        closed_within(&mut idle, Duration::from_secs(5)),
        "an idle connection stayed open"
    );
    let mut dripping = drip.join().unwrap();
    assert!(
        closed_within(&mut dripping, Duration::from_secs(1)),
        "a dripping connection stayed open"
    );
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    // A body dripping a byte a second is cut after the grace.
    let mut slow_body = TcpStream::connect(&addr).unwrap();
    slow_body
        .write_all(b"POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
        .unwrap();
    assert!(
        closed_within(&mut slow_body, Duration::from_secs(8)),
        "a dripping body was waited for"
    );
    // 100 half-open connections: the others are answered when the flood's turn is over.
    let flood: Vec<TcpStream> = (0..100)
        .filter_map(|_| TcpStream::connect(&addr).ok())
        .collect();
    let t = Instant::now();
    let (status, body) = server.get("/api/status");
    assert_eq!(status, 200, "{body}");
    assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    drop(flood);
    let log = std::fs::read_to_string(dir.join("server-2.log")).unwrap_or_default();
    assert!(!log.contains("Too many open files"), "{log}");
    server.finish();
}

/// An anonymous upload is refused from its headers (no `100 Continue`, nothing read), and upload
/// bodies together never hold more memory than the upload buffer: one that does not fit waits.
#[test]
fn upload_bodies_wait_for_their_token_and_for_room() {
    let dir = temp_dir("attack-bodies");
    let server = Server::start(
        &dir,
        "workers = 1\n[uploads]\nmax_kib = 1024\ncheck_games = 1\n[server]\nupload_buffer_mib = 1\n",
    );
    let token = server.add_contestant("carol");
    let mib = 1 << 20;
    let expect = |auth: &str| {
        format!(
            "POST /api/submissions HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/wasm\r\n\
             Content-Length: {mib}\r\nExpect: 100-continue\r\n\r\n"
        )
    };
    let anonymous = raw(&server.url, &expect(""), b"", Duration::from_secs(2));
    assert!(anonymous.starts_with("HTTP/1.1 401"), "{anonymous}");
    assert!(!anonymous.contains("100 Continue"), "{anonymous}");
    let wrong = raw(
        &server.url,
        &expect("Authorization: Bearer 0123\r\n"),
        b"",
        Duration::from_secs(2),
    );
    assert!(wrong.starts_with("HTTP/1.1 401"), "{wrong}");

    // A first upload of 1 MiB takes the whole buffer while its body comes...
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut first = TcpStream::connect(&addr).unwrap();
    first
        .write_all(
            format!(
                "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
                 Content-Length: {mib}\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
    first.write_all(&vec![b'('; mib / 2]).unwrap();
    // (Time for the server to take the first one's room.)
    std::thread::sleep(Duration::from_millis(1000));
    // ... so a second one is not read (no 100 Continue) until the first is done.
    let mut second = TcpStream::connect(&addr).unwrap();
    second
        .write_all(expect(&format!("Authorization: Bearer {token}\r\n")).as_bytes())
        .unwrap();
    second
        .set_read_timeout(Some(Duration::from_millis(1500)))
        .unwrap();
    let mut buf = [0u8; 256];
    let early = second.read(&mut buf);
    assert!(
        early.is_err(),
        "the second body was asked for while the buffer was full: {:?}",
        early.map(|n| String::from_utf8_lossy(&buf[..n]).into_owned())
    );
    first.write_all(&vec![b'('; mib / 2]).unwrap();
    let mut answer = String::new();
    first
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let n = first.read(&mut buf).unwrap();
    answer.push_str(&String::from_utf8_lossy(&buf[..n]));
    assert!(answer.starts_with("HTTP/1.1 422"), "{answer}");
    second
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let n = second.read(&mut buf).unwrap();
    assert!(
        String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 100 Continue"),
        "{}",
        String::from_utf8_lossy(&buf[..n])
    );
    server.finish();
}

/// Look-alike, invisible and mirrored names are refused, for the host's command and for
/// self-registration; the invite code cannot be guessed quickly; answers with a token are not
/// kept by caches.
#[test]
fn names_cannot_impersonate_and_the_invite_code_cannot_be_guessed() {
    let dir = temp_dir("attack-names");
    let server = Server::start(&dir, "workers = 1\ninvite_code = \"spring-2026-invite\"\n");
    let register = |name: &str, code: &str| -> (u16, Option<String>, Option<String>, String) {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let body = serde_json::json!({ "name": name, "invite_code": code }).to_string();
        let mut resp = agent
            .post(&format!("{}/api/register", server.url))
            .header("Content-Type", "application/json")
            .send(body.as_bytes())
            .unwrap();
        let header = |h: &str| {
            resp.headers()
                .get(h)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let (cache, retry) = (header("cache-control"), header("retry-after"));
        let status = resp.status().as_u16();
        (
            status,
            cache,
            retry,
            resp.body_mut().read_to_string().unwrap(),
        )
    };
    let (status, cache, _, body) = register("ace", "spring-2026-invite");
    assert_eq!(status, 201, "{body}");
    assert_eq!(cache.as_deref(), Some("no-store"));
    for (name, why) in [
        ("Ace", "looks like"),
        ("\u{430}\u{441}\u{435}", "looks like"),
        ("ace\u{200b}", "invisible"),
        ("\u{200b}", "invisible"),
        ("\u{ad}", "invisible"),
        ("\u{feff}", "invisible"),
        ("won by caf\u{e9} v1\u{202e}", "formatting"),
        ("   ", "empty"),
    ] {
        let (status, _, _, body) = register(name, "spring-2026-invite");
        assert_eq!(status, 403, "{name:?}: {body}");
        assert!(body.contains(why), "{name:?}: {body}");
    }
    // The host's command: one name whichever Unicode form it was typed in.
    let out = server.admin(&["add-contestant", "caf\u{e9}"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = server.admin(&["add-contestant", "cafe\u{301}"]);
    assert!(
        !out.status.success() && text(&out).contains("is taken"),
        "{}",
        text(&out)
    );
    let out = server.admin(&["add-contestant", "CAF\u{c9}"]);
    assert!(
        !out.status.success() && text(&out).contains("looks like"),
        "{}",
        text(&out)
    );
    // Guessing the invite code: 10 wrong codes a minute, then 429 with the wait.
    let mut refused = 0;
    for i in 0..12 {
        let (status, _, retry, body) = register(&format!("guess{i}"), &format!("guess-{i:09}"));
        match status {
            403 => refused += 1,
            429 => {
                let retry: u64 = retry.expect("Retry-After").parse().unwrap();
                assert!((1..=60).contains(&retry), "{retry}");
            }
            _ => panic!("{status}: {body}"),
        }
    }
    assert_eq!(refused, 10);
    let (status, _, _, _) = register("late", "spring-2026-invite");
    assert_eq!(status, 429, "even the right code waits its turn");
    server.finish();
}

/// The host revokes and rotates tokens, renames a contestant (whose results stay), and takes a
/// contestant out of the ladder and back (their history kept).
#[test]
fn the_host_can_act_on_a_contestant() {
    let dir = temp_dir("attack-admin");
    let server = Server::start(
        &dir,
        "workers = 1\nround_cap = 30\n[ladder]\nplacement_games = 2\nmax_games_per_version = 12\n\
         [uploads]\ncheck_games = 1\n",
    );
    let help = text(&server.admin(&["--help"]));
    for command in [
        "rotate-token",
        "revoke-token",
        "rename",
        "disable",
        "enable",
    ] {
        assert!(help.contains(command), "{command}: {help}");
    }
    let names = ["dora", "finn", "gus"];
    let tokens: Vec<String> = names.iter().map(|n| server.add_contestant(n)).collect();
    for (name, token) in names.iter().zip(&tokens) {
        let file = write(
            &dir,
            &format!("{name}.wat"),
            &climber(&format!("{name:<11}").replace(' ', "-")),
        );
        assert_eq!(server.submit(token, &file).status.code(), Some(0));
    }
    let board = server.wait_for("/api/leaderboard", 120, |b| {
        names
            .iter()
            .all(|n| entry(b, n).is_some_and(|e| e["games"].as_u64() >= Some(4)))
    });
    let dora_games = entry(&board, "dora").unwrap()["games"].as_u64().unwrap();

    // Rotate: the old token stops working, the new one works.
    let out = server.admin(&["rotate-token", "dora"]);
    assert!(out.status.success(), "{}", text(&out));
    let new = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(server.get_as(&tokens[0], "/api/me").0, 401);
    assert_eq!(server.get_as(&new, "/api/me").0, 200);
    // Revoke: no token works until the next rotation.
    let out = server.admin(&["revoke-token", "finn"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(server.get_as(&tokens[1], "/api/me").0, 401);

    // Rename: the leaderboard shows the new name with the games already played.
    let out = server.admin(&["rename", "dora", "dorothea"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = server.admin(&["rename", "gus", "Dorothea"]);
    assert!(
        !out.status.success() && text(&out).contains("looks like"),
        "{}",
        text(&out)
    );
    server.wait_for("/api/leaderboard", 30, |b| {
        entry(b, "dora").is_none()
            && entry(b, "dorothea").is_some_and(|e| e["games"].as_u64() >= Some(dora_games))
    });

    // Disable: out of the ladder, uploads refused, history kept; enable: back.
    let out = server.admin(&["disable", "gus"]);
    assert!(out.status.success(), "{}", text(&out));
    let listed = text(&server.admin(&["contestants"]));
    assert!(listed.contains("gus\tdisabled"), "{listed}");
    server.wait_for("/api/leaderboard", 30, |b| entry(b, "gus").is_none());
    let url = format!("{}/api/submissions", server.url);
    let (status, _, body) = post(&url, &tokens[2], passer().as_bytes());
    assert_eq!(status, 403, "{body}");
    assert_eq!(versions(&server, &tokens[2]).len(), 1, "history kept");
    let out = server.admin(&["enable", "#3"]);
    assert!(out.status.success(), "{}", text(&out));
    server.wait_for("/api/leaderboard", 30, |b| entry(b, "gus").is_some());
    server.finish();
}
