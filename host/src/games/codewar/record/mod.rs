//! Code war records: the file conventions of every arena record (docs/RECORDS.md: JSON Lines,
//! a `setup` line first, an `end` line with the digest last), with the code war's own lines in
//! between: `module` lines (a module's bytes, by content hash, written when they first enter the
//! Array) and one `iteration` line per iteration (docs/CODEWAR.md, "Records").

pub mod lines;
pub mod modules;
mod verify;
mod write;

pub use verify::{verify_lines, verify_reader, verify_record, Verified};
pub use write::Recorder;
