//! `GET /download/arena`: the server's own executable, so that a contestant on the same platform
//! runs `arena check`, `play`, `match` and `submit` with exactly the server's version, without
//! Rust or a build. It is the file the server runs from (`std::env::current_exe`), read once at
//! the start: its SHA-256 is shown on the contestant's page, and the file is served as it was
//! then, even if the file on disk is replaced while the server runs (a rebuild or an upgrade).
//! Everyone on another platform uses the browser.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use super::App;

/// The executable offered for download.
pub struct Executable {
    pub bytes: Bytes,
    pub sha256: String,
    /// `arena 0.1.0`, what `arena --version` prints.
    pub version: String,
    /// The platform it runs on: `linux x86_64`.
    pub platform: String,
}

impl Executable {
    /// The running executable, or why it cannot be offered (the server then serves without it).
    pub fn current() -> anyhow::Result<Executable> {
        let path = std::env::current_exe()?;
        let bytes = std::fs::read(&path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        Ok(Executable {
            sha256: crate::records::sha256_hex(&bytes),
            bytes: Bytes::from(bytes),
            version: format!("arena {}", env!("CARGO_PKG_VERSION")),
            platform: platform(),
        })
    }

    /// The size in MiB, for the page.
    pub fn mib(&self) -> String {
        format!("{:.1}", self.bytes.len() as f64 / (1 << 20) as f64)
    }
}

/// `linux x86_64`, `macos aarch64`: the platform this executable was built for.
pub fn platform() -> String {
    format!("{} {}", std::env::consts::OS, std::env::consts::ARCH)
}

/// `GET /download/arena`.
pub async fn arena(State(app): State<Arc<App>>) -> Response {
    match &app.executable {
        Some(exe) => (
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"arena\"".to_owned(),
                ),
                (
                    header::HeaderName::from_static("x-sha256"),
                    exe.sha256.clone(),
                ),
            ],
            exe.bytes.clone(),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            "this server could not read its own executable: use the browser",
        )
            .into_response(),
    }
}
