//! The web pages: the live leaderboard, the projector page, each agent's page, the contestant's
//! own page (upload form, versions, verdicts, games), logging in, self-registration, and the
//! replays (the report's own replay viewers, fed by the server).
//!
//! Pages are rendered here with everything a contestant controls escaped; `live.js` keeps the
//! leaderboard up to date from the event stream. Forms carry a CSRF token bound to the browser's
//! cookie (see [`super::auth`]).

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use tower_http::limit::RequestBodyLimitLayer;

use super::admin::{self, FINAL, FINAL_STANDINGS};
use super::api::{self, viewer, viewer_record, SMALL_BODY};
use super::auth;
use super::db::{Contestant, GameRow};
use super::engine::{self, GameResult, Standing};
use super::html::{esc, num, page, time, Viewer};
use super::ladder::Leaderboard;
use super::uploads::{self, Refusal};
use super::{now_ms, App};

type AppState = State<Arc<App>>;

const SERVE_CSS: &str = include_str!("assets/serve.css");
const LIVE_JS: &str = include_str!("assets/live.js");

pub fn router(app: Arc<App>) -> Router {
    let upload_limit = app.challenge.uploads.max_bytes as usize + 64 * 1024;
    let uploads = Router::new()
        .route("/me/upload", post(upload))
        .route_layer(DefaultBodyLimit::max(upload_limit))
        .route_layer(RequestBodyLimitLayer::new(upload_limit));
    Router::new()
        .route("/", get(leaderboard_page))
        .route("/projector", get(projector))
        .route("/agents/{id}", get(agent_page))
        .route("/games/{id}", get(game_page))
        .route("/login", get(login_form).post(login))
        .route("/logout", post(logout))
        .route("/register", get(register_form).post(register))
        .route("/me", get(me_page))
        .route("/static/{file}", get(static_file))
        .route("/replays/{file}", get(replay_asset))
        .route("/replays/games/{file}", get(replay_data))
        .route_layer(RequestBodyLimitLayer::new(SMALL_BODY))
        .merge(uploads)
        .with_state(app)
}

/// An error page.
struct PageError(StatusCode, String);

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let body = format!(r#"<p class="error">{}</p>"#, esc(&self.1));
        let html = page("Arena", "Sorry", &Viewer::Anonymous, false, &body, &[]);
        (self.0, Html(html)).into_response()
    }
}

impl From<anyhow::Error> for PageError {
    fn from(e: anyhow::Error) -> PageError {
        eprintln!("error: {e:#}");
        PageError(StatusCode::INTERNAL_SERVER_ERROR, "internal error".into())
    }
}

impl From<api::ApiError> for PageError {
    fn from(e: api::ApiError) -> PageError {
        PageError(e.0, e.1)
    }
}

fn render(
    app: &App,
    title: &str,
    who: Option<&Contestant>,
    body: &str,
    scripts: &[&str],
) -> Html<String> {
    let viewer = match who {
        Some(c) => Viewer::Contestant(&c.name),
        None => Viewer::Anonymous,
    };
    Html(page(
        &app.challenge.name,
        title,
        &viewer,
        app.challenge.invite_code.is_some(),
        body,
        scripts,
    ))
}

