//! Farkle strategies written with `arena-agent-sdk`, played natively inside the host (tests,
//! benchmarks, the native baseline): they see exactly the bytes a wasm agent sees.

use arena_agent_sdk::{handle_farkle_draft, handle_farkle_init, FarkleAgent};

use crate::game::{Native, NativeAgent, NativeReply, Question};

/// An SDK strategy as a native agent.
pub struct Sdk<A>(pub A);

impl<A: FarkleAgent + Send> NativeAgent for Sdk<A> {
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32 {
        handle_farkle_init(&mut self.0, buf, len as i32)
    }

    fn decide(&mut self, _q: &Question, buf: &mut [u8], len: usize) -> NativeReply {
        NativeReply::ret(handle_farkle_draft(&mut self.0, buf, len as i32))
    }
}

/// A native seat of the SDK strategy `A`: a fresh `A::default()` every game.
pub fn native<A: FarkleAgent + Default + Send + 'static>() -> Native {
    Native::new(|| Box::new(Sdk(A::default())))
}
