//! Jungle agents: the [`JungleAgent`] trait, the decoded [`JungleView`] and the handlers behind
//! the `jungle_move` export (see [`crate::export_jungle_agent!`]).

use arena_abi::jungle::{encode_answer, Observation, ANSWER_SIZE};
use arena_abi::{game, Decision, Envelope};
use jungle_rules::{Move, MoveList, Position, Side};

use crate::agent::{answer_with, envelope_for, init_with, InitContext};

pub use arena_abi::jungle::{Clock as JungleClock, Played};

/// Everything the host sent for one Jungle decision, decoded. The agent is the side to move of
/// [`JungleView::position`], and the host asks only while the game is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JungleView {
    /// The agent's seat, from 0.
    pub seat: usize,
    /// The envelope's turn and round numbers.
    pub turn: u32,
    pub round: u32,
    /// The agent's side (the side to move).
    pub side: Side,
    /// The position, with its ply and draw counters: hand it to the rules (`legal_moves`,
    /// `make`, `outcome`).
    pub position: Position,
    /// The legal moves as the host listed them (the rules' order).
    pub legal: MoveList,
    /// Plies without a capture that draw the game (100).
    pub draw_limit: u32,
    /// The game is a draw once this many plies are played.
    pub ply_cap: u32,
    /// The fuel clock at the start of this decision.
    pub clock: JungleClock,
    observation: Observation,
}

impl JungleView {
    /// Decodes an envelope and Jungle observation; `None` if the bytes are not one, or its board
    /// is not a position the rules accept.
    pub fn decode(bytes: &[u8]) -> Option<JungleView> {
        let env = envelope_for(bytes, game::JUNGLE, &[Decision::JungleMove])?;
        let obs = Observation::decode(env.payload(bytes)).ok()?;
        JungleView::from_observation(&env, &obs)
    }

    /// The view of an already decoded envelope and observation (for tests and native drivers);
    /// `None` when the board is not a position the rules accept.
    pub fn from_observation(env: &Envelope, obs: &Observation) -> Option<JungleView> {
        Some(JungleView {
            seat: env.seat as usize,
            turn: env.turn,
            round: env.round,
            side: obs.side,
            position: obs.position()?,
            legal: obs.legal,
            draw_limit: obs.draw_limit,
            ply_cap: obs.ply_cap,
            clock: obs.clock,
            observation: *obs,
        })
    }

    /// The plies since the agent's previous decision, oldest first (usually its own last move
    /// and the opponent's reply).
    pub fn played(&self) -> &[Played] {
        self.observation.played()
    }

    /// Fuel left for this decision right now (see [`crate::fuel::fuel_left`]).
    pub fn fuel_left(&self) -> i64 {
        crate::fuel::fuel_left()
    }
}

/// A Jungle strategy. The answer is judged by the rules afterwards: a move that is not legal is
/// a fault, like an unreadable answer (use `view.position.is_legal` or pick from `view.legal`).
pub trait JungleAgent {
    /// Once per game, before any decision.
    fn init(&mut self, _ctx: &InitContext) {}

    /// The move to play in `view.position`.
    fn choose_move(&mut self, view: &JungleView) -> Move;
}

/// Body of `arena_init` for a Jungle agent: decodes the init payload and calls
/// [`JungleAgent::init`]. Returns 0. Unreadable bytes are ignored (the agent is not initialised).
pub fn handle_jungle_init<A: JungleAgent + ?Sized>(agent: &mut A, buf: &mut [u8], len: i32) -> i32 {
    init_with(buf, len, |ctx| agent.init(ctx))
}

/// Body of `jungle_move`: decodes the view, asks the agent, writes its move at offset 0 of the
/// buffer and returns 2. Returns 0 (which the host reads as a `bad_answer` fault) when the bytes
/// are not a Jungle observation.
///
/// On native targets it first gives the fuel stand-in ([`crate::fuel::native`]) this decision's
/// fuel, the smaller of the clock and the per-decision cap, as the host's meter would.
pub fn handle_jungle_move<A: JungleAgent + ?Sized>(agent: &mut A, buf: &mut [u8], len: i32) -> i32 {
    answer_with(buf, len, JungleView::decode, ANSWER_SIZE, |view, buf| {
        crate::fuel::start_decision(view.clock.this_decision());
        encode_answer(buf, agent.choose_move(view))
    })
}

