//! One visit: what the executor is shown, what it gives back, and how the rules apply it.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::array::{Array, Cell, Code, Seat};
use crate::instruction::Instruction;
use crate::random::Stream;

/// What an agent sees during its visit (Perlwar's `$_`, `@_`, `$o`, `@o`, `$O`, `$S`, `$I`, `$i`).
#[derive(Clone, Debug)]
pub struct View<C> {
    /// The Array as it is when the visit begins.
    pub cells: Arc<Vec<Option<Cell<C>>>>,
    /// The visited cell, from 0.
    pub position: usize,
    /// The agent's true owner (`$O`).
    pub owner: Seat,
    /// Players in the game (seats `0..players`).
    pub players: usize,
    /// The maximal agent size of this iteration, in bytes (`$S`).
    pub max_size: u32,
    /// Iterations of the game (`$I`).
    pub iterations: u32,
    /// This iteration, from 1 (`$i`).
    pub iteration: u32,
    /// What the agent's `random` draws.
    pub random: Stream,
}

impl<C: Code> View<C> {
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The absolute index of the cell `offset` cells from the agent, around the ring.
    pub fn absolute(&self, offset: i64) -> usize {
        let n = self.cells.len() as i64;
        (self.position as i64 + offset).rem_euclid(n) as usize
    }

    /// The cell `offset` cells from the agent (`$_[offset]`, `$o[offset]`).
    pub fn cell(&self, offset: i64) -> Option<&Cell<C>> {
        self.cells[self.absolute(offset)].as_ref()
    }

    /// The agent's own cell (never empty during its visit).
    pub fn own(&self) -> &Cell<C> {
        self.cells[self.position]
            .as_ref()
            .expect("a visited cell holds an agent")
    }
}

/// Why an agent segfaulted; its cell is emptied and nothing it did counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegfaultKind {
    /// The module is larger than the maximal size of the iteration.
    TooBig,
    /// Not a valid WebAssembly module (or beyond the arena's shape limits).
    Invalid,
    /// No export `codewar_run` of type `() -> i64`.
    NoEntry,
    /// It imports something the arena does not provide.
    BadImport,
    /// It trapped (unreachable, division by zero, an access outside memory...).
    Trap,
    /// It ran out of the fuel of a visit.
    Fuel,
    /// It exhausted the WebAssembly stack.
    Stack,
    /// Its memory or table is larger than the cap.
    Memory,
    /// It ran past the wall-clock backstop (depends on the machine: not reproducible).
    Timeout,
    /// It handed the host more bytes than the maximal size (its own or staged bytes).
    WriteTooBig,
}

impl SegfaultKind {
    pub const ALL: [SegfaultKind; 10] = [
        SegfaultKind::TooBig,
        SegfaultKind::Invalid,
        SegfaultKind::NoEntry,
        SegfaultKind::BadImport,
        SegfaultKind::Trap,
        SegfaultKind::Fuel,
        SegfaultKind::Stack,
        SegfaultKind::Memory,
        SegfaultKind::Timeout,
        SegfaultKind::WriteTooBig,
    ];

