//! What a game of Little Animal Farm is made of: its setup (a start position may be given), what
//! a seat is shown and answers, the record's turns and how the game ended. The rules that play
//! them are in `rules.rs`.

use farm_rules::{Herd, Offer, Position, Roll, Trade};

use super::event::Event;
use super::fault::FaultPolicy;
use crate::game::{AgentLog, Outcome};

/// A position to start from instead of the standard start (like a chess FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    /// One herd per seat.
    pub herds: Vec<Herd>,
    pub stock: Herd,
    /// The seat that plays the first turn.
    pub to_move: usize,
}

/// Everything that determines a game apart from the players' answers and the dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub players: usize,
    /// Seed of the dice and of the agents' own randomness; `None` when the dice are given explicitly.
    pub seed: Option<u64>,
    /// After this many complete rounds without a winner the game is a draw.
    pub round_cap: u32,
    pub policy: FaultPolicy,
    pub start: Option<StartPosition>,
}

impl Setup {
    pub fn standard(players: usize, seed: u64, round_cap: u32) -> Setup {
        Setup {
            players,
            seed: Some(seed),
            round_cap,
            policy: FaultPolicy::default(),
            start: None,
        }
    }

    /// The position the first turn is played from.
    pub fn initial_position(&self) -> Position {
        let mut pos = Position::new(self.players);
        if let Some(start) = &self.start {
            for (slot, herd) in pos.herds.iter_mut().zip(&start.herds) {
                *slot = *herd;
            }
            pos.stock = start.stock;
        }
        pos
    }

    pub fn first_to_move(&self) -> usize {
        self.start.as_ref().map_or(0, |s| s.to_move)
    }

    /// Seed handed to the agent in `seat` for its own randomness: derived from the game seed so
    /// that a game replays exactly, and different for every seat.
    pub fn agent_seed(&self, seat: usize) -> u64 {
        crate::game::seed::agent_seed(self.seed.unwrap_or(0), seat)
    }
}

/// One turn: the offer as given, the partner's answer, the roll, and what resulted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    pub turn: u32,
    pub round: u32,
    pub seat: usize,
    /// `None` when the trade decision faulted.
    pub offer: Option<Offer>,
    /// The partner's answer, for an offer that reached a partner player.
    pub answer: Option<bool>,
    /// `None` when the game ended before the roll, or the player forfeited.
    pub roll: Option<Roll>,
    pub events: Vec<Event>,
    /// What the agents deciding in this turn wrote to their debug logs while deciding.
    pub logs: Vec<AgentLog>,
}

/// How a game ended (and what happened before the first turn: the record's start line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Events before the first turn (agents that failed to load).
    pub start_events: Vec<Event>,
    /// Debug output of agents while loading.
    pub start_logs: Vec<AgentLog>,
    pub outcome: Outcome,
    pub final_position: Position,
    /// Seats that forfeited, in the order they did.
    pub forfeits: Vec<usize>,
    /// Turns played.
    pub turns: u32,
    /// The round of the last turn (0 if no turn was played).
    pub rounds: u32,
}

/// What a seat is shown when asked: the observation, and for an answer to an offer, the offer.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    pub observation: Observation<'a>,
    pub offer: Option<AcceptView>,
}

/// What a player sees when asked for a decision. Everything is a copy owned by the game: a player
/// cannot change the game through it.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    /// The seat being asked.
    pub seat: usize,
    /// Whose turn it is.
    pub to_move: usize,
    /// Turn number, counted from 1 over the whole game.
    pub turn: u32,
    /// Round number, counted from 1; a round is one turn of every player still in the game.
    pub round: u32,
    pub position: &'a Position,
    /// Events since this seat's previous decision (for its first decision, since the start).
    pub events: &'a [Event],
}

/// The offer put to a partner player.
#[derive(Clone, Copy, Debug)]
pub struct AcceptView {
    pub trader: usize,
    /// The offer exactly as the trader gave it.
    pub offer: Offer,
    /// The same offer after the rules' checks.
    pub trade: Trade,
}

/// An answer: an offer (or a pass) to the trade decision, yes or no to an offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Offer(Offer),
    Accept(bool),
}
