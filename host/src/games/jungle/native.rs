//! Jungle strategies written with `arena-agent-sdk`, played natively inside the host (`arena
//! check`'s opponent, tests). They see exactly the bytes a wasm agent sees; the SDK's stand-in
//! for the fuel meter gives them the decision's allowance, and what they charge to it is the
//! fuel they used (a strategy that charges nothing plays for free).

use arena_agent_sdk::{fuel, handle_jungle_init, handle_jungle_move, JungleAgent};

use crate::game::sdk_agent::{on_clock, FuelStandIn, SdkAgent};
use crate::game::{Native, NativeAgent};

/// An SDK strategy as a native agent; spending more than the allowance is a `decision_fuel`
/// fault.
pub fn sdk<A: JungleAgent + Send + 'static>(agent: A) -> impl NativeAgent + 'static {
    SdkAgent::new(agent, handle_jungle_init::<A>, |a: &mut A, q, buf, len| {
        on_clock(q, "jungle_move", FUEL, || handle_jungle_move(a, buf, len))
    })
}

/// The SDK's stand-in for the fuel meter.
const FUEL: FuelStandIn = FuelStandIn {
    set: fuel::native::set,
    left: fuel::native::left,
};

/// A native seat of the SDK strategy `A`: a fresh `A::default()` every game.
pub fn native<A: JungleAgent + Default + Send + 'static>() -> Native {
    Native::fresh(sdk::<A>)
}
