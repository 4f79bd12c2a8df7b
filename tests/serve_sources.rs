//! `arena serve` for contestants without Rust: Python and JavaScript sources uploaded and built
//! by the server (confined, a build error as the verdict), the sources kept for their author
//! only, a server without a toolchain that says so and keeps serving, and the server's own
//! executable at `/download/arena`.

mod serve_support;

use serve_support::*;

/// The farm's Python or JavaScript template, as `arena new` writes it: the example agent
/// `climber.py` or `climber.js`.
fn template(file: &str) -> String {
    std::fs::read_to_string(workspace().join("example-agents").join(file)).expect("template")
}

/// An HTTP client that reads error statuses as answers and waits up to ten minutes for one (a
/// build of the sources takes a while on a busy machine).
fn patient_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(600)))
        .build()
        .into()
}

/// One `POST /api/submissions` of sources (`lang`, `entry`, files), as `arena submit` sends
/// them; `(status, JSON answer)`.
fn submit_sources(
    server: &Server,
    token: &str,
    lang: &str,
    files: &[(&str, &str)],
) -> (u16, serde_json::Value) {
    use ureq::unversioned::multipart::{Form, Part};
    let mut form = Form::new().text("lang", lang).text("entry", files[0].0);
    for (path, text) in files {
        form = form.part("file", Part::bytes(text.as_bytes()).file_name(path));
    }
    let agent = patient_agent();
    let mut resp = agent
        .post(format!("{}/api/submissions", server.url))
        .header("Authorization", &format!("Bearer {token}"))
        .send(form)
        .expect("the upload is answered");
    let status = resp.status().as_u16();
    let body = resp.body_mut().read_to_string().unwrap_or_default();
    (
        status,
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{status}: {body}")),
    )
}

/// A Python agent is built, checked and plays; one with a syntax error is refused with the
/// error's line; a JavaScript agent is built too; the sources go back to their author and to
/// nobody else; the executable offered is the server's.
#[test]
fn sources_are_built_confined_checked_and_kept_for_their_author() {
    let dir = temp_dir("sources");
    let server = Server::start(&dir, &quick_ladder(1, 4));
    let log = std::fs::read_to_string(dir.join("server-1.log")).unwrap();
    assert!(
        log.contains("builds Python uploads with componentize-py 0.25.1"),
        "{log}"
    );
    assert!(
        log.contains("builds JavaScript uploads with componentize-js"),
        "{log}"
    );
    let alice = server.add_contestant("alice");
    let bob = server.add_contestant("bob");

    // A syntax error: the verdict is the build's, with Python's message and the line.
    let broken = format!(
        "{}\ndef broken(:\n    pass\n",
        template("python/climber.py")
    );
    let line = broken.lines().count() - 1;
    let (status, answer) = submit_sources(&server, &alice, "python", &[("bot.py", &broken)]);
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["reason"], "the Python build failed", "{answer}");
    let report = answer["report"].as_str().unwrap();
    assert!(report.contains("SyntaxError"), "{report}");
    assert!(
        report.contains(&format!("File \"bot.py\", line {line}")),
        "line {line}: {report}"
    );
    assert!(
        !report.contains("arena-build-"),
        "the build folder is not shown: {report}"
    );

    // `arena submit bot.py`: accepted, and it plays.
    let bot = write(&dir, "bot.py", &template("python/climber.py"));
    let out = server.submit(&alice, &bot);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("accepted: version 2"), "{}", text(&out));
    let versions = &server.json_as(&alice, "/api/me")["versions"];
    let built = versions
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["version"] == 2)
        .unwrap_or_else(|| panic!("{versions}"));
    let id = built["id"].as_i64().unwrap_or_else(|| panic!("{built}"));

    // Its sources: for alice, as sent; for bob as for a version that does not exist.
    let (status, body) = server.get_as(&alice, &format!("/api/versions/{id}/source"));
    assert_eq!(status, 200, "{body}");
    let sources: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(sources["lang"], "python");
    assert_eq!(sources["files"][0]["path"], "bot.py");
    assert_eq!(sources["files"][0]["text"], template("python/climber.py"));
    let (status, body) = server.get_as(&bob, &format!("/api/versions/{id}/source"));
    assert_eq!(status, 404, "{body}");
    assert!(!body.contains("WitWorld"), "{body}");
    assert_eq!(server.get(&format!("/api/versions/{id}/source")).0, 401);

    // JavaScript: a syntax error names its file and line (Node parses first); then the template.
    let broken = format!("{}\nconst = 5;\n", template("javascript/climber.js"));
    let line = broken.lines().count();
    let (status, answer) = submit_sources(&server, &bob, "javascript", &[("agent.js", &broken)]);
    assert_eq!(status, 422, "{answer}");
    assert_eq!(answer["reason"], "the JavaScript build failed", "{answer}");
    let report = answer["report"].as_str().unwrap();
    assert!(report.contains("SyntaxError"), "{report}");
    assert!(
        report.contains(&format!("agent.js:{line}")),
        "line {line}: {report}"
    );
    let (status, answer) = submit_sources(
        &server,
        &bob,
        "javascript",
        &[("agent.js", &template("javascript/climber.js"))],
    );
    assert_eq!(status, 201, "{answer}");
    assert!(answer["source_url"].as_str().is_some(), "{answer}");

    // Both play.
    server.wait_for("/api/leaderboard", 300, |b| {
        ["alice", "bob"]
            .iter()
            .all(|n| entry(b, n).is_some_and(|e| e["games"].as_u64().unwrap() >= 2))
    });

    // No build left its folder behind.
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("arena-build-{}-", server.pid()))
        })
        .collect();
    assert!(left.is_empty(), "build folders left: {left:?}");

    // The executable: the server's own, its SHA-256 as announced, its version the server's.
    let (bytes, sha) = download(&format!("{}/download/arena", server.url));
    assert_eq!(arena_sha256(&bytes), sha);
    let exe = dir.join("downloaded-arena");
    std::fs::write(&exe, &bytes).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let theirs = std::process::Command::new(&exe)
        .arg("--version")
        .output()
        .unwrap();
    let ours = arena().arg("--version").output().unwrap();
    assert!(theirs.status.success());
    assert_eq!(text(&theirs), text(&ours));
    assert_eq!(
        bytes,
        std::fs::read(env!("CARGO_BIN_EXE_arena")).unwrap(),
        "the file the server runs"
    );
    server.finish();
}

