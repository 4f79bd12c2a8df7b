//! The contestant's own page (`/me`): the upload form and the code editor, the versions and
//! their verdicts, the games and faults of the version that plays; and the two ways in of an
//! agent, a file (`POST /me/upload`) and the editor's text (`POST /me/source`).

use std::collections::HashMap;

use axum::extract::{FromRequest, Multipart, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;

use super::super::api::{self, viewer};
use super::super::db::{Contestant, GameRow};
use super::super::html::{self, time};
use super::super::sources::{Lang, Sources};
use super::super::uploads::{self, Refusal};
use super::super::{auth, App};
use super::account::{check_csrf, check_form_csrf, cookie_value};
use super::{games_list, render, status_line, AppState, PageError};
use crate::league::result::GameResult;

pub(super) async fn me_page(
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
                let status = api::account::version_status(v);
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
    versions: &[super::super::db::Version],
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
            let s = super::super::sources::Sources::from_bytes(&stored)?;
            if langs.contains(&s.lang) {
                if let Some(f) = s.files.iter().find(|f| f.path == s.entry) {
                    lang = s.lang;
                    source = f.text.clone();
                }
            }
        }
    }
    Ok(Some(html::Editor {
        opponents: super::super::test_runs::choices(app)
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
pub(super) async fn source_submit(
    State(app): AppState,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Result<Response, PageError> {
    let who = match uploader(&app, &headers).await? {
        Ok(who) => who,
        Err(answer) => return Ok(answer),
    };
    let declared = api::content_length(&headers);
    let room = match uploads::reserve(&app, declared.unwrap_or(FORM_OVERHEAD)).await {
        Ok(room) => room,
        Err(r) => return refused_upload(r),
    };
    let Form(form) = Form::<HashMap<String, String>>::from_request(request, &())
        .await
        .map_err(|e| PageError(StatusCode::BAD_REQUEST, format!("unreadable form: {e}")))?;
    check_form_csrf(&app, &headers, auth::SESSION_COOKIE, &form)?;
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
    let sources = buildable(&app, file, text)?;
    match uploads::take_sources(&app, &who, &sources, room).await {
        Ok(checked) => Ok(Redirect::to(&format!("/me#v{}", checked.version)).into_response()),
        Err(r) => refused_upload(r),
    }
}

/// The contestant of an upload (`POST /me/upload` or `/me/source`), before its body is read:
/// the form must come from this site, the session must be one (else the answer is the login
/// page) and the contestant may upload now (else the answer is `/me` with why not).
async fn uploader(
    app: &App,
    headers: &HeaderMap,
) -> Result<Result<Contestant, Response>, PageError> {
    if !auth::same_origin(headers) {
        return Err(api::foreign_origin().into());
    }
    let Some(who) = viewer(app, headers).await? else {
        return Ok(Err(Redirect::to("/login").into_response()));
    };
    if let Err(r) = uploads::admit(app, &who).await {
        return refused_upload(r).map(Err);
    }
    Ok(Ok(who))
}

/// The one-file agent `file` holding `text`, as sources this server can build (else the
/// reason, as an unprocessable upload).
fn buildable(app: &App, file: &str, text: &str) -> Result<Sources, PageError> {
    let unbuildable = |why: String| PageError(StatusCode::UNPROCESSABLE_ENTITY, why);
    let sources = Sources::single(file, text).map_err(unbuildable)?;
    match app.builds.unavailable(sources.lang) {
        Some(why) => Err(unbuildable(why)),
        None => Ok(sources),
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
pub(super) async fn upload(
    State(app): AppState,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> Result<Response, PageError> {
    let who = match uploader(&app, &headers).await? {
        Ok(who) => who,
        Err(answer) => return Ok(answer),
    };
    let refused = refused_upload;
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
        let sources = buildable(&app, file, &text)?;
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
