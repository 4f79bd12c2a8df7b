//! Light cycles strategies written with `arena-agent-sdk`, played natively inside the host
//! (`arena check`'s opponent, tests, the bench). They see exactly the bytes a wasm agent sees;
//! the SDK's stand-in for the fuel meter gives them the decision's allowance, and what they
//! charge to it is the fuel they used.

use arena_agent_sdk::{fuel, handle_lightcycles_init, handle_lightcycles_turn, LightcyclesAgent};

use crate::game::{Fault, FaultKind, Native, NativeAgent, NativeReply, Question};

/// An SDK strategy as a native agent; spending more than the allowance is a `decision_fuel`
/// fault.
pub struct Sdk<A>(pub A);

impl<A: LightcyclesAgent + Send> NativeAgent for Sdk<A> {
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32 {
        handle_lightcycles_init(&mut self.0, buf, len as i32)
    }

    fn decide(&mut self, q: &Question, buf: &mut [u8], len: usize) -> NativeReply {
        let allowance = q.allowance.unwrap_or(u64::MAX);
        let allowed = i64::try_from(allowance).unwrap_or(i64::MAX);
        fuel::native::set(allowed);
        let ret = handle_lightcycles_turn(&mut self.0, buf, len as i32);
        let left = fuel::native::left();
        let used = (allowed - left.min(allowed)).max(0) as u64;
        let ret = if left < 0 {
            Err(Fault::new(
                FaultKind::DecisionFuel,
                format!("lightcycles_turn used up the {allowance} fuel the game allowed it"),
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
pub fn native<A: LightcyclesAgent + Default + Send + 'static>() -> Native {
    Native::new(|| Box::new(Sdk(A::default())))
}
