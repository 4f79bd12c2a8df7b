//! The JSON API (docs/SERVER.md): uploads, the leaderboard, games and their records, the events
//! stream, and what the pages need. Also the layers every response goes through: body limits,
//! time limits, compression and security headers.
//!
//! The handlers are in `uploads.rs`, `games.rs` and `account.rs`; the status, leaderboard, events
//! and final standings, here.

pub mod account;
pub mod games;
mod uploads;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use super::admin::{FINAL, FINAL_ERROR, FINAL_STANDINGS};
use super::auth;
use super::db::Contestant;
use super::engine;
use super::events::Update;
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
        .route("/api/submissions", post(uploads::submit))
        .route("/api/tests", post(uploads::test))
        .route_layer(DefaultBodyLimit::max(upload_limit))
        .route_layer(RequestBodyLimitLayer::new(upload_limit));
    Router::new()
        .route("/api/status", get(status))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/events", get(events))
        .route("/api/games/{id}", get(games::game))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/agents/{id}", get(games::agent))
        .route("/api/versions/{id}/source", get(uploads::version_source))
        .route("/api/me", get(account::me))
        .route("/api/register", post(account::register))
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
            crate::jobs::now_ms() - auth::SESSION_MS,
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
