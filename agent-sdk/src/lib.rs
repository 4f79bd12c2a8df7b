//! Write Little Animal Farm, Farkle, Jungle and light cycles agents for the arena in Rust.
//!
//! Implement [`FarmAgent`] for a type and call [`export_farm_agent!`] once: on `wasm32` the macro
//! generates every export of ABI v1 (see `docs/ABI.md`), keeps the agent in a static (no
//! allocator needed) and decodes and encodes the exchange buffer. On other targets it generates
//! nothing, so the same crate builds natively (as an rlib) for tests and for the host's native
//! adapter (`arena::native::NativePlayer`).
//!
//! An agent crate is `#![no_std]` and a `cdylib`; its whole code can be as small as this:
//!
//! ```
//! use arena_agent_sdk::{export_farm_agent, FarmAgent, Offer, View};
//!
//! #[derive(Default)]
//! pub struct Passer;
//! impl FarmAgent for Passer {
//!     fn trade(&mut self, _view: &View) -> Offer { Offer::PASS }
//! }
//! export_farm_agent!(Passer);
//! ```
//!
//! A Farkle agent implements [`FarkleAgent`] (one decision: [`FarkleAgent::draft`], answered
//! with a [`FarkleAnswer`]) and calls [`export_farkle_agent!`]; the rules are re-exported as
//! [`farkle`] (scoring, `legal_drafts`, `best_draft`, `check_answer`).
//!
//! A Jungle agent implements [`JungleAgent`] (one decision: [`JungleAgent::choose_move`], given
//! a [`JungleView`] with the rules' `Position`, the legal moves and the fuel clock) and calls
//! [`export_jungle_agent!`]; the rules are re-exported as [`jungle`], and [`fuel::fuel_left`]
//! tells a searching agent how much fuel its decision has left.
//!
//! A light cycles agent implements [`LightcyclesAgent`] (one decision:
//! [`LightcyclesAgent::choose_turn`], given a [`LightcyclesView`] with the rules' `State` before
//! the tick and the fuel clock) and calls [`export_lightcycles_agent!`]; the rules are re-exported
//! as [`lightcycles`].
//!
//! A code war agent is another kind of module (no exchange buffer, one export): see
//! [`codewar`], with [`export_codewar_agent!`] and [`codewar_state!`].
#![no_std]

// Native builds (tests, the host's native adapter, a native cdylib) link std for its panic
// handler; wasm builds stay no_std and use the handler below.
#[cfg(not(target_arch = "wasm32"))]
extern crate std;

pub use arena_abi;
/// The rules of Farkle (`farkle-rules`): scoring, legal drafts, `check_answer`.
pub use farkle_rules as farkle;
pub use farm_rules as rules;
pub use farm_rules::{Animal, FailReason, Herd, Offer, Position, Trade, ANIMALS, KINDS, WORTH};
/// The rules of Jungle (`jungle-rules`): positions, move generation, make/unmake, outcome.
pub use jungle_rules as jungle;
/// The rules of light cycles (`lightcycles-rules`): the grid, the state, a tick with every
/// seat's answer.
pub use lightcycles_rules as lightcycles;

mod agent;
pub mod codewar;
mod farkle_agent;
pub mod fuel;
mod jungle_agent;
mod lightcycles_agent;
mod log;
mod rng;
pub mod tactics;
#[cfg(test)]
mod test_support;

pub use agent::{
    handle_accept, handle_init, handle_trade, read_answer, EventIter, FarmAgent, InitContext, View,
};
pub use farkle_agent::{
    handle_farkle_draft, handle_farkle_init, read_farkle_answer, FarkleAgent, FarkleAnswer,
    FarkleView,
};
pub use jungle_agent::{
    handle_jungle_init, handle_jungle_move, read_jungle_answer, JungleAgent, JungleClock,
    JungleView, Played,
};
pub use lightcycles_agent::{
    handle_lightcycles_init, handle_lightcycles_turn, read_lightcycles_answer, LightcyclesAgent,
    LightcyclesClock, LightcyclesView,
};
pub use log::{log, LogBuffer};
pub use rng::Rng;

/// Size of the exchange buffer the exported agent owns (at least `arena_abi::MIN_BUFFER_SIZE`).
pub const BUFFER_SIZE: usize = 16 * 1024;
const _: () = assert!(BUFFER_SIZE >= arena_abi::MIN_BUFFER_SIZE);

