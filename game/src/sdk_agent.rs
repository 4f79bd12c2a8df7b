//! A strategy written with the agents' SDK, played natively in the host: what every game's
//! adapter said alike. The strategy sees exactly the bytes a wasm agent sees, through its game's
//! SDK handlers ([`SdkAgent`]); a game on a fuel clock gives it the decision's allowance through
//! the SDK's stand-in for the fuel meter and charges what it spent ([`on_clock`]).

use crate::player::{NativeAgent, NativeReply};
use crate::rules::Question;
use crate::{Fault, FaultKind};

/// A strategy `agent` of the SDK with its game's handlers: `init` (`arena_init`) and `decide`
/// (the decision exports, chosen by the question).
pub struct SdkAgent<A, I, D> {
    agent: A,
    init: I,
    decide: D,
}

impl<A, I, D> SdkAgent<A, I, D>
where
    I: Fn(&mut A, &mut [u8], i32) -> i32,
    D: Fn(&mut A, &Question, &mut [u8], i32) -> NativeReply,
{
    pub fn new(agent: A, init: I, decide: D) -> SdkAgent<A, I, D> {
        SdkAgent {
            agent,
            init,
            decide,
        }
    }
}

impl<A, I, D> NativeAgent for SdkAgent<A, I, D>
where
    A: Send,
    I: Fn(&mut A, &mut [u8], i32) -> i32 + Send,
    D: Fn(&mut A, &Question, &mut [u8], i32) -> NativeReply + Send,
{
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32 {
        (self.init)(&mut self.agent, buf, len as i32)
    }

    fn decide(&mut self, q: &Question, buf: &mut [u8], len: usize) -> NativeReply {
        (self.decide)(&mut self.agent, q, buf, len as i32)
    }
}

/// The SDK's stand-in for the fuel meter on native targets (its `fuel::native`): `set` gives a
/// decision its fuel, `left` tells what is left of it (below 0: overspent).
#[derive(Clone, Copy)]
pub struct FuelStandIn {
    pub set: fn(i64),
    pub left: fn() -> i64,
}

/// A decision on a fuel clock of a strategy whose SDK handler is `decide` (the export `export`):
/// the stand-in is given `q`'s allowance (the SDK's handler gives the same; this covers agents
/// that do not go through it), and what the strategy charged to it is the fuel it used (one
/// that charges nothing plays for free). Spending more than the allowance is a
/// `decision_fuel` fault.
pub fn on_clock(
    q: &Question,
    export: &str,
    meter: FuelStandIn,
    decide: impl FnOnce() -> i32,
) -> NativeReply {
    let allowance = q.allowance.unwrap_or(u64::MAX);
    let allowed = i64::try_from(allowance).unwrap_or(i64::MAX);
    (meter.set)(allowed);
    let ret = decide();
    let left = (meter.left)();
    let used = (allowed - left.min(allowed)).max(0) as u64;
    let ret = if left < 0 {
        Err(Fault::new(
            FaultKind::DecisionFuel,
            format!("{export} used up the {allowance} fuel the game allowed it"),
        ))
    } else {
        Ok(ret)
    };
    NativeReply {
        ret,
        fuel: used.min(allowance),
    }
}