/// A line saying whether submissions are open, until when, and how the final stands.
async fn status_line(app: &App) -> anyhow::Result<String> {
    let mut s = String::from(r#"<p id="status" class="status">"#);
    match app.submissions_closed().await? {
        Some(why) => s.push_str(&esc(why)),
        None => match &app.challenge.deadline_ms {
            Some(d) => {
                let _ = write!(s, "Submissions are open until {}.", esc(&time(*d)));
            }
            None => s.push_str("Submissions are open."),
        },
    }
    match app.db.state(FINAL).await?.as_deref() {
        Some("running") => s.push_str(" The final is being played."),
        Some("done") => s.push_str(" The final has been played: its standings are below."),
        _ => {}
    }
    s.push_str("</p>");
    Ok(s)
}

/// The leaderboard table; `live.js` redraws its body from the event stream.
pub fn leaderboard_table(board: &Leaderboard) -> String {
    let turns = board.measure == "turns";
    let mut s = format!(
        r#"<table id="leaderboard" class="board" data-measure="{}"><thead><tr><th>Rank</th><th>Agent</th><th>Version</th><th>Games</th><th>{}</th><th>{}</th><th>Faults</th></tr></thead><tbody>"#,
        board.measure,
        if turns { "Reached the target" } else { "Wins" },
        if turns {
            "Mean turns ± 95%"
        } else {
            "Rating ± 95%"
        },
    );
    for e in &board.agents {
        let _ = write!(
            s,
            r#"<tr data-contestant="{}"><td>{}</td><td><a href="/agents/{}">{}</a></td><td>v{}</td><td>{}</td><td>{}</td><td>{} ± {}</td><td>{}</td></tr>"#,
            e.contestant,
            e.rank,
            e.contestant,
            esc(&e.name),
            e.version,
            e.games,
            e.wins,
            num(e.rating, if turns { 1 } else { 0 }),
            num(e.interval, if turns { 1 } else { 0 }),
            e.faults,
        );
    }
    s.push_str("</tbody></table>");
    if board.agents.is_empty() {
        s.push_str(r#"<p class="muted" id="empty">No accepted agent yet.</p>"#);
    }
    s
}

/// A list of games with links to their replays.
fn games_list(games: &[GameRow], id: &str) -> String {
    let mut s = format!(r#"<ol class="games" id="{id}">"#);
    for g in games {
        let result: Option<GameResult> = g
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str(r).ok());
        let names: Vec<String> = g
            .seats
            .iter()
            .map(|seat| esc(&super::ladder::seat_label(&seat.name, seat.number)))
            .collect();
        let outcome = match result.as_ref().and_then(|r| r.outcome.winner()) {
            Some(w) => format!("won by {}", names.get(w).cloned().unwrap_or_default()),
            None => "no winner".into(),
        };
        let _ = write!(
            s,
            r#"<li><a href="/replays/game.html?game={id}">Game {id}</a>: {} — {outcome}</li>"#,
            names.join(" vs "),
            id = g.id,
        );
    }
    s.push_str("</ol>");
    s
}

fn final_table(json: &str) -> String {
    let Ok(standings) = serde_json::from_str::<Vec<Standing>>(json) else {
        return String::new();
    };
    let mut s = String::from(
        r#"<h2>Final standings</h2><table class="board" id="final"><thead><tr><th>Rank</th><th>Agent</th><th>Games</th><th>Wins</th><th>Rating ± 95%</th></tr></thead><tbody>"#,
    );
    for e in &standings {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} ± {}</td></tr>",
            e.rank,
            esc(&e.name),
            e.games,
            e.wins,
            num(e.rating, 1),
            num(e.interval, 1)
        );
    }
    s.push_str("</tbody></table>");
    s
}

