//! Jungle strategies written with `arena-agent-sdk`, played natively inside the host (`arena
//! check`'s opponent, tests). They see exactly the bytes a wasm agent sees; the SDK's stand-in
//! for the fuel meter gives them the decision's allowance, and what they charge to it is the
//! fuel they used (a strategy that charges nothing plays for free).

use arena_agent_sdk::{fuel, handle_jungle_init, handle_jungle_move, JungleAgent, BUFFER_SIZE};

use super::abi::{encode_observation, read_answer};
use super::player::{Ask, JunglePlayer, Reply};
use crate::game::native::catch_panic;
use crate::game::{Fault, FaultKind};
use crate::sandbox::{encode_init, Init};

/// A native strategy in a Jungle seat ([`crate::game::Seat::Native`]): makes a fresh player for
/// every game.
pub struct Native(Box<dyn Fn() -> Box<dyn JunglePlayer> + Send + Sync>);

impl Native {
    /// A seat whose players are made by `make`.
    pub fn new(make: impl Fn() -> Box<dyn JunglePlayer> + Send + Sync + 'static) -> Native {
        Native(Box::new(make))
    }

    /// A player for one game.
    pub fn player(&self) -> Box<dyn JunglePlayer> {
        (self.0)()
    }
}

/// A native Jungle agent in a seat: a fresh agent for every game (like a fresh wasm instance);
/// a panic is a `trap` fault, and spending more than the allowance a `decision_fuel` fault.
pub struct NativeJunglePlayer<A: JungleAgent> {
    make: fn() -> A,
    agent: A,
    round_cap: u32,
    buf: Vec<u8>,
}

impl<A: JungleAgent + Default> Default for NativeJunglePlayer<A> {
    fn default() -> Self {
        NativeJunglePlayer::with(A::default, crate::sandbox::DEFAULT_ROUND_CAP)
    }
}

impl<A: JungleAgent> NativeJunglePlayer<A> {
    /// A player whose agents are made by `make`, told `round_cap` at init.
    pub fn with(make: fn() -> A, round_cap: u32) -> NativeJunglePlayer<A> {
        NativeJunglePlayer {
            make,
            agent: make(),
            round_cap,
            buf: vec![0; BUFFER_SIZE],
        }
    }
}

impl<A: JungleAgent> JunglePlayer for NativeJunglePlayer<A> {
    fn start(&mut self, seat: usize, seed: u64) -> Result<(), Fault> {
        self.agent = (self.make)();
        let init = Init {
            seat,
            players: 2,
            seed,
            round_cap: self.round_cap,
        };
        let n = encode_init(&super::INFO.agent, &init, &mut self.buf);
        let (agent, buf) = (&mut self.agent, &mut self.buf[..]);
        catch_panic(|| handle_jungle_init(agent, buf, n as i32)).map(|_| ())
    }

    fn choose(&mut self, ask: &Ask) -> Reply {
        let n = encode_observation(ask, &mut self.buf);
        let allowance = i64::try_from(ask.allowance).unwrap_or(i64::MAX);
        let (agent, buf) = (&mut self.agent, &mut self.buf[..]);
        // The SDK's handler gives the stand-in the observation's allowance; this sets the same
        // for agents that do not go through it.
        fuel::native::set(allowance);
        let ret = catch_panic(|| handle_jungle_move(agent, buf, n as i32));
        let left = fuel::native::left();
        let used = (allowance - left.min(allowance)).max(0) as u64;
        let answer = if left < 0 {
            Err(Fault::new(
                FaultKind::DecisionFuel,
                format!(
                    "jungle_move used up the {} fuel the game allowed it",
                    ask.allowance
                ),
            ))
        } else {
            ret.and_then(|ret| read_answer(ret, &self.buf))
        };
        Reply {
            answer,
            fuel: used.min(ask.allowance),
        }
    }
}
