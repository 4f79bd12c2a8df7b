//! `arena serve` over HTTP on 127.0.0.1, as contestants and the host use it: uploads checked at
//! once (`arena submit` and plain HTTP), the ladder playing them, verifiable records, each
//! contestant seeing only their own logs and verdicts, limits, escaping, CSRF, and the final at
//! the deadline. Every test runs twice: with SQLite in the data folder, and with a PostgreSQL
//! database (`database = "postgres://..."`), where an `arena worker` process plays ladder games
//! besides the server's own worker or instead of it.

#[macro_use]
mod pg_support;
mod serve_support;
// The component examples, built as tests/components.rs builds them (this test uses one).
#[allow(dead_code)]
#[path = "common/components.rs"]
mod components;

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use pg_support::Database;
use serde_json::Value;
use serve_support::*;

/// A small, quick ladder; with PostgreSQL, an `arena worker` process plays its games, and the
/// server none.
fn quick(db: &Database) -> String {
    quick_ladder(if db.url().is_some() { 0 } else { 1 }, 16)
}

/// `arena verify` with `flags` of `record`, written to `dir/name`: it must pass. Returns what
/// it said.
fn verifies(dir: &Path, name: &str, record: &str, flags: &[&str]) -> String {
    let path = write(dir, name, record);
    let out = arena()
        .arg("verify")
        .args(flags)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    text(&out)
}

/// With PostgreSQL the server has no workers of its own: the worker elsewhere played every game.
fn the_remote_worker_played_every_game(db: &Database) {
    if db.url().is_some() {
        assert_eq!(
            db.int("SELECT COUNT(*) FROM games WHERE status = 'done' AND played_by NOT LIKE 'remote#%'"),
            0,
            "with no server workers, the worker elsewhere plays every game"
        );
    }
}

/// The id of the first game listed for `name` on the leaderboard `board`.
fn first_game_of(server: &Server, board: &Value, name: &str) -> i64 {
    let id = entry(board, name).unwrap()["contestant"].as_i64().unwrap();
    server.json(&format!("/api/agents/{id}"))["games"][0]["id"]
        .as_i64()
        .unwrap()
}

fn games_of(board: &Value, name: &str) -> u64 {
    entry(board, name).map_or(0, |e| e["games"].as_u64().unwrap())
}

