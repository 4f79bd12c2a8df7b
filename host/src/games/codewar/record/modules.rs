//! Which modules a record has written and still refers to. A module line is written when its
//! bytes enter the Array while no cell holds them and they are not a player's module; after each
//! iteration the table forgets the modules no cell holds (the players' stay). So a reader keeps at
//! most the players' modules and one per cell, whatever the game's length (docs/CODEWAR.md,
//! "Records").

use std::collections::HashMap;

use codewar_rules::Array;

use super::super::code::Snippet;
use crate::sandbox::Digest;

#[derive(Default)]
pub struct ModuleTable {
    ids: HashMap<Digest, (u32, Snippet)>,
    pinned: Vec<Digest>,
    next: u32,
}

impl ModuleTable {
    /// The id of a module the table holds.
    pub fn id_of(&self, code: &Snippet) -> Option<u32> {
        self.ids.get(code.digest()).map(|(id, _)| *id)
    }

    /// Adds `code` if the table does not hold it; returns its new id then.
    pub fn add(&mut self, code: &Snippet) -> Option<u32> {
        if self.ids.contains_key(code.digest()) {
            return None;
        }
        let id = self.next;
        self.next += 1;
        self.ids.insert(*code.digest(), (id, code.clone()));
        Some(id)
    }

    /// Adds a player's module, which the table never forgets.
    pub fn pin(&mut self, code: &Snippet) -> Option<u32> {
        let id = self.add(code);
        self.pinned.push(*code.digest());
        id
    }

    /// Forgets the modules no cell of `array` holds, except the players'.
    pub fn prune(&mut self, array: &Array<Snippet>) {
        let mut held: std::collections::HashSet<&Digest> = array
            .cells()
            .iter()
            .flatten()
            .map(|c| c.code.digest())
            .collect();
        held.extend(self.pinned.iter());
        let held: std::collections::HashSet<Digest> = held.into_iter().copied().collect();
        self.ids.retain(|d, _| held.contains(d));
    }

    /// Modules held.
    pub fn held(&self) -> usize {
        self.ids.len()
    }
}
