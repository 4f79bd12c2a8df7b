//! The API's accounts: the viewer's own versions (`GET /api/me`) and self-registration with the
//! invite code, its failed guesses throttled.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{required_viewer, ApiError, AppState, NO_STORE};
use crate::serve::admin;
use crate::serve::auth;
use crate::serve::App;

/// `GET /api/me`: the viewer's own versions with their verdicts.
pub(super) async fn me(State(app): AppState, headers: HeaderMap) -> Result<Response, ApiError> {
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
pub fn version_status(v: &crate::serve::db::Version) -> &'static str {
    match (v.checking, v.accepted) {
        (true, _) => "checking",
        (false, true) => "accepted",
        (false, false) => "refused",
    }
}

#[derive(serde::Deserialize)]
pub(super) struct Registration {
    name: String,
    invite_code: String,
}

/// `POST /api/register {"name", "invite_code"}`: self-registration; answers the token once.
pub(super) async fn register(State(app): AppState, Json(r): Json<Registration>) -> Response {
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
