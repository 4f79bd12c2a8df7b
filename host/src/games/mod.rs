//! Games as self-contained modules (their host code, record lines, narration, viewer and
//! templates in one folder each).

pub mod codewar;
