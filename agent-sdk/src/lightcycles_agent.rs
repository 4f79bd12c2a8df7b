//! Light cycles agents: the [`LightcyclesAgent`] trait, the decoded [`LightcyclesView`] and the
//! handlers behind the `lightcycles_turn` export (see [`crate::export_lightcycles_agent!`]).

use arena_abi::lightcycles::{encode_answer, Observation, ANSWER_SIZE};
use arena_abi::{game, Decision, Envelope};
use lightcycles_rules::{Cycle, State, Turn};

use crate::agent::{answer_with, envelope_for, init_with, InitContext};

pub use arena_abi::lightcycles::Clock as LightcyclesClock;

/// Everything the host sent for one light cycles decision, decoded: the state before the tick
/// (every cycle alive is deciding at the same time) and the fuel clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightcyclesView {
    /// The agent's seat, from 0.
    pub seat: usize,
    pub players: usize,
    /// The tick this decision is for, from 1 (the envelope's turn): `state.tick() + 1`.
    pub tick: u32,
    /// The grid and every cycle before the tick: hand it to the rules (`State::after` plays a
    /// tick with every seat's answer, exactly as the host will).
    pub state: State,
    /// The fuel clock at the start of this decision.
    pub clock: LightcyclesClock,
}

impl LightcyclesView {
    /// Decodes an envelope and light cycles observation; `None` if the bytes are not one (the
    /// observation refused, or the seat not one of the players).
    pub fn decode(bytes: &[u8]) -> Option<LightcyclesView> {
        let env = envelope_for(bytes, game::LIGHTCYCLES, &[Decision::LightcyclesTurn])?;
        let obs = Observation::decode(env.payload(bytes), env.players as usize).ok()?;
        LightcyclesView::from_observation(&env, &obs)
    }

    /// The view of an already decoded envelope and observation (for tests and native drivers);
    /// `None` when the seat is not one of the players.
    pub fn from_observation(env: &Envelope, obs: &Observation) -> Option<LightcyclesView> {
        let seat = env.seat as usize;
        if seat >= obs.state.players() {
            return None;
        }
        Some(LightcyclesView {
            seat,
            players: obs.state.players(),
            tick: env.turn,
            state: obs.state,
            clock: obs.clock,
        })
    }

    /// The agent's own cycle.
    pub fn me(&self) -> &Cycle {
        self.state.cycle(self.seat)
    }

    /// Fuel left for this decision right now (see [`crate::fuel::fuel_left`]).
    pub fn fuel_left(&self) -> i64 {
        crate::fuel::fuel_left()
    }
}

/// A light cycles strategy. Every turn is a move the rules play: a turn into a wall or a trail
/// is not a fault, the cycle dies.
pub trait LightcyclesAgent {
    /// Once per game, before any decision.
    fn init(&mut self, _ctx: &InitContext) {}

    /// The turn of the agent's cycle at `view.tick`.
    fn choose_turn(&mut self, view: &LightcyclesView) -> Turn;
}

/// Body of `arena_init` for a light cycles agent: decodes the init payload and calls
/// [`LightcyclesAgent::init`]. Returns 0. Unreadable bytes are ignored (the agent is not
/// initialised).
pub fn handle_lightcycles_init<A: LightcyclesAgent + ?Sized>(
    agent: &mut A,
    buf: &mut [u8],
    len: i32,
) -> i32 {
    init_with(buf, len, |ctx| agent.init(ctx))
}

/// Body of `lightcycles_turn`: decodes the view, asks the agent, writes its turn at offset 0 of
/// the buffer and returns 1. Returns 0 (which the host reads as a `bad_answer` fault) when the
/// bytes are not a light cycles observation.
///
/// On native targets it first gives the fuel stand-in ([`crate::fuel::native`]) this decision's
/// fuel, the smaller of the clock and the per-decision cap, as the host's meter would.
pub fn handle_lightcycles_turn<A: LightcyclesAgent + ?Sized>(
    agent: &mut A,
    buf: &mut [u8],
    len: i32,
) -> i32 {
    let turn = |view: &LightcyclesView, buf: &mut [u8]| {
        crate::fuel::start_decision(view.clock.this_decision());
        encode_answer(buf, agent.choose_turn(view))
    };
    answer_with(buf, len, LightcyclesView::decode, ANSWER_SIZE, turn)
}

