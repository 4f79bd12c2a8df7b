//! Farkle strategies written with `arena-agent-sdk`, played natively inside the host (tests,
//! benchmarks, the native baseline). They see exactly the bytes a wasm agent sees.

use arena_agent_sdk::{handle_farkle_draft, handle_farkle_init, FarkleAgent, BUFFER_SIZE};

use super::abi::{encode_observation, read_answer};
use super::{Answer, FarklePlayer, Observation};
use crate::game::native::catch_panic;
use crate::game::Fault;
use crate::sandbox::{encode_init, Init};

/// A native strategy in a Farkle seat ([`crate::game::Seat::Native`]): makes a fresh player for
/// every game.
pub struct Native(Box<dyn Fn() -> Box<dyn FarklePlayer> + Send + Sync>);

impl Native {
    /// A seat whose players are made by `make`.
    pub fn new(make: impl Fn() -> Box<dyn FarklePlayer> + Send + Sync + 'static) -> Native {
        Native(Box::new(make))
    }

    /// A player for one game.
    pub fn player(&self) -> Box<dyn FarklePlayer> {
        (self.0)()
    }
}

/// A native Farkle agent in a seat: a fresh agent for every game (like a fresh wasm instance);
/// a panic is a `trap` fault.
pub struct NativeFarklePlayer<A: FarkleAgent> {
    make: fn() -> A,
    agent: A,
    round_cap: u32,
    buf: Vec<u8>,
}

impl<A: FarkleAgent + Default> Default for NativeFarklePlayer<A> {
    fn default() -> Self {
        NativeFarklePlayer::with(A::default, 0)
    }
}

impl<A: FarkleAgent> NativeFarklePlayer<A> {
    /// A player whose agents are made by `make`, told `round_cap` at init.
    pub fn with(make: fn() -> A, round_cap: u32) -> NativeFarklePlayer<A> {
        NativeFarklePlayer {
            make,
            agent: make(),
            round_cap,
            buf: vec![0; BUFFER_SIZE],
        }
    }

    fn guarded<R>(&mut self, f: impl FnOnce(&mut A, &mut [u8]) -> R) -> Result<R, Fault> {
        let (agent, buf) = (&mut self.agent, &mut self.buf[..]);
        catch_panic(|| f(agent, buf))
    }
}

impl<A: FarkleAgent> FarklePlayer for NativeFarklePlayer<A> {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        self.agent = (self.make)();
        let init = Init {
            seat,
            players,
            seed,
            round_cap: self.round_cap,
        };
        let n = encode_init(&super::INFO.agent, &init, &mut self.buf);
        self.guarded(|agent, buf| handle_farkle_init(agent, buf, n as i32))
            .map(|_| ())
    }

    fn draft(&mut self, obs: &Observation) -> Result<Answer, Fault> {
        let n = encode_observation(obs, &mut self.buf);
        let ret = self.guarded(|agent, buf| handle_farkle_draft(agent, buf, n as i32))?;
        read_answer(ret, &self.buf)
    }
}
