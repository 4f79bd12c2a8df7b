//! Little Animal Farm strategies of the host's own: strategies written with `arena-agent-sdk`,
//! played natively inside the host (tests, benchmarks, `arena check`'s opponent), and the seat a
//! native strategy takes in a game ([`Native`]). They see exactly the bytes a wasm agent sees:
//! observations are encoded with [`super::abi`] and the SDK's own handlers decode them and encode
//! the answer.

use arena_agent_sdk::{handle_accept, handle_init, handle_trade, FarmAgent, BUFFER_SIZE};
use farm_rules::Offer;

use super::abi::{decode_accept_answer, decode_trade_answer, encode_init, encode_observation};
use super::{AcceptView, FarmPlayer, Fault, Observation};
use crate::game::native::catch_panic;

/// A native strategy in a seat of Little Animal Farm ([`crate::game::Seat::Native`]): makes a
/// fresh player for every game.
pub struct Native(Box<dyn Fn() -> Box<dyn FarmPlayer> + Send + Sync>);

impl Native {
    /// A seat whose players are made by `make`.
    pub fn new(make: impl Fn() -> Box<dyn FarmPlayer> + Send + Sync + 'static) -> Native {
        Native(Box::new(make))
    }

    /// A player for one game.
    pub fn player(&self) -> Box<dyn FarmPlayer> {
        (self.0)()
    }
}

/// A native agent in a seat. A fresh agent is made for every game (like a fresh wasm instance);
/// a panic counts as a `trap` fault.
pub struct NativePlayer<A: FarmAgent> {
    make: fn() -> A,
    agent: A,
    round_cap: u32,
    buf: Vec<u8>,
}

impl<A: FarmAgent + Default> NativePlayer<A> {
    pub fn new() -> NativePlayer<A> {
        NativePlayer::with(A::default)
    }
}

impl<A: FarmAgent + Default> Default for NativePlayer<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: FarmAgent> NativePlayer<A> {
    /// A player whose agents are made by `make`.
    pub fn with(make: fn() -> A) -> NativePlayer<A> {
        NativePlayer {
            make,
            agent: make(),
            round_cap: 0,
            buf: vec![0; BUFFER_SIZE],
        }
    }

    /// The round cap passed to the agent's `init` (the host's `FarmPlayer::start` does not carry
    /// it; set it to the game's `Setup::round_cap`).
    pub fn round_cap(mut self, round_cap: u32) -> Self {
        self.round_cap = round_cap;
        self
    }

    pub fn agent(&self) -> &A {
        &self.agent
    }

    fn guarded<R>(&mut self, f: impl FnOnce(&mut A, &mut [u8]) -> R) -> Result<R, Fault> {
        let (agent, buf) = (&mut self.agent, &mut self.buf[..]);
        catch_panic(|| f(agent, buf))
    }
}

impl<A: FarmAgent> FarmPlayer for NativePlayer<A> {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        self.agent = (self.make)();
        let n = encode_init(seat, players, seed, self.round_cap, &mut self.buf);
        self.guarded(|agent, buf| handle_init(agent, buf, n as i32))
            .map(|_| ())
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        let n = encode_observation(obs, None, &mut self.buf);
        let len = self.guarded(|agent, buf| handle_trade(agent, buf, n as i32))?;
        decode_trade_answer(len, &self.buf)
    }

    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault> {
        let n = encode_observation(obs, Some(offer), &mut self.buf);
        let ret = self.guarded(|agent, buf| handle_accept(agent, buf, n as i32))?;
        decode_accept_answer(ret)
    }
}
