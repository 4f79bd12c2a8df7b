//! Little Animal Farm's records (docs/RECORDS.md): the JSON of its lines (`format.rs`), writing
//! them from a game (`write.rs`), reading a record back into a game (`read.rs`), the books of the
//! animals (`ledger.rs`), and verification (`verify.rs`), which replays the record through the
//! game loop (`replay.rs`) as it is read.

pub mod format;
pub mod ledger;
pub mod read;
mod replay;
mod verify;
pub mod write;

pub use read::{read_record, ParsedRecord};
pub use verify::verify;
pub use write::{record_bytes, record_to_string, write_record};

#[cfg(test)]
mod tests;
