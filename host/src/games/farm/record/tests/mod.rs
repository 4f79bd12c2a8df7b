//! Tests of Little Animal Farm records: random games through the real game loop, written, read
//! back, verified, and mutated to check that verification notices.

mod garbage;
mod hostile;
pub mod ledger;
mod mutations;
mod positions;
mod properties;
mod strategy;

/// `text` with every line read into [`format::Line`](super::format::Line) and serialized
/// again: the bytes the writer produced when it built those owned line types first. The writer now
/// serializes borrowed twins of them; it must still produce exactly these bytes, which the digest
/// and every published record depend on.
fn through_format_types(text: &str) -> String {
    text.lines()
        .map(|l| {
            let line: super::format::Line = serde_json::from_str(l).unwrap();
            serde_json::to_string(&line).unwrap() + "\n"
        })
        .collect()
}
