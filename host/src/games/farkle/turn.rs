//! What a game of Farkle is made of: its setup, what a seat is shown and answers, the record's
//! turns (each roll and what was drafted from it) and how the game ended. The rules that play
//! them are in `rules.rs`.

use farkle_rules::Reject;

use crate::game::{AgentLog, Fault, FaultPolicy, Outcome, Started};

/// Everything that determines a game apart from the players' answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// 1 for the solo benchmark, 2 to 6 for a race.
    pub players: usize,
    pub seed: u64,
    /// After this many rounds the game ends: a solo game has not reached the target; a race is a
    /// draw (ranked by score).
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// Points to reach (10,000 in the seed's harness).
    pub target: u32,
}

impl Setup {
    pub fn new(players: usize, seed: u64, round_cap: u32) -> Setup {
        Setup {
            players,
            seed,
            round_cap,
            policy: FaultPolicy::default(),
            target: farkle_rules::TARGET,
        }
    }
}

/// What a seat is shown when asked for a draft.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    pub seat: usize,
    pub players: usize,
    pub turn: u32,
    pub round: u32,
    /// Roll number within the turn, from 1.
    pub roll: u32,
    /// Points drafted so far this turn (lost on a farkle).
    pub turn_points: u32,
    /// The dice just rolled (1 to 6 of them).
    pub dice: &'a [u8],
    /// Banked score of every seat.
    pub scores: &'a [u32],
    pub final_round: bool,
    /// Turns this seat has completed before this one.
    pub turns_done: u32,
    pub target: u32,
    pub round_cap: u32,
}

/// A player's answer, before the rules have looked at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// 0 = roll the dice left, 1 = bank; anything else is rejected by the rules.
    pub action: u32,
    /// Indices into the roll of the dice to draft.
    pub draft: Vec<u32>,
}

/// One roll of a turn and what the player did with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollRecord {
    pub dice: Vec<u8>,
    /// The answer as given; `None` for a farkle (nobody is asked) or a fault.
    pub answer: Option<Answer>,
    /// Points of the draft, when the rules accepted it.
    pub points: Option<u32>,
}

/// How a turn ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The turn's points were added to the score.
    Banked,
    /// A roll scored nothing: the turn's points are lost.
    Farkle,
    /// The rules refused an answer: the turn ends without points.
    Rejected(Reject),
    /// The agent gave no usable answer; `forfeit` when it is now out of the game.
    Fault { fault: Fault, forfeit: bool },
}

/// One turn: the record's `turn` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    pub turn: u32,
    pub round: u32,
    pub seat: usize,
    pub rolls: Vec<RollRecord>,
    pub end: TurnEnd,
    /// Points added to the score by this turn.
    pub banked: u32,
    /// The seat's score after the turn.
    pub score: u32,
    pub logs: Vec<AgentLog>,
}

/// How a game ended (and how it began: what the record's start line says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Agents that failed to load, and what agents logged loading.
    pub started: Started,
    pub outcome: Outcome,
    pub scores: Vec<u32>,
    /// Seats that forfeited, in the order they did.
    pub forfeits: Vec<usize>,
    /// Turns played.
    pub turns: u32,
    /// The round of the last turn (0 if no turn was played).
    pub rounds: u32,
}
