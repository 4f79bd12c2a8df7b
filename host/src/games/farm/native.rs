//! Little Animal Farm strategies written with `arena-agent-sdk`, played natively inside the host
//! (tests, benchmarks, `arena check`'s opponent): they see exactly the bytes a wasm agent sees,
//! and the SDK's own handlers decode them and encode the answer.

use arena_agent_sdk::{handle_accept, handle_init, handle_trade, FarmAgent};

use super::rules::ACCEPT;
use crate::game::{Native, NativeAgent, NativeReply, Question};

/// An SDK strategy as a native agent.
pub struct Sdk<A>(pub A);

impl<A: FarmAgent + Send> NativeAgent for Sdk<A> {
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32 {
        handle_init(&mut self.0, buf, len as i32)
    }

    fn decide(&mut self, q: &Question, buf: &mut [u8], len: usize) -> NativeReply {
        NativeReply::ret(if q.decision == ACCEPT {
            handle_accept(&mut self.0, buf, len as i32)
        } else {
            handle_trade(&mut self.0, buf, len as i32)
        })
    }
}

/// A native seat of the SDK strategy `A`: a fresh `A::default()` every game.
pub fn native<A: FarmAgent + Default + Send + 'static>() -> Native {
    Native::new(|| Box::new(Sdk(A::default())))
}
