use crate::game::{Fault, SeatUsage};
use crate::sandbox::HostFailure;

/// What a player sees when asked to draft. A copy owned by the game.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'a> {
    pub seat: usize,
    pub players: usize,
    /// Turn number over the whole game, from 1.
    pub turn: u32,
    /// Round number, from 1: one turn of every player still in the game.
    pub round: u32,
    /// Roll number within this turn, from 1 (rolls after hot dice count on).
    pub roll: u32,
    /// Points drafted earlier in this turn, lost on a farkle.
    pub turn_points: u32,
    /// The dice just rolled (1 to 6 of them), faces 1 to 6. Never a farkle.
    pub dice: &'a [u8],
    /// Banked score of every seat.
    pub scores: &'a [u32],
    /// Someone has reached the target: this is the seat's last turn.
    pub final_round: bool,
    /// Turns this seat has finished.
    pub turns_done: u32,
    pub target: u32,
    pub round_cap: u32,
}

/// An answer as the player gave it, before the rules have looked at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// 0 = roll the dice left, 1 = bank; anything else is rejected by the rules.
    pub action: u32,
    /// Indices into the roll of the dice to draft.
    pub draft: Vec<u32>,
}

/// A seat at a Farkle table. Sandboxed agents, native strategies and record replays implement
/// it; the game checks every answer with the rules.
pub trait FarklePlayer {
    /// Called once per game before the first turn, with a seed for the player's own randomness.
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        Ok(())
    }

    /// Which dice to draft from the roll, and whether to bank or roll on.
    fn draft(&mut self, obs: &Observation) -> Result<Answer, Fault>;

    /// Text the player logged while deciding since the last call.
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
}
