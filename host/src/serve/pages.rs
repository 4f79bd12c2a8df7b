//! The web pages: the live leaderboard, the projector page, each agent's page, the contestant's
//! own page (upload form, versions, verdicts, games), logging in, self-registration, and the
//! replays (the report's own replay viewers, fed by the server).
//!
//! Pages come from the templates of [`super::html`], which escape everything a contestant
//! controls; the public ones are rendered once per change ([`super::cache`]). `live.js` keeps
//! the leaderboard up to date from the event stream. Forms carry a CSRF token bound to the browser's
//! cookie (see [`super::auth`]).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use tower_http::limit::RequestBodyLimitLayer;

use super::admin::{FINAL, FINAL_STANDINGS};
use super::api::{self, viewer, viewer_record, SMALL_BODY};
use super::auth;
use super::db::{Contestant, GameRow};
use super::engine::{self, GameResult, Standing};
use super::html::{self, num, time};
use super::ladder::Leaderboard;
use super::sources::Lang;
use super::uploads::{self, Refusal};
use super::{now_ms, App};

type AppState = State<Arc<App>>;

const SERVE_CSS: &str = include_str!("assets/serve.css");
const LIVE_JS: &str = include_str!("assets/live.js");
/// The editor's Test button (`POST /api/tests`) and its results.
const TESTER_JS: &str = include_str!("assets/tester.js");
/// The code editor of `/me`: CodeMirror 6, bundled by `editor/build.sh` (committed).
const EDITOR_JS: &str = include_str!("editor/editor.js");
const EDITOR_LICENSES: &str = include_str!("editor/LICENSES.txt");

pub fn router(app: Arc<App>) -> Router {
    let upload_limit = app.challenge.uploads.max_bytes as usize + 64 * 1024;
    let uploads = Router::new()
        .route("/me/upload", post(upload))
        .route("/me/source", post(source_submit))
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
        .route("/download/arena", get(super::download::arena))
        .route("/static/{file}", get(static_file))
        .route("/replays/{file}", get(replay_asset))
        .route("/replays/games/{file}", get(replay_data))
        .route("/replays/tests/{test}/{file}", get(test_replay_asset))
        .route("/replays/tests/{test}/games/{file}", get(test_replay_data))
        .route_layer(RequestBodyLimitLayer::new(SMALL_BODY))
        .merge(uploads)
        .with_state(app)
}

/// An error page.
struct PageError(StatusCode, String);

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let body = html::render(&html::ErrorPage { message: &self.1 });
        let page = html::render(&html::Layout {
            challenge: "Arena",
            title: "Sorry",
            viewer: None,
            registration: false,
            body: &body,
            scripts: &[],
            projector: false,
        });
        (self.0, Html(page)).into_response()
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
    Html(html::render(&html::Layout {
        challenge: &app.challenge.name,
        title,
        viewer: who.map(|c| c.name.as_str()),
        registration: app.challenge.invite_code.is_some(),
        body,
        scripts,
        projector: false,
    }))
}

/// A line saying whether submissions are open, until when, and how the final stands.
async fn status_line(app: &App) -> anyhow::Result<String> {
    let closed = app.submissions_closed().await?;
    let final_state = app.db.state(FINAL).await?;
    Ok(html::render(&html::Status {
        closed,
        deadline: app.challenge.deadline_ms.map(time),
        final_running: final_state.as_deref() == Some("running"),
        final_done: final_state.as_deref() == Some("done"),
    }))
}

/// The leaderboard table; `live.js` redraws its body from the event stream.
pub fn leaderboard_table(board: &Leaderboard) -> String {
    html::render(&html::Board::of(board))
}

/// A list of games with links to their replays (`label`: see [`html::Games`]).
fn games_list(games: &[GameRow], id: &str, label: Option<String>) -> String {
    let games = games
        .iter()
        .map(|g| {
            let result: Option<GameResult> = g
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok());
            let names: Vec<String> = g
                .seats
                .iter()
                .map(|seat| super::ladder::seat_label(&seat.name, seat.number))
                .collect();
            let winner = result
                .as_ref()
                .and_then(|r| r.outcome.winner())
                .and_then(|w| names.get(w).cloned());
            html::GameLine {
                id: g.id,
                names,
                winner,
            }
        })
        .collect();
    html::render(&html::Games { id, label, games })
}

