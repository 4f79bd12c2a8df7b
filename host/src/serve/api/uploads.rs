//! The API's uploads: an agent or its sources (`POST /api/submissions`), a test run
//! (`POST /api/tests`), and a version's sources read back by its author.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{
    content_length, foreign_origin, origin_ok, required_viewer, ApiError, AppState, NO_STORE,
};
use crate::serve::test_runs;
use crate::serve::uploads::{self, Refusal};

/// `POST /api/submissions`: the body is the agent (`.wasm` or `.wat`), whatever its declared
/// type, or, as `multipart/form-data`, a Python or JavaScript agent's sources, which the check
/// builds first. 201 with the verdict when accepted, 422 with the verdict when refused by the
/// check (or sources this server cannot build).
/// The token is checked, and the upload admitted, before a byte of the body is read (no
/// `100 Continue` for a request that would be refused).
pub(super) async fn submit(State(app): AppState, headers: HeaderMap, body: Body) -> Response {
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
    sources: crate::serve::sources::Sources,
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
pub(super) async fn test(State(app): AppState, headers: HeaderMap, body: Body) -> Response {
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
        crate::serve::sources::Sources::from_multipart_with(content_type, bytes, "opponent").await
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
pub(super) async fn version_source(
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
