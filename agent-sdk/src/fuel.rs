//! The fuel left for the current decision, for agents that search until their share of the
//! clock is spent (the fuel clock of Jungle and light cycles; see docs/ABI.md).
//!
//! On `wasm32` [`fuel_left`] is the host import `arena.fuel_left`, and the host meters fuel by
//! itself: [`spend`] does nothing. On other targets (native tests of a strategy) there is no
//! meter, so a stand-in takes its place: [`native::set`] gives the decision a budget (the
//! SDK's `handle_jungle_move` and `handle_lightcycles_turn` set it to the observation's fuel for
//! the decision), the agent charges its work with [`spend`] (say, an estimate of its fuel per
//! search node), and [`fuel_left`] reports what is left. A native game can then run the clock
//! exactly as the host would, in those units.

/// Fuel left for the current decision: the smaller of what is left of the per-decision cap and
/// what is left on the agent's game clock. Natively, the stand-in's budget minus what [`spend`]
/// charged (it may go below 0).
///
/// On `wasm32` this imports `arena.fuel_left`: only a module that calls it has the import, and
/// only hosts that provide it (those of Jungle and light cycles) load such a module.
#[inline]
pub fn fuel_left() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        #[link(wasm_import_module = "arena")]
        unsafe extern "C" {
            #[link_name = "fuel_left"]
            fn arena_fuel_left() -> i64;
        }
        // SAFETY: the import takes no argument and only reads the instance's fuel.
        unsafe { arena_fuel_left() }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        native::left()
    }
}

/// Charges `units` of work to the native stand-in; on `wasm32`, where the host meters real
/// fuel, it does nothing and compiles to nothing.
#[inline(always)]
pub fn spend(units: i64) {
    #[cfg(not(target_arch = "wasm32"))]
    native::spend(units);
    #[cfg(target_arch = "wasm32")]
    let _ = units;
}

/// Starts a decision with `fuel` (the smaller of the clock and the per-decision cap): natively
/// the stand-in gets it, as the host's meter would; on `wasm32` the host has done so already.
#[inline(always)]
pub(crate) fn start_decision(fuel: u64) {
    #[cfg(not(target_arch = "wasm32"))]
    native::set(i64::try_from(fuel).unwrap_or(i64::MAX));
    #[cfg(target_arch = "wasm32")]
    let _ = fuel;
}

/// The native stand-in for the host's fuel meter (one per thread).
#[cfg(not(target_arch = "wasm32"))]
pub mod native {
    use core::cell::Cell;

    std::thread_local! {
        static LEFT: Cell<i64> = const { Cell::new(i64::MAX) };
    }

    /// Gives the current decision `fuel` (what [`super::fuel_left`] reports until charged).
    pub fn set(fuel: i64) {
        LEFT.with(|l| l.set(fuel));
    }

    /// What is left of the budget.
    pub fn left() -> i64 {
        LEFT.with(|l| l.get())
    }

    pub(super) fn spend(units: i64) {
        LEFT.with(|l| l.set(l.get().saturating_sub(units)));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn the_native_stand_in_counts_down() {
        native::set(1000);
        assert_eq!(fuel_left(), 1000);
        spend(300);
        spend(800);
        assert_eq!(fuel_left(), -100);
        native::set(5);
        assert_eq!(fuel_left(), 5);
    }
}
