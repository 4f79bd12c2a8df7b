//! What the code war's rule tests share: agents' code as bytes, cells, settings, the effect a
//! visit recorded.
// Each test file uses its own part.
#![allow(dead_code)]

use codewar_rules::visit::Outcome;
use codewar_rules::{Cell, Effect, Settings, Visit};

/// The tests' agents are their code's bytes, read by the tests' own executors.
pub type Code = Vec<u8>;

/// A cell holding `code`, owned by `owner`.
pub fn cell(code: &str, owner: usize) -> Option<Cell<Code>> {
    Some(Cell::new(code.as_bytes().to_vec(), owner))
}

/// The default settings but for the Array's size and the maximal agent size.
pub fn sized(array_size: u32, max_size: u32) -> Settings {
    Settings {
        array_size,
        max_size,
        ..Settings::default()
    }
}

/// The effect of a visit whose agent ran; panics on any other visit, or none.
pub fn effect(visit: Option<Visit<Code>>) -> Effect {
    match visit.expect("a visit").outcome {
        Outcome::Ran { effect, .. } => effect,
        other => panic!("the agent did not run: {other:?}"),
    }
}
