//! The host functions a code war agent may import (module `codewar`, docs/ABI.md "Code war"):
//! what it sees of the Array (Perlwar's `$_`, `@_`, `$o`, `@o`, `$O`, `$S`, `$I`, `$i`) and what
//! it may change (its own bytes, bytes staged for another cell, its facade). Reads see the Array
//! as it was when the visit began; changes are kept in the store's [`VisitState`] and applied by
//! the rules once the agent has returned (a segfault drops them).
//!
//! Every function charges fuel like every host function of the arena: a call, plus a unit per
//! byte it moves (docs/SECURITY.md, "Fuel of host calls").

use codewar_rules::{Cell, Stream, View};
use wasmtime::{Caller, Extern, Linker, Memory, Trap};

use super::code::Snippet;
use crate::sandbox::{charge_snippet as charge, SnippetData};

/// The import module's name, and the export every agent has: `codewar_run() -> i64`, its
/// instruction.
pub use arena_abi::codewar::{ENTRY, IMPORT_MODULE as MODULE};

/// The names of the imports, in the order of docs/ABI.md.
pub const IMPORTS: [&str; 13] = [
    "size",
    "len",
    "read",
    "facade",
    "owner",
    "players",
    "max_size",
    "iterations",
    "iteration",
    "random",
    "set_self",
    "stage",
    "set_facade",
];

/// One visit's state in the agent's store.
pub struct VisitState {
    pub view: View<Snippet>,
    /// What `random` draws from.
    pub random: Stream,
    /// Set by `set_self`: the agent's new bytes (empty: it empties its cell).
    pub own: Option<Vec<u8>>,
    /// Set by `stage`: bytes for the cell at this absolute index.
    pub staged: Option<(usize, Vec<u8>)>,
    /// Set by `set_facade`.
    pub facade: Option<usize>,
}

impl VisitState {
    pub fn new(view: View<Snippet>) -> VisitState {
        VisitState {
            random: view.random.clone(),
            view,
            own: None,
            staged: None,
            facade: None,
        }
    }
}

/// The error `set_self` and `stage` fail the call with when given more bytes than the maximal
/// size: the agent segfaults (`write_too_big`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteTooBig {
    pub bytes: u64,
    pub max_size: u32,
}

impl std::fmt::Display for WriteTooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} bytes handed to the host, more than the maximal size of {} bytes",
            self.bytes, self.max_size
        )
    }
}

impl std::error::Error for WriteTooBig {}

type C<'a> = Caller<'a, SnippetData<VisitState>>;

fn view<'a>(caller: &'a C<'_>) -> &'a View<Snippet> {
    &caller.data().state.view
}

fn memory(caller: &mut C<'_>) -> Result<Memory, Trap> {
    caller
        .get_export("memory")
        .and_then(Extern::into_memory)
        .ok_or(Trap::MemoryOutOfBounds)
}

/// The guest bytes `[ptr, ptr + len)`, copied; an access outside memory traps.
fn guest_bytes(caller: &mut C<'_>, ptr: i32, len: u32) -> wasmtime::Result<Vec<u8>> {
    let memory = memory(caller)?;
    let start = ptr as u32 as usize;
    let end = start
        .checked_add(len as usize)
        .ok_or(Trap::MemoryOutOfBounds)?;
    memory
        .data(&*caller)
        .get(start..end)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| Trap::MemoryOutOfBounds.into())
}

/// The bytes an agent hands over with `set_self` or `stage`: charged, at most the maximal size.
fn handed_over(caller: &mut C<'_>, ptr: i32, len: i32) -> wasmtime::Result<Vec<u8>> {
    charge(caller, 0)?;
    let len = len as u32;
    let max_size = view(caller).max_size;
    if len > max_size {
        return Err(wasmtime::Error::new(WriteTooBig {
            bytes: len.into(),
            max_size,
        }));
    }
    charge(caller, len.into())?;
    guest_bytes(caller, ptr, len)
}

/// Adds the imports of module [`MODULE`] to `linker`.
pub fn add_imports(linker: &mut Linker<SnippetData<VisitState>>) -> anyhow::Result<()> {
    add_array_reads(linker)?;
    add_game_facts(linker)?;
    add_actions(linker)
}

