//! Farkle agents: the [`FarkleAgent`] trait, the decoded [`FarkleView`] and the handlers behind
//! the `farkle_draft` export (see [`crate::export_farkle_agent!`]).

use arena_abi::farkle::{encode_answer, Observation, MAX_ANSWER_SIZE, MAX_SEATS};
use arena_abi::{game, Decision, Envelope};
use farkle_rules::DICE;

use crate::agent::{answer_with, envelope_for, init_with, InitContext};

pub use arena_abi::farkle::Answer as FarkleAnswer;

/// Everything the host sent for one Farkle decision, decoded. The host asks only when the roll
/// is not a farkle, so [`FarkleView::roll`] always has a legal draft.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FarkleView {
    /// The agent's seat, from 0.
    pub seat: usize,
    /// Number of players (1 in a solo game).
    pub players: usize,
    /// The envelope's turn number (from 1).
    pub turn: u32,
    /// The envelope's round number (from 1).
    pub round: u32,
    /// Points to reach (10,000).
    pub target: u32,
    /// Points drafted earlier in this turn, lost on a farkle.
    pub turn_points: u32,
    /// Roll number in this turn, from 1 (hot-dice rerolls count on).
    pub roll_number: u32,
    /// Banked score of each seat (0 beyond the players).
    pub scores: [u32; MAX_SEATS],
    /// Someone reached the target: this is the agent's last turn.
    pub final_round: bool,
    /// Turns this seat has completed (0 at its first turn).
    pub turns_done: u32,
    /// The game ends after this many rounds.
    pub turn_cap: u32,
    dice: usize,
    faces: [u8; DICE],
}

impl FarkleView {
    /// Decodes an envelope and Farkle observation; `None` if the bytes are not one.
    pub fn decode(bytes: &[u8]) -> Option<FarkleView> {
        let env = envelope_for(bytes, game::FARKLE, &[Decision::FarkleDraft])?;
        let players = env.players as usize;
        let seat = env.seat as usize;
        if !(1..=MAX_SEATS).contains(&players) || seat >= players {
            return None;
        }
        let obs = Observation::decode(env.payload(bytes)).ok()?;
        Some(FarkleView::from_observation(&env, &obs))
    }

    /// The view of an already decoded envelope and observation (for tests and native drivers).
    pub fn from_observation(env: &Envelope, obs: &Observation) -> FarkleView {
        FarkleView {
            seat: env.seat as usize,
            players: env.players as usize,
            turn: env.turn,
            round: env.round,
            target: obs.target,
            turn_points: obs.turn_points,
            roll_number: obs.roll_number,
            scores: obs.scores,
            final_round: obs.final_round(),
            turns_done: obs.turns_done,
            turn_cap: obs.turn_cap,
            dice: obs.roll().len(),
            faces: obs.faces,
        }
    }

    /// The faces of this roll (1 to 6 dice, faces 1..=6); answer indices point into it.
    pub fn roll(&self) -> &[u8] {
        &self.faces[..self.dice]
    }

    /// Number of dice in this roll.
    pub fn dice(&self) -> usize {
        self.dice
    }

    /// The agent's own banked score.
    pub fn my_score(&self) -> u32 {
        self.scores[self.seat % MAX_SEATS]
    }

    /// The best banked score among the other players (0 in a solo game).
    pub fn best_opponent_score(&self) -> u32 {
        (0..self.players.min(MAX_SEATS))
            .filter(|&s| s != self.seat)
            .map(|s| self.scores[s])
            .max()
            .unwrap_or(0)
    }
}

/// A Farkle strategy. Answers are judged by the rules afterwards: an illegal draft is not a
/// fault, it ends the turn with no points (use `farkle::check_answer` to know in advance).
pub trait FarkleAgent {
    /// Once per game, before any decision.
    fn init(&mut self, _ctx: &InitContext) {}

    /// Draft scoring dice of `view.roll()` and bank or roll on.
    fn draft(&mut self, view: &FarkleView) -> FarkleAnswer;
}

/// Body of `arena_init` for a Farkle agent: decodes the init payload and calls
/// [`FarkleAgent::init`]. Returns 0. Unreadable bytes are ignored (the agent is not initialised).
pub fn handle_farkle_init<A: FarkleAgent + ?Sized>(agent: &mut A, buf: &mut [u8], len: i32) -> i32 {
    init_with(buf, len, |ctx| agent.init(ctx))
}

/// Body of `farkle_draft`: decodes the view, asks the agent, writes its answer at offset 0 of
/// the buffer and returns its length (8 + 4 × indices). Returns 0 (which the host reads as a
/// `bad_answer` fault) when the bytes are not a Farkle observation or the buffer cannot hold an
/// answer.
pub fn handle_farkle_draft<A: FarkleAgent + ?Sized>(
    agent: &mut A,
    buf: &mut [u8],
    len: i32,
) -> i32 {
    let draft = |view: &FarkleView, buf: &mut [u8]| encode_answer(buf, &agent.draft(view));
    answer_with(buf, len, FarkleView::decode, MAX_ANSWER_SIZE, draft)
}

