//! Farkle strategies written with `arena-agent-sdk`, played natively inside the host (tests,
//! benchmarks, the native baseline): they see exactly the bytes a wasm agent sees.

use arena_agent_sdk::{handle_farkle_draft, handle_farkle_init, FarkleAgent};

use crate::game::sdk_agent::SdkAgent;
use crate::game::{Native, NativeAgent, NativeReply};

/// An SDK strategy as a native agent.
pub fn sdk<A: FarkleAgent + Send + 'static>(agent: A) -> impl NativeAgent + 'static {
    SdkAgent::new(agent, handle_farkle_init::<A>, |a: &mut A, _q, buf, len| {
        NativeReply::ret(handle_farkle_draft(a, buf, len))
    })
}

/// A native seat of the SDK strategy `A`: a fresh `A::default()` every game.
pub fn native<A: FarkleAgent + Default + Send + 'static>() -> Native {
    Native::fresh(sdk::<A>)
}
