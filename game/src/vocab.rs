//! What every game shares with the arena: how a game ended ([`Outcome`]), what the league keeps of
//! it ([`Summary`], [`FaultNote`]), what an agent logged and used ([`AgentLog`], [`SeatUsage`]),
//! and everything about one scheduled game that is not the players ([`Table`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::record::RecordMeta;
use crate::FaultPolicy;

/// How one game ended, in terms every game shares (the standings read only this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// `last_standing`: every other player forfeited.
    Win { seat: usize, last_standing: bool },
    /// `round_cap`: the game reached its round cap (in a solo game: the target was not reached).
    Draw { round_cap: bool },
    /// An explicit list of dice ran out before the game ended (a studied position).
    Unfinished,
}

impl Outcome {
    /// The win of `seat` by the game's rules (not by the others' forfeits).
    pub const fn won(seat: usize) -> Outcome {
        Outcome::Win {
            seat,
            last_standing: false,
        }
    }

    /// The win of `seat` as the last player left, every other having forfeited: how the fault
    /// policy and the seats going out end a game.
    pub const fn last_standing(seat: usize) -> Outcome {
        Outcome::Win {
            seat,
            last_standing: true,
        }
    }

    pub fn winner(&self) -> Option<usize> {
        match self {
            Outcome::Win { seat, .. } => Some(*seat),
            _ => None,
        }
    }
}

/// One fault, attributed to a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultNote {
    pub seat: usize,
    /// The decision's name in the game's records (`init` for a fault while loading).
    pub decision: String,
    pub kind: String,
    pub detail: String,
}

/// What the league keeps of a finished game, whatever the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub outcome: Outcome,
    pub rounds: u32,
    pub turns: u32,
    /// Seats that forfeited, in order.
    pub forfeits: Vec<usize>,
    pub faults: Vec<FaultNote>,
    /// Final score of each seat, for games that keep a score; ranks follow it.
    pub scores: Option<Vec<i64>>,
}

impl Summary {
    /// How a game ended: its `outcome` after `turns` turns in `rounds` rounds, the seats of
    /// `forfeits` out, each seat's score where the game keeps one; no fault notes (the host adds
    /// the game loop's).
    pub fn of(
        outcome: Outcome,
        turns: u32,
        rounds: u32,
        forfeits: &[usize],
        scores: Option<Vec<i64>>,
    ) -> Summary {
        Summary {
            outcome,
            rounds,
            turns,
            forfeits: forfeits.to_vec(),
            faults: Vec::new(),
            scores,
        }
    }
}

/// Debug output of one agent during one decision (or while loading, for the start), as games
/// record it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentLog {
    pub seat: usize,
    pub text: String,
}

/// The game's own settings of a league or challenge file (its table, named after the game), as
/// the game checked and completed them: kept in the journal's header and the standings' settings
/// (only when there are any).
pub type GameSettings = serde_json::Map<String, serde_json::Value>;

/// Everything about one scheduled game that is not the players.
#[derive(Clone, Debug)]
pub struct Table {
    pub seed: u64,
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// The game's own settings ([`crate::Game::settings`]); shared by every game of a league.
    pub settings: Arc<GameSettings>,
    /// Names, code hashes and limits, written into the record.
    pub meta: RecordMeta,
}

impl Table {
    /// A table of players named `names`, with no settings of the game's own and no code hashes
    /// or limits written into the record (smoke games, tests).
    pub fn named(seed: u64, round_cap: u32, policy: FaultPolicy, names: Vec<String>) -> Table {
        let agent_hashes = vec![None; names.len()];
        Table {
            seed,
            round_cap,
            policy,
            settings: Default::default(),
            meta: RecordMeta {
                names,
                agent_hashes,
                limits: Default::default(),
            },
        }
    }
}

/// What one agent used in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatUsage {
    /// Fuel, loading included.
    pub fuel: u64,
    /// The most fuel one decision used.
    pub max_decision_fuel: u64,
    /// Decisions the agent was asked for.
    pub decisions: u64,
}

impl SeatUsage {
    /// What a sandboxed player used in its game.
    pub fn of(player: &arena_sandbox::WasmPlayer) -> SeatUsage {
        SeatUsage {
            fuel: player.fuel_used(),
            max_decision_fuel: player.max_decision_fuel(),
            decisions: player.decisions(),
        }
    }
}
