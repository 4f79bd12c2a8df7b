//! Code war agents (docs/CODEWAR.md, docs/ABI.md "Code war").
//!
//! A code war agent is a small module that lives in a cell of the Array and is run once per
//! iteration, each time in a fresh instance: it keeps nothing between runs but its own bytes.
//! This module gives it the host's functions ([`size`], [`cell_len`], [`read_cell`], [`facade`],
//! [`owner`], [`random`], [`set_self`], [`stage`], [`set_facade`]...), the instructions it returns
//! ([`Instruction`]), and a way to keep a few bytes of state inside its own module: the custom
//! section `codewar.state` ([`codewar_state!`] declares it, [`load_state`] reads it from the
//! agent's bytes, [`store_state`] writes the module back with the section changed).
//!
//! ```no_run
//! // lib.rs of the agent's crate, which starts with `#![no_std]`
//! use arena_agent_sdk::codewar::{self, Instruction};
//! arena_agent_sdk::codewar_state!([1, 0]);
//!
//! fn run() -> Instruction {
//!     let mut state = [0u8; 2];
//!     codewar::load_state(&mut state);
//!     let step = u16::from_le_bytes(state);
//!     codewar::store_state(&(step + 1).to_le_bytes());
//!     Instruction::Claim(step as i16)
//! }
//! arena_agent_sdk::export_codewar_agent!(run);
//! ```
//!
//! Modules are counted in bytes (the game's maximal size), so build agents with the workspace's
//! `wasm-agent` profile (LTO, `panic = "abort"`, stripped) and keep them `no_std`.
//!
//! On other targets than wasm32 the host functions act on a [`native`] stand-in, so that agents
//! can be tested natively.

pub use arena_abi::codewar::{ENTRY, IMPORT_MODULE, STATE_SECTION};

/// An instruction, with offsets relative to the agent's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instruction {
    /// Do nothing.
    Noop,
    /// Copy cell `x` as the agent leaves it (its own new bytes for 0, the staged bytes for the
    /// staged cell) into cell `y`; fails on another player's agent.
    Copy(i16, i16),
    /// Empty a cell.
    Nuke(i16),
    /// Write the bytes staged for a cell into it (its owner stays).
    Update(i16),
    /// Make a cell the agent's owner's.
    Claim(i16),
}

impl Instruction {
    /// The value `codewar_run` returns.
    pub const fn encode(self) -> i64 {
        use arena_abi::codewar as abi;
        match self {
            Instruction::Noop => abi::NOOP,
            Instruction::Copy(x, y) => abi::copy(x, y),
            Instruction::Nuke(x) => abi::nuke(x),
            Instruction::Update(x) => abi::update(x),
            Instruction::Claim(x) => abi::claim(x),
        }
    }
}

/// Exports `codewar_run` returning what `$run()` (a function returning an [`Instruction`])
/// returns. On targets other than wasm32 it generates nothing.
#[macro_export]
macro_rules! export_codewar_agent {
    ($run:path) => {
        #[cfg(target_arch = "wasm32")]
        #[no_mangle]
        pub extern "C" fn codewar_run() -> i64 {
            $crate::codewar::Instruction::encode($run())
        }
    };
}

/// Declares the agent's state: the custom section `codewar.state` of its module, holding the
/// given bytes (an array expression) until [`store_state`] changes them. Read it with
/// [`load_state`]: a custom section is not in memory.
#[macro_export]
macro_rules! codewar_state {
    ($bytes:expr) => {
        #[cfg(target_arch = "wasm32")]
        #[link_section = "codewar.state"]
        #[used]
        static CODEWAR_STATE: [u8; { $bytes.len() }] = $bytes;
    };
}

/// Largest module the SDK reads or writes back: the game's largest maximal size.
pub const MAX_MODULE: usize = 65536;

#[cfg(target_arch = "wasm32")]
mod imports {
    #[link(wasm_import_module = "codewar")]
    extern "C" {
        pub fn size() -> i32;
        pub fn len(x: i32) -> i32;
        pub fn read(x: i32, from: i32, ptr: *mut u8, len: i32) -> i32;
        pub fn facade(x: i32) -> i32;
        pub fn owner() -> i32;
        pub fn players() -> i32;
        pub fn max_size() -> i32;
        pub fn iterations() -> i32;
        pub fn iteration() -> i32;
        pub fn random(bound: i32) -> i32;
        pub fn set_self(ptr: *const u8, len: i32);
        pub fn stage(x: i32, ptr: *const u8, len: i32);
        pub fn set_facade(seat: i32) -> i32;
    }
}

