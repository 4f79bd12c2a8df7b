//! The web pages: the live leaderboard, the projector page, each agent's page (here), the
//! contestant's own page ([`me`]), logging in and self-registration ([`account`]), and the static
//! files and replays, the report's own replay viewers fed by the server ([`files`]).
//!
//! Pages come from the templates of [`super::html`], which escape everything a contestant
//! controls; the public ones are rendered once per change ([`super::cache`]). `live.js` keeps
//! the leaderboard up to date from the event stream. Forms carry a CSRF token bound to the browser's
//! cookie (see [`super::auth`]).

mod account;
mod files;
mod me;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_http::limit::RequestBodyLimitLayer;

use super::admin::{FINAL, FINAL_STANDINGS};
use super::api::{self, viewer, SMALL_BODY};
use super::db::{Contestant, GameRow};
use super::engine::Standing;
use super::html::{self, num, time};
use super::ladder::Leaderboard;
use super::App;
use crate::league::result::GameResult;
use account::{login, login_form, logout, register, register_form};
use files::{replay_asset, replay_data, static_file, test_replay_asset, test_replay_data};
use me::{me_page, source_submit, upload};

type AppState = State<Arc<App>>;

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
            let final_table = app
                .db
                .state(FINAL_STANDINGS)
                .await?
                .map(|json| final_table(&json));
            Ok(html::render(&html::Front {
                status: &status_line(&app).await?,
                final_table: final_table.as_deref(),
                board: &leaderboard_table(&app.board.current()),
                games: &games_list(&app.db.recent_games(None, 20).await?, "recent", None),
            }))
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
            let body = html::render(&html::Projector {
                status: &status_line(&app).await?,
                board: &leaderboard_table(&app.board.current()),
            });
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
    let plays = app.board.active_of(id).is_some();
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
    let active = app.board.active_of(id);
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
