//! What a game brings to the arena, and what it reuses.
//!
//! A game brings its rules, its ABI payloads (observation and answer after the envelope), its
//! record lines and its narration. Everything else is shared: the sandbox and its budgets, faults
//! and the fault policy, scheduling, the journal, results, ratings, verification and reports. The
//! league runner only knows the [`Game`] trait; each game implements it in its own module
//! (`crate::farm`, `crate::farkle`).

pub mod abi;
pub mod fault;

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::sandbox::{AgentInterface, HostFailure};

pub use fault::{Fault, FaultKind, FaultPolicy};

/// The games the arena hosts. The name is what league files and records say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameKind {
    #[serde(rename = "little-animal-farm")]
    Farm,
    #[serde(rename = "farkle")]
    Farkle,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Farm, GameKind::Farkle];

    /// Name in league files, records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Farm => "little-animal-farm",
            GameKind::Farkle => "farkle",
        }
    }

    /// Name for people.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Farm => "Little Animal Farm",
            GameKind::Farkle => "Farkle",
        }
    }

    /// What the sandbox is told about the game.
    pub fn agent(self) -> &'static AgentInterface {
        match self {
            GameKind::Farm => &crate::games::farm::AGENT,
            GameKind::Farkle => &crate::games::farkle::AGENT,
        }
    }

    /// The game of an agent interface.
    pub fn of(agent: &AgentInterface) -> GameKind {
        GameKind::ALL
            .into_iter()
            .find(|g| g.agent().abi_id == agent.abi_id)
            .expect("an interface of a game of the arena")
    }

    /// Game id in the ABI envelope.
    pub fn abi_id(self) -> u32 {
        self.agent().abi_id
    }

    /// The decision exports an agent must have to play this game (all `(i32) -> i32`).
    pub fn decision_exports(self) -> &'static [&'static str] {
        self.agent().decisions
    }

    /// Players at one table. Farkle with one player is the solo benchmark (turns to 10,000).
    pub const fn seats(self) -> RangeInclusive<usize> {
        match self {
            GameKind::Farm => 2..=farm_rules::MAX_PLAYERS,
            // The Farkle observation has a score slot per seat.
            GameKind::Farkle => 1..=arena_abi::farkle::MAX_SEATS,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(s: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
                format!("unknown game {s:?} (known: {})", known.join(", "))
            })
    }
}

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
    /// The decision's name in the game's records ("trade", "accept", "draft", "init").
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
    /// Final score of each seat, for games that keep a score (Farkle); ranks follow it.
    pub scores: Option<Vec<i64>>,
}

/// Everything about one scheduled game that is not the players.
#[derive(Clone, Debug)]
pub struct Table {
    pub seed: u64,
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// Names, code hashes and limits, written into the record.
    pub meta: crate::records::RecordMeta,
}

/// A played game: its record (JSON Lines, docs/RECORDS.md) and its summary.
pub struct Played {
    pub record: Vec<u8>,
    pub summary: Summary,
}

/// A game the league runner can play. `Player` is the game's seat interface (a trait object such
/// as `dyn FarmPlayer`): sandboxed agents, native strategies and replays implement it.
pub trait Game: Sync {
    type Player: ?Sized + 'static;

    fn kind(&self) -> GameKind;

    /// Plays one game with `players[s]` in seat `s` and writes its record. Never fails because of
    /// what a player does (that is a fault in the record); an error is the host's own failure
    /// (a [`HostFailure`] when the host could not set a seat up: see [`check_host_failures`]).
    fn play(&self, table: &Table, players: &mut [Box<Self::Player>]) -> anyhow::Result<Played>;
}

/// Fails with the first seat's [`HostFailure`], if the host failed any seat: such a game is not
/// recorded (every game does this check).
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

/// A league entrant for game `G`: anything that can take a seat in a fresh game. Sandboxed agents
/// are the real thing; native strategies implement it too (tests, benchmarks).
pub trait Contestant<G: Game + ?Sized>: Sync {
    /// A player for one new game: nothing may carry over from earlier games.
    fn new_player(&self) -> Box<G::Player>;
    /// SHA-256 of the agent's code, when it has code.
    fn code_hash(&self) -> Option<String>;
}
