//! The JSON API (docs/SERVER.md): uploads, the leaderboard, games and their records, the events
//! stream, and what the pages need. Also the layers every response goes through: body limits,
//! time limits, compression and security headers.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use super::admin::{self, FINAL, FINAL_ERROR, FINAL_STANDINGS};
use super::auth;
use super::db::{Contestant, GameRow};
use super::engine::{self, GameResult};
use super::events::Update;
use super::test_runs;
use super::uploads::{self, Refusal};
use super::App;

type AppState = State<Arc<App>>;

/// An error answer: a status and `{"error": "..."}`.
pub struct ApiError(pub StatusCode, pub String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        eprintln!("error: {e:#}");
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, "internal error".into())
    }
}

pub fn router(app: Arc<App>) -> Router {
    // Uploads may be as large as the challenge allows; every other request body is small.
    let upload_limit = app.challenge.uploads.max_bytes as usize + 64 * 1024;
    let uploads = Router::new()
        .route("/api/submissions", post(submit))
        .route("/api/tests", post(test))
        .route_layer(DefaultBodyLimit::max(upload_limit))
        .route_layer(RequestBodyLimitLayer::new(upload_limit));
    Router::new()
        .route("/api/status", get(status))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/events", get(events))
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(record))
        .route("/api/agents/{id}", get(agent))
        .route("/api/versions/{id}/source", get(version_source))
        .route("/api/me", get(me))
        .route("/api/register", post(register))
        .route("/api/final", get(final_standings))
        .route_layer(RequestBodyLimitLayer::new(SMALL_BODY))
        .merge(uploads)
        .with_state(app)
}

/// Largest body of any request but an upload.
pub const SMALL_BODY: usize = 64 * 1024;

/// The layers around every route: time limits (long enough for an upload's check to wait its
/// turn), gzip for what is worth compressing (never the event stream: it must flow), and headers
/// that keep browsers from running anything but the server's own scripts.
pub fn layers(router: Router) -> Router {
    let csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
               img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; \
               form-action 'self'; base-uri 'none'";
    router
        .layer(CompressionLayer::new())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(300),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(csp),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
}

/// The contestant making the request: by bearer token, else by session cookie.
pub async fn viewer(app: &App, headers: &HeaderMap) -> anyhow::Result<Option<Contestant>> {
    if let Some(token) = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(auth::bearer)
    {
        return app.db.contestant_by_token(&auth::token_hash(token)).await;
    }
    let Some(session) = headers
        .get(header::COOKIE)
        .and_then(|h| h.to_str().ok())
        .and_then(|c| auth::cookie(c, auth::SESSION_COOKIE))
    else {
        return Ok(None);
    };
    app.db
        .session(
            &auth::token_hash(session),
            super::now_ms() - auth::SESSION_MS,
        )
        .await
}

async fn required_viewer(app: &App, headers: &HeaderMap) -> Result<Contestant, ApiError> {
    viewer(app, headers).await?.ok_or_else(|| {
        ApiError(
            StatusCode::UNAUTHORIZED,
            "a valid token is needed (Authorization: Bearer TOKEN)".into(),
        )
    })
}

/// Whether a request that acts as a contestant by its session cookie (not a bearer token) comes
/// from this site's own pages: its `Origin`, when it has one, names this host. Browsers send
/// `Origin` with every POST; `SameSite=Strict` cookies are the other half of the protection.
pub fn origin_ok(headers: &HeaderMap) -> bool {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(auth::bearer)
        .is_some();
    bearer || auth::same_origin(headers)
}

/// The refusal of a cookie-authenticated write from another site.
pub fn foreign_origin() -> ApiError {
    ApiError(
        StatusCode::FORBIDDEN,
        "this request comes from another site's page (its Origin is not this server)".into(),
    )
}