fn final_table(json: &str) -> String {
    let Ok(standings) = serde_json::from_str::<Vec<Standing>>(json) else {
        return String::new();
    };
    html::render(&html::FinalTable {
        standings: standings
            .into_iter()
            .map(|e| html::FinalLine {
                rank: e.rank,
                name: e.name,
                games: e.games,
                wins: e.wins,
                rating: num(e.rating, 1),
                interval: num(e.interval, 1),
            })
            .collect(),
    })
}

async fn leaderboard_page(
    State(app): AppState,
    headers: HeaderMap,
) -> Result<Html<String>, PageError> {
    let who = viewer(&app, &headers).await?;
    // The same for every viewer: rendered once per change.
    let body = app
        .pages
        .get("/", || async {
            let mut body = status_line(&app).await?;
            if let Some(json) = app.db.state(FINAL_STANDINGS).await? {
                body.push_str(&final_table(&json));
                body.push_str("<h2>Ladder</h2>");
            }
            body.push_str(&leaderboard_table(&app.board.current()));
            body.push_str(r#"<h2>Latest games</h2>"#);
            body.push_str(&games_list(
                &app.db.recent_games(None, 20).await?,
                "recent",
                None,
            ));
            Ok(body)
        })
        .await?;
    Ok(render(
        &app,
        "Leaderboard",
        who.as_ref(),
        &body,
        &["live.js"],
    ))
}

async fn projector(State(app): AppState) -> Result<Response, PageError> {
    let html = app
        .pages
        .get("/projector", || async {
            let body = format!(
                r#"{}{}<p class="muted">This page updates by itself.</p>"#,
                status_line(&app).await?,
                leaderboard_table(&app.board.current()),
            );
            Ok(html::render(&html::Layout {
                challenge: &app.challenge.name,
                title: &app.challenge.name,
                viewer: None,
                registration: false,
                body: &body,
                scripts: &["live.js"],
                projector: true,
            }))
        })
        .await?;
    Ok(Html(html.to_string()).into_response())
}

async fn agent_page(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    let anonymous =
        !headers.contains_key(header::COOKIE) && !headers.contains_key(header::AUTHORIZATION);
    let plays = app.board.active().iter().any(|v| v.contestant_id == id);
    if anonymous && plays {
        // The page of an agent that plays, for visitors: rendered once per change.
        let html = app
            .pages
            .get(&format!("/agents/{id}"), || async {
                agent_html(&app, None, id).await.map_err(|e| match e {
                    PageError(_, why) => anyhow::anyhow!("{why}"),
                })
            })
            .await?;
        return Ok(Html(html.to_string()).into_response());
    }
    let who = viewer(&app, &headers).await?;
    Ok(Html(agent_html(&app, who.as_ref(), id).await?).into_response())
}

async fn agent_html(app: &App, who: Option<&Contestant>, id: i64) -> Result<String, PageError> {
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
    let standing = match (&active, board.agents.iter().find(|e| e.contestant == id)) {
        (Some(v), Some(e)) => Some(html::AgentStanding {
            sha: &v.sha256[..16.min(v.sha256.len())],
            rank: e.rank,
            of: board.agents.len(),
            games: e.games,
            wins: e.wins,
            measure: board.measure,
            rating: num(e.rating, 1),
            interval: num(e.interval, 1),
        }),
        _ => None,
    };
    let games = match &active {
        Some(v) => Some(games_list(
            &app.db.recent_games(Some(v.id), 50).await?,
            "games",
            Some(super::ladder::seat_label(&c.name, v.number)),
        )),
        None => None,
    };
    let body = html::render(&html::Agent {
        id,
        version: active.as_ref().map_or(0, |v| v.number),
        standing,
        games,
    });
    Ok(render(app, &c.name, who, &body, &["live.js"]).0)
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
    // Forms come from this site's pages: the CSRF token bound to the cookie, and the origin.
    let ok = auth::same_origin(headers)
        && cookie_value(headers, cookie)
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
    let body = html::render(&html::Login {
        csrf: &csrf,
        registration: app.challenge.invite_code.is_some(),
    });
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
    let body = html::render(&html::Register { csrf: &csrf });
    Ok(with_cookie(
        render(&app, "Register", None, &body, &[]),
        cookie,
    ))
}

async fn register(
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
    let field = |k: &str| form.get(k).map(String::as_str).unwrap_or("");
    let (name, token) = match api::registration(&app, field("name"), field("invite_code")).await {
        Ok(r) => r,
        Err(api::Registered::Refused(why)) => return Err(PageError(StatusCode::FORBIDDEN, why)),
        Err(api::Registered::Throttled(s)) => {
            return Err(PageError(
                StatusCode::TOO_MANY_REQUESTS,
                format!("Too many wrong invite codes: try again in {s} s."),
            ))
        }
    };
    let body = html::render(&html::Registered {
        name: &name.text,
        token: &token,
    });
    Ok((
        [api::NO_STORE],
        render(&app, "Registered", None, &body, &[]),
    )
        .into_response())
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
    let status = status_line(&app).await?;
    let error = q.get("error").map(|e| match e.as_str() {
        "closed" => "Submissions are closed: the upload was not taken.",
        "rate" => "Too many uploads in the last hour: wait a little and upload again.",
        "large" => "The file is larger than this challenge allows.",
        "unreadable" => "The upload could not be read: try again.",
        "empty" => "Choose a file to upload.",
        "unbuildable" => "This server cannot build that file.",
        _ => "The upload failed.",
    });
    let versions = app.db.versions_of(who.id).await?;
    let (games, faults) = match versions.iter().find(|v| v.active) {
        Some(active) => {
            let games = app.db.recent_games(Some(active.id), 50).await?;
            (
                Some(games_list(&games, "own-games", None)),
                own_faults(&games, who.id),
            )
        }
        None => (None, Vec::new()),
    };
    let body = html::render(&html::Me {
        status: &status,
        error,
        csrf: &csrf,
        max_kib: app.challenge.uploads.max_bytes / 1024,
        disabled: who.disabled,
        versions: versions
            .iter()
            .map(|v| {
                let status = api::version_status(v);
                html::VersionLine {
                    number: v.number,
                    active: v.active,
                    status,
                    verdict: match status {
                        "checking" => "Being checked",
                        "accepted" => "Accepted",
                        _ => "Refused",
                    },
                    reason: v.reason.clone(),
                    size: v.size,
                    when: time(v.uploaded_ms),
                    sha: v.sha256[..16.min(v.sha256.len())].to_owned(),
                    report: v.report.clone(),
                }
            })
            .collect(),
        games,
        faults,
        python: app.builds.unavailable(Lang::Python).is_none(),
        javascript: app.builds.unavailable(Lang::JavaScript).is_none(),
        download: app.executable.as_ref().map(|exe| html::Download {
            version: exe.version.clone(),
            platform: exe.platform.clone(),
            sha256: exe.sha256.clone(),
            mib: exe.mib(),
        }),
        timing: &html::TIMING,
        editor: editor(&app, &who, &versions).await?,
    });
    let scripts: &[&str] = if app.builds.unavailable(Lang::Python).is_none()
        || app.builds.unavailable(Lang::JavaScript).is_none()
    {
        &["editor.js", "tester.js"]
    } else {
        &[]
    };
    let page = render(
        &app,
        &format!("{} — your agent", who.name),
        Some(&who),
        &body,
        scripts,
    );
    Ok(([api::NO_STORE], page).into_response())
}

/// The editor of `/me`, when this server builds a language: the contestant's latest sources (of
/// the entry file), else the game's template in the first language it builds.
async fn editor(
    app: &App,
    who: &Contestant,
    versions: &[super::db::Version],
) -> anyhow::Result<Option<html::Editor>> {
    let langs: Vec<Lang> = [Lang::Python, Lang::JavaScript]
        .into_iter()
        .filter(|l| app.builds.unavailable(*l).is_none())
        .collect();
    let template = |lang: Lang| {
        let game = app.challenge.game;
        game.templates()
            .iter()
            .find(|t| t.lang == lang.key())
            .and_then(|t| t.files.first())
            .map(|(_, text)| {
                text.replace("{{name}}", &who.name).replace(
                    "{{world}}",
                    game.info().agent.component.map_or("", |w| w.short_name()),
                )
            })
            .unwrap_or_default()
    };
    let Some(&first) = langs.first() else {
        return Ok(None);
    };
    let mut lang = first;
    let mut source = template(first);
    if let Some(v) = versions.iter().find(|v| v.source) {
        if let Some(sha) = app.db.version_source(v.id, who.id).await? {
            let storage = app.storage.clone();
            let stored = tokio::task::spawn_blocking(move || storage.agent(&sha))
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))??;
            let s = super::sources::Sources::from_bytes(&stored)?;
            if langs.contains(&s.lang) {
                if let Some(f) = s.files.iter().find(|f| f.path == s.entry) {
                    lang = s.lang;
                    source = f.text.clone();
                }
            }
        }
    }
    Ok(Some(html::Editor {
        opponents: super::test_runs::choices(app)
            .into_iter()
            .map(|(value, label)| html::Choice { value, label })
            .collect(),
        test_pairs: app.challenge.uploads.test_pairs,
        tests_per_hour: app.challenge.uploads.tests_per_hour,
        lang: lang.key(),
        source,
        python: langs
            .contains(&Lang::Python)
            .then(|| template(Lang::Python)),
        javascript: langs
            .contains(&Lang::JavaScript)
            .then(|| template(Lang::JavaScript)),
    }))
}

