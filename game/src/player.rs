//! The players of a game, written once for every game: who sits in a seat ([`Seat`]), and the
//! [`Player`] the game loop asks: a sandboxed agent ([`WasmPlayer`]: a core module through the
//! game's ABI bytes, a component through its world's typed exports), a native strategy of the
//! host's own ([`Native`]: the same bytes, in-process), or a record's answers (the verifier's
//! players, `crate::record::replay`).

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use arena_sandbox::{encode_init, AgentModule, HostFailure, Init, Sandbox, WasmPlayer};

use crate::rules::{Question, Rules};
use crate::{Fault, FaultKind, SeatUsage, Table};

/// A player's answer, before the rules judge it, and the fuel it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply<A> {
    /// The answer as given, or the fault of a decision without a readable answer.
    pub answer: Result<A, Fault>,
    /// Fuel the decision used (0 for a player that is not metered, such as a person).
    pub fuel: u64,
}

/// A seat at a table of the game `R`.
pub trait Player<R: Rules> {
    /// Starts the player for a new game (a sandboxed agent: a fresh instance and its `init`). A
    /// fault here forfeits the game, whatever the policy.
    fn start(&mut self, rules: &R, init: &Init) -> Result<(), Fault>;

    /// The answer to `q`, given `obs`.
    fn decide(&mut self, rules: &R, q: &Question, obs: &R::Observation<'_>) -> Reply<R::Answer>;

    /// Text the player logged since the last call.
    fn take_log(&mut self) -> Option<String> {
        None
    }

    /// The host's own failure in this game, if it had one (a sandboxed agent the host could not
    /// set up): the game is then not a fact about the players and must not be scored.
    fn host_failure(&self) -> Option<HostFailure> {
        None
    }

    /// What the player used in this game (a sandboxed agent's fuel and decisions).
    fn usage(&self) -> Option<SeatUsage> {
        None
    }

    /// True once the player has left the game (a person who stopped typing): the game stops
    /// there, unfinished and unrecorded.
    fn left(&self) -> bool {
        false
    }
}

impl<R: Rules> Player<R> for WasmPlayer {
    fn start(&mut self, rules: &R, init: &Init) -> Result<(), Fault> {
        // Loading is not on a clock: it gets a decision's fuel, as in every game.
        self.set_fuel_allowance(None);
        WasmPlayer::start(
            self,
            &rules.info().agent,
            init.seat,
            init.players,
            init.seed,
        )
    }

    fn decide(&mut self, rules: &R, q: &Question, obs: &R::Observation<'_>) -> Reply<R::Answer> {
        let before = self.fuel_used();
        if q.allowance.is_some() {
            self.set_fuel_allowance(q.allowance);
        }
        let answer = if self.module().is_component() {
            rules.call_component(q, obs, self)
        } else {
            match self.call(q.decision, |buf| rules.encode(q, obs, buf)) {
                Ok((ret, buf)) => rules.decode(q, ret, buf),
                Err(fault) => Err(fault),
            }
        };
        if q.allowance.is_some() {
            self.set_fuel_allowance(None);
        }
        Reply {
            answer,
            fuel: self.fuel_used() - before,
        }
    }

    fn take_log(&mut self) -> Option<String> {
        WasmPlayer::take_log(self)
    }

    fn host_failure(&self) -> Option<HostFailure> {
        WasmPlayer::host_failure(self).cloned()
    }

    fn usage(&self) -> Option<SeatUsage> {
        Some(SeatUsage::of(self))
    }
}

/// A strategy of the host's own (tests, benchmarks, `arena check`'s opponents, a baseline),
/// written with the agents' SDK: it sees exactly the bytes a wasm agent sees, and answers in the
/// exchange buffer as one would.
pub trait NativeAgent: Send {
    /// `arena_init`, with the envelope and payload in `buf[..len]`: 0 to play.
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32;

    /// The decision export of `q.decision`, with the observation in `buf[..len]`: what it
    /// returns, and the fuel it charged to `q.allowance` (a game with a clock; 0 otherwise). A
    /// strategy that spends more than its allowance answers the game's fault.
    fn decide(&mut self, q: &Question, buf: &mut [u8], len: usize) -> NativeReply;

    /// What the strategy logged since the last call.
    fn take_log(&mut self) -> Option<String> {
        None
    }
}

/// What a native strategy's decision returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeReply {
    pub ret: Result<i32, Fault>,
    pub fuel: u64,
}