fn seat_games_add_up(board: &Value) {
    let seats: u64 = board["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["games"].as_u64().unwrap())
        .sum();
    assert_eq!(seats, 2 * board["games"].as_u64().unwrap(), "{board}");
}

on_both_databases!(
    the_ladder_plays_uploads_and_each_contestant_sees_only_their_own_logs,
    "serve_ladder"
);

fn the_ladder_plays_uploads_and_each_contestant_sees_only_their_own_logs(db: Database) {
    let (dir, mut server) = db.serve("ladder", &quick(&db));
    let worker = db.worker(&dir, "remote");
    let alice = server.add_contestant("alice");
    let bob = server.add_contestant("bob");
    let carol = server.add_contestant("carol");
    // Alice and Bob write a secret to their debug logs at every decision.
    let a = write(&dir, "alice.wat", &chatty("SECRET-alic"));
    let b = write(&dir, "bob.wat", &chatty("SECRET-bobb"));
    let c = write(&dir, "carol.wat", &climber("carol-climb"));

    for (token, file) in [(&alice, &a), (&bob, &b), (&carol, &c)] {
        let out = server.submit(token, file);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert!(text(&out).contains("accepted: version 1"), "{}", text(&out));
        assert!(
            text(&out).contains("is a valid arena agent"),
            "{}",
            text(&out)
        );
    }
    // Refused by the check, with the reason; a wrong token and an unreachable server are usage
    // or connection errors.
    let junk = write(&dir, "junk.wasm", "MZ this is not wasm");
    let out = server.submit(&carol, &junk);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("refused: cannot load the agent")
            && text(&out).contains("not a WebAssembly module"),
        "{}",
        text(&out)
    );
    let out = server.submit("0000", &a);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = arena()
        .args([
            "submit",
            "--server",
            "http://127.0.0.1:1",
            "--token",
            &alice,
        ])
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    // Placement: every pair plays 2 games, so each agent plays at least 4.
    let board = server.wait_for("/api/leaderboard", 120, |b| {
        ["alice", "bob", "carol"]
            .iter()
            .all(|n| games_of(b, n) >= 4)
    });
    seat_games_add_up(&board);
    for e in board["agents"].as_array().unwrap() {
        assert!(
            e["rating"].is_number() && e["interval"].as_f64().unwrap() > 0.0,
            "{e}"
        );
        assert_eq!(e["version"], 1);
    }

    // A game between alice and bob, its record, and who sees which logs.
    let alice_id = entry(&board, "alice").unwrap()["contestant"]
        .as_i64()
        .unwrap();
    let games = server.json(&format!("/api/agents/{alice_id}"))["games"].clone();
    let game = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| {
            g["seats"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["name"] == "bob")
        })
        .expect("a game of alice against bob")
        .clone();
    let id = game["id"].as_i64().unwrap();
    let record_path = format!("/api/games/{id}/record");
    let (status, as_alice) = server.get_as(&alice, &record_path);
    assert_eq!(status, 200);
    let (_, as_bob) = server.get_as(&bob, &record_path);
    let (_, as_carol) = server.get_as(&carol, &record_path);
    let (_, anonymous) = server.get(&record_path);
    assert!(as_alice.contains("SECRET-alic") && !as_alice.contains("SECRET-bobb"));
    assert!(
        as_bob.contains("SECRET-bobb") && !as_bob.contains("SECRET-alic"),
        "{as_bob}"
    );
    for other in [&as_carol, &anonymous] {
        assert!(!other.contains("SECRET-"), "another's logs leaked");
    }
    // The replay data follows the same rule.
    let script = format!("/replays/games/game-{id:06}.js");
    let (status, replay_alice) = server.get_as(&alice, &script);
    assert_eq!(status, 200, "{replay_alice}");
    assert!(replay_alice.starts_with("window.ARENA_GAME = "));
    assert!(replay_alice.contains("SECRET-alic") && !replay_alice.contains("SECRET-bobb"));
    let (_, replay_anon) = server.get(&script);
    assert!(!replay_anon.contains("SECRET-"));
    let (status, page) = server.get("/replays/replay.html");
    assert_eq!(status, 200);
    assert!(page.contains("replay.js"));
    // Every version of the record verifies with `arena verify`.
    for (who, text_) in [("alice", &as_alice), ("anonymous", &anonymous)] {
        verifies(&dir, &format!("game-{who}.jsonl"), text_, &[]);
    }

    // Verdicts are private: each contestant sees their own versions only.
    let me: Value = serde_json::from_str(&server.get_as(&carol, "/api/me").1).unwrap();
    let versions = me["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0]["accepted"], false);
    assert!(versions[0]["reason"]
        .as_str()
        .unwrap()
        .contains("not a WebAssembly module"));
    assert_eq!(versions[1]["active"], true);
    let me: Value = serde_json::from_str(&server.get_as(&alice, "/api/me").1).unwrap();
    assert_eq!(me["name"], "alice");
    assert_eq!(me["versions"].as_array().unwrap().len(), 1);
    let (status, _) = server.get("/api/me");
    assert_eq!(status, 401);
    let (_, public) = server.get(&format!("/api/agents/{alice_id}"));
    assert!(!public.contains("report") && !public.contains("SECRET-"));
    // Nothing outside the server's own files is served.
    for path in [
        "/replays/..%2F..%2Fsecret",
        "/static/..%2Fsecret",
        "/replays/games/game-../../secret.js",
        "/data/secret",
        "/agents/../secret",
    ] {
        let (status, body) = server.get(path);
        assert!(status == 404 || status == 400, "{path}: {status} {body}");
    }

    // The ladder goes on to `max_games_per_version` (16) games per version and stops there,
    // counting the games on their way; only another version's placement (2 games per pair) may
    // add to that. (The queue can be empty for a moment between two rounds of scheduling, so the
    // test waits for the cap to be reached, then for the queue to drain.)
    let games_of = |board: &Value| -> Vec<u64> {
        board["agents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["games"].as_u64().unwrap())
            .collect()
    };
    server.wait_for("/api/leaderboard", 120, |b| {
        games_of(b).iter().any(|&g| g >= 16)
    });
    server.wait_for("/api/status", 120, |s| s["games_pending"] == 0);
    let board = server.json("/api/leaderboard");
    assert!(games_of(&board).iter().all(|&g| g <= 18), "{board}");

    // A new version replaces the old one: the old games stop counting.
    let a2 = write(&dir, "alice2.wat", &chatty("SECRET-ali2"));
    let out = server.submit(&alice, &a2);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("accepted: version 2"));
    let board = server.wait_for("/api/leaderboard", 120, |b| {
        entry(b, "alice").is_some_and(|e| e["version"] == 2 && e["games"].as_u64() >= Some(4))
    });
    seat_games_add_up(&board);
    let games = server.json(&format!("/api/agents/{alice_id}"))["games"].clone();
    for g in games.as_array().unwrap() {
        let seat = g["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "alice")
            .unwrap();
        assert_eq!(seat["version"], 2, "{g}");
    }
    if worker.is_some() {
        // The worker played every ladder game, and the leaderboard counts each once.
        // One statement each, so that games finishing while the worker plays on cannot make
        // two counts disagree: no finished game was played by anyone else, and some by it.
        let others = db.int(
            "SELECT COUNT(*) FROM games WHERE status = 'done' \
             AND (played_by IS NULL OR played_by NOT LIKE 'remote#%')",
        );
        assert_eq!(others, 0, "finished games not played by the remote worker");
        let remote = db
            .int("SELECT COUNT(*) FROM games WHERE status = 'done' AND played_by LIKE 'remote#%'");
        assert!(remote >= 1, "the remote worker finished no game");
        let in_db = db.int(
            "SELECT COUNT(*) FROM games g WHERE g.status = 'done' AND NOT EXISTS \
             (SELECT 1 FROM game_seats s JOIN versions v ON v.id = s.version_id \
             WHERE s.game_id = g.id AND v.active = 0)",
        );
        let board = server.wait_for("/api/leaderboard", 60, |b| {
            b["games"].as_i64() == Some(in_db)
        });
        seat_games_add_up(&board);
        // Its games' records are served and verify.
        let id = db.int("SELECT MAX(id) FROM games WHERE played_by LIKE 'remote#%'");
        let (status, record) = server.get(&format!("/api/games/{id}/record"));
        assert_eq!(status, 200, "{record}");
        verifies(&dir, "remote-game.jsonl", &record, &[]);
    }
    drop(worker);
    assert!(server.stop(), "SIGTERM stops the server cleanly");
    server.finish();
}

on_both_databases!(
    uploads_need_a_token_and_are_capped_limited_and_closed_when_frozen,
    "serve_limits"
);

fn uploads_need_a_token_and_are_capped_limited_and_closed_when_frozen(db: Database) {
    let (dir, server) = db.serve("limits", &upload_ladder("", "per_hour = 2\nmax_kib = 8\n"));
    let dave = server.add_contestant("dave");
    let erin = server.add_contestant("erin");
    let passer = passer();
    let url = format!("{}/api/submissions", server.url);
    let body = passer.as_bytes();
    assert_eq!(
        request(&url, None, Some(("application/wasm", body)), &[]).0,
        401
    );
    assert_eq!(
        request(&url, Some("nope"), Some(("application/wasm", body)), &[]).0,
        401
    );
    let big = vec![b'('; 9 * 1024];
    assert_eq!(
        request(&url, Some(&dave), Some(("application/wasm", &big)), &[]).0,
        413
    );
    // The declared type does not matter: the bytes are checked.
    let (status, answer) = request(&url, Some(&dave), Some(("image/png", body)), &[]);
    assert_eq!(status, 201, "{answer}");
    let file = write(&dir, "passer.wat", &passer);
    let out = server.submit(&dave, &file);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = server.submit(&dave, &file);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("at most 2 uploads an hour"),
        "{}",
        text(&out)
    );

    let out = server.admin(&["freeze"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = server.submit(&erin, &file);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("frozen"), "{}", text(&out));
    assert_eq!(server.json("/api/status")["submissions"], "closed");
    assert!(server.admin(&["unfreeze"]).status.success());
    let out = server.submit(&erin, &file);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let listed = text(&server.admin(&["contestants"]));
    assert!(
        listed.contains("dave") && listed.contains("erin"),
        "{listed}"
    );
    // Names are unique.
    let out = server.admin(&["add-contestant", "dave"]);
    assert!(
        !out.status.success() && text(&out).contains("taken"),
        "{}",
        text(&out)
    );
    server.finish();
}

/// The value of `name="csrf"` in a page.
fn csrf_of(page: &str) -> String {
    let i = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + 19;
    page[i..i + 64].to_string()
}

/// The `name=value` of the Set-Cookie header named `name`.
fn cookie_from(
    url: &str,
    name: &str,
    form: Option<&str>,
    cookie: Option<&str>,
) -> (u16, Option<String>, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut resp = match form {
        Some(f) => {
            let mut r = agent
                .post(url)
                .header("Content-Type", "application/x-www-form-urlencoded");
            if let Some(c) = cookie {
                r = r.header("Cookie", c);
            }
            r.send(f.as_bytes()).unwrap()
        }
        None => {
            let mut r = agent.get(url);
            if let Some(c) = cookie {
                r = r.header("Cookie", c);
            }
            r.call().unwrap()
        }
    };
    let set = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| v.split(';').next().unwrap().to_string());
    let status = resp.status().as_u16();
    (
        status,
        set,
        resp.body_mut().read_to_string().unwrap_or_default(),
    )
}