#[cfg(not(target_arch = "wasm32"))]
use native::imports;

/// Cells in the Array.
pub fn size() -> usize {
    // SAFETY: host functions with integer arguments only.
    unsafe { imports::size() as usize }
}

/// Bytes in the cell `x` cells away (0: the agent's own; negative: behind it; around the ring);
/// 0 for an empty cell.
pub fn cell_len(x: i32) -> usize {
    // SAFETY: host function with integer arguments only.
    unsafe { imports::len(x) as usize }
}

/// Copies bytes of cell `x` from byte `from` into `buf`; returns how many (fewer at the end of
/// the cell, 0 for an empty cell).
pub fn read_cell(x: i32, from: usize, buf: &mut [u8]) -> usize {
    // SAFETY: the host writes at most `buf.len()` bytes at `buf`.
    unsafe { imports::read(x, from as i32, buf.as_mut_ptr(), buf.len() as i32) as usize }
}

/// The facade of cell `x` (whom its agent claims to belong to), `None` for an empty cell.
pub fn facade(x: i32) -> Option<usize> {
    // SAFETY: host function with integer arguments only.
    let f = unsafe { imports::facade(x) };
    (f >= 0).then_some(f as usize)
}

/// The agent's true owner (its seat).
pub fn owner() -> usize {
    // SAFETY: host function without arguments.
    unsafe { imports::owner() as usize }
}

/// Players in the game.
pub fn players() -> usize {
    // SAFETY: host function without arguments.
    unsafe { imports::players() as usize }
}

/// The maximal agent size of this iteration, in bytes.
pub fn max_size() -> usize {
    // SAFETY: host function without arguments.
    unsafe { imports::max_size() as usize }
}

/// Iterations of the game.
pub fn iterations() -> u32 {
    // SAFETY: host function without arguments.
    unsafe { imports::iterations() as u32 }
}

/// This iteration, from 1.
pub fn iteration() -> u32 {
    // SAFETY: host function without arguments.
    unsafe { imports::iteration() as u32 }
}

/// A uniform random number below `bound` (at least 1), from the game's seed.
pub fn random(bound: u32) -> u32 {
    // SAFETY: host function with integer arguments only.
    unsafe { imports::random(bound.clamp(1, i32::MAX as u32) as i32) as u32 }
}

/// Replaces the agent's own bytes once it returns (empty bytes: it empties its cell). More
/// bytes than [`max_size`] make it segfault.
pub fn set_self(bytes: &[u8]) {
    // SAFETY: the host reads `bytes.len()` bytes at `bytes`.
    unsafe { imports::set_self(bytes.as_ptr(), bytes.len() as i32) }
}

/// Empties the agent's cell once it returns.
pub fn suicide() {
    set_self(&[]);
}

/// Stages bytes for cell `x`: what [`Instruction::Update`] of that cell writes, and what
/// [`Instruction::Copy`] from it copies. One cell at a time: a second call replaces the first.
pub fn stage(x: i32, bytes: &[u8]) {
    // SAFETY: the host reads `bytes.len()` bytes at `bytes`.
    unsafe { imports::stage(x, bytes.as_ptr(), bytes.len() as i32) }
}

/// Shows `seat` as the agent's facade from now on; false (and no change) for a seat that is not
/// in the game.
pub fn set_facade(seat: usize) -> bool {
    // SAFETY: host function with integer arguments only.
    unsafe { imports::set_facade(seat as i32) == 0 }
}

// The functions below never panic (no indexing, slicing or `copy_from_slice` that the compiler
// cannot prove in bounds): a panic path pulls in the formatting of its message, kilobytes of code
// in a module whose size is the game's currency.

/// Copies `src` into `out` at `*at` and moves past it; `None` if it does not fit.
fn put(out: &mut [u8], at: &mut usize, src: &[u8]) -> Option<()> {
    let end = at.checked_add(src.len())?;
    for (d, s) in out.get_mut(*at..end)?.iter_mut().zip(src) {
        *d = *s;
    }
    *at = end;
    Some(())
}

