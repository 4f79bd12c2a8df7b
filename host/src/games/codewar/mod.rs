//! The code war (docs/CODEWAR.md): Perlwar with WebAssembly agents living in the cells of the
//! Array. The rules are `codewar-rules`; this folder is the arena's side of the game:
//!
//! * [`imports`]: the host functions an agent imports (module `codewar`) and the visit's state
//!   they read and change;
//! * [`executor`]: the rules' executor over the sandbox's snippets (compiled once per content,
//!   a fresh instance per visit);
//! * [`play()`]: one game from the players' modules, a seed and [`CodewarSettings`], to a record
//!   and a [`crate::game::Summary`];
//! * [`record`]: the record's lines (modules by content hash, one line per iteration) and
//!   streamed verification, which runs every visit again;
//! * [`narrate()`]: the text of `arena play` (the Array after each iteration);
//! * [`replay_json`] and [`viewer`]: the report's replay data and page;
//! * [`templates`]: what `arena new` writes for a code war agent (Rust and WAT).
//!
//! What the plug-in interface's methods call: `settings` → [`CodewarSettings::from_toml`];
//! `play` → [`play()`]; `verify` → [`record::verify_reader`] (or [`record::verify_lines`] after
//! the shared reader has read the setup line); `narrate` → [`narrate()`]; `replay` →
//! [`replay_json`]; `viewer` → [`viewer::ASSETS`]; `templates` → [`templates::TEMPLATES`].

pub mod code;
pub mod executor;
pub mod imports;
mod narrate;
mod play;
pub mod record;
mod replay;
pub mod settings;
pub mod templates;
pub mod viewer;

#[cfg(test)]
mod tests;

pub use code::Snippet;
pub use narrate::{mark, narrate};
pub use play::{play, play_in, play_with_stats, PlayStats, Report};
pub use replay::replay_json;
pub use settings::CodewarSettings;

/// The game's name in records and league files.
pub const NAME: &str = record::lines::GAME_NAME;

/// The game's name for people.
pub const TITLE: &str = "Code war";

/// Players at one table in a league.
pub const SEATS: std::ops::RangeInclusive<usize> = 2..=6;

/// An agent's module from a file: a `.wasm` binary as it is, a `.wat` text (or any file that
/// starts as WebAssembly text) converted to binary. Files larger than `max_bytes` (the module's
/// size cap, or its text's 16 times that) are refused without being read whole.
pub fn agent_bytes(path: &std::path::Path, max_bytes: usize) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context;
    use std::io::Read;
    let cap = (max_bytes as u64).saturating_mul(16).max(1 << 16);
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > cap {
        anyhow::bail!("{}: larger than {cap} bytes", path.display());
    }
    if bytes.starts_with(b"\0asm") {
        return Ok(bytes);
    }
    let text = std::str::from_utf8(&bytes).ok();
    let looks_like_text = text.is_some_and(|t| {
        let t = t.trim_start();
        t.starts_with('(') || t.starts_with(";;")
    });
    if path.extension().is_some_and(|e| e == "wat") || looks_like_text {
        return wat::parse_bytes(&bytes)
            .map(|b| b.into_owned())
            .map_err(|e| anyhow::anyhow!("{}: invalid WebAssembly text: {e}", path.display()));
    }
    anyhow::bail!(
        "{}: not a WebAssembly module (a .wasm file starts with \\0asm; or give a .wat text)",
        path.display()
    )
}