/// Reads back a turn written by [`handle_lightcycles_turn`] (for tests and native drivers), with
/// the host's own rules for unreadable answers; `None` for one.
pub fn read_lightcycles_answer(buf: &[u8], len: i32) -> Option<Turn> {
    arena_abi::lightcycles::decode_answer(len, buf).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{write_call, write_init, Seat};
    use arena_abi::lightcycles::{Clock, MAX_OBSERVATION_SIZE};
    use arena_abi::{InitPayload, ENVELOPE_SIZE};
    use lightcycles_rules::{Answer, Settings, MAX_PLAYERS};
    use std::vec;

    #[derive(Default)]
    struct Righty {
        seed: u64,
        seen: Option<LightcyclesView>,
        fuel_at_start: i64,
    }

    impl LightcyclesAgent for Righty {
        fn init(&mut self, ctx: &InitContext) {
            self.seed = ctx.seed;
        }
        fn choose_turn(&mut self, view: &LightcyclesView) -> Turn {
            self.seen = Some(*view);
            self.fuel_at_start = view.fuel_left();
            crate::fuel::spend(777);
            Turn::Right
        }
    }

    fn clock() -> Clock {
        Clock {
            mine: 3_000_000,
            increment: 1_000_000,
            decision_cap: 10_000_000,
            seats: [5_000_000, 3_000_000, 4_000_000, 0, 0, 0],
        }
    }

    fn write(buf: &mut [u8], game: u32, decision: Decision, seat: u32, obs: &Observation) -> i32 {
        let at = Seat {
            seat,
            players: obs.state.players() as u32,
            turn: obs.state.tick() + 1,
            round: obs.state.tick() + 1,
        };
        write_call(buf, game, decision, at, obs.size(), |b| {
            obs.encode(&mut b[..MAX_OBSERVATION_SIZE])
        })
    }

    /// A `lightcycles_turn` call for `seat`.
    fn turn_call(buf: &mut [u8], seat: u32, obs: &Observation) -> i32 {
        write(buf, game::LIGHTCYCLES, Decision::LightcyclesTurn, seat, obs)
    }

    fn after_one_tick() -> State {
        let mut s = State::start(&Settings::default(), 3, 4).unwrap();
        let straight = Some(Answer::Turn(Turn::Straight));
        let mut answers = [None; MAX_PLAYERS];
        answers[..3].copy_from_slice(&[straight; 3]);
        s.apply(&answers).unwrap();
        s
    }

    #[test]
    fn a_turn_goes_through_the_buffer() {
        let mut agent = Righty::default();
        let mut buf = vec![0u8; crate::BUFFER_SIZE];
        let init = InitPayload {
            seed: 42,
            round_cap: 300,
        };
        let n = write_init(&mut buf, game::LIGHTCYCLES, 1, 3, init);
        assert_eq!(handle_lightcycles_init(&mut agent, &mut buf, n), 0);
        assert_eq!(agent.seed, 42);

        let s = after_one_tick();
        let obs = Observation::new(&s, clock());
        let n = turn_call(&mut buf, 1, &obs);
        let ret = handle_lightcycles_turn(&mut agent, &mut buf, n);
        assert_eq!(ret, 1);
        assert_eq!(read_lightcycles_answer(&buf, ret), Some(Turn::Right));
        let v = agent.seen.unwrap();
        assert_eq!(v.state, s);
        assert_eq!((v.seat, v.players, v.tick), (1, 3, 2));
        assert_eq!(v.clock, clock());
        assert_eq!(*v.me(), *s.cycle(1));
        // The native stand-in got this decision's fuel (the clock, below the cap) and was
        // charged what the agent spent.
        assert_eq!(agent.fuel_at_start, 3_000_000);
        assert_eq!(crate::fuel::fuel_left(), 3_000_000 - 777);
    }

    #[test]
    fn unreadable_observations_get_no_answer() {
        let mut agent = Righty::default();
        let mut buf = vec![0u8; crate::BUFFER_SIZE];
        let obs = Observation::new(&after_one_tick(), clock());
        let n = write(&mut buf, game::JUNGLE, Decision::LightcyclesTurn, 0, &obs);
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, n), 0);
        let n = write(&mut buf, game::LIGHTCYCLES, Decision::JungleMove, 0, &obs);
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, n), 0);
        let n = turn_call(&mut buf, 3, &obs);
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, n), 0);
        let n = turn_call(&mut buf, 0, &obs);
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, n - 1), 0);
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, -5), 0);
        // A heading the layout does not allow (4).
        buf[ENVELOPE_SIZE + arena_abi::lightcycles::offset::CYCLES + 2] = 4;
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, n), 0);
        assert!(agent.seen.is_none());
        let n = turn_call(&mut buf, 0, &obs);
        assert_eq!(handle_lightcycles_turn(&mut agent, &mut buf, n), 1);
    }
}
