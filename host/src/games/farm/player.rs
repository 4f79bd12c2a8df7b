use farm_rules::{Offer, Position, Trade};

use super::event::Event;
use super::fault::Fault;
use crate::game::SeatUsage;
use crate::sandbox::HostFailure;

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

/// A seat at the table. Sandboxed agents, native strategies and record replays all implement it;
/// the game never trusts an answer before the rules have checked it.
pub trait FarmPlayer {
    /// Called once per game before the first turn, with a seed for the player's own randomness.
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        Ok(())
    }

    /// Trade or pass, before the roll.
    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault>;

    /// Accept (`true`) or deny (`false`) an offer made to this seat.
    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault>;

    /// Text the player logged while deciding since the last call (debug output of an agent).
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