async fn leaderboard_page(
    State(app): AppState,
    headers: HeaderMap,
) -> Result<Html<String>, PageError> {
    let who = viewer(&app, &headers).await?;
    let mut body = status_line(&app).await?;
    if let Some(json) = app.db.state(FINAL_STANDINGS).await? {
        body.push_str(&final_table(&json));
        body.push_str("<h2>Ladder</h2>");
    }
    body.push_str(&leaderboard_table(&app.board.current()));
    body.push_str(r#"<h2>Latest games</h2>"#);
    body.push_str(&games_list(&app.db.recent_games(None, 20).await?, "recent"));
    Ok(render(
        &app,
        "Leaderboard",
        who.as_ref(),
        &body,
        &["live.js"],
    ))
}

async fn projector(State(app): AppState) -> Result<Html<String>, PageError> {
    let body = format!(
        r#"{}{}<p class="muted">This page updates by itself.</p>"#,
        status_line(&app).await?,
        leaderboard_table(&app.board.current()),
    );
    let html = page(
        &app.challenge.name,
        &app.challenge.name,
        &Viewer::Anonymous,
        false,
        &body,
        &["live.js"],
    )
    .replace("<body>", r#"<body class="projector">"#);
    Ok(Html(html))
}

async fn agent_page(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Html<String>, PageError> {
    let who = viewer(&app, &headers).await?;
    let c = app.db.contestant(id).await?.ok_or_else(|| {
        PageError(
            StatusCode::NOT_FOUND,
            format!("There is no contestant {id}."),
        )
    })?;
    let active = app
        .board
        .active()
        .into_iter()
        .find(|v| v.contestant_id == id);
    let board = app.board.current();
    // `live.js` keeps the standing and the games up to date: the fields by their `data-field`,
    // the games of the version labelled `data-label` (a new version reloads the page).
    let mut body = format!(
        r#"<div id="standing" data-contestant="{id}" data-version="{}">"#,
        active.as_ref().map_or(0, |v| v.number)
    );
    match (&active, board.agents.iter().find(|e| e.contestant == id)) {
        (Some(v), Some(e)) => {
            let _ = write!(
                body,
                r#"<p>Plays version {} (SHA-256 <code>{}</code>). Rank <span data-field="rank">{}</span> of <span data-field="of">{}</span>; <span data-field="games">{}</span> games, <span data-field="wins">{}</span> wins; {} <span data-field="rating">{} ± {}</span>.</p>"#,
                v.number,
                &v.sha256[..16.min(v.sha256.len())],
                e.rank,
                board.agents.len(),
                e.games,
                e.wins,
                board.measure,
                num(e.rating, 1),
                num(e.interval, 1)
            );
        }
        _ => body.push_str(r#"<p class="muted">No accepted version yet.</p>"#),
    }
    body.push_str("</div>");
    if let Some(v) = &active {
        body.push_str("<h2>Latest games</h2>");
        let list = games_list(&app.db.recent_games(Some(v.id), 50).await?, "games");
        body.push_str(&list.replacen(
            r#"id="games""#,
            &format!(
                r#"id="games" data-label="{}""#,
                esc(&super::ladder::seat_label(&c.name, v.number))
            ),
            1,
        ));
    }
    Ok(render(&app, &c.name, who.as_ref(), &body, &["live.js"]))
}

async fn game_page(Path(id): Path<i64>) -> Redirect {
    Redirect::to(&format!("/replays/game.html?game={id}"))
}

// ----- cookies and CSRF -----

fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get(header::COOKIE)
        .and_then(|h| h.to_str().ok())
        .and_then(|c| auth::cookie(c, name))
}

/// `Set-Cookie` for `name=value` (`Secure` when the reverse proxy says the request came over
/// HTTPS).
fn set_cookie(headers: &HeaderMap, name: &str, value: &str, max_age_s: i64) -> String {
    let secure = headers
        .get("x-forwarded-proto")
        .is_some_and(|p| p.as_bytes().eq_ignore_ascii_case(b"https"));
    format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age_s}{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The CSRF token for an anonymous form, and the pre-session cookie to set if the browser has
/// none yet.
fn anonymous_csrf(app: &App, headers: &HeaderMap) -> anyhow::Result<(String, Option<String>)> {
    match cookie_value(headers, auth::PRE_SESSION_COOKIE) {
        Some(pre) => Ok((auth::csrf_token(&app.secret, pre), None)),
        None => {
            let pre = auth::new_token()?;
            let cookie = set_cookie(headers, auth::PRE_SESSION_COOKIE, &pre, 24 * 3600);
            Ok((auth::csrf_token(&app.secret, &pre), Some(cookie)))
        }
    }
}

fn check_csrf(
    app: &App,
    headers: &HeaderMap,
    cookie: &str,
    token: Option<&str>,
) -> Result<(), PageError> {
    let ok = cookie_value(headers, cookie)
        .zip(token)
        .is_some_and(|(c, t)| auth::csrf_ok(&app.secret, c, t));
    if ok {
        Ok(())
    } else {
        Err(PageError(
            StatusCode::FORBIDDEN,
            "This form has expired or did not come from this site: reload the page and try again."
                .into(),
        ))
    }
}

fn with_cookie(html: Html<String>, cookie: Option<String>) -> Response {
    match cookie {
        Some(c) => ([(header::SET_COOKIE, c)], html).into_response(),
        None => html.into_response(),
    }
}

// ----- logging in and out, registering -----

async fn login_form(State(app): AppState, headers: HeaderMap) -> Result<Response, PageError> {
    let (csrf, cookie) = anonymous_csrf(&app, &headers)?;
    let body = format!(
        r#"<form method="post" action="/login" class="card">
<input type="hidden" name="csrf" value="{csrf}">
<label for="token">Your token</label>
<input type="password" id="token" name="token" autocomplete="current-password" required size="70">
<button type="submit" class="primary">Log in</button>
</form>
<p class="hint">The host gave you a token when adding you{}. It is shown only once: keep it.</p>"#,
        if app.challenge.invite_code.is_some() {
            r#" (or <a href="/register">register</a> with the invite code)"#
        } else {
            ""
        }
    );
    Ok(with_cookie(
        render(&app, "Log in", None, &body, &[]),
        cookie,
    ))
}

async fn login(
    State(app): AppState,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, PageError> {
    check_csrf(
        &app,
        &headers,
        auth::PRE_SESSION_COOKIE,
        form.get("csrf").map(String::as_str),
    )?;
    let token = form.get("token").map(|t| t.trim()).unwrap_or("");
    let Some(c) = app.db.contestant_by_token(&auth::token_hash(token)).await? else {
        return Err(PageError(
            StatusCode::UNAUTHORIZED,
            "No contestant has this token.".into(),
        ));
    };
    let session = auth::new_token()?;
    app.db
        .create_session(&auth::token_hash(&session), c.id, now_ms())
        .await?;
    let cookie = set_cookie(
        &headers,
        auth::SESSION_COOKIE,
        &session,
        auth::SESSION_MS / 1000,
    );
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to("/me")).into_response())
}

async fn logout(
    State(app): AppState,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, PageError> {
    check_csrf(
        &app,
        &headers,
        auth::SESSION_COOKIE,
        form.get("csrf").map(String::as_str),
    )?;
    if let Some(s) = cookie_value(&headers, auth::SESSION_COOKIE) {
        app.db.delete_session(&auth::token_hash(s)).await?;
    }
    let cookie = set_cookie(&headers, auth::SESSION_COOKIE, "", 0);
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response())
}

async fn register_form(State(app): AppState, headers: HeaderMap) -> Result<Response, PageError> {
    if app.challenge.invite_code.is_none() {
        return Err(PageError(
            StatusCode::NOT_FOUND,
            "Self-registration is closed: ask the host for a token.".into(),
        ));
    }
    let (csrf, cookie) = anonymous_csrf(&app, &headers)?;
    let body = format!(
        r#"<form method="post" action="/register" class="card">
<input type="hidden" name="csrf" value="{csrf}">
<label for="name">Name (shown on the leaderboard)</label>
<input id="name" name="name" required maxlength="40">
<label for="invite_code">Invite code</label>
<input id="invite_code" name="invite_code" required>
<button type="submit" class="primary">Register</button>
</form>"#
    );
    Ok(with_cookie(
        render(&app, "Register", None, &body, &[]),
        cookie,
    ))
}

async fn register(
    State(app): AppState,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Html<String>, PageError> {
    check_csrf(
        &app,
        &headers,
        auth::PRE_SESSION_COOKIE,
        form.get("csrf").map(String::as_str),
    )?;
    let field = |k: &str| form.get(k).map(String::as_str).unwrap_or("");
    let token = admin::register(
        &app.db,
        app.challenge.invite_code.as_deref(),
        field("name"),
        field("invite_code"),
    )
    .await
    .map_err(|e| PageError(StatusCode::FORBIDDEN, format!("{e:#}")))?;
    let body = format!(
        r#"<p>Welcome, {}. Your token is:</p><pre id="token" class="token">{}</pre>
<p class="hint">It is shown only this once; the server keeps only a hash of it. Use it to
<a href="/login">log in</a> and with <code>arena submit --token</code>.</p>"#,
        esc(field("name").trim()),
        token
    );
    Ok(render(&app, "Registered", None, &body, &[]))
}

// ----- the contestant's own page -----

async fn me_page(
    State(app): AppState,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, PageError> {
    let Some(session) = cookie_value(&headers, auth::SESSION_COOKIE) else {
        return Ok(Redirect::to("/login").into_response());
    };
    let Some(who) = viewer(&app, &headers).await? else {
        return Ok(Redirect::to("/login").into_response());
    };
    let csrf = auth::csrf_token(&app.secret, session);
    let mut body = status_line(&app).await?;
    if let Some(e) = q.get("error") {
        let msg = match e.as_str() {
            "closed" => "Submissions are closed: the upload was not taken.",
            "rate" => "Too many uploads in the last hour: wait a little and upload again.",
            "large" => "The file is larger than this challenge allows.",
            "empty" => "Choose a file to upload.",
            _ => "The upload failed.",
        };
        let _ = write!(body, r#"<p class="error" id="upload-error">{msg}</p>"#);
    }
    let _ = write!(
        body,
        r#"<form method="post" action="/me/upload" enctype="multipart/form-data" class="card" id="upload">
<input type="hidden" name="csrf" value="{csrf}">
<label for="agent">Upload a new version (<code>.wasm</code> or <code>.wat</code>, at most {} KiB)</label>
<input type="file" id="agent" name="agent" accept=".wasm,.wat" required>
<button type="submit" class="primary" id="upload-button">Upload and check</button>
</form>
<p class="hint">The check is what <code>arena check</code> does; it takes a few seconds. From a terminal:
<code>arena submit --server URL --token TOKEN agent.wasm</code>.</p>"#,
        app.challenge.uploads.max_bytes / 1024
    );
    let versions = app.db.versions_of(who.id).await?;
    body.push_str("<h2>Your versions</h2>");
    if versions.is_empty() {
        body.push_str(r#"<p class="muted">None yet.</p>"#);
    }
    body.push_str(r#"<ol class="versions" id="versions">"#);
    for v in &versions {
        let verdict = if v.accepted { "accepted" } else { "refused" };
        let _ = write!(
            body,
            r#"<li id="v{n}" data-verdict="{verdict}"><strong>Version {n}</strong>{active}: <span class="verdict {verdict}">{Verdict}</span>{reason} <span class="muted">({size} bytes, {when}, SHA-256 <code>{sha}</code>)</span>
<details{open}><summary>Check report</summary><pre>{report}</pre></details></li>"#,
            n = v.number,
            active = if v.active { " (plays now)" } else { "" },
            Verdict = if v.accepted { "Accepted" } else { "Refused" },
            reason = v
                .reason
                .as_deref()
                .map(|r| format!(": {}", esc(r)))
                .unwrap_or_default(),
            size = v.size,
            when = time(v.uploaded_ms),
            sha = &v.sha256[..16.min(v.sha256.len())],
            open = if Some(v.number) == versions.first().map(|f| f.number) {
                " open"
            } else {
                ""
            },
            report = esc(&v.report),
        );
    }
    body.push_str("</ol>");
    if let Some(active) = versions.iter().find(|v| v.active) {
        body.push_str("<h2>Games of the version that plays</h2>");
        let games = app.db.recent_games(Some(active.id), 50).await?;
        body.push_str(&own_games(&games, who.id));
    }
    let _ = write!(
        body,
        r#"<form method="post" action="/logout"><input type="hidden" name="csrf" value="{csrf}"><button type="submit">Log out</button></form>"#
    );
    Ok(render(
        &app,
        &format!("{} — your agent", who.name),
        Some(&who),
        &body,
        &[],
    )
    .into_response())
}

/// The contestant's games, with their own agent's faults (the replays show its debug log).
fn own_games(games: &[GameRow], me: i64) -> String {
    let mut s = games_list(games, "own-games");
    let mut faults = String::new();
    for g in games {
        let Some(r) = g
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<GameResult>(r).ok())
        else {
            continue;
        };
        for f in &r.faults {
            if g.seats.get(f.seat).is_some_and(|s| s.contestant_id == me) {
                let _ = write!(
                    faults,
                    "<li>Game {}: {} fault in the {} decision: {}</li>",
                    g.id,
                    esc(&f.kind),
                    esc(&f.decision),
                    esc(&f.detail)
                );
            }
        }
    }
    if !faults.is_empty() {
        let _ = write!(
            s,
            r#"<h3>Your agent's faults</h3><ul id="faults">{faults}</ul>"#
        );
    }
    s
}

async fn upload(
    State(app): AppState,
    headers: HeaderMap,
    mut form: Multipart,
) -> Result<Response, PageError> {
    let mut csrf = None;
    let mut bytes = None;
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| PageError(StatusCode::BAD_REQUEST, format!("unreadable form: {e}")))?
    {
        let name = field.name().map(str::to_owned);
        match name.as_deref() {
            Some("csrf") => {
                csrf = Some(field.text().await.map_err(|e| {
                    PageError(StatusCode::BAD_REQUEST, format!("unreadable form: {e}"))
                })?)
            }
            Some("agent") => {
                // Checked before the file is read, so that a forged form costs no upload.
                check_csrf(&app, &headers, auth::SESSION_COOKIE, csrf.as_deref())?;
                bytes = Some(field.bytes().await.map_err(|e| {
                    PageError(StatusCode::BAD_REQUEST, format!("unreadable upload: {e}"))
                })?)
            }
            _ => {}
        }
    }
    check_csrf(&app, &headers, auth::SESSION_COOKIE, csrf.as_deref())?;
    let Some(who) = viewer(&app, &headers).await? else {
        return Ok(Redirect::to("/login").into_response());
    };
    let bytes = match bytes {
        Some(b) if !b.is_empty() => b,
        _ => return Ok(Redirect::to("/me?error=empty").into_response()),
    };
    match uploads::upload(&app, &who, bytes.to_vec()).await {
        Ok(checked) => Ok(Redirect::to(&format!("/me#v{}", checked.version)).into_response()),
        Err(Refusal::Closed(_)) => Ok(Redirect::to("/me?error=closed").into_response()),
        Err(Refusal::RateLimited { .. }) => Ok(Redirect::to("/me?error=rate").into_response()),
        Err(Refusal::TooLarge { .. }) => Ok(Redirect::to("/me?error=large").into_response()),
        Err(Refusal::Internal(e)) => Err(e.into()),
    }
}

// ----- static files and replays -----

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn static_file(Path(file): Path<String>) -> Response {
    let text = match file.as_str() {
        "serve.css" => SERVE_CSS,
        "live.js" => LIVE_JS,
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

async fn replay_asset(Path(file): Path<String>) -> Response {
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
async fn replay_data(
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
    let script = tokio::task::spawn_blocking(move || {
        engine::replay_script(&text, id as usize, &format!("/api/games/{id}/record"))
    })
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))??;
    Ok((
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "private, no-store"),
        ],
        script,
    )
        .into_response())
}