    /// The name in records.
    pub const fn name(self) -> &'static str {
        match self {
            SegfaultKind::TooBig => "too_big",
            SegfaultKind::Invalid => "invalid",
            SegfaultKind::NoEntry => "no_entry",
            SegfaultKind::BadImport => "bad_import",
            SegfaultKind::Trap => "trap",
            SegfaultKind::Fuel => "fuel",
            SegfaultKind::Stack => "stack",
            SegfaultKind::Memory => "memory",
            SegfaultKind::Timeout => "timeout",
            SegfaultKind::WriteTooBig => "write_too_big",
        }
    }

    pub fn from_name(name: &str) -> Option<SegfaultKind> {
        SegfaultKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A segfault: its kind and, for a trap, what the trap was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segfault {
    pub kind: SegfaultKind,
    /// Empty, or one line saying more (a trap's message).
    pub detail: String,
}

impl Segfault {
    pub fn new(kind: SegfaultKind) -> Segfault {
        Segfault {
            kind,
            detail: String::new(),
        }
    }

    pub fn with_detail(kind: SegfaultKind, detail: impl Into<String>) -> Segfault {
        Segfault {
            kind,
            detail: detail.into(),
        }
    }
}

/// What an agent changed besides its instruction. Applied only when it did not segfault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effects<C> {
    /// Its new bytes (Perlwar's changed `$_`); empty bytes empty its cell (suicide).
    pub own: Option<C>,
    /// Bytes staged for one cell (Perlwar's changed `$_[x]`), by absolute index: what an
    /// `update` of that cell writes, and what a `copy` from it copies. The cell may be the
    /// agent's own: then `update 0` writes these bytes over [`Effects::own`], and `copy 0→y`
    /// copies these rather than `own` (Perlwar's `$_[0]` and `$_` are two variables too).
    pub staged: Option<(usize, C)>,
    /// Its new facade (Perlwar's changed `$o`).
    pub facade: Option<Seat>,
}

impl<C> Default for Effects<C> {
    fn default() -> Effects<C> {
        Effects {
            own: None,
            staged: None,
            facade: None,
        }
    }
}

/// What running an agent gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Run<C> {
    Segfault(Segfault),
    /// It returned `returned` (an instruction or anything else) after changing `effects`.
    Returned {
        returned: i64,
        effects: Effects<C>,
    },
}

/// Runs agents: the WebAssembly sandbox in the arena, native code in tests.
pub trait Executor<C> {
    /// Runs the agent of cell `view.position` once, from nothing but its bytes.
    fn run(&mut self, view: &View<C>) -> Run<C>;
}

impl<C, F: FnMut(&View<C>) -> Run<C>> Executor<C> for F {
    fn run(&mut self, view: &View<C>) -> Run<C> {
        self(view)
    }
}

/// How an instruction went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// It did what it says.
    Done,
    /// Nothing happened: the target (or, for a copy, the source) is empty.
    Empty,
    /// A copy onto a cell owned by another player: it fails.
    Occupied,
    /// An update of a cell the agent staged no bytes for: the cell keeps its bytes.
    Unstaged,
    /// A no-op.
    Nothing,
}

impl Effect {
    pub const fn name(self) -> &'static str {
        match self {
            Effect::Done => "done",
            Effect::Empty => "empty",
            Effect::Occupied => "occupied",
            Effect::Unstaged => "unstaged",
            Effect::Nothing => "nothing",
        }
    }
}

/// One visit as it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visit<C> {
    /// The visited cell.
    pub cell: usize,
    /// Its owner at the visit.
    pub owner: Seat,
    pub outcome: Outcome<C>,
}

/// What came of a visit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<C> {
    /// The cell was emptied.
    Segfault(Segfault),
    Ran {
        instruction: Instruction,
        effect: Effect,
        /// Codes that entered the Array during the visit (its new bytes, bytes an update wrote,
        /// a copy), in that order.
        entered: Vec<C>,
    },
}