/// The agent's own bytes, read into `buf`; `None` when they do not fit.
pub fn own_bytes(buf: &mut [u8]) -> Option<&[u8]> {
    let len = cell_len(0);
    let n = read_cell(0, 0, buf.get_mut(..len)?);
    buf.get(..n)
}

/// Reads an unsigned LEB128 number at `*at`, moving past it.
fn leb(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut value = 0u32;
    let mut shift = 0;
    while shift < 35 {
        let b = *bytes.get(*at)?;
        *at += 1;
        value |= u32::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(value);
        }
        shift += 7;
    }
    None
}

/// Writes `value` as unsigned LEB128 into `out` at `*at`.
fn put_leb(out: &mut [u8], at: &mut usize, mut value: u32) -> Option<()> {
    loop {
        let b = (value & 0x7f) as u8;
        value >>= 7;
        put(out, at, &[if value == 0 { b } else { b | 0x80 }])?;
        if value == 0 {
            return Some(());
        }
    }
}

const HEADER: &[u8; 8] = b"\0asm\x01\0\0\0";

/// Where the `codewar.state` section of `module` is: the byte range of the whole section (id and
/// size included) and of its content. `None` when it has none (or is not a module).
pub fn find_state(module: &[u8]) -> Option<(core::ops::Range<usize>, core::ops::Range<usize>)> {
    if module.get(..8)? != HEADER {
        return None;
    }
    let mut at = 8;
    while at < module.len() {
        let start = at;
        let id = *module.get(at)?;
        at += 1;
        let size = leb(module, &mut at)? as usize;
        let end = at.checked_add(size).filter(|&e| e <= module.len())?;
        if id == 0 {
            let mut name_at = at;
            let name_len = leb(module, &mut name_at)? as usize;
            let name_end = name_at.checked_add(name_len).filter(|&e| e <= end)?;
            if module.get(name_at..name_end)? == STATE_SECTION.as_bytes() {
                return Some((start..end, name_end..end));
            }
        }
        at = end;
    }
    None
}

/// `module` with its `codewar.state` section's content replaced by `state` (the section added at
/// the end if it has none), written into `out`; the length written, `None` if it does not fit or
/// `module` is not a module.
pub fn with_state(module: &[u8], state: &[u8], out: &mut [u8]) -> Option<usize> {
    let (before, after) = match find_state(module) {
        Some((section, _)) => (module.get(..section.start)?, module.get(section.end..)?),
        None if module.get(..8)? == HEADER => (module, &[][..]),
        None => return None,
    };
    let name = STATE_SECTION.as_bytes();
    let mut at = 0;
    put(out, &mut at, before)?;
    put(out, &mut at, &[0])?;
    // Section size: the name's length byte, the name, the content.
    put_leb(out, &mut at, (1 + name.len() + state.len()) as u32)?;
    put_leb(out, &mut at, name.len() as u32)?;
    put(out, &mut at, name)?;
    put(out, &mut at, state)?;
    put(out, &mut at, after)?;
    Some(at)
}

/// Buffers for the agent's own bytes and the module written back: in the agent's memory, zeroed
/// (so not part of the module's bytes). An agent runs on one thread.
struct Buffers {
    own: core::cell::UnsafeCell<[u8; MAX_MODULE]>,
    out: core::cell::UnsafeCell<[u8; MAX_MODULE]>,
}

// SAFETY: a code war agent is single-threaded (wasm32 without threads); natively the buffers are
// only used through `with_buffers`, which the native stand-in calls from one test thread at a
// time (it holds a lock).
unsafe impl Sync for Buffers {}

static BUFFERS: Buffers = Buffers {
    own: core::cell::UnsafeCell::new([0; MAX_MODULE]),
    out: core::cell::UnsafeCell::new([0; MAX_MODULE]),
};

fn with_buffers<R>(f: impl FnOnce(&mut [u8; MAX_MODULE], &mut [u8; MAX_MODULE]) -> R) -> R {
    #[cfg(not(target_arch = "wasm32"))]
    let _guard = native::buffers_lock();
    // SAFETY: see `Buffers`: nothing else holds these borrows while `f` runs (no reentrancy:
    // `f` only calls host functions).
    unsafe { f(&mut *BUFFERS.own.get(), &mut *BUFFERS.out.get()) }
}

