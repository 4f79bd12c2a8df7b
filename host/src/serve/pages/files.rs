//! The server's static files (style sheet, scripts, the editor's bundle) and the replays: the
//! report's own viewers, fed the game's data by the server (the viewer's own logs only), and
//! those of the contestant's test runs.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};

use super::super::api::games::viewer_record;
use super::super::api::viewer;
use super::super::engine;
use super::{AppState, PageError};

const SERVE_CSS: &str = include_str!("../assets/serve.css");
const LIVE_JS: &str = include_str!("../assets/live.js");
/// The editor's Test button (`POST /api/tests`) and its results.
const TESTER_JS: &str = include_str!("../assets/tester.js");
/// The code editor of `/me`: CodeMirror 6, bundled by `editor/build.sh` (committed).
const EDITOR_JS: &str = include_str!("../editor/editor.js");
const EDITOR_LICENSES: &str = include_str!("../editor/LICENSES.txt");

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

pub(super) async fn static_file(Path(file): Path<String>) -> Response {
    let text = match file.as_str() {
        "serve.css" => SERVE_CSS,
        "live.js" => LIVE_JS,
        "tester.js" => TESTER_JS,
        "editor.js" => EDITOR_JS,
        "editor-licenses.txt" => EDITOR_LICENSES,
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, content_type(&file)),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        text,
    )
        .into_response()
}

pub(super) async fn replay_asset(Path(file): Path<String>) -> Response {
    if file == "index.html" {
        return Redirect::to("/").into_response();
    }
    match engine::replay_asset(&file) {
        Some(text) => (
            [
                (header::CONTENT_TYPE, content_type(&file)),
                (header::CACHE_CONTROL, "public, max-age=300"),
            ],
            text,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `games/game-000123.js`: the replay data of game 123, with the viewer's own logs only.
pub(super) async fn replay_data(
    State(app): AppState,
    headers: HeaderMap,
    Path(file): Path<String>,
) -> Result<Response, PageError> {
    let id: i64 = file
        .strip_prefix("game-")
        .and_then(|f| f.strip_suffix(".js"))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| PageError(StatusCode::NOT_FOUND, format!("no such file: {file}")))?;
    let text = viewer_record(&app, &headers, id).await?;
    replay_script(text, id as usize, format!("/api/games/{id}/record")).await
}

/// The replay data script of game `n` whose record is `text` (fetched from `record_url`), made
/// off the async threads.
async fn replay_script(text: String, n: usize, record_url: String) -> Result<Response, PageError> {
    let script = tokio::task::spawn_blocking(move || engine::replay_script(&text, n, &record_url))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))??;
    Ok(private("text/javascript; charset=utf-8", script))
}

/// `body` as `content_type`, kept by no cache: a game may be seen by its players only.
fn private(content_type: &'static str, body: impl IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "private, no-store"),
        ],
        body,
    )
        .into_response()
}

/// The viewers' files of a test run's replays (`/replays/tests/ID/game.html?game=N`): the same
/// files as every replay's, so that the viewer's relative links find the run's games.
pub(super) async fn test_replay_asset(Path((_, file)): Path<(String, String)>) -> Response {
    replay_asset(Path(file)).await
}

/// `tests/ID/games/game-000001.js` (the replay data) or `.jsonl` (the record) of game 1 of test
/// run ID, for the contestant who ran it only (404 for anyone else, as for a run forgotten).
pub(super) async fn test_replay_data(
    State(app): AppState,
    headers: HeaderMap,
    Path((test, file)): Path<(String, String)>,
) -> Result<Response, PageError> {
    let missing = || PageError(StatusCode::NOT_FOUND, format!("no such test game: {file}"));
    let (n, script): (usize, bool) = match file
        .strip_prefix("game-")
        .and_then(|f| f.strip_suffix(".js").map(|n| (n, true)))
        .or_else(|| {
            file.strip_prefix("game-")
                .and_then(|f| f.strip_suffix(".jsonl"))
                .map(|n| (n, false))
        }) {
        Some((n, script)) => (n.parse().map_err(|_| missing())?, script),
        None => return Err(missing()),
    };
    let me = viewer(&app, &headers).await?.map(|c| c.id);
    let text = app.tests.record(&test, n, me).ok_or_else(missing)?;
    if !script {
        return Ok(private("application/x-ndjson", text));
    }
    replay_script(
        text,
        n,
        format!("/replays/tests/{test}/games/game-{n:06}.jsonl"),
    )
    .await
}
