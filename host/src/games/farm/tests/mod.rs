//! Tests of Little Animal Farm with sandboxed agents, and what the tests play with.

mod sandbox;
pub mod support;