/// Copies the content of the agent's `codewar.state` section into `state` (as much as fits);
/// returns the section's length, `None` when the agent has no such section.
pub fn load_state(state: &mut [u8]) -> Option<usize> {
    with_buffers(|own, _| {
        let module = own_bytes(own)?;
        let (_, content) = find_state(module)?;
        let content = module.get(content)?;
        for (d, s) in state.iter_mut().zip(content) {
            *d = *s;
        }
        Some(content.len())
    })
}

/// Writes the agent back with `state` as its `codewar.state` section (added if it has none):
/// its bytes once it returns. False if its bytes could not be read or would not fit.
pub fn store_state(state: &[u8]) -> bool {
    with_buffers(|own, out| {
        let written = own_bytes(own)
            .and_then(|module| with_state(module, state, out))
            .and_then(|n| out.get(..n));
        match written {
            Some(bytes) => {
                set_self(bytes);
                true
            }
            None => false,
        }
    })
}

/// A stand-in for the host on other targets than wasm32: a thread's own Array and visit, set
/// with [`native::visit`], so that agents can be tested natively.
#[cfg(not(target_arch = "wasm32"))]
pub mod native {
    extern crate std;
    use std::cell::RefCell;
    use std::vec::Vec;

    /// One cell: bytes and facade.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Cell {
        pub bytes: Vec<u8>,
        pub facade: usize,
    }

    /// The Array around a visited agent, and what the agent did.
    #[derive(Clone, Debug, Default)]
    pub struct Visit {
        pub cells: Vec<Option<Cell>>,
        pub position: usize,
        pub owner: usize,
        pub players: usize,
        pub max_size: usize,
        pub iterations: u32,
        pub iteration: u32,
        /// What `random` answers, in turn (then 0).
        pub randoms: Vec<u32>,
        pub own: Option<Vec<u8>>,
        pub staged: Option<(i32, Vec<u8>)>,
        pub facade: Option<usize>,
    }

    std::thread_local! {
        static VISIT: RefCell<Visit> = RefCell::new(Visit::default());
    }
    static BUFFERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

    pub(super) fn buffers_lock() -> std::sync::MutexGuard<'static, ()> {
        BUFFERS.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `agent` with `visit` as what the host functions see; returns its instruction and the
    /// visit with what it changed.
    pub fn visit(
        visit: Visit,
        agent: impl FnOnce() -> super::Instruction,
    ) -> (super::Instruction, Visit) {
        VISIT.with(|v| *v.borrow_mut() = visit);
        let i = agent();
        (i, VISIT.with(|v| v.borrow().clone()))
    }

    fn with<R>(f: impl FnOnce(&mut Visit) -> R) -> R {
        VISIT.with(|v| f(&mut v.borrow_mut()))
    }

    fn cell(v: &Visit, x: i32) -> Option<&Cell> {
        let n = v.cells.len() as i64;
        v.cells[(v.position as i64 + i64::from(x)).rem_euclid(n) as usize].as_ref()
    }

    /// The host functions, natively (same signatures as the wasm imports).
    #[allow(clippy::missing_safety_doc)]
    pub mod imports {
        use super::{cell, with};

        pub unsafe fn size() -> i32 {
            with(|v| v.cells.len() as i32)
        }
        pub unsafe fn len(x: i32) -> i32 {
            with(|v| cell(v, x).map_or(0, |c| c.bytes.len() as i32))
        }
        pub unsafe fn read(x: i32, from: i32, ptr: *mut u8, len: i32) -> i32 {
            with(|v| {
                let bytes = cell(v, x).map_or(&[][..], |c| &c.bytes[..]);
                let from = (from as usize).min(bytes.len());
                let n = (len as usize).min(bytes.len() - from);
                // SAFETY: the caller gives a buffer of `len` bytes at `ptr`.
                unsafe { core::ptr::copy_nonoverlapping(bytes[from..].as_ptr(), ptr, n) };
                n as i32
            })
        }
        pub unsafe fn facade(x: i32) -> i32 {
            with(|v| cell(v, x).map_or(-1, |c| c.facade as i32))
        }
        pub unsafe fn owner() -> i32 {
            with(|v| v.owner as i32)
        }
        pub unsafe fn players() -> i32 {
            with(|v| v.players as i32)
        }
        pub unsafe fn max_size() -> i32 {
            with(|v| v.max_size as i32)
        }
        pub unsafe fn iterations() -> i32 {
            with(|v| v.iterations as i32)
        }
        pub unsafe fn iteration() -> i32 {
            with(|v| v.iteration as i32)
        }
        pub unsafe fn random(bound: i32) -> i32 {
            with(|v| {
                let r = if v.randoms.is_empty() {
                    0
                } else {
                    v.randoms.remove(0)
                };
                (r % bound.max(1) as u32) as i32
            })
        }
        pub unsafe fn set_self(ptr: *const u8, len: i32) {
            // SAFETY: the caller gives `len` bytes at `ptr`.
            let bytes = unsafe { core::slice::from_raw_parts(ptr, len as usize) }.to_vec();
            with(|v| v.own = Some(bytes));
        }
        pub unsafe fn stage(x: i32, ptr: *const u8, len: i32) {
            // SAFETY: the caller gives `len` bytes at `ptr`.
            let bytes = unsafe { core::slice::from_raw_parts(ptr, len as usize) }.to_vec();
            with(|v| v.staged = Some((x, bytes)));
        }
        pub unsafe fn set_facade(seat: i32) -> i32 {
            with(|v| {
                if seat < 0 || seat as usize >= v.players {
                    -1
                } else {
                    v.facade = Some(seat as usize);
                    0
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// A module: header, a type section, a state section, a custom `name`-like section.
    fn module(state: &[u8]) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend([1, 4, 1, 0x60, 0, 0]); // type section: one func type () -> ()
        let mut out = vec![0u8; 256];
        let n = with_state(&m, state, &mut out).unwrap();
        out.truncate(n);
        out.extend([0, 4, 3, b'x', b'y', b'z']); // custom section "xyz", empty
        out
    }

    #[test]
    fn state_is_found_replaced_and_added() {
        let m = module(&[7, 0]);
        let (section, content) = find_state(&m).unwrap();
        assert_eq!(&m[content.clone()], &[7, 0]);
        assert_eq!(m[section.start], 0);
        let mut out = [0u8; 256];
        let n = with_state(&m, &[9, 9, 9], &mut out).unwrap();
        let changed = &out[..n];
        assert_eq!(&changed[find_state(changed).unwrap().1], &[9, 9, 9]);
        assert_eq!(changed.len(), m.len() + 1);
        assert!(
            changed.ends_with(&[0, 4, 3, b'x', b'y', b'z']),
            "what follows is kept"
        );
        // A module without the section gets one at its end.
        let bare = b"\0asm\x01\0\0\0".to_vec();
        let n = with_state(&bare, &[1], &mut out).unwrap();
        assert_eq!(&out[find_state(&out[..n]).unwrap().1], &[1]);
        assert_eq!(find_state(b"not a module"), None);
        assert_eq!(with_state(b"nope", &[1], &mut out), None);
        assert_eq!(with_state(&m, &[1; 300], &mut out), None, "does not fit");
    }

    #[test]
    fn a_long_state_gets_a_longer_size() {
        let m = module(&[0; 200]);
        assert_eq!(find_state(&m).unwrap().1.len(), 200);
    }

    #[test]
    fn state_round_trip_through_the_native_host() {
        let cells = vec![
            Some(native::Cell {
                bytes: module(&[5, 0]),
                facade: 0,
            }),
            None,
        ];
        let visit = native::Visit {
            cells,
            players: 2,
            max_size: 4096,
            ..Default::default()
        };
        let (_, after) = native::visit(visit, || {
            let mut s = [0u8; 2];
            assert_eq!(load_state(&mut s), Some(2));
            assert_eq!(s, [5, 0]);
            assert!(store_state(&[6, 0]));
            Instruction::Noop
        });
        let own = after.own.unwrap();
        assert_eq!(&own[find_state(&own).unwrap().1], &[6, 0]);
    }
}