impl NativeReply {
    /// A decision that returned `ret` and used no fuel.
    pub fn ret(ret: i32) -> NativeReply {
        NativeReply {
            ret: Ok(ret),
            fuel: 0,
        }
    }
}

/// A native strategy in a seat ([`Seat::Native`]): makes a fresh agent for every game, as a
/// sandboxed agent gets a fresh instance. Most are strategies of the agents' SDK, which see the
/// ABI's bytes ([`Native::new`]); a player of one game's own rules may sit too
/// ([`Native::typed`]: tests, built-in opponents).
pub struct Native(Make);

type MakeAgent = Box<dyn Fn() -> Box<dyn NativeAgent> + Send + Sync>;

enum Make {
    Agent(MakeAgent),
    /// A `TypedMake<R>` of one game's rules `R`.
    Typed(Box<dyn Any + Send + Sync>),
}

/// What makes the players of [`Native::typed`].
type TypedMake<R> = Box<dyn Fn() -> Box<dyn Player<R>> + Send + Sync>;

impl Native {
    /// A seat whose agents are made by `make`.
    pub fn new(make: impl Fn() -> Box<dyn NativeAgent> + Send + Sync + 'static) -> Native {
        Native(Make::Agent(Box::new(make)))
    }

    /// A seat of a strategy `A` made afresh every game (`A::default()`), played as `adapt` makes
    /// it a native agent.
    pub fn fresh<A: Default + 'static, N: NativeAgent + 'static>(adapt: fn(A) -> N) -> Native {
        Native::new(move || Box::new(adapt(A::default())))
    }

    /// A seat of the game `R` whose players are made by `make`.
    pub fn typed<R: Rules>(
        make: impl Fn() -> Box<dyn Player<R>> + Send + Sync + 'static,
    ) -> Native {
        let make: TypedMake<R> = Box::new(make);
        Native(Make::Typed(Box::new(make)))
    }

    /// A fresh agent; `None` for a player of one game's own rules.
    pub fn agent(&self) -> Option<Box<dyn NativeAgent>> {
        match &self.0 {
            Make::Agent(make) => Some(make()),
            Make::Typed(_) => None,
        }
    }

    /// A player of the game `R` for one game; `None` for a player of another game's rules.
    pub fn player<R: Rules>(&self) -> Option<Box<dyn Player<R> + '_>> {
        match &self.0 {
            Make::Agent(_) => Some(Box::new(NativePlayer {
                native: self,
                agent: None,
                buf: vec![0; BUFFER_SIZE],
            })),
            Make::Typed(any) => any.downcast_ref::<TypedMake<R>>().map(|make| make()),
        }
    }
}

/// The exchange buffer of a native strategy: the SDK's.
pub const BUFFER_SIZE: usize = 16 << 10;

/// A native strategy playing one game; a panic is a `trap` fault, as a wasm agent's trap would be.
pub struct NativePlayer<'n> {
    native: &'n Native,
    agent: Option<Box<dyn NativeAgent>>,
    buf: Vec<u8>,
}

impl<R: Rules> Player<R> for NativePlayer<'_> {
    fn start(&mut self, rules: &R, init: &Init) -> Result<(), Fault> {
        let Some(mut agent) = self.native.agent() else {
            return Err(Fault::new(
                FaultKind::LoadFailed,
                "not a strategy of the ABI",
            ));
        };
        let n = encode_init(&rules.info().agent, init, &mut self.buf);
        let buf = &mut self.buf[..];
        let started = catch_panic(|| agent.init(buf, n));
        self.agent = Some(agent);
        started.map(|_| ())
    }

    fn decide(&mut self, rules: &R, q: &Question, obs: &R::Observation<'_>) -> Reply<R::Answer> {
        let n = rules.encode(q, obs, &mut self.buf);
        let Some(agent) = self.agent.as_mut() else {
            return Reply {
                answer: Err(Fault::new(FaultKind::LoadFailed, "the agent did not start")),
                fuel: 0,
            };
        };
        let buf = &mut self.buf[..];
        match catch_panic(|| agent.decide(q, buf, n)) {
            Ok(reply) => Reply {
                answer: reply.ret.and_then(|ret| rules.decode(q, ret, &self.buf)),
                fuel: reply.fuel,
            },
            Err(fault) => Reply {
                answer: Err(fault),
                fuel: 0,
            },
        }
    }

    fn take_log(&mut self) -> Option<String> {
        self.agent.as_mut().and_then(|a| a.take_log())
    }
}