/// One `POST /api/tests` as the editor's Test sends it (JSON: one file, the opponents);
/// `(status, Retry-After, JSON answer)`.
fn test_run(
    server: &Server,
    token: &str,
    file: &str,
    text: &str,
    opponents: &[&str],
) -> (u16, Option<String>, serde_json::Value) {
    let lang = if file.ends_with(".py") {
        "python"
    } else {
        "javascript"
    };
    let body = serde_json::json!({
        "lang": lang,
        "entry": file,
        "files": [{"path": file, "text": text}],
        "opponents": opponents,
    });
    let agent = patient_agent();
    let mut resp = agent
        .post(format!("{}/api/tests", server.url))
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .send(body.to_string())
        .expect("the test is answered");
    let status = resp.status().as_u16();
    let retry = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = resp.body_mut().read_to_string().unwrap_or_default();
    let json = serde_json::from_str(&body).unwrap_or_else(|_| panic!("{status}: {body}"));
    (status, retry, json)
}

/// The editor's Test as an API: an unknown opponent is refused naming it; the template plays
/// seat-swapped games against a built-in agent and an agent on the ladder, whose replays its
/// tester (and nobody else) can open; a build error is the verdict; no version is made and the
/// leaderboard does not change; past `uploads.tests_per_hour`, 429 with Retry-After.
#[test]
fn test_runs_play_chosen_opponents_without_making_a_version() {
    let dir = temp_dir("test-runs");
    let server = Server::start(
        &dir,
        "round_cap = 60\nworkers = 1\n[ladder]\nplacement_games = 2\nmax_games_per_version = 4\n\
         [uploads]\ncheck_games = 1\ntests_per_hour = 2\ntest_pairs = 1\n",
    );
    let alice = server.add_contestant("alice");
    let bob = server.add_contestant("bob");
    let rival = write(&dir, "rival.wat", &climber("rival-climb"));
    assert_eq!(server.submit(&bob, &rival).status.code(), Some(0));
    let agent = template("python/climber.py");

    // Unknown opponents: 422 naming them, and not counted against the limit.
    for unknown in ["builtin:nope", "nobody", "builtin:jungle-greedy"] {
        let (status, _, answer) = test_run(
            &server,
            &alice,
            "agent.py",
            &agent,
            &["builtin:greedy", unknown],
        );
        assert_eq!(status, 422, "{answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(&format!("{unknown:?}")), "{error}");
    }

    // The template against a built-in agent and bob's agent on the ladder: one seat-swapped
    // pair each.
    let (status, _, report) = test_run(
        &server,
        &alice,
        "agent.py",
        &agent,
        &["builtin:greedy", "bob"],
    );
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["accepted"], true, "{report}");
    assert!(report["report"]
        .as_str()
        .unwrap()
        .contains("built agent.py (Python)"));
    let games = report["games"].as_array().unwrap();
    let seats: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            g["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    let me = "alice (test)".to_string();
    assert_eq!(
        seats,
        [
            [me.clone(), "builtin:greedy".into()],
            ["builtin:greedy".into(), me.clone()],
            [me.clone(), "bob v1".into()],
            ["bob v1".into(), me.clone()],
        ],
        "{report}"
    );
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["seat"], i % 2, "{g}");
        assert!(["won", "lost", "draw"].contains(&g["result"].as_str().unwrap()));
    }

    // The replays: the viewer's page and the game's data for alice; for bob or a visitor, as
    // for a test that does not exist.
    let replay = games[2]["replay"].as_str().unwrap();
    let (page, query) = replay.split_once('?').unwrap();
    assert_eq!(query, "game=3");
    assert_eq!(server.get(page).0, 200, "{page}");
    let folder = page.rsplit_once('/').unwrap().0;
    let data = format!("{folder}/games/game-000003.js");
    let (status, script) = server.get_as(&alice, &data);
    assert_eq!(status, 200, "{script}");
    assert!(script.starts_with("window.ARENA_GAME = "), "{script:.200}");
    assert!(script.contains("bob v1"));
    let (status, record) = server.get_as(&alice, games[2]["record"].as_str().unwrap());
    assert_eq!(status, 200);
    assert!(record.lines().count() > 2, "{record:.300}");
    assert_eq!(server.get_as(&bob, &data).0, 404);
    assert_eq!(server.get(&data).0, 404);
    assert_eq!(
        server
            .get_as(&alice, &format!("{folder}/games/game-000009.js"))
            .0,
        404,
        "no such game"
    );

    // A build error is the verdict, with the line; no game is played.
    let broken = format!("{agent}\ndef broken(:\n    pass\n");
    let line = broken.lines().count() - 1;
    let (status, _, report) = test_run(&server, &alice, "agent.py", &broken, &["builtin:greedy"]);
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["accepted"], false);
    assert_eq!(report["reason"], "the Python build failed");
    let text = report["report"].as_str().unwrap();
    assert!(
        text.contains(&format!("File \"agent.py\", line {line}")),
        "{text}"
    );
    assert_eq!(report["games"], serde_json::json!([]));

    // The third test within the hour: refused, with when to come back.
    let (status, retry, answer) = test_run(&server, &alice, "agent.py", &agent, &["bob"]);
    assert_eq!(status, 429, "{answer}");
    let retry: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((3000..=3600).contains(&retry), "{retry}");
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .contains("2 tests an hour"));
    // Bob's limit is his own.
    let (status, _, answer) = test_run(&server, &bob, "agent.py", "x = (\n", &["builtin:greedy"]);
    assert_eq!(status, 200, "{answer}");

    // No version, no place on the leaderboard.
    assert_eq!(
        server.json_as(&alice, "/api/me")["versions"],
        serde_json::json!([])
    );
    assert_eq!(
        server.json_as(&bob, "/api/me")["versions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let board = server.json("/api/leaderboard");
    assert!(entry(&board, "alice").is_none(), "{board}");
    assert!(entry(&board, "alice (test)").is_none(), "{board}");
    server.finish();
}

/// A server whose machine has neither toolchain says so at its start, one line per language,
/// refuses sources with 422 "this server cannot build Python: …", and goes on serving.
#[test]
fn a_server_without_toolchains_says_so_and_refuses_sources() {
    let dir = temp_dir("no-toolchain");
    let server = Server::start(
        &dir,
        &(quick_ladder(1, 4)
            + "python = \"/nonexistent/python3\"\nnode_modules = \"no-such-folder\"\n"),
    );
    let log = std::fs::read_to_string(dir.join("server-1.log")).unwrap();
    assert!(log.contains("this server cannot build Python: "), "{log}");
    assert!(
        log.contains("this server cannot build JavaScript: "),
        "{log}"
    );
    let carol = server.add_contestant("carol");
    let bot = write(&dir, "bot.py", &template("python/climber.py"));
    let out = server.submit(&carol, &bot);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("refused: this server cannot build Python: "),
        "{}",
        text(&out)
    );
    // Not recorded (it does not count), and the server serves on.
    assert_eq!(
        server.json_as(&carol, "/api/me")["versions"],
        serde_json::json!([])
    );
    assert_eq!(server.get("/api/status").0, 200);
    server.finish();
}

/// The body of `GET url` and its `X-SHA256` header.
fn download(url: &str) -> (Vec<u8>, String) {
    let mut resp = ureq::get(url).call().expect("download");
    let sha = resp
        .headers()
        .get("x-sha256")
        .and_then(|v| v.to_str().ok())
        .expect("X-SHA256")
        .to_owned();
    let bytes = resp
        .body_mut()
        .with_config()
        .limit(1 << 30)
        .read_to_vec()
        .expect("body");
    (bytes, sha)
}

fn arena_sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