/// The `Content-Length` of a request, if it has one.
pub fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// `POST /api/submissions`: the body is the agent (`.wasm` or `.wat`), whatever its declared
/// type, or, as `multipart/form-data`, a Python or JavaScript agent's sources, which the check
/// builds first. 201 with the verdict when accepted, 422 with the verdict when refused by the
/// check (or sources this server cannot build).
/// The token is checked, and the upload admitted, before a byte of the body is read (no
/// `100 Continue` for a request that would be refused).
async fn submit(State(app): AppState, headers: HeaderMap, body: Body) -> Response {
    let who = match required_viewer(&app, &headers).await {
        Ok(who) => who,
        Err(e) => return e.into_response(),
    };
    if !origin_ok(&headers) {
        return foreign_origin().into_response();
    }
    let taken = async {
        uploads::admit(&app, &who).await?;
        let received = uploads::receive(&app, body, content_length(&headers)).await?;
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if content_type.starts_with("multipart/form-data") {
            let (sources, room) = uploads::sources_of(&app, content_type, received).await?;
            uploads::take_sources(&app, &who, &sources, room).await
        } else {
            uploads::take(&app, &who, received).await
        }
    };
    match taken.await {
        Ok(checked) => {
            let status = if checked.accepted {
                StatusCode::CREATED
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            (status, Json(checked)).into_response()
        }
        Err(r) => refusal(r),
    }
}

/// A test run sent as JSON: the sources as stored (`lang`, `entry`, `files`) and the opponents.
#[derive(serde::Deserialize)]
struct TestForm {
    #[serde(flatten)]
    sources: super::sources::Sources,
    #[serde(default)]
    opponents: Vec<String>,
}

/// `POST /api/tests` (the editor's Test): sources as for `POST /api/submissions`
/// (`multipart/form-data` with `opponent` fields, or JSON `{"lang", "entry", "files": [{"path",
/// "text"}], "opponents": [...]}`), built and checked in the upload checks' queue, then played
/// against each opponent (`builtin:NAME`, or a contestant on the ladder) in seat-swapped games.
/// No version is made. 200 with the report (also for a build error or a refusing check); 422 for
/// an unknown opponent (named) or sources this server cannot build; 429 with `Retry-After` past
/// `uploads.tests_per_hour`.
async fn test(State(app): AppState, headers: HeaderMap, body: Body) -> Response {
    let who = match required_viewer(&app, &headers).await {
        Ok(who) => who,
        Err(e) => return e.into_response(),
    };
    if !origin_ok(&headers) {
        return foreign_origin().into_response();
    }
    if let Err(r) = test_runs::admit(&app, &who).await {
        return refusal(r);
    }
    let received = match uploads::receive(&app, body, content_length(&headers)).await {
        Ok(r) => r,
        Err(r) => return refusal(r),
    };
    let (bytes, room) = received.into_parts();
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let form = if content_type.starts_with("multipart/form-data") {
        super::sources::Sources::from_multipart_with(content_type, bytes, "opponent").await
    } else {
        serde_json::from_slice::<TestForm>(&bytes)
            .map_err(|e| format!("unreadable test: {e}"))
            .and_then(|f| {
                f.sources.validate()?;
                Ok((f.sources, f.opponents))
            })
    };
    drop(room);
    let (sources, picked) = match form {
        Ok(f) => f,
        Err(why) => return ApiError(StatusCode::BAD_REQUEST, why).into_response(),
    };
    if let Some(why) = app.builds.unavailable(sources.lang) {
        return refusal(Refusal::Unbuildable(why));
    }
    if picked.is_empty() && app.challenge.players_per_game > 1 {
        return ApiError(
            StatusCode::UNPROCESSABLE_ENTITY,
            "choose at least one opponent (builtin:NAME, or a contestant on the ladder)".into(),
        )
        .into_response();
    }
    let opponents = match test_runs::resolve(&app, &picked).await {
        Ok(o) => o,
        Err(why) => return ApiError(StatusCode::UNPROCESSABLE_ENTITY, why).into_response(),
    };
    match test_runs::take(&app, &who, sources, opponents).await {
        Ok(report) => ([NO_STORE], Json(report)).into_response(),
        Err(r) => refusal(r),
    }
}

/// The answer to an upload that was not checked (429 with `Retry-After`).
pub fn refusal(r: Refusal) -> Response {
    let status = match &r {
        Refusal::Closed(_) => StatusCode::FORBIDDEN,
        Refusal::RateLimited { retry_after_s, .. }
        | Refusal::TestsLimited { retry_after_s, .. } => {
            let retry = *retry_after_s;
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, retry.to_string())],
                Json(json!({ "error": r.to_string() })),
            )
                .into_response();
        }
        Refusal::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        Refusal::Unreadable(_) => StatusCode::BAD_REQUEST,
        Refusal::Unbuildable(why) => {
            return (
                StatusCode::UNPROCESSABLE_ENTITY,
                Json(json!({ "accepted": false, "reason": why, "error": why })),
            )
                .into_response()
        }
        Refusal::Internal(e) => {
            eprintln!("error: an upload failed: {e:#}");
            return ApiError(StatusCode::INTERNAL_SERVER_ERROR, "internal error".into())
                .into_response();
        }
    };
    ApiError(status, r.to_string()).into_response()
}

