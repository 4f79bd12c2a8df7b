//! Logging in and out and self-registration: the forms, their CSRF tokens bound to the
//! browser's cookie (see `serve::auth`), and the session cookie.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;

use super::super::{api, auth, html, App};
use super::{render, AppState, PageError};
use crate::jobs::now_ms;

pub(super) fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
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
            let pre = crate::jobs::new_token()?;
            let cookie = set_cookie(headers, auth::PRE_SESSION_COOKIE, &pre, 24 * 3600);
            Ok((auth::csrf_token(&app.secret, &pre), Some(cookie)))
        }
    }
}

/// [`check_csrf`] of a posted form's `csrf` field.
pub(super) fn check_form_csrf(
    app: &App,
    headers: &HeaderMap,
    cookie: &str,
    form: &HashMap<String, String>,
) -> Result<(), PageError> {
    check_csrf(app, headers, cookie, form.get("csrf").map(String::as_str))
}

pub(super) fn check_csrf(
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

pub(super) async fn login_form(
    State(app): AppState,
    headers: HeaderMap,
) -> Result<Response, PageError> {
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

pub(super) async fn login(
    State(app): AppState,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, PageError> {
    check_form_csrf(&app, &headers, auth::PRE_SESSION_COOKIE, &form)?;
    let token = form.get("token").map(|t| t.trim()).unwrap_or("");
    let Some(c) = app.db.contestant_by_token(&auth::token_hash(token)).await? else {
        return Err(PageError(
            StatusCode::UNAUTHORIZED,
            "No contestant has this token.".into(),
        ));
    };
    let session = crate::jobs::new_token()?;
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

pub(super) async fn logout(
    State(app): AppState,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, PageError> {
    check_form_csrf(&app, &headers, auth::SESSION_COOKIE, &form)?;
    if let Some(s) = cookie_value(&headers, auth::SESSION_COOKIE) {
        app.db.delete_session(&auth::token_hash(s)).await?;
    }
    let cookie = set_cookie(&headers, auth::SESSION_COOKIE, "", 0);
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response())
}

pub(super) async fn register_form(
    State(app): AppState,
    headers: HeaderMap,
) -> Result<Response, PageError> {
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

pub(super) async fn register(
    State(app): AppState,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Response, PageError> {
    check_form_csrf(&app, &headers, auth::PRE_SESSION_COOKIE, &form)?;
    let field = |k: &str| form.get(k).map(String::as_str).unwrap_or("");
    let (name, token) =
        match api::account::registration(&app, field("name"), field("invite_code")).await {
            Ok(r) => r,
            Err(api::account::Registered::Refused(why)) => {
                return Err(PageError(StatusCode::FORBIDDEN, why))
            }
            Err(api::account::Registered::Throttled(s)) => {
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