/// Runs a native agent's code; a panic becomes a `trap` fault, as a wasm agent's would.
pub fn catch_panic<R>(f: impl FnOnce() -> R) -> Result<R, Fault> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|e| {
        let msg = e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        Fault::new(FaultKind::Trap, format!("native agent panicked: {msg}"))
    })
}

/// Who sits in a seat.
#[derive(Clone, Copy)]
pub enum Seat<'a> {
    /// A sandboxed agent (a core module or a component).
    Agent(&'a AgentModule),
    /// A strategy of the host's own.
    Native(&'a Native),
}

/// What a game may use from the host while it plays.
#[derive(Clone, Copy, Default)]
pub struct Host<'a> {
    /// The sandbox the agents were loaded into; `None` where only native strategies play.
    pub sandbox: Option<&'a Sandbox>,
}

/// The player of each seat for one game of `rules` at `table`: a fresh instance of a sandboxed
/// agent (told the table's round cap), or a native strategy's fresh player; an error names a
/// native seat of another game.
pub fn seat_players<'a, R: Rules>(
    rules: &R,
    seats: &[Seat<'a>],
    table: &Table,
) -> anyhow::Result<Vec<Box<dyn Player<R> + 'a>>> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| {
            seat_player(rules, *seat, table.round_cap).map_err(|e| anyhow::anyhow!("seat {s}: {e}"))
        })
        .collect()
}

/// The player of one seat: a sandboxed agent told the game's round cap, or a native strategy
/// (an error for one that does not play this game).
fn seat_player<'a, R: Rules>(
    rules: &R,
    seat: Seat<'a>,
    round_cap: u32,
) -> anyhow::Result<Box<dyn Player<R> + 'a>> {
    match seat {
        Seat::Agent(m) => Ok(Box::new(m.player_with_round_cap(round_cap))),
        Seat::Native(n) => n.player().ok_or_else(|| {
            anyhow::anyhow!(
                "a native strategy that does not play {}",
                rules.info().title
            )
        }),
    }
}

/// Fails with the first seat's [`HostFailure`], if the host failed any seat: such a game is not
/// recorded.
pub fn check_host_failures(
    table: &Table,
    failures: impl Iterator<Item = Option<HostFailure>>,
) -> anyhow::Result<()> {
    for (seat, failure) in failures.enumerate() {
        if let Some(HostFailure(why)) = failure {
            let name = table.meta.names.get(seat).map_or("?", String::as_str);
            return Err(anyhow::Error::new(HostFailure(format!(
                "game with seed {} not recorded: seat {seat} ({name}): {why}",
                table.seed
            ))));
        }
    }
    Ok(())
}

/// A player whose answers a closure gives (tests, examples, built-in opponents): it starts
/// without a fault, logs nothing, and is not metered.
pub struct Answers<F>(pub F);

impl<R: Rules, F> Player<R> for Answers<F>
where
    F: FnMut(&Question, &R::Observation<'_>) -> Result<R::Answer, Fault>,
{
    fn start(&mut self, _rules: &R, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _rules: &R, q: &Question, obs: &R::Observation<'_>) -> Reply<R::Answer> {
        Reply {
            answer: (self.0)(q, obs),
            fuel: 0,
        }
    }
}

/// The time `calls` decisions take of a fresh player in `seat` (started with `init` first, not
/// timed), each asked `q` on `obs` through [`Player::decide`], as the game loop asks: the
/// bench's per-decision timing. An error names a player that did not start or did not answer.
pub fn time_decisions<R: Rules>(
    rules: &R,
    seat: Seat<'_>,
    init: &Init,
    q: &Question,
    obs: &R::Observation<'_>,
    calls: u32,
) -> anyhow::Result<std::time::Duration> {
    let mut player = seat_player(rules, seat, init.round_cap)?;
    player
        .start(rules, init)
        .map_err(|f| anyhow::anyhow!("the player did not start: {}", f.detail))?;
    let t = std::time::Instant::now();
    for _ in 0..calls {
        let reply = player.decide(rules, q, std::hint::black_box(obs));
        if let Err(f) = std::hint::black_box(reply).answer {
            anyhow::bail!("the player did not answer: {}", f.detail);
        }
    }
    Ok(t.elapsed())
}
