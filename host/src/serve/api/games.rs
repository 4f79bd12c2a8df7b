//! The API's games: a game, its record as the viewer may see it (logs of the viewer's own
//! agents only), and an agent's page data.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{viewer, ApiError, AppState};
use crate::league::result::GameResult;
use crate::referee;
use crate::serve::db::GameRow;
use crate::serve::engine;
use crate::serve::App;

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

pub(super) async fn game(
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
        let text = referee::record_text(&stored)?;
        engine::redact_logs(&text, &|seat| own.get(seat).copied().unwrap_or(false))
    })
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))??;
    Ok(text)
}

pub(super) async fn record(
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

pub(super) async fn agent(
    State(app): AppState,
    Path(id): Path<i64>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let c = app
        .db
        .contestant(id)
        .await?
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no contestant {id}")))?;
    let active = app.board.active_of(id);
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