/// `GET /api/versions/ID/source`: the sources of a version uploaded as sources, as stored
/// (`{"lang", "entry", "files": [{"path", "text"}]}`), for its author only: 401 without a
/// token or session, 404 for anyone else's version (as for one that does not exist).
async fn version_source(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let who = required_viewer(&app, &headers).await?;
    let Some(sha) = app.db.version_source(id, who.id).await? else {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("you have no version {id} uploaded as sources"),
        ));
    };
    let storage = app.storage.clone();
    let bytes = tokio::task::spawn_blocking(move || storage.agent(&sha))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))??;
    Ok((
        [(header::CONTENT_TYPE, "application/json"), NO_STORE],
        bytes,
    )
        .into_response())
}

/// `Cache-Control: no-store`, for answers that hold a token or what only their viewer may see.
pub const NO_STORE: (header::HeaderName, &str) = (header::CACHE_CONTROL, "no-store");

async fn status(State(app): AppState) -> Result<Json<serde_json::Value>, ApiError> {
    let c = &app.challenge;
    let closed = app.submissions_closed().await?;
    Ok(Json(json!({
        "challenge": c.name,
        "game": c.game.name(),
        "players_per_game": c.players_per_game,
        "measure": engine::measure(c.players_per_game),
        "deadline": c.deadline_text,
        "deadline_ms": c.deadline_ms,
        "submissions": if closed.is_some() { "closed" } else { "open" },
        "closed_because": closed,
        "registration": c.invite_code.is_some(),
        "final": app.db.state(FINAL).await?,
        "games_done": app.db.games_done().await?,
        "games_pending": app.db.pending_games().await?,
    })))
}

async fn leaderboard(State(app): AppState) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        app.board.json().to_string(),
    )
        .into_response()
}

async fn events(State(app): AppState) -> impl IntoResponse {
    app.events.stream(Update {
        name: "leaderboard",
        data: app.board.json(),
    })
}

/// A game for the API: who played, how it ended, where its record is.
pub fn game_json(g: &GameRow) -> serde_json::Value {
    let result: Option<GameResult> = g
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    json!({
        "id": g.id,
        "stage": g.stage,
        "status": g.status,
        "seats": g.seats.iter().map(|s| json!({
            "name": s.name, "contestant": s.contestant_id, "version": s.number,
        })).collect::<Vec<_>>(),
        "outcome": result.as_ref().map(|r| r.outcome),
        "rounds": result.as_ref().map(|r| r.rounds),
        "turns": result.as_ref().map(|r| r.turns),
        "scores": result.as_ref().and_then(|r| r.scores.clone()),
        "forfeits": result.as_ref().map(|r| r.forfeits.clone()),
        "faults": result.as_ref().map(|r| r.faults.clone()),
        "record": (g.status == "done").then(|| format!("/api/games/{}/record", g.id)),
        "replay": (g.status == "done").then(|| format!("/replays/game.html?game={}", g.id)),
    })
}

async fn game(
    State(app): AppState,
    Path(id): Path<i64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let g = app
        .db
        .game(id)
        .await?
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no game {id}")))?;
    Ok(Json(game_json(&g)))
}

/// The record of a finished game as the viewer may see it: the debug logs of the viewer's own
/// agents only (none for a visitor), the digest made again over what is left.
pub async fn viewer_record(app: &App, headers: &HeaderMap, id: i64) -> Result<String, ApiError> {
    let g = app
        .db
        .game(id)
        .await?
        .filter(|g| g.status == "done")
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no finished game {id}")))?;
    let me = viewer(app, headers).await?.map(|c| c.id);
    let own: Vec<bool> = g
        .seats
        .iter()
        .map(|s| Some(s.contestant_id) == me)
        .collect();
    let name = g.record.clone().unwrap_or_default();
    let stored = app.record_bytes(id, &name).await?;
    let text = tokio::task::spawn_blocking(move || -> anyhow::Result<String> {
        let text = engine::record_text(&stored)?;
        engine::redact_logs(&text, &|seat| own.get(seat).copied().unwrap_or(false))
    })
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))??;
    Ok(text)
}

