//! Tests of Little Animal Farm with sandboxed agents.

mod sandbox;
