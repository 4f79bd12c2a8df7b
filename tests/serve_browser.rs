//! `arena serve` in a real browser: headless Chromium driven over WebDriver (Debian's
//! `chromium-driver`) logs in with a token, uploads an agent through the page, sees the verdict,
//! watches its first games arrive on the leaderboard without reloading it (server-sent events),
//! and opens a replay. Screenshots go to target/serve-screenshots/.
//!
//! Chromium and ChromeDriver are required: without them this test fails (it never skips; see
//! tests/browser_support).
//!
//! It runs on both databases: SQLite in the data folder, and PostgreSQL (`database = "postgres://..."`).

mod browser_support;
mod pg_support;
mod serve_support;

use std::time::{Duration, Instant};

use browser_support::{browser, chromedriver, click, text_of, verdict_of, wait_for};
use fantoccini::{Client, Locator};
use pg_support::Database;
use serve_support::*;

async fn wait_until<F, Fut>(what: &str, secs: u64, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !f().await {
        assert!(
            started.elapsed() < Duration::from_secs(secs),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn shot(c: &Client, name: &str) {
    let dir = workspace().join("target").join("serve-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    if let Ok(png) = c.screenshot().await {
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// Chooses the language `lang` in the editor of `/me`.
async fn choose_language(c: &Client, lang: &str) {
    c.find(Locator::Css(&format!("#source-lang option[value={lang}]")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Logs in with `token` and waits for the contestant's page.
async fn log_in(c: &Client, url: &str, token: &str) {
    c.goto(&format!("{url}/login")).await.unwrap();
    c.find(Locator::Id("token"))
        .await
        .unwrap()
        .send_keys(token)
        .await
        .unwrap();
    c.find(Locator::Css("form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.wait().for_element(Locator::Id("upload")).await.unwrap();
}

mod a_contestant_uploads_through_the_page_and_watches_the_ladder_and_a_replay {
    #[test]
    fn sqlite() {
        super::uploads_through_the_page(super::Database::sqlite())
    }

    #[test]
    fn postgres() {
        super::uploads_through_the_page(super::Database::postgres("serve_browser"))
    }
}

fn uploads_through_the_page(db: Database) {
    let tag = db.name();
    let dir = temp_dir(&format!("browser-{tag}"));
    let server = Server::start(
        &dir,
        &(db.challenge_line() + "name = \"Browser cup\"\nround_cap = 60\nworkers = 1\n[ladder]\nplacement_games = 2\nmax_games_per_version = 12\n[uploads]\ncheck_games = 1\n"),
    );
    // Two opponents are on the ladder already, one with the longest name there is and no space
    // to break it at.
    let long_name = "Wm".repeat(20);
    for (name, text_) in [
        ("rival", climber("rival-climb")),
        (long_name.as_str(), passer()),
    ] {
        let token = server.add_contestant(name);
        let file = write(&dir, &format!("{name}.wat"), &text_);
        let out = server.submit(&token, &file);
        assert_eq!(out.status.code(), Some(0), "{}", serve_support::text(&out));
    }
    let token = server.add_contestant("web <b>user</b>");
    let agent = write(&dir, "mine.wat", &climber("browser-own"));

    let (driver, port) = chromedriver();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let c = browser(port, &dir).await;

        // Log in with the token.
        c.goto(&format!("{}/login", server.url)).await.unwrap();
        c.find(Locator::Id("token")).await.unwrap().send_keys(&token).await.unwrap();
        c.find(Locator::Css("form button[type=submit]")).await.unwrap().click().await.unwrap();
        c.wait().for_element(Locator::Id("upload")).await.unwrap();
        let title = c.find(Locator::Css("h1")).await.unwrap().text().await.unwrap();
        assert!(title.contains("web <b>user</b>"), "the name is shown as text: {title}");

        // Upload through the form and see the verdict.
        c.find(Locator::Id("agent"))
            .await
            .unwrap()
            .send_keys(&agent.display().to_string())
            .await
            .unwrap();
        click(&c, "upload-button").await;
        let v1 = wait_for(&c, "#v1[data-verdict]", 120).await;
        assert_eq!(verdict_of(&v1).await.as_deref(), Some("accepted"));
        let verdict = v1.text().await.unwrap();
        assert!(verdict.contains("Accepted"), "{verdict}");
        shot(&c, &format!("{tag}-me")).await;

        // The leaderboard: the new agent's first games arrive without a reload.
        c.goto(&format!("{}/", server.url)).await.unwrap();
        c.execute("window.arenaMarker = 42;", vec![]).await.unwrap();
        wait_until("the agent's first games on the leaderboard", 120, || async {
            let rows = c.find_all(Locator::Css("#leaderboard tbody tr")).await.unwrap();
            for r in rows {
                let cells = r.find_all(Locator::Css("td")).await.unwrap_or_default();
                if cells.len() < 4 {
                    continue;
                }
                let name = cells[1].text().await.unwrap_or_default();
                let games: u32 = cells[3].text().await.unwrap_or_default().parse().unwrap_or(0);
                if name == "web <b>user</b>" && games >= 2 {
                    return true;
                }
            }
            false
        })
        .await;
        let marker = c.execute("return window.arenaMarker;", vec![]).await.unwrap();
        assert_eq!(marker, serde_json::json!(42), "the page was updated in place");
        shot(&c, &format!("{tag}-leaderboard")).await;

        // Open a replay of one of its games from the agent's page.
        // The table is redrawn as games arrive, so the link is read again until it holds still.
        let href = loop {
            let link = c
                .find(Locator::XPath("//table[@id='leaderboard']//a[contains(., 'web <b>user</b>')]"))
                .await
                .unwrap();
            if let Ok(Some(h)) = link.attr("href").await {
                break h;
            }
        };
        c.goto(&format!("{}{href}", server.url)).await.unwrap();
        wait_for(&c, "#games li a", 30).await;

        // The agent's page updates by itself too: a newcomer's placement games against this
        // agent appear in its games and its count of games, without a reload.
        c.execute("window.arenaMarker = 43;", vec![]).await.unwrap();
        let count = |c: Client| async move {
            let field = c.find(Locator::Css("#standing [data-field=games]")).await.unwrap();
            let games: u32 = field.text().await.unwrap().parse().unwrap();
            let listed = c.find_all(Locator::Css("#games li")).await.unwrap().len();
            (games, listed)
        };
        let (games_before, listed_before) = count(c.clone()).await;
        let newcomer = server.add_contestant("newcomer");
        let file = write(&dir, "newcomer.wat", &climber("newcomer-cl"));
        let out = server.submit(&newcomer, &file);
        assert_eq!(out.status.code(), Some(0), "{}", serve_support::text(&out));
        wait_until("the newcomer's games on the agent's page", 120, || async {
            let (games, listed) = count(c.clone()).await;
            games > games_before && listed > listed_before
        })
        .await;
        let marker = c.execute("return window.arenaMarker;", vec![]).await.unwrap();
        assert_eq!(marker, serde_json::json!(43), "the agent's page was updated in place");
        let mut listed = Vec::new();
        for li in c.find_all(Locator::Css("#games li")).await.unwrap() {
            listed.push(li.text().await.unwrap());
        }
        assert!(listed.iter().any(|l| l.contains("newcomer v1")), "{listed:?}");
        shot(&c, &format!("{tag}-agent")).await;

        // The projector at 1920×1080: the 40-character name wraps, and every column, Faults
        // last, stays on the screen.
        c.set_window_size(1920, 1080).await.unwrap();
        c.goto(&format!("{}/projector", server.url)).await.unwrap();
        c.wait().for_element(Locator::Css("#leaderboard tbody tr")).await.unwrap();
        let fits = c
            .execute(
                "var w = document.documentElement.clientWidth; \
                 var cells = document.querySelectorAll('#leaderboard th, #leaderboard td'); \
                 var right = 0; cells.forEach(function (e) { right = Math.max(right, e.getBoundingClientRect().right); }); \
                 return [right, w, document.documentElement.scrollWidth];",
                vec![],
            )
            .await
            .unwrap();
        let [right, width, scroll] = [0, 1, 2].map(|i| fits[i].as_f64().unwrap());
        assert!(
            right <= width && scroll <= width,
            "the projector's table is {right} px wide in a window of {width} px"
        );
        shot(&c, &format!("{tag}-projector")).await;
        c.set_window_size(1280, 1000).await.unwrap();
        c.back().await.unwrap();

        let game = c.find(Locator::Css("#games li a")).await.unwrap();
        game.click().await.unwrap();
        wait_until("the replay", 30, || async {
            let t = c.find(Locator::Id("title")).await;
            match t {
                Ok(t) => t.text().await.unwrap_or_default().contains("web <b>user</b> v1"),
                Err(_) => false,
            }
        })
        .await;
        // Step to the end: the viewer draws the final position.
        click(&c, "last").await;
        let position = text_of(&c, "position").await;
        assert!(!position.is_empty() && position != "Start", "{position}");
        let error = c.find(Locator::Id("load-error")).await.unwrap();
        assert!(!error.is_displayed().await.unwrap(), "the replay data loaded");
        shot(&c, &format!("{tag}-replay")).await;
        c.close().await.unwrap();
    });
    drop(driver);
    server.finish();
}

/// The editor of `/me`: a contestant with only a browser finds the game's template there in a
/// code editor (CodeMirror: line numbers, highlighting); puts a bug in it (the herd of a seat that
/// does not exist), presses Test and reads the exception in the language, naming the line, once
/// with its count; fixes it, presses Test against `builtin:greedy`, sees the games and opens a
/// replay; then types a syntax error, presses Submit, and reads the toolchain's error naming the
/// line; fixes it, submits again, and the agent is accepted and appears on the leaderboard. In
/// Python, then in JavaScript. Screenshots of the editor, of each Test result and of each verdict
/// go to target/serve-screenshots/.
#[test]
fn a_contestant_writes_python_and_javascript_in_the_editor_and_submits_them() {
    let dir = temp_dir("browser-editor");
    let server = Server::start(
        &dir,
        "round_cap = 60\nworkers = 1\n[ladder]\nplacement_games = 2\nmax_games_per_version = 4\n\
         [uploads]\ncheck_games = 1\ntest_pairs = 1\n",
    );
    let rival = server.add_contestant("rival");
    let file = write(&dir, "rival.wat", &climber("rival-climb"));
    assert_eq!(server.submit(&rival, &file).status.code(), Some(0));
    let (driver, port) = chromedriver();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        // (language, contestant, the bug typed at the end, how the error names its line)
        let cases = [
            (
                "python",
                "pythonista",
                "def broken(:",
                "File \"agent.py\", line ",
            ),
            ("javascript", "scripter", "const = 5;", "agent.js:"),
        ];
        for (lang, name, bug, at_line) in cases {
            let token = server.add_contestant(name);
            let c = browser(port, &dir.join(lang)).await;
            log_in(&c, &server.url, &token).await;
            wait_for(&c, "#editor .cm-gutters", 30).await;
            choose_language(&c, lang).await;
            let doc = "return window.arenaEditor.state.doc.toString();";
            let text = c.execute(doc, vec![]).await.unwrap();
            let text = text.as_str().unwrap().to_owned();
            let template = if lang == "python" {
                "class WitWorld"
            } else {
                "export"
            };
            assert!(text.contains(template), "the {lang} template: {text}");
            // The editor parses and highlights after its first paint: tokens become spans with a
            // class (a plain text area has none; the template's first visible lines may all be
            // one docstring, a span per line).
            wait_until("syntax highlighting", 15, || async {
                let highlighted = c
                    .execute(
                        "return document.querySelectorAll('.cm-line span[class]').length;",
                        vec![],
                    )
                    .await
                    .unwrap();
                highlighted.as_u64().unwrap_or(0) >= 3
            })
            .await;
            shot(&c, &format!("editor-{lang}")).await;

            // Test with a bug: the herd of a seat that does not exist. The exception, in the
            // agent's language, names the line, once with its count.
            let (at, with) = if lang == "python" {
                ("view.herds[view.seat]", "view.herds[view.seat + 5]")
            } else {
                ("view.herds[view.seat]", "view.herds[view.seat + 5].animals")
            };
            let swap = |from: &str, to: &str| {
                format!(
                    "const v = window.arenaEditor, t = v.state.doc.toString(), i = t.indexOf({from:?}); \
                     if (i < 0) return 0; \
                     v.dispatch({{changes: {{from: i, to: i + {n}, insert: {to:?}}}}}); \
                     return v.state.doc.lineAt(i).number;",
                    n = from.len()
                )
            };
            let bug_line = c.execute(&swap(at, with), vec![]).await.unwrap();
            let bug_line = bug_line.as_u64().unwrap();
            assert!(bug_line > 0, "the {lang} template reads {at}");
            let opponent = |value: &'static str| {
                let c = c.clone();
                async move {
                    c.find(Locator::Css(&format!("#test-opponents input[value='{value}']")))
                        .await
                        .unwrap()
                }
            };
            // The first opponent is chosen for a start; builtin:greedy instead.
            opponent("builtin:passer").await.click().await.unwrap();
            opponent("builtin:greedy").await.click().await.unwrap();
            click(&c, "test-button").await;
            let verdict = wait_for(&c, "#test-verdict[data-verdict]", 300).await;
            assert_eq!(
                verdict_of(&verdict).await.as_deref(),
                Some("failed")
            );
            let report = c
                .execute(
                    "return document.getElementById('test-report').textContent;",
                    vec![],
                )
                .await
                .unwrap();
            let report = report.as_str().unwrap();
            let named = if lang == "python" {
                format!("File \"agent.py\", line {bug_line}, in trade")
            } else {
                format!("trade@agent.js:{bug_line}:")
            };
            assert!(report.contains(&named), "{named}: {report}");
            assert!(report.contains("(the same fault in "), "{report}");
            c.execute("document.getElementById('test-result').scrollIntoView();", vec![])
                .await
                .unwrap();
            shot(&c, &format!("editor-{lang}-test-error")).await;

            // Fixed: the games against builtin:greedy, each with its replay.
            assert_eq!(
                c.execute(&swap(with, at), vec![]).await.unwrap(),
                serde_json::json!(bug_line)
            );
            click(&c, "test-button").await;
            let replay = wait_for(&c, "#test-games li a.test-replay", 300).await;
            let verdict = c.find(Locator::Id("test-verdict")).await.unwrap();
            assert_eq!(
                verdict_of(&verdict).await.as_deref(),
                Some("passed")
            );
            let mut games = Vec::new();
            for li in c.find_all(Locator::Css("#test-games li")).await.unwrap() {
                games.push(li.text().await.unwrap());
            }
            assert_eq!(games.len(), 2, "one seat-swapped pair: {games:?}");
            let me = format!("{name} (test)");
            assert!(
                games[0].contains(&format!("seat 0: {me}, seat 1: builtin:greedy"))
                    && games[1].contains(&format!("seat 0: builtin:greedy, seat 1: {me}")),
                "{games:?}"
            );
            c.execute("document.getElementById('test-result').scrollIntoView();", vec![])
                .await
                .unwrap();
            shot(&c, &format!("editor-{lang}-test")).await;
            let href = replay.attr("href").await.unwrap().unwrap();
            c.goto(&format!("{}{href}", server.url)).await.unwrap();
            wait_until("the test's replay", 30, || async {
                match c.find(Locator::Id("title")).await {
                    Ok(t) => t.text().await.unwrap_or_default().contains(&me),
                    Err(_) => false,
                }
            })
            .await;
            let error = c.find(Locator::Id("load-error")).await.unwrap();
            assert!(!error.is_displayed().await.unwrap(), "the replay data loaded");
            click(&c, "last").await;
            shot(&c, &format!("editor-{lang}-test-replay")).await;
            // Nothing was submitted: back on /me, no version yet.
            c.goto(&format!("{}/me", server.url)).await.unwrap();
            wait_for(&c, "#editor .cm-gutters", 30).await;
            assert!(c.find(Locator::Css("#versions li")).await.is_err(), "no version");
            choose_language(&c, lang).await;

            // A bug typed at the end: the build's error names its line.
            let content = c.find(Locator::Css("#editor .cm-content")).await.unwrap();
            content.click().await.unwrap();
            // Control+End, release, Enter, the bug.
            content
                .send_keys(&format!("\u{E009}\u{E010}\u{E000}\u{E007}{bug}"))
                .await
                .unwrap();
            let line = c
                .execute("return window.arenaEditor.state.doc.lines;", vec![])
                .await
                .unwrap()
                .as_u64()
                .unwrap();
            click(&c, "source-submit").await;
            let v1 = wait_for(&c, "#v1[data-verdict]", 300).await;
            assert_eq!(
                verdict_of(&v1).await.as_deref(),
                Some("refused")
            );
            let report = v1.find(Locator::Css("pre")).await.unwrap();
            let report = report.html(true).await.unwrap();
            assert!(report.contains("SyntaxError"), "{report}");
            assert!(
                report.contains(&format!("{at_line}{line}")),
                "line {line}: {report}"
            );
            shot(&c, &format!("editor-{lang}-error")).await;

            // Fixed (the bug's line taken out of the editor, which holds the last sources): accepted.
            wait_for(&c, "#editor .cm-gutters", 30).await;
            let cut = "const v = window.arenaEditor, d = v.state.doc; \
                       v.dispatch({changes: {from: d.line(d.lines).from - 1, to: d.length}}); \
                       return d.lines;";
            c.execute(cut, vec![]).await.unwrap();
            click(&c, "source-submit").await;
            let v2 = wait_for(&c, "#v2[data-verdict]", 300).await;
            let verdict = v2.text().await.unwrap();
            assert_eq!(
                verdict_of(&v2).await.as_deref(),
                Some("accepted"),
                "{verdict}"
            );
            shot(&c, &format!("editor-{lang}-accepted")).await;

            // On the leaderboard.
            c.goto(&format!("{}/", server.url)).await.unwrap();
            wait_until("the agent on the leaderboard", 60, || async {
                let board = c.find(Locator::Id("leaderboard")).await;
                match board {
                    Ok(b) => b.text().await.unwrap_or_default().contains(name),
                    Err(_) => false,
                }
            })
            .await;
            c.close().await.unwrap();
        }
    });
    drop(driver);
    server.finish();
}