#[cfg(all(target_arch = "wasm32", feature = "panic-handler"))]
#[panic_handler]
fn panic(_info: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// Runtime pieces used by [`export_farm_agent!`]; not part of the stable API.
#[doc(hidden)]
pub mod __rt {
    use core::cell::UnsafeCell;

    /// The exchange buffer: one per wasm instance, at a fixed address for the whole game.
    #[repr(C, align(16))]
    pub struct Buffer(UnsafeCell<[u8; crate::BUFFER_SIZE]>);
    // SAFETY: a wasm agent runs single-threaded; the host never calls two exports at once.
    unsafe impl Sync for Buffer {}

    pub static BUFFER: Buffer = Buffer(UnsafeCell::new([0; crate::BUFFER_SIZE]));

    pub fn buffer_ptr() -> *mut u8 {
        BUFFER.0.get() as *mut u8
    }

    /// # Safety
    /// Single-threaded use only, and no other reference to the buffer may be alive.
    pub unsafe fn buffer() -> &'static mut [u8] {
        unsafe { &mut *BUFFER.0.get() }
    }

    /// The agent's state: created on first use of each (fresh) instance.
    pub struct Slot<T>(UnsafeCell<Option<T>>);
    // SAFETY: as for `Buffer`.
    unsafe impl<T> Sync for Slot<T> {}

    impl<T> Slot<T> {
        pub const fn new() -> Slot<T> {
            Slot(UnsafeCell::new(None))
        }

        /// # Safety
        /// Single-threaded use only, and no other reference to the slot may be alive.
        // The cell hands out the one mutable reference; callers guarantee exclusivity.
        #[allow(clippy::mut_from_ref)]
        pub unsafe fn get_or(&'static self, make: impl FnOnce() -> T) -> &'static mut T {
            unsafe { (*self.0.get()).get_or_insert_with(make) }
        }
    }

    impl<T> Default for Slot<T> {
        fn default() -> Self {
            Self::new()
        }
    }
}

/// Every export of one game's agent, on `wasm32` only (elsewhere nothing): the ones every game
/// shares (`arena_abi_version`, `arena_buffer`, `arena_buffer_size`), the agent's slot, and for
/// each `export => handler` pair an `extern "C" fn export(len: i32) -> i32` that calls
/// `$crate::handler(agent, buffer, len)`. The agent is `$make`, or `Default::default()` when
/// only its type is given. Used by the `export_*_agent!` macros; not part of the stable API.
#[doc(hidden)]
#[macro_export]
macro_rules! __export_agent {
    ([$($export:ident => $handler:ident),+] $ty:ty) => {
        $crate::__export_agent!(
            [$($export => $handler),+] $ty, <$ty as ::core::default::Default>::default()
        );
    };
    ([$($export:ident => $handler:ident),+] $ty:ty, $make:expr) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            static AGENT: $crate::__rt::Slot<$ty> = $crate::__rt::Slot::new();

            #[unsafe(no_mangle)]
            pub extern "C" fn arena_abi_version() -> i32 {
                $crate::arena_abi::ABI_VERSION as i32
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn arena_buffer() -> i32 {
                $crate::__rt::buffer_ptr() as usize as i32
            }

            #[unsafe(no_mangle)]
            pub extern "C" fn arena_buffer_size() -> i32 {
                $crate::BUFFER_SIZE as i32
            }

            $(
                #[unsafe(no_mangle)]
                pub extern "C" fn $export(len: i32) -> i32 {
                    // SAFETY: wasm instances are single-threaded and exports are not reentrant;
                    // the references live only during this call.
                    let agent = unsafe { AGENT.get_or(|| $make) };
                    $crate::$handler(agent, unsafe { $crate::__rt::buffer() }, len)
                }
            )+
        };
    };
}

/// Generates the ABI v1 exports for an agent type (on `wasm32` only; elsewhere it expands to
/// nothing). `export_farm_agent!(MyAgent)` builds the agent with `Default::default()`;
/// `export_farm_agent!(MyAgent, MyAgent::new(3))` with the given expression. The agent is
/// created at the first call of each instance (the host uses a fresh instance per game).
///
/// Exports: `arena_abi_version`, `arena_buffer`, `arena_buffer_size`, `arena_init`,
/// `farm_trade`, `farm_accept` (and `memory`, which the Rust toolchain exports by itself).
#[macro_export]
macro_rules! export_farm_agent {
    ($($agent:tt)+) => {
        $crate::__export_agent!(
            [arena_init => handle_init, farm_trade => handle_trade, farm_accept => handle_accept]
            $($agent)+
        );
    };
}

