//! What a game of Jungle is made of: its setup (the fuel clock, the start position), the
//! record's plies, and how the game ended and why. The rules that play them are in `rules.rs`.

use jungle_rules::{DrawReason, Illegal, Move, Piece, Position, WinReason};

use super::Settings;
pub use crate::game::FuelClock;
use crate::game::{AgentLog, Fault, FaultPolicy, Host, Outcome, Started, Table};

/// Everything that determines a game apart from the players' answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Seeds the agents' own randomness (Jungle has no dice).
    pub seed: u64,
    /// Told to the agents at init; the ply cap is twice it.
    pub round_cap: u32,
    pub policy: FaultPolicy,
    pub clock: FuelClock,
    /// The position the game starts from (seat 0 plays its first player, seat 1 its second,
    /// whichever is to move).
    pub start: Position,
}

impl Setup {
    /// A game from the start position.
    pub fn new(seed: u64, round_cap: u32, clock: FuelClock) -> Setup {
        Setup {
            seed,
            round_cap,
            policy: FaultPolicy::default(),
            clock,
            start: Position::start(),
        }
    }

    /// The game is a draw once the position has this many plies (counted from the start of
    /// the game, so a position given at move 20 has fewer left).
    pub fn ply_cap(&self) -> u32 {
        self.round_cap.saturating_mul(2)
    }

    /// The setup of one game of `table`: its settings (the clock, the start position), and the
    /// per-decision cap of `host`'s sandbox (the default limits' where only native strategies
    /// play).
    pub fn of(table: &Table, host: &Host<'_>) -> anyhow::Result<Setup> {
        let settings = Settings::of_map(&table.settings)?;
        let clock = FuelClock::of(settings.clock, settings.increment, host);
        Ok(Setup {
            policy: table.policy,
            start: settings.start()?,
            ..Setup::new(table.seed, table.round_cap, clock)
        })
    }
}

/// Why a game ended (the end line's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The rules' win: the winner entered the loser's den, or the loser had no piece left, or
    /// no legal move.
    Won(WinReason),
    /// The loser ran out of fuel with no more on its clock than the per-decision cap.
    Time,
    /// The loser forfeited (a fault under the `forfeit` policy, or at load); both forfeited at
    /// load: a draw.
    Forfeit,
    /// The rules' draw: 100 plies without a capture, or the ply cap.
    Drawn(DrawReason),
}

impl EndReason {
    /// The name in records: the rules' (`den`, `all_captured`, `no_moves`, `no_capture`,
    /// `ply_cap`), `time` or `forfeit`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Won(reason) => reason.name(),
            EndReason::Time => "time",
            EndReason::Forfeit => "forfeit",
            EndReason::Drawn(reason) => reason.name(),
        }
    }

    /// Words for people, after "won by" or "drawn by".
    pub const fn words(self) -> &'static str {
        match self {
            EndReason::Won(WinReason::Den) => "entering the den",
            EndReason::Won(WinReason::AllCaptured) => "capturing every enemy piece",
            EndReason::Won(WinReason::NoMoves) => "leaving the opponent no legal move",
            EndReason::Time => "time (the opponent's clock ran out)",
            EndReason::Forfeit => "forfeit",
            EndReason::Drawn(DrawReason::NoCapture) => "100 plies without a capture",
            EndReason::Drawn(DrawReason::PlyCap) => "the ply cap",
        }
    }
}

/// A fault in a decision, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyFault {
    pub fault: Fault,
    /// The seat is out of the game (policy `forfeit`).
    pub forfeit: bool,
}

/// One ply: the decision of the side to move, and what came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// Plies of this game, from 1.
    pub turn: u32,
    /// The move number of the position the ply was played in.
    pub round: u32,
    pub seat: usize,
    /// The move as answered, legal or not; `None` when the decision gave no readable answer.
    pub answer: Option<Move>,
    /// The piece that moved and the piece it captured, for a legal move.
    pub piece: Option<Piece>,
    pub captured: Option<Piece>,
    /// Why the answered move was refused.
    pub illegal: Option<Illegal>,
    /// The fault of the decision (an illegal move is a `bad_answer` fault); `None` for a legal move.
    pub fault: Option<PlyFault>,
    /// Fuel the decision used, taken off the clock.
    pub fuel: u64,
    /// The seat's clock after the decision.
    pub clock: u64,
    /// The position after the ply (after a fault that only loses the move: the same board, the
    /// other side to move).
    pub position: Position,
    pub logs: Vec<AgentLog>,
}

impl Ply {
    /// The move played: the answer, when the rules took it.
    pub fn played(&self) -> Option<Move> {
        self.answer.filter(|_| self.fault.is_none())
    }
}

/// How a game ended (and how it began: what the record's start line says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Agents that failed to load, and what agents logged loading.
    pub started: Started,
    /// The outcome every game shares (standings read it): a forfeit is a win `last_standing`;
    /// the rules' draws (no capture, the ply cap) are draws `round_cap`, both players failing to
    /// load a draw without it.
    pub outcome: Outcome,
    pub reason: EndReason,
    pub position: Position,
    /// Each seat's clock at the end.
    pub clocks: [u64; 2],
    /// Fuel each seat's decisions used in the game.
    pub fuel: [u64; 2],
    /// Seats that forfeited, in order.
    pub forfeits: Vec<usize>,
    /// Plies played.
    pub turns: u32,
}

impl GameEnd {
    /// Rounds (a move of each player) the game lasted: its plies, halved and rounded up.
    pub fn rounds(&self) -> u32 {
        self.turns.div_ceil(2)
    }
}