/// Reads back a move written by [`handle_jungle_move`] (for tests and native drivers), with the
/// host's own rules for unreadable answers; `None` for one.
pub fn read_jungle_answer(buf: &[u8], len: i32) -> Option<Move> {
    arena_abi::jungle::decode_answer(len, buf).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{write_call, write_init, Seat};
    use arena_abi::jungle::{Clock, MAX_OBSERVATION_SIZE};
    use arena_abi::InitPayload;
    use std::vec;

    #[derive(Default)]
    struct Last {
        seed: u64,
        seen: Option<JungleView>,
        fuel_at_start: i64,
    }

    impl JungleAgent for Last {
        fn init(&mut self, ctx: &InitContext) {
            self.seed = ctx.seed;
        }
        fn choose_move(&mut self, view: &JungleView) -> Move {
            self.seen = Some(*view);
            self.fuel_at_start = view.fuel_left();
            crate::fuel::spend(1234);
            *view.legal.last().expect("a legal move")
        }
    }

    fn clock() -> Clock {
        Clock {
            mine: 7_000_000,
            theirs: 9_000_000,
            increment: 500_000,
            decision_cap: 10_000_000,
        }
    }

    fn write(buf: &mut [u8], game: u32, decision: Decision, obs: &Observation) -> i32 {
        let at = Seat {
            seat: 1,
            players: 2,
            turn: 4,
            round: 2,
        };
        write_call(buf, game, decision, at, obs.size(), |b| {
            obs.encode(&mut b[..MAX_OBSERVATION_SIZE])
        })
    }

    #[test]
    fn a_move_goes_through_the_buffer() {
        let mut agent = Last::default();
        let mut buf = vec![0u8; crate::BUFFER_SIZE];
        let init = InitPayload {
            seed: 42,
            round_cap: 300,
        };
        let n = write_init(&mut buf, game::JUNGLE, 1, 2, init);
        assert_eq!(handle_jungle_init(&mut agent, &mut buf, n), 0);
        assert_eq!(agent.seed, 42);

        let start = Position::start();
        let first = Move::parse("a3a4").unwrap();
        let p = start.after(first);
        let played = [Played::of(&start, first)];
        let obs = Observation::new(&p, 600, clock(), &played);
        let n = write(&mut buf, game::JUNGLE, Decision::JungleMove, &obs);
        let ret = handle_jungle_move(&mut agent, &mut buf, n);
        assert_eq!(ret, 2);
        let mv = read_jungle_answer(&buf, ret).unwrap();
        assert_eq!(mv, *p.legal_moves().last().unwrap());
        assert!(p.is_legal(mv));
        let v = agent.seen.unwrap();
        assert_eq!(v.position, p);
        assert_eq!(v.side, Side::Second);
        assert_eq!((v.seat, v.turn, v.round), (1, 4, 2));
        assert_eq!((v.draw_limit, v.ply_cap), (100, 600));
        assert_eq!(v.clock, clock());
        assert_eq!(v.played(), &played);
        assert_eq!(v.legal, p.legal_moves());
        // The native stand-in got this decision's fuel (the clock, below the cap) and was
        // charged what the agent spent.
        assert_eq!(agent.fuel_at_start, 7_000_000);
        assert_eq!(crate::fuel::fuel_left(), 7_000_000 - 1234);
    }

    #[test]
    fn unreadable_observations_get_no_answer() {
        let mut agent = Last::default();
        let mut buf = vec![0u8; crate::BUFFER_SIZE];
        let obs = Observation::new(&Position::start(), 600, clock(), &[]);
        let n = write(&mut buf, game::FARKLE, Decision::JungleMove, &obs);
        assert_eq!(handle_jungle_move(&mut agent, &mut buf, n), 0);
        let n = write(&mut buf, game::JUNGLE, Decision::FarkleDraft, &obs);
        assert_eq!(handle_jungle_move(&mut agent, &mut buf, n), 0);
        let n = write(&mut buf, game::JUNGLE, Decision::JungleMove, &obs);
        assert_eq!(handle_jungle_move(&mut agent, &mut buf, n - 1), 0);
        assert_eq!(handle_jungle_move(&mut agent, &mut buf, -5), 0);
        // A board the rules refuse (a dog in the water).
        let mut bad = obs;
        bad.board[jungle_rules::Square::parse("b5").unwrap().index()] = 3;
        let n = write(&mut buf, game::JUNGLE, Decision::JungleMove, &bad);
        assert_eq!(handle_jungle_move(&mut agent, &mut buf, n), 0);
        assert!(agent.seen.is_none());
        let n = write(&mut buf, game::JUNGLE, Decision::JungleMove, &obs);
        assert_eq!(handle_jungle_move(&mut agent, &mut buf, n), 2);
    }
}
