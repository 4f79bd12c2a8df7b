//! Test helpers that both the host's unit tests (inside `host/src`) and the integration tests
//! (`tests/`) use: a crate of their own, so that neither reaches into the other's folder.

pub mod folders;
