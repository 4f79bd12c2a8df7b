//! Little Animal Farm strategies written with `arena-agent-sdk`, played natively inside the host
//! (tests, benchmarks, `arena check`'s opponent): they see exactly the bytes a wasm agent sees,
//! and the SDK's own handlers decode them and encode the answer.

use arena_agent_sdk::{handle_accept, handle_init, handle_trade, FarmAgent};

use super::rules::ACCEPT;
use crate::game::sdk_agent::SdkAgent;
use crate::game::{Native, NativeAgent, NativeReply};

/// An SDK strategy as a native agent.
pub fn sdk<A: FarmAgent + Send + 'static>(agent: A) -> impl NativeAgent + 'static {
    SdkAgent::new(agent, handle_init::<A>, |a: &mut A, q, buf, len| {
        NativeReply::ret(if q.decision == ACCEPT {
            handle_accept(a, buf, len)
        } else {
            handle_trade(a, buf, len)
        })
    })
}

/// A native seat of the SDK strategy `A`: a fresh `A::default()` every game.
pub fn native<A: FarmAgent + Default + Send + 'static>() -> Native {
    Native::fresh(sdk::<A>)
}
