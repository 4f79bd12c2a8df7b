//! The client side of `POST /api/submissions`, for `arena submit`: sends an agent (a module, or a
//! Python or JavaScript agent's sources for the server to build) with the contestant's token and
//! reads the verdict.
//!
//! ureq: a small, maintained, blocking HTTP client (no async runtime needed in the command), with
//! rustls over the ring crypto the arena already builds, so submitting to a server behind an
//! HTTPS reverse proxy works without the system's OpenSSL.

use std::time::Duration;

use serde_json::Value;
use ureq::unversioned::multipart::{Form, Part};

/// What the server answered.
#[derive(Debug)]
pub enum Answer {
    /// The check accepted the agent: version number and the check's report.
    Accepted { version: i64, report: String },
    /// The check refused it (with the report), or the server refused to take it (closed, rate
    /// limited, too large: no report).
    Refused {
        reason: String,
        report: Option<String>,
    },
    /// The token was not accepted.
    Unauthorized(String),
}

/// What is uploaded.
#[derive(Debug)]
pub enum Upload<'a> {
    /// A module (`.wasm`) or its text (`.wat`): the request's body.
    Module(&'a [u8]),
    /// A Python or JavaScript agent's sources, for the server to build: a
    /// `multipart/form-data` body (docs/SERVER.md): a `lang` field (`python`, `javascript`), an
    /// `entry` field (the path of the file that defines the agent), and one `file` part per
    /// source file, its file name the file's path (relative, `/` between folders).
    Sources(&'a crate::project::sources::Sources),
}

/// The server's base URL: `server` as given when it names a scheme (`https://…`), else
/// `http://server` (`arena submit --server 127.0.0.1:8080`).
pub fn base_url(server: &str) -> String {
    let server = server.trim().trim_end_matches('/');
    if server.contains("://") {
        server.to_owned()
    } else {
        format!("http://{server}")
    }
}

/// Uploads `upload` to the server at `server` (e.g. `https://arena.example.org`, or
/// `host:port` for plain HTTP) with `token`. An error is a connection failure or an answer that
/// is not the API's.
pub fn submit(server: &str, token: &str, upload: Upload<'_>) -> anyhow::Result<Answer> {
    let url = format!("{}/api/submissions", base_url(server));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        // The check waits its turn behind other uploads and plays smoke games: seconds, rarely
        // minutes.
        .timeout_global(Some(Duration::from_secs(600)))
        .http_status_as_error(false)
        .build()
        .into();
    let request = agent
        .post(&url)
        .header("Authorization", &format!("Bearer {token}"));
    let sent = match upload {
        Upload::Module(bytes) => request
            .header("Content-Type", "application/wasm")
            .send(bytes),
        Upload::Sources(sources) => {
            let mut form = Form::new()
                .text("lang", sources.lang.name())
                .text("entry", &sources.entry);
            for (path, bytes) in &sources.files {
                let part = Part::bytes(bytes)
                    .file_name(path)
                    .mime_str(match sources.lang {
                        crate::project::Lang::Python => "text/x-python",
                        _ => "text/javascript",
                    })
                    .map_err(|e| anyhow::anyhow!("cannot make the upload: {e}"))?;
                form = form.part("file", part);
            }
            request.send(form)
        }
    };
    let mut response = sent.map_err(|e| anyhow::anyhow!("cannot reach {url}: {e}"))?;
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(16 << 20)
        .read_to_string()
        .map_err(|e| anyhow::anyhow!("cannot read the answer of {url}: {e}"))?;
    let json: Value = serde_json::from_str(&text).map_err(|_| {
        anyhow::anyhow!(
            "{url} answered HTTP {status} with something that is not the arena's API: {}",
            text.chars().take(200).collect::<String>()
        )
    })?;
    let field = |k: &str| json.get(k).and_then(Value::as_str).map(str::to_owned);
    Ok(match status {
        201 => Answer::Accepted {
            version: json.get("version").and_then(Value::as_i64).unwrap_or(0),
            report: field("report").unwrap_or_default(),
        },
        422 => Answer::Refused {
            reason: field("reason").unwrap_or_else(|| "refused".into()),
            report: field("report"),
        },
        401 => Answer::Unauthorized(field("error").unwrap_or_default()),
        // 415: sources in a language the server has no toolchain for (docs/SERVER.md).
        403 | 413 | 415 | 429 => Answer::Refused {
            reason: field("error").unwrap_or_else(|| format!("HTTP {status}")),
            report: None,
        },
        _ => anyhow::bail!(
            "{url} answered HTTP {status}: {}",
            field("error").unwrap_or_default()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_without_a_scheme_is_plain_http() {
        assert_eq!(base_url("127.0.0.1:8080"), "http://127.0.0.1:8080");
        assert_eq!(base_url("arena.example.org/"), "http://arena.example.org");
        assert_eq!(
            base_url("https://arena.example.org/"),
            "https://arena.example.org"
        );
        assert_eq!(base_url("http://[::1]:9000"), "http://[::1]:9000");
    }
}
