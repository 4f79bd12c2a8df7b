//! Jungle strategies written with `arena-agent-sdk`, played natively inside the host (`arena
//! check`'s opponent, tests). They see exactly the bytes a wasm agent sees; the SDK's stand-in
//! for the fuel meter gives them the decision's allowance, and what they charge to it is the
//! fuel they used (a strategy that charges nothing plays for free).

use arena_agent_sdk::{fuel, handle_jungle_init, handle_jungle_move, JungleAgent};

use crate::game::{Fault, FaultKind, Native, NativeAgent, NativeReply, Question};

/// An SDK strategy as a native agent; spending more than the allowance is a `decision_fuel`
/// fault.
pub struct Sdk<A>(pub A);

impl<A: JungleAgent + Send> NativeAgent for Sdk<A> {
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32 {
        handle_jungle_init(&mut self.0, buf, len as i32)
    }

    fn decide(&mut self, q: &Question, buf: &mut [u8], len: usize) -> NativeReply {
        let allowance = q.allowance.unwrap_or(u64::MAX);
        let allowed = i64::try_from(allowance).unwrap_or(i64::MAX);
        // The SDK's handler gives the stand-in the observation's allowance; this sets the same
        // for agents that do not go through it.
        fuel::native::set(allowed);
        let ret = handle_jungle_move(&mut self.0, buf, len as i32);
        let left = fuel::native::left();
        let used = (allowed - left.min(allowed)).max(0) as u64;
        let ret = if left < 0 {
            Err(Fault::new(
                FaultKind::DecisionFuel,
                format!("jungle_move used up the {allowance} fuel the game allowed it"),
            ))
        } else {
            Ok(ret)
        };
        NativeReply {
            ret,
            fuel: used.min(allowance),
        }
    }
}

/// A native seat of the SDK strategy `A`: a fresh `A::default()` every game.
pub fn native<A: JungleAgent + Default + Send + 'static>() -> Native {
    Native::new(|| Box::new(Sdk(A::default())))
}
