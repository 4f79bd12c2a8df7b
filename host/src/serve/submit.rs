//! The client side of `POST /api/submissions`, for `arena submit`: sends an agent file with the
//! contestant's token and reads the verdict.
//!
//! ureq: a small, maintained, blocking HTTP client (no async runtime needed in the command), with
//! rustls over the ring crypto the arena already builds, so submitting to a server behind an
//! HTTPS reverse proxy works without the system's OpenSSL.

use std::time::Duration;

use serde_json::Value;

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

/// Uploads `bytes` to the server at `base` (e.g. `https://arena.example.org`) with `token`.
/// An error is a connection failure or an answer that is not the API's.
pub fn submit(base: &str, token: &str, bytes: &[u8]) -> anyhow::Result<Answer> {
    let url = format!("{}/api/submissions", base.trim_end_matches('/'));
    let agent: ureq::Agent = ureq::Agent::config_builder()
        // The check waits its turn behind other uploads and plays smoke games: seconds, rarely
        // minutes.
        .timeout_global(Some(Duration::from_secs(600)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent
        .post(&url)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/wasm")
        .send(bytes)
        .map_err(|e| anyhow::anyhow!("cannot reach {url}: {e}"))?;
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
        403 | 413 | 429 => Answer::Refused {
            reason: field("error").unwrap_or_else(|| format!("HTTP {status}")),
            report: None,
        },
        _ => anyhow::bail!(
            "{url} answered HTTP {status}: {}",
            field("error").unwrap_or_default()
        ),
    })
}