/// Reads back an answer written by [`handle_farkle_draft`] (for tests and native drivers), with
/// the host's own fault rules; `None` for an unreadable answer.
pub fn read_farkle_answer(buf: &[u8], len: i32) -> Option<FarkleAnswer> {
    arena_abi::farkle::decode_answer(len, buf).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{write_call, write_init, Seat};
    use arena_abi::farkle::OBSERVATION_SIZE;
    use arena_abi::InitPayload;
    use farkle_rules::{best_draft, check_answer, Action};
    use std::vec;

    #[derive(Default)]
    struct Best {
        seed: u64,
        seen: Option<FarkleView>,
    }

    impl FarkleAgent for Best {
        fn init(&mut self, ctx: &InitContext) {
            self.seed = ctx.seed;
        }
        fn draft(&mut self, view: &FarkleView) -> FarkleAnswer {
            self.seen = Some(*view);
            let d = best_draft(view.roll()).expect("not a farkle");
            FarkleAnswer::from_mask(Action::Bank, d.mask)
        }
    }

    fn observation(faces: &[u8]) -> Observation {
        let mut f = [0u8; DICE];
        f[..faces.len()].copy_from_slice(faces);
        Observation {
            target: 10_000,
            turn_points: 250,
            roll_number: 2,
            dice: faces.len() as u32,
            faces: f,
            scores: [700, 9_000, 0, 0, 0, 0],
            flags: 1,
            turns_done: 5,
            turn_cap: 200,
        }
    }

    fn write(buf: &mut [u8], game: u32, decision: Decision, obs: &Observation) -> i32 {
        let at = Seat {
            seat: 0,
            players: 2,
            turn: 11,
            round: 6,
        };
        write_call(buf, game, decision, at, OBSERVATION_SIZE, |b| obs.encode(b))
    }

    #[test]
    fn a_draft_goes_through_the_buffer() {
        let mut agent = Best::default();
        let mut buf = vec![0u8; crate::BUFFER_SIZE];
        let init = InitPayload {
            seed: 42,
            round_cap: 200,
        };
        let n = write_init(&mut buf, game::FARKLE, 0, 2, init);
        assert_eq!(handle_farkle_init(&mut agent, &mut buf, n), 0);
        assert_eq!(agent.seed, 42);

        let roll = [2, 5, 3, 1, 4, 6];
        let n = write(
            &mut buf,
            game::FARKLE,
            Decision::FarkleDraft,
            &observation(&roll),
        );
        let ret = handle_farkle_draft(&mut agent, &mut buf, n);
        assert_eq!(ret, 16);
        let answer = read_farkle_answer(&buf, ret).unwrap();
        assert_eq!(answer, FarkleAnswer::bank(&[1, 3]));
        assert_eq!(
            check_answer(&roll, answer.indices(), answer.action),
            Ok((150, Action::Bank))
        );
        let v = agent.seen.unwrap();
        assert_eq!(v.roll(), &roll);
        assert_eq!(
            (v.turn_points, v.roll_number, v.turns_done, v.turn_cap),
            (250, 2, 5, 200)
        );
        assert_eq!(
            (v.my_score(), v.best_opponent_score(), v.final_round),
            (700, 9_000, true)
        );
        assert_eq!(
            (v.seat, v.players, v.turn, v.round, v.target),
            (0, 2, 11, 6, 10_000)
        );
    }

    #[test]
    fn unreadable_observations_get_no_answer() {
        let mut agent = Best::default();
        let mut buf = vec![0u8; crate::BUFFER_SIZE];
        let obs = observation(&[1, 1, 1]);
        let n = write(
            &mut buf,
            game::LITTLE_ANIMAL_FARM,
            Decision::FarkleDraft,
            &obs,
        );
        assert_eq!(handle_farkle_draft(&mut agent, &mut buf, n), 0);
        let n = write(&mut buf, game::FARKLE, Decision::FarmTrade, &obs);
        assert_eq!(handle_farkle_draft(&mut agent, &mut buf, n), 0);
        let n = write(&mut buf, game::FARKLE, Decision::FarkleDraft, &obs);
        assert_eq!(handle_farkle_draft(&mut agent, &mut buf, n - 1), 0);
        assert_eq!(handle_farkle_draft(&mut agent, &mut buf, -5), 0);
        assert!(agent.seen.is_none());
        let n = write(&mut buf, game::FARKLE, Decision::FarkleDraft, &obs);
        assert_eq!(handle_farkle_draft(&mut agent, &mut buf, n), 20);
    }

    #[test]
    fn answers_with_raw_indices() {
        assert_eq!(FarkleAnswer::roll(&[0, 1]).indices(), &[0, 1]);
        assert_eq!(FarkleAnswer::roll(&[0, 1]).action(), Some(Action::Roll));
        assert_eq!(
            FarkleAnswer::bank(&[0, 1, 2, 3, 4, 5, 6]).indices().len(),
            6
        );
        assert_eq!(FarkleAnswer::raw(9, &[]).action(), None);
    }
}