/// Adds the import `name`, a call without arguments that gives `fact` of the visit.
fn add_fact(
    linker: &mut Linker<SnippetData<VisitState>>,
    name: &str,
    fact: fn(&View<Snippet>) -> i32,
) -> anyhow::Result<()> {
    linker.func_wrap(MODULE, name, move |mut c: C<'_>| -> wasmtime::Result<i32> {
        charge(&mut c, 0)?;
        Ok(fact(view(&c)))
    })?;
    Ok(())
}

/// Adds the import `name`, a call that gives `fact` of the cell at offset `x` (`None`: empty).
fn add_cell_fact(
    linker: &mut Linker<SnippetData<VisitState>>,
    name: &str,
    fact: fn(Option<&Cell<Snippet>>) -> i32,
) -> anyhow::Result<()> {
    linker.func_wrap(
        MODULE,
        name,
        move |mut c: C<'_>, x: i32| -> wasmtime::Result<i32> {
            charge(&mut c, 0)?;
            Ok(fact(view(&c).cell(x.into())))
        },
    )?;
    Ok(())
}

/// `size`, `len`, `read`, `facade`: what an agent reads of the Array.
fn add_array_reads(linker: &mut Linker<SnippetData<VisitState>>) -> anyhow::Result<()> {
    add_fact(linker, "size", |v| v.size() as i32)?;
    add_cell_fact(linker, "len", |cell| {
        cell.map_or(0, |cell| cell.len() as i32)
    })?;
    linker.func_wrap(
        MODULE,
        "read",
        |mut c: C<'_>, x: i32, from: i32, ptr: i32, len: i32| -> wasmtime::Result<i32> {
            charge(&mut c, 0)?;
            let code = view(&c).cell(x.into()).map(|cell| cell.code.clone());
            let bytes = code.as_ref().map_or(&[][..], |s| s.bytes());
            let from = (from as u32 as usize).min(bytes.len());
            let n = (len as u32 as usize).min(bytes.len() - from);
            charge(&mut c, n as u64)?;
            let memory = memory(&mut c)?;
            let start = ptr as u32 as usize;
            let dest = start
                .checked_add(n)
                .and_then(|end| memory.data_mut(&mut c).get_mut(start..end))
                .ok_or(Trap::MemoryOutOfBounds)?;
            dest.copy_from_slice(&bytes[from..from + n]);
            Ok(n as i32)
        },
    )?;
    add_cell_fact(linker, "facade", |cell| {
        cell.map_or(-1, |cell| cell.facade as i32)
    })
}

/// `owner`, `players`, `max_size`, `iterations`, `iteration`, `random`: the game around the visit.
fn add_game_facts(linker: &mut Linker<SnippetData<VisitState>>) -> anyhow::Result<()> {
    add_fact(linker, "owner", |v| v.owner as i32)?;
    add_fact(linker, "players", |v| v.players as i32)?;
    add_fact(linker, "max_size", |v| v.max_size as i32)?;
    add_fact(linker, "iterations", |v| v.iterations as i32)?;
    add_fact(linker, "iteration", |v| v.iteration as i32)?;
    linker.func_wrap(
        MODULE,
        "random",
        |mut c: C<'_>, bound: i32| -> wasmtime::Result<i32> {
            charge(&mut c, 0)?;
            Ok(c.data_mut().state.random.draw(bound))
        },
    )?;
    Ok(())
}

/// `set_self`, `stage`, `set_facade`: what a visit does.
fn add_actions(linker: &mut Linker<SnippetData<VisitState>>) -> anyhow::Result<()> {
    linker.func_wrap(
        MODULE,
        "set_self",
        |mut c: C<'_>, ptr: i32, len: i32| -> wasmtime::Result<()> {
            let bytes = handed_over(&mut c, ptr, len)?;
            c.data_mut().state.own = Some(bytes);
            Ok(())
        },
    )?;
    linker.func_wrap(
        MODULE,
        "stage",
        |mut c: C<'_>, x: i32, ptr: i32, len: i32| -> wasmtime::Result<()> {
            let bytes = handed_over(&mut c, ptr, len)?;
            let target = view(&c).absolute(x.into());
            c.data_mut().state.staged = Some((target, bytes));
            Ok(())
        },
    )?;
    linker.func_wrap(
        MODULE,
        "set_facade",
        |mut c: C<'_>, seat: i32| -> wasmtime::Result<i32> {
            charge(&mut c, 0)?;
            if seat < 0 || seat as usize >= view(&c).players {
                return Ok(-1);
            }
            c.data_mut().state.facade = Some(seat as usize);
            Ok(0)
        },
    )?;
    Ok(())
}