async fn record(
    State(app): AppState,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, ApiError> {
    let text = viewer_record(&app, &headers, id).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"game-{id:06}.jsonl\""),
            ),
            (header::CACHE_CONTROL, "private, no-store".to_string()),
        ],
        text,
    )
        .into_response())
}

async fn agent(
    State(app): AppState,
    Path(id): Path<i64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let c = app
        .db
        .contestant(id)
        .await?
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no contestant {id}")))?;
    let active = app
        .board
        .active()
        .into_iter()
        .find(|v| v.contestant_id == id);
    let board = app.board.current();
    let standing = board.agents.iter().find(|e| e.contestant == id);
    let games = match &active {
        Some(v) => app.db.recent_games(Some(v.id), 50).await?,
        None => Vec::new(),
    };
    Ok(Json(json!({
        "id": c.id,
        "name": c.name,
        "version": active.as_ref().map(|v| v.number),
        "standing": standing,
        "games": games.iter().map(game_json).collect::<Vec<_>>(),
    })))
}

/// `GET /api/me`: the viewer's own versions with their verdicts.
async fn me(State(app): AppState, headers: HeaderMap) -> Result<Response, ApiError> {
    let who = required_viewer(&app, &headers).await?;
    let versions = app.db.versions_of(who.id).await?;
    let json = Json(json!({
        "id": who.id,
        "name": who.name,
        "disabled": who.disabled,
        "versions": versions.iter().map(|v| json!({
            "id": v.id,
            "version": v.number,
            "source_url": v.source.then(|| format!("/api/versions/{}/source", v.id)),
            "status": version_status(v),
            "accepted": v.accepted,
            "active": v.active,
            "reason": v.reason,
            "report": v.report,
            "sha256": v.sha256,
            "size": v.size,
            "uploaded_ms": v.uploaded_ms,
        })).collect::<Vec<_>>(),
    }));
    Ok(([NO_STORE], json).into_response())
}

/// `checking`, `accepted` or `refused`.
pub fn version_status(v: &super::db::Version) -> &'static str {
    match (v.checking, v.accepted) {
        (true, _) => "checking",
        (false, true) => "accepted",
        (false, false) => "refused",
    }
}

#[derive(serde::Deserialize)]
struct Registration {
    name: String,
    invite_code: String,
}

/// `POST /api/register {"name", "invite_code"}`: self-registration; answers the token once.
async fn register(State(app): AppState, Json(r): Json<Registration>) -> Response {
    match registration(&app, &r.name, &r.invite_code).await {
        Ok((name, token)) => (
            StatusCode::CREATED,
            [NO_STORE],
            Json(json!({ "name": name.text, "token": token })),
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

/// Self-registration with the invite code, failed guesses throttled (429 with `Retry-After`
/// past [`auth::INVITE_GUESSES_PER_MINUTE`] a minute).
pub async fn registration(
    app: &App,
    name: &str,
    code: &str,
) -> Result<(auth::Name, String), Registered> {
    let Some(expected) = app.challenge.invite_code.as_deref() else {
        return Err(Registered::Refused(
            "self-registration is closed: ask the host for a token".into(),
        ));
    };
    app.invite_guesses.check().map_err(Registered::Throttled)?;
    if !admin::same_code(expected, code) {
        app.invite_guesses.failed();
        return Err(Registered::Refused("wrong invite code".into()));
    }
    admin::add_contestant(&app.db, name)
        .await
        .map_err(|e| Registered::Refused(format!("{e:#}")))
}

/// Why a registration failed.
pub enum Registered {
    Refused(String),
    /// Too many wrong codes: seconds to wait.
    Throttled(u64),
}

impl IntoResponse for Registered {
    fn into_response(self) -> Response {
        match self {
            Registered::Refused(why) => ApiError(StatusCode::FORBIDDEN, why).into_response(),
            Registered::Throttled(s) => (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, s.to_string())],
                Json(json!({ "error": format!(
                    "too many wrong invite codes: try again in {s} s"
                ) })),
            )
                .into_response(),
        }
    }
}

async fn final_standings(State(app): AppState) -> Result<Response, ApiError> {
    match app.db.state(FINAL_STANDINGS).await? {
        Some(json) => Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response()),
        None => {
            let why = match app.db.state(FINAL_ERROR).await? {
                Some(e) => format!("the final could not be played: {e}"),
                None => "the final has not been played yet".into(),
            };
            Err(ApiError(StatusCode::NOT_FOUND, why))
        }
    }
}
