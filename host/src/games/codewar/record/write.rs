//! Writing a game as it is played.

use codewar_rules::{Array, Iteration};
use serde_json::Value;

use super::super::code::Snippet;
use super::lines;
use super::modules::ModuleTable;

/// Turns a game into record lines as it is played (the verifier uses it too, to build the lines
/// its replay should find).
#[derive(Default)]
pub struct Recorder {
    modules: ModuleTable,
}

impl Recorder {
    /// The module lines of the players' modules (each distinct module once, in seat order).
    pub fn start(&mut self, players: &[Snippet]) -> Vec<Value> {
        players
            .iter()
            .filter_map(|p| self.modules.pin(p).map(|id| lines::module(id, p)))
            .collect()
    }

    /// The module lines of the modules that entered the Array during `it` while no cell held
    /// them, and the iteration line; then forgets the modules no cell holds.
    pub fn iteration(
        &mut self,
        it: &Iteration<Snippet>,
        array: &Array<Snippet>,
    ) -> (Vec<Value>, Value) {
        let mut new = Vec::new();
        for v in &it.visits {
            if let codewar_rules::visit::Outcome::Ran { entered, .. } = &v.outcome {
                for code in entered {
                    if let Some(id) = self.modules.add(code) {
                        new.push(lines::module(id, code));
                    }
                }
            }
        }
        let line = lines::iteration(it, array, &self.modules);
        self.modules.prune(array);
        (new, line)
    }

    pub fn modules(&self) -> &ModuleTable {
        &self.modules
    }
}