on_both_databases!(
    pages_escape_what_contestants_control_and_forms_need_their_csrf_token,
    "serve_pages"
);

fn pages_escape_what_contestants_control_and_forms_need_their_csrf_token(db: Database) {
    let invite = "invite_code = \"spring-2026-invite\"\n";
    let (dir, server) = db.serve("pages", &upload_ladder(invite, ""));
    let evil = "<script>alert(1)</script>";
    let url = |p: &str| format!("{}{p}", server.url);
    // Self-registration through the API, with the invite code only.
    let reg = |name: &str, code: &str| {
        let body = serde_json::json!({ "name": name, "invite_code": code }).to_string();
        request(
            &url("/api/register"),
            None,
            Some(("application/json", body.as_bytes())),
            &[],
        )
    };
    assert_eq!(reg("mallory", "wrong-code-xyz").0, 403);
    let (status, answer) = reg(evil, "spring-2026-invite");
    assert_eq!(status, 201, "{answer}");
    let token: Value = serde_json::from_str(&answer).unwrap();
    let token = token["token"].as_str().unwrap().to_string();
    // An accepted agent, then a refused one whose report names the contestant.
    let file = write(&dir, "p.wat", &passer());
    assert_eq!(server.submit(&token, &file).status.code(), Some(0));
    let junk = write(&dir, "junk.wasm", "<img src=x onerror=alert(2)>");
    assert_eq!(server.submit(&token, &junk).status.code(), Some(1));

    // Logging in through the form: the CSRF token is bound to the browser's pre-session cookie.
    let (status, pre, login_page) = cookie_from(&url("/login"), "arena_pre", None, None);
    assert_eq!(status, 200);
    let pre = pre.expect("a pre-session cookie");
    let csrf = csrf_of(&login_page);
    let form = format!("csrf={csrf}&token={token}");
    let (status, _, _) = cookie_from(&url("/login"), "arena_session", Some(&form), None);
    assert_eq!(status, 403, "no cookie: refused");
    let (status, _, _) = cookie_from(
        &url("/login"),
        "arena_session",
        Some(&format!("csrf={}&token={token}", "0".repeat(64))),
        Some(&pre),
    );
    assert_eq!(status, 403, "wrong token: refused");
    let (status, session, _) =
        cookie_from(&url("/login"), "arena_session", Some(&form), Some(&pre));
    assert_eq!(status, 303);
    let session = session.expect("a session cookie");

    let (status, me) = request(&url("/me"), None, None, &[("Cookie", &session)]);
    assert_eq!(status, 200);
    for page in [&me, &server.get("/").1, &server.get("/agents/1").1] {
        assert!(!page.contains("<script>alert"), "unescaped name:\n{page}");
        assert!(!page.contains("<img src=x"), "unescaped report:\n{page}");
    }
    assert!(
        me.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
        "{me}"
    );
    assert!(me.contains(r#"data-verdict="refused""#) && me.contains(r#"data-verdict="accepted""#));
    let (_, board) = server.get("/");
    assert!(board.contains("&#60;script&#62;"), "{board}");

    // The upload form needs the session's CSRF token.
    let boundary = "XBOUNDARYX";
    let multipart = |csrf: &str| {
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{csrf}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"agent\"; filename=\"p.wat\"\r\nContent-Type: application/octet-stream\r\n\r\n{}\r\n--{boundary}--\r\n",
            passer()
        )
    };
    let ct = format!("multipart/form-data; boundary={boundary}");
    let (status, _) = request(
        &url("/me/upload"),
        None,
        Some((&ct, multipart(&"0".repeat(64)).as_bytes())),
        &[("Cookie", &session)],
    );
    assert_eq!(status, 403, "a forged form is refused");
    let (status, _) = request(
        &url("/me/upload"),
        None,
        Some((&ct, multipart(&csrf_of(&me)).as_bytes())),
        &[("Cookie", &session)],
    );
    assert_eq!(status, 303);
    // A write with the session cookie from another site's page is refused, whatever it carries.
    let (status, _) = request(
        &url("/me/upload"),
        None,
        Some((&ct, multipart(&csrf_of(&me)).as_bytes())),
        &[("Cookie", &session), ("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403, "a form from another site");
    let (status, body) = request(
        &url("/api/submissions"),
        None,
        Some(("application/wasm", passer().as_bytes())),
        &[("Cookie", &session), ("Origin", "http://evil.example")],
    );
    assert_eq!(status, 403, "a cross-site upload with the cookie: {body}");
    let (_, me) = request(&url("/me"), None, None, &[("Cookie", &session)]);
    assert!(me.contains(r#"id="v3" data-verdict="accepted""#), "{me}");

    // Headers that keep other scripts out.
    let agent: ureq::Agent = ureq::Agent::config_builder().build().into();
    let resp = agent.get(&url("/")).call().unwrap();
    let csp = resp
        .headers()
        .get("content-security-policy")
        .unwrap()
        .to_str()
        .unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert_eq!(
        resp.headers().get("x-content-type-options").unwrap(),
        "nosniff"
    );
    server.finish();
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a time `secs` seconds from now.
fn utc_in(secs: u64) -> String {
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + secs;
    let (days, rem) = ((t / 86_400) as i64, t % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

on_both_databases!(
    at_the_deadline_submissions_close_and_the_final_is_a_league_folder,
    "serve_final"
);

fn at_the_deadline_submissions_close_and_the_final_is_a_league_folder(db: Database) {
    let (dir, server) = db.serve(
        "final",
        &format!(
            "name = \"final test\"\nworkers = 1\nround_cap = 40\ndeadline = {}\n[uploads]\ncheck_games = 1\n[final]\ngames_per_group = 4\n", utc_in(20)
        ),
    );
    let frank = server.add_contestant("frank");
    let grace = server.add_contestant("grace");
    let f = write(&dir, "f.wat", &climber("frank-climb"));
    let g = write(&dir, "g.wat", &passer());
    assert_eq!(server.submit(&frank, &f).status.code(), Some(0));
    assert_eq!(server.submit(&grace, &g).status.code(), Some(0));
    let status = server.wait_for("/api/status", 90, |s| s["final"] == "done");
    assert_eq!(status["submissions"], "closed");
    // The ladder stopped: games it had queued were cancelled, none is left leased.
    assert_eq!(status["games_pending"], 0, "{status}");
    let out = server.submit(&frank, &f);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("deadline"), "{}", text(&out));
    let standings = server.json("/api/final");
    let names: Vec<&str> = standings
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"frank") && names.contains(&"grace"));
    assert_eq!(standings[0]["games"], 4);

    // The folder is a league's: verify its records and write its report again.
    let folder = server.data().join("final");
    for f in [
        "standings.json",
        "journal.jsonl",
        "crosstable.csv",
        "report/index.html",
    ] {
        assert!(folder.join(f).is_file(), "{f} missing");
    }
    let records: Vec<_> = std::fs::read_dir(folder.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 4);
    let out = arena()
        .arg("verify")
        .arg("-q")
        .args(&records)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = arena().arg("report").arg(&folder).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (_, page) = server.get("/");
    assert!(page.contains("Final standings") && page.contains("id=\"final\""));
    if db.url().is_some() {
        // With PostgreSQL the final's games went through the database, where workers on other
        // machines could take them too.
        assert_eq!(
            db.int("SELECT COUNT(*) FROM league_games WHERE status = 'collected'"),
            4
        );
    }
    server.finish();
}

/// The hand-written Farkle agent of `arena new --lang wat --game farkle`, rolling on while fewer
/// than `risk` points are at stake (the template's own limit is 300).
fn farkle_agent(risk: u32) -> String {
    let template =
        std::fs::read_to_string(workspace().join("host/src/games/farkle/templates/wat/farkle.wat"))
            .expect("the Farkle WAT template");
    let limit = "(i32.lt_u (i32.load (i32.const 36)) (i32.const 300))";
    assert!(template.contains(limit), "the template's risk limit moved");
    template.replace(
        limit,
        &format!("(i32.lt_u (i32.load (i32.const 36)) (i32.const {risk}))"),
    )
}

on_both_databases!(a_solo_farkle_ladder_is_the_benchmark_table, "serve_solo");

fn a_solo_farkle_ladder_is_the_benchmark_table(db: Database) {
    // With PostgreSQL, an `arena worker` process plays the games, and the server none.
    let workers = if db.url().is_some() { 0 } else { 1 };
    let (dir, server) = db.serve(
        "solo",
        &format!(
            "game = \"farkle\"\nplayers_per_game = 1\nworkers = {workers}\nround_cap = 60\n\
             [ladder]\nmax_games_per_version = 20\n[uploads]\ncheck_games = 1\n"
        ),
    );
    let worker = db.worker(&dir, "remote");
    let ann = server.add_contestant("ann");
    let ben = server.add_contestant("ben");
    // A Little Animal Farm agent is refused by a Farkle challenge, naming what it lacks.
    let farm = write(&dir, "farm.wat", &passer());
    let out = server.submit(&ann, &farm);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("farkle_draft"), "{}", text(&out));
    for (token, risk) in [(&ann, 300), (&ben, 2000)] {
        let file = write(&dir, &format!("risk-{risk}.wat"), &farkle_agent(risk));
        let out = server.submit(token, &file);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    server.wait_for("/api/leaderboard", 180, |b| {
        ["ann", "ben"].iter().all(|n| games_of(b, n) >= 20)
    });
    server.wait_for("/api/status", 60, |s| s["games_pending"] == 0);
    let board = server.json("/api/leaderboard");
    assert_eq!(board["measure"], "turns", "{board}");
    assert_eq!(
        board["games"].as_u64(),
        Some(games_of(&board, "ann") + games_of(&board, "ben")),
        "solo games have one seat each: {board}"
    );
    let agents = board["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2, "{board}");
    // Each line is the agent's benchmark: the games that reached 10,000 (`wins`) and the mean of
    // their turns (`rating`), computed here again from the agent's own games.
    for a in agents {
        let id = a["contestant"].as_i64().unwrap();
        let games: Vec<Value> = server.json(&format!("/api/agents/{id}"))["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["status"] == "done")
            .cloned()
            .collect();
        assert_eq!(games.len() as u64, a["games"].as_u64().unwrap(), "{a}");
        let reached: Vec<f64> = games
            .iter()
            .inspect(|g| assert_eq!(g["seats"].as_array().unwrap().len(), 1, "{g}"))
            .filter(|g| g["outcome"]["result"] == "win")
            .map(|g| g["turns"].as_f64().unwrap())
            .collect();
        assert_eq!(a["wins"].as_u64(), Some(reached.len() as u64), "{a}");
        assert_eq!(
            a["losses"].as_u64(),
            Some(games.len() as u64 - reached.len() as u64),
            "{a}"
        );
        assert!(!reached.is_empty(), "{a}");
        let mean = reached.iter().sum::<f64>() / reached.len() as f64;
        let rating = a["rating"].as_f64().unwrap();
        assert!((rating - mean).abs() < 1e-9, "{a}: mean turns {mean}");
        assert!(a["interval"].as_f64().unwrap() > 0.0, "{a}");
    }
    // Best first: more often at 10,000, then fewer turns.
    let key = |a: &Value| {
        (
            a["wins"].as_f64().unwrap() / a["games"].as_f64().unwrap(),
            -a["rating"].as_f64().unwrap(),
        )
    };
    assert!(key(&agents[0]) >= key(&agents[1]), "{board}");
    assert_eq!(agents[0]["rank"], 1);

    // The pages say turns, and a game's record verifies and replays in the Farkle viewer.
    let (_, page) = server.get("/");
    assert!(page.contains("Mean turns"), "{page}");
    let id = server.json(&format!("/api/agents/{}", agents[0]["contestant"]))["games"][0]["id"]
        .as_i64()
        .unwrap();
    let (status, record) = server.get(&format!("/api/games/{id}/record"));
    assert_eq!(status, 200);
    assert!(record.contains("\"game\":\"farkle\""), "{record}");
    verifies(&dir, "solo.jsonl", &record, &[]);
    let (status, viewer) = server.get("/replays/farkle.html");
    assert_eq!(status, 200);
    assert!(viewer.contains("farkle.js"), "{viewer}");
    the_remote_worker_played_every_game(&db);
    drop(worker);
    server.finish();
}

on_both_databases!(
    a_component_is_uploaded_checked_and_plays_the_ladder,
    "serve_component"
);

/// A component is uploaded like a core module: checked at once (its world in the report), then it
/// plays the ladder against a core module, and its games' records verify.
fn a_component_is_uploaded_checked_and_plays_the_ladder(db: Database) {
    // With PostgreSQL, an `arena worker` process fetches the component's bytes from the database
    // and plays the games.
    let (dir, server) = db.serve("component", &quick(&db));
    let worker = db.worker(&dir, "remote");
    let rusty = server.add_contestant("rusty");
    let watty = server.add_contestant("watty");
    let out = server.submit(&rusty, &components::component("rs-greedy"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for expected in [
        "kind:        WebAssembly component",
        "world:       arena:games/farm@1.0.0",
        "accepted: version 1",
    ] {
        assert!(text(&out).contains(expected), "{expected}: {}", text(&out));
    }
    let file = write(&dir, "watty.wat", &climber("watty-climb"));
    assert_eq!(server.submit(&watty, &file).status.code(), Some(0));
    let board = server.wait_for("/api/leaderboard", 120, |b| {
        games_of(b, "rusty") >= 2 && games_of(b, "watty") >= 2
    });
    let game = first_game_of(&server, &board, "rusty");
    let (status, record) = server.get_as(&rusty, &format!("/api/games/{game}/record"));
    assert_eq!(status, 200);
    verifies(&dir, "component-game.jsonl", &record, &[]);
    if db.url().is_some() {
        assert_eq!(
            db.int(&format!(
                "SELECT COUNT(*) FROM games WHERE id = {game} AND played_by LIKE 'remote#%'"
            )),
            1,
            "the worker elsewhere played the component's game"
        );
    }
    drop(worker);
    server.finish();
}

on_both_databases!(a_code_war_ladder_plays_uploaded_snippets, "serve_codewar");

/// A code war challenge: uploads are checked as code war agents (a farm agent is refused, naming
/// the export it lacks), they play the ladder in an Array of the challenge's size, and a game's
/// record verifies, visit by visit, and opens in the code war's viewer.
fn a_code_war_ladder_plays_uploaded_snippets(db: Database) {
    // With PostgreSQL, an `arena worker` process plays the games, and the server none.
    let workers = if db.url().is_some() { 0 } else { 1 };
    let (dir, server) = db.serve(
        "codewar",
        &format!(
            "game = \"codewar\"\nworkers = {workers}\n\
             [codewar]\narray_size = 40\niterations = 30\n\
             [ladder]\nplacement_games = 2\nmax_games_per_version = 8\n\
             [uploads]\ncheck_games = 1\n"
        ),
    );
    let worker = db.worker(&dir, "remote");
    let crawl = server.add_contestant("crawl");
    let borg = server.add_contestant("borg");
    let farm = write(&dir, "farm.wat", &passer());
    let out = server.submit(&crawl, &farm);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("codewar_run"), "{}", text(&out));
    for (token, name) in [(&crawl, "crawler"), (&borg, "borg")] {
        let file = workspace().join(format!("example-agents/wat/codewar-{name}.wat"));
        let out = server.submit(token, &file);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    }
    let board = server.wait_for("/api/leaderboard", 180, |b| {
        games_of(b, "crawl") >= 8 && games_of(b, "borg") >= 8
    });
    seat_games_add_up(&board);
    let game = first_game_of(&server, &board, "borg");
    let (status, record) = server.get_as(&borg, &format!("/api/games/{game}/record"));
    assert_eq!(status, 200);
    assert!(record.contains("\"game\":\"codewar\""), "{record}");
    let said = verifies(&dir, "codewar-game.jsonl", &record, &["-v"]);
    assert!(said.contains(" visits, 30 iterations, "), "{said}");
    let (status, viewer) = server.get("/replays/codewar.html");
    assert_eq!(status, 200);
    assert!(viewer.contains("codewar.js"), "{viewer}");
    the_remote_worker_played_every_game(&db);
    drop(worker);
    server.finish();
}