/// Visits `cell` of `array` if it holds an agent that may run: the size check, the run, then its
/// changes and its instruction. `view` makes the visit's [`View`] from the Array's cells.
pub fn visit<C: Code>(
    array: &mut Array<C>,
    cell: usize,
    max_size: u32,
    view: impl FnOnce(Arc<Vec<Option<Cell<C>>>>, Seat) -> View<C>,
    executor: &mut impl Executor<C>,
) -> Option<Visit<C>> {
    let agent = array.get(cell)?;
    if !agent.may_run {
        return None;
    }
    let owner = agent.owner;
    let facade = agent.facade;
    let segfault = |array: &mut Array<C>, s: Segfault| {
        *array.slot_mut(cell) = None;
        Some(Visit {
            cell,
            owner,
            outcome: Outcome::Segfault(s),
        })
    };
    if agent.len() > max_size as usize {
        return segfault(array, Segfault::new(SegfaultKind::TooBig));
    }
    let v = view(array.shared(), owner);
    let run = executor.run(&v);
    drop(v);
    let (returned, effects) = match run {
        Run::Segfault(s) => return segfault(array, s),
        Run::Returned { returned, effects } => (returned, effects),
    };
    let too_big = |c: &C| c.as_ref().len() > max_size as usize;
    if effects.own.as_ref().is_some_and(too_big)
        || effects.staged.as_ref().is_some_and(|(_, c)| too_big(c))
    {
        return segfault(array, Segfault::new(SegfaultKind::WriteTooBig));
    }
    let mut entered = Vec::new();
    let facade = effects.facade.unwrap_or(facade);
    // Its own bytes and facade first (Perlwar writes `$_` and `$o` back), then the instruction.
    if let Some(own) = effects.own {
        let slot = array.slot_mut(cell);
        if own.as_ref().is_empty() {
            *slot = None;
        } else if let Some(c) = slot {
            c.code = own.clone();
            entered.push(own);
        }
    }
    if let Some(c) = array.slot_mut(cell) {
        c.facade = facade;
    }
    let instruction = Instruction::decode(returned, array.size() as u32);
    let effect = apply(
        array,
        cell,
        owner,
        facade,
        instruction,
        effects.staged,
        &mut entered,
    );
    Some(Visit {
        cell,
        owner,
        outcome: Outcome::Ran {
            instruction,
            effect,
            entered,
        },
    })
}

/// Carries out `instruction` for the agent of `cell` (owned by `owner`, showing `facade`).
fn apply<C: Code>(
    array: &mut Array<C>,
    cell: usize,
    owner: Seat,
    facade: Seat,
    instruction: Instruction,
    staged: Option<(usize, C)>,
    entered: &mut Vec<C>,
) -> Effect {
    let at = |array: &Array<C>, x: i16| array.wrap(cell, x.into());
    // `$_[x]` as the agent left it: its staged bytes if it staged bytes for that cell, the
    // cell's bytes otherwise (its own cell has its new bytes already).
    let view_of = |array: &Array<C>, target: usize| -> Option<C> {
        match &staged {
            Some((t, code)) if *t == target => Some(code.clone()),
            _ => array.get(target).map(|c| c.code.clone()),
        }
        .filter(|c| !c.as_ref().is_empty())
    };
    match instruction {
        Instruction::Noop => Effect::Nothing,
        Instruction::Copy { x, y } => {
            let (source, dest) = (at(array, x), at(array, y));
            let Some(code) = view_of(array, source) else {
                return Effect::Empty;
            };
            if array.get(dest).is_some_and(|c| c.owner != owner) {
                return Effect::Occupied;
            }
            *array.slot_mut(dest) = Some(Cell {
                code: code.clone(),
                owner,
                facade,
                may_run: false,
            });
            entered.push(code);
            Effect::Done
        }
        Instruction::Nuke { x } => {
            let target = at(array, x);
            if array.get(target).is_none() {
                return Effect::Empty;
            }
            *array.slot_mut(target) = None;
            Effect::Done
        }
        Instruction::Update { x } => {
            let target = at(array, x);
            if array.get(target).is_none() {
                return Effect::Empty;
            }
            let Some((_, code)) = staged.filter(|(t, _)| *t == target) else {
                return Effect::Unstaged;
            };
            let slot = array.slot_mut(target);
            if code.as_ref().is_empty() {
                *slot = None;
            } else if let Some(c) = slot {
                c.code = code.clone();
                entered.push(code);
            }
            Effect::Done
        }
        Instruction::Claim { x } => {
            let target = at(array, x);
            match array.slot_mut(target) {
                Some(c) => {
                    c.owner = owner;
                    Effect::Done
                }
                None => Effect::Empty,
            }
        }
    }
}