/// `POST /me/source` (the editor's Submit): the editor's text as a one-file agent (`agent.py`,
/// `agent.js`), built and checked as an upload of sources.
async fn source_submit(
    State(app): AppState,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Result<Response, PageError> {
    if !auth::same_origin(&headers) {
        return Err(api::foreign_origin().into());
    }
    let Some(who) = viewer(&app, &headers).await? else {
        return Ok(Redirect::to("/login").into_response());
    };
    if let Err(r) = uploads::admit(&app, &who).await {
        return refused_upload(r);
    }
    let declared = api::content_length(&headers);
    let room = match uploads::reserve(&app, declared.unwrap_or(FORM_OVERHEAD)).await {
        Ok(room) => room,
        Err(r) => return refused_upload(r),
    };
    let Form(form) = Form::<HashMap<String, String>>::from_request(request, &())
        .await
        .map_err(|e| PageError(StatusCode::BAD_REQUEST, format!("unreadable form: {e}")))?;
    check_csrf(
        &app,
        &headers,
        auth::SESSION_COOKIE,
        form.get("csrf").map(String::as_str),
    )?;
    let unbuildable = |why: String| PageError(StatusCode::UNPROCESSABLE_ENTITY, why);
    let file = match form.get("lang").map(String::as_str) {
        Some("python") => "agent.py",
        Some("javascript") => "agent.js",
        _ => return Err(unbuildable("choose Python or JavaScript".into())),
    };
    let text = form.get("source").map_or("", String::as_str);
    if text.trim().is_empty() {
        return Ok(Redirect::to("/me?error=empty").into_response());
    }
    let sources = super::sources::Sources::single(file, text).map_err(unbuildable)?;
    if let Some(why) = app.builds.unavailable(sources.lang) {
        return Err(unbuildable(why));
    }
    match uploads::take_sources(&app, &who, &sources, room).await {
        Ok(checked) => Ok(Redirect::to(&format!("/me#v{}", checked.version)).into_response()),
        Err(r) => refused_upload(r),
    }
}

/// Back to `/me` with the reason an upload was not taken.
fn refused_upload(r: Refusal) -> Result<Response, PageError> {
    let error = match r {
        Refusal::Closed(_) => "closed",
        Refusal::RateLimited { .. } | Refusal::TestsLimited { .. } => "rate",
        Refusal::TooLarge { .. } => "large",
        Refusal::Unreadable(_) => "unreadable",
        Refusal::Unbuildable(why) => return Err(PageError(StatusCode::UNPROCESSABLE_ENTITY, why)),
        Refusal::Internal(e) => return Err(e.into()),
    };
    Ok(Redirect::to(&format!("/me?error={error}")).into_response())
}

/// The faults of the contestant's own agent in `games` (the replays show its debug log).
fn own_faults(games: &[GameRow], me: i64) -> Vec<html::FaultLine> {
    let mut faults = Vec::new();
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
                faults.push(html::FaultLine {
                    game: g.id,
                    kind: f.kind.clone(),
                    decision: f.decision.clone(),
                    detail: f.detail.clone(),
                });
            }
        }
    }
    faults
}