/// Generates the ABI v1 exports of a Farkle agent (on `wasm32` only; elsewhere it expands to
/// nothing), like [`export_farm_agent!`]: `export_farkle_agent!(MyAgent)` builds the agent with
/// `Default::default()`, `export_farkle_agent!(MyAgent, MyAgent::new(3))` with the expression.
///
/// Exports: `arena_abi_version`, `arena_buffer`, `arena_buffer_size`, `arena_init`,
/// `farkle_draft` (and `memory`, which the Rust toolchain exports by itself).
///
/// ```
/// use arena_agent_sdk::farkle::{best_draft, Action};
/// use arena_agent_sdk::{export_farkle_agent, FarkleAgent, FarkleAnswer, FarkleView};
///
/// #[derive(Default)]
/// pub struct Banker;
/// impl FarkleAgent for Banker {
///     fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
///         let best = best_draft(view.roll()).expect("the host never sends a farkle");
///         FarkleAnswer::from_mask(Action::Bank, best.mask)
///     }
/// }
/// export_farkle_agent!(Banker);
/// ```
#[macro_export]
macro_rules! export_farkle_agent {
    ($($agent:tt)+) => {
        $crate::__export_agent!(
            [arena_init => handle_farkle_init, farkle_draft => handle_farkle_draft]
            $($agent)+
        );
    };
}

/// Generates the ABI v1 exports of a Jungle agent (on `wasm32` only; elsewhere it expands to
/// nothing), like [`export_farm_agent!`]: `export_jungle_agent!(MyAgent)` builds the agent with
/// `Default::default()`, `export_jungle_agent!(MyAgent, MyAgent::new(3))` with the expression.
///
/// Exports: `arena_abi_version`, `arena_buffer`, `arena_buffer_size`, `arena_init`,
/// `jungle_move` (and `memory`, which the Rust toolchain exports by itself). The module imports
/// `arena.fuel_left` only if the agent calls [`fuel::fuel_left`].
///
/// ```
/// use arena_agent_sdk::jungle::Move;
/// use arena_agent_sdk::{export_jungle_agent, JungleAgent, JungleView};
///
/// #[derive(Default)]
/// pub struct FirstMove;
/// impl JungleAgent for FirstMove {
///     fn choose_move(&mut self, view: &JungleView) -> Move {
///         // The host asks only while the side to move has a legal move.
///         view.position.legal_moves()[0]
///     }
/// }
/// export_jungle_agent!(FirstMove);
/// ```
#[macro_export]
macro_rules! export_jungle_agent {
    ($($agent:tt)+) => {
        $crate::__export_agent!(
            [arena_init => handle_jungle_init, jungle_move => handle_jungle_move]
            $($agent)+
        );
    };
}

/// Generates the ABI v1 exports of a light cycles agent (on `wasm32` only; elsewhere it expands
/// to nothing), like [`export_farm_agent!`]: `export_lightcycles_agent!(MyAgent)` builds the
/// agent with `Default::default()`, `export_lightcycles_agent!(MyAgent, MyAgent::new(3))` with
/// the expression.
///
/// Exports: `arena_abi_version`, `arena_buffer`, `arena_buffer_size`, `arena_init`,
/// `lightcycles_turn` (and `memory`, which the Rust toolchain exports by itself). The module
/// imports `arena.fuel_left` only if the agent calls [`fuel::fuel_left`].
///
/// ```
/// use arena_agent_sdk::lightcycles::Turn;
/// use arena_agent_sdk::{export_lightcycles_agent, LightcyclesAgent, LightcyclesView};
///
/// #[derive(Default)]
/// pub struct Straight;
/// impl LightcyclesAgent for Straight {
///     fn choose_turn(&mut self, view: &LightcyclesView) -> Turn {
///         // Straight on while the cell ahead is free, else the first free side.
///         let me = view.me();
///         let grid = view.state.grid();
///         let free = |t: &Turn| {
///             grid.step(me.head, me.heading.turned(*t))
///                 .is_some_and(|cell| grid.is_free(cell))
///         };
///         [Turn::Straight, Turn::Left, Turn::Right]
///             .into_iter()
///             .find(free)
///             .unwrap_or(Turn::Straight)
///     }
/// }
/// export_lightcycles_agent!(Straight);
/// ```
#[macro_export]
macro_rules! export_lightcycles_agent {
    ($($agent:tt)+) => {
        $crate::__export_agent!(
            [arena_init => handle_lightcycles_init, lightcycles_turn => handle_lightcycles_turn]
            $($agent)+
        );
    };
}
