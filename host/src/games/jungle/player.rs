//! A seat at a Jungle table: what the game asks and what a player answers. Sandboxed agents
//! (`wasm`), native strategies (`native`), a person at the terminal (`human`) and record
//! replays (`record::verify`) implement [`JunglePlayer`]; the game judges every answer with the
//! rules and runs the clock.

use arena_abi::jungle::Observation;
use jungle_rules::Move;

use crate::game::Fault;
use crate::sandbox::HostFailure;

/// One decision the game asks of the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a> {
    /// The seat asked (seat 0 plays the first player, seat 1 the second).
    pub seat: usize,
    /// The envelope's turn (this decision's ply number from 1, as the position counts plies)
    /// and round (the position's move number).
    pub turn: u32,
    pub round: u32,
    /// Plies of this game so far, this one included: the record's turn number.
    pub record_turn: u32,
    /// The observation the ABI sends (board, clocks, legal moves, the plies since the seat's
    /// previous decision).
    pub observation: &'a Observation,
    /// The most fuel this decision may use: the smaller of the per-decision cap and the clock.
    pub allowance: u64,
}

/// A player's answer, before the rules have looked at it, and the fuel it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move as answered (legal or not), or the fault of a decision without a readable answer.
    pub answer: Result<Move, Fault>,
    /// Fuel the decision used (0 for a player that is not metered, such as a person).
    pub fuel: u64,
}

/// A seat at a Jungle table.
pub trait JunglePlayer {
    /// Called once per game before the first move, with a seed for the player's own randomness.
    fn start(&mut self, _seat: usize, _seed: u64) -> Result<(), Fault> {
        Ok(())
    }

    /// The move to play.
    fn choose(&mut self, ask: &Ask) -> Reply;

    /// Text the player logged while deciding since the last call.
    fn take_log(&mut self) -> Option<String> {
        None
    }

    /// The host's own failure in this game, if it had one (a sandboxed agent the host could not
    /// set up): the game is then not a fact about the players and must not be scored.
    fn host_failure(&self) -> Option<HostFailure> {
        None
    }

    /// True once the player has left the game (a person who stopped typing): the game stops
    /// there, unfinished and unrecorded.
    fn left(&self) -> bool {
        false
    }
}