/// `POST /me/upload`: the session and the form's origin are checked, and the upload admitted,
/// before the body is read; the CSRF field comes before the file in the form and is checked
/// before the file is read.
async fn upload(
    State(app): AppState,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Result<Response, PageError> {
    if !auth::same_origin(&headers) {
        return Err(api::foreign_origin().into());
    }
    let Some(who) = viewer(&app, &headers).await? else {
        return Ok(Redirect::to("/login").into_response());
    };
    let refused = refused_upload;
    if let Err(r) = uploads::admit(&app, &who).await {
        return refused(r);
    }
    let limit = app.challenge.uploads.max_bytes;
    let declared = api::content_length(&headers);
    if declared.is_some_and(|n| n > limit + FORM_OVERHEAD) {
        return refused(Refusal::TooLarge { limit });
    }
    let room = match uploads::reserve(&app, declared.unwrap_or(limit + FORM_OVERHEAD)).await {
        Ok(room) => room,
        Err(r) => return refused(r),
    };
    let mut form = Multipart::from_request(request, &())
        .await
        .map_err(|e| PageError(StatusCode::BAD_REQUEST, format!("unreadable form: {e}")))?;
    let mut csrf = None;
    let mut bytes = None;
    let mut file_name = None;
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
                file_name = field.file_name().map(str::to_owned);
                bytes = Some(field.bytes().await.map_err(|e| {
                    PageError(StatusCode::BAD_REQUEST, format!("unreadable upload: {e}"))
                })?)
            }
            _ => {}
        }
    }
    check_csrf(&app, &headers, auth::SESSION_COOKIE, csrf.as_deref())?;
    let bytes = match bytes {
        Some(b) if !b.is_empty() => b,
        _ => return Ok(Redirect::to("/me?error=empty").into_response()),
    };
    if bytes.len() as u64 > limit {
        return refused(Refusal::TooLarge { limit });
    }
    // A Python or JavaScript file is sources for the server to build.
    let name = file_name.unwrap_or_default();
    let taken = if Lang::of_file(&name).is_some() {
        let unbuildable = |why: String| PageError(StatusCode::UNPROCESSABLE_ENTITY, why);
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| unbuildable(format!("{name}: not UTF-8 text")))?;
        let file = name.rsplit(['/', '\\']).next().unwrap_or(&name);
        let sources = crate::serve::sources::Sources::single(file, &text).map_err(unbuildable)?;
        if let Some(why) = app.builds.unavailable(sources.lang) {
            return Err(unbuildable(why));
        }
        uploads::take_sources(&app, &who, &sources, room).await
    } else {
        uploads::take(&app, &who, uploads::Received::new(bytes, room)).await
    };
    match taken {
        Ok(checked) => Ok(Redirect::to(&format!("/me#v{}", checked.version)).into_response()),
        Err(r) => refused(r),
    }
}

/// What a multipart form adds to the file it carries (the CSRF field, boundaries, headers).
const FORM_OVERHEAD: u64 = 64 * 1024;

// ----- static files and replays -----

fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn static_file(Path(file): Path<String>) -> Response {
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

/// The viewers' files of a test run's replays (`/replays/tests/ID/game.html?game=N`): the same
/// files as every replay's, so that the viewer's relative links find the run's games.
async fn test_replay_asset(Path((_, file)): Path<(String, String)>) -> Response {
    replay_asset(Path(file)).await
}

/// `tests/ID/games/game-000001.js` (the replay data) or `.jsonl` (the record) of game 1 of test
/// run ID, for the contestant who ran it only (404 for anyone else, as for a run forgotten).
async fn test_replay_data(
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
        return Ok((
            [
                (header::CONTENT_TYPE, "application/x-ndjson"),
                (header::CACHE_CONTROL, "private, no-store"),
            ],
            text,
        )
            .into_response());
    }
    let url = format!("/replays/tests/{test}/games/game-{n:06}.jsonl");
    let script = tokio::task::spawn_blocking(move || engine::replay_script(&text, n, &url))
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
