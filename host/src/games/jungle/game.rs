//! The Jungle game loop: the rules crate judges every answer, the fuel clock runs as
//! docs/JUNGLE.md says ("Playing Jungle in the arena"), faults go through the fault policy.

use std::ops::ControlFlow;

use arena_abi::jungle::{Clock, Observation, Played};
use jungle_rules::{
    DrawReason, Illegal, Move, Outcome as RulesOutcome, Piece, Position, Side, WinReason,
};

use super::player::{Ask, JunglePlayer};
use crate::game::AgentLog;
use crate::game::{Fault, FaultKind, FaultPolicy, Outcome};

/// The fuel clock of a game: what each player starts with, what it gets at each decision, and
/// the per-decision cap (the sandbox's `fuel_per_decision`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuelClock {
    pub start: u64,
    pub increment: u64,
    pub decision_cap: u64,
}

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

    /// Seed for the agent in `seat`'s own randomness (the derivation of the other games).
    pub fn agent_seed(&self, seat: usize) -> u64 {
        crate::game::seed::agent_seed(self.seed, seat)
    }
}

/// Why a game ended (the end line's `reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner entered the loser's den.
    Den,
    /// The loser had no piece left.
    AllCaptured,
    /// The loser, to move, had no legal move.
    NoMoves,
    /// The loser ran out of fuel with no more on its clock than the per-decision cap.
    Time,
    /// The loser forfeited (a fault under the `forfeit` policy, or at load); both forfeited at
    /// load: a draw.
    Forfeit,
    /// 100 plies without a capture: a draw.
    NoCapture,
    /// The ply cap: a draw.
    PlyCap,
}

impl EndReason {
    pub const ALL: [EndReason; 7] = [
        EndReason::Den,
        EndReason::AllCaptured,
        EndReason::NoMoves,
        EndReason::Time,
        EndReason::Forfeit,
        EndReason::NoCapture,
        EndReason::PlyCap,
    ];

    /// The name in records: `den`, `all_captured`, `no_moves`, `time`, `forfeit`,
    /// `no_capture`, `ply_cap`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Den => WinReason::Den.name(),
            EndReason::AllCaptured => WinReason::AllCaptured.name(),
            EndReason::NoMoves => WinReason::NoMoves.name(),
            EndReason::Time => "time",
            EndReason::Forfeit => "forfeit",
            EndReason::NoCapture => DrawReason::NoCapture.name(),
            EndReason::PlyCap => DrawReason::PlyCap.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Words for people, after "won by" or "drawn by".
    pub const fn words(self) -> &'static str {
        match self {
            EndReason::Den => "entering the den",
            EndReason::AllCaptured => "capturing every enemy piece",
            EndReason::NoMoves => "leaving the opponent no legal move",
            EndReason::Time => "time (the opponent's clock ran out)",
            EndReason::Forfeit => "forfeit",
            EndReason::NoCapture => "100 plies without a capture",
            EndReason::PlyCap => "the ply cap",
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

/// A fault while an agent was loaded for the game (always a forfeit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadFault {
    pub seat: usize,
    pub fault: Fault,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
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

    /// The side that won, if any.
    pub fn winner(&self) -> Option<Side> {
        self.outcome.winner().and_then(Side::from_index)
    }
}

/// A whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub setup: Setup,
    pub load_faults: Vec<LoadFault>,
    pub start_logs: Vec<AgentLog>,
    pub plies: Vec<Ply>,
    pub end: GameEnd,
}

/// Takes a game's parts as it is played (a streamed verification compares each ply with its
/// record line and drops it; a terminal narrates it). Either method can stop the game.
pub trait GameSink {
    fn start(&mut self, faults: &[LoadFault], logs: &[AgentLog]) -> ControlFlow<()>;
    fn ply(&mut self, ply: Ply) -> ControlFlow<()>;
}

/// Plays one game to its end; `players[s]` sits in seat `s`. `None` when a player left (a
/// person who stopped): the game is unfinished.
pub fn play_game(setup: &Setup, players: [&mut dyn JunglePlayer; 2]) -> Option<GameRecord> {
    #[derive(Default)]
    struct Keep {
        load_faults: Vec<LoadFault>,
        start_logs: Vec<AgentLog>,
        plies: Vec<Ply>,
    }
    impl GameSink for Keep {
        fn start(&mut self, faults: &[LoadFault], logs: &[AgentLog]) -> ControlFlow<()> {
            self.load_faults = faults.to_vec();
            self.start_logs = logs.to_vec();
            ControlFlow::Continue(())
        }
        fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
            self.plies.push(ply);
            ControlFlow::Continue(())
        }
    }
    let mut keep = Keep::default();
    let end = play_game_into(setup, players, &mut keep)?;
    Some(GameRecord {
        setup: setup.clone(),
        load_faults: keep.load_faults,
        start_logs: keep.start_logs,
        plies: keep.plies,
        end,
    })
}

/// The position after a ply in which the side to move made no move (a fault under the
/// `lose_move` policy): the same board, the other side to move, one more ply without a capture.
pub fn passed(p: &Position) -> Position {
    Position::from_codes(
        p.codes(),
        p.side_to_move().opponent(),
        p.plies_since_capture().saturating_add(1),
        p.ply().saturating_add(1),
    )
    .expect("the side that passed stands in no den, or the game would have ended")
}

/// The fault of a readable move the rules refuse.
pub fn illegal_fault(mv: Move, why: Illegal) -> Fault {
    Fault::new(
        FaultKind::BadAnswer,
        format!(
            "jungle_move answered {mv}, which is illegal: {} ({})",
            why.message(),
            why.name()
        ),
    )
}

/// Plays one game as [`play_game`] does, handing the start and every ply to `sink` instead of
/// keeping them. `None` when the sink stopped the game or a player left.
pub fn play_game_into(
    setup: &Setup,
    mut players: [&mut dyn JunglePlayer; 2],
    sink: &mut dyn GameSink,
) -> Option<GameEnd> {
    let clock = setup.clock;
    let ply_cap = setup.ply_cap();
    let mut load_faults = Vec::new();
    let mut start_logs = Vec::new();
    for (seat, player) in players.iter_mut().enumerate() {
        let started = player.start(seat, setup.agent_seed(seat));
        if let Some(text) = player.take_log().filter(|t| !t.is_empty()) {
            start_logs.push(AgentLog { seat, text });
        }
        if let Err(fault) = started {
            load_faults.push(LoadFault { seat, fault });
        }
    }
    if sink.start(&load_faults, &start_logs).is_break() {
        return None;
    }
    let mut pos = setup.start;
    let mut clocks = [clock.start; 2];
    let mut fuel = [0u64; 2];
    let end = |outcome, reason, pos, clocks, fuel, forfeits, turns| GameEnd {
        outcome,
        reason,
        position: pos,
        clocks,
        fuel,
        forfeits,
        turns,
    };
    match load_faults.as_slice() {
        [] => {}
        [one] => {
            return Some(end(
                Outcome::Win {
                    seat: 1 - one.seat,
                    last_standing: true,
                },
                EndReason::Forfeit,
                pos,
                clocks,
                fuel,
                vec![one.seat],
                0,
            ))
        }
        _ => {
            return Some(end(
                Outcome::Draw { round_cap: false },
                EndReason::Forfeit,
                pos,
                clocks,
                fuel,
                vec![0, 1],
                0,
            ))
        }
    }
    let mut history: Vec<Played> = Vec::new();
    let mut seen = [0usize; 2];
    let mut turn = 0u32;
    loop {
        if let Some(o) = pos.outcome(ply_cap) {
            let (outcome, reason) = match o {
                RulesOutcome::Win { winner, reason } => (
                    Outcome::Win {
                        seat: winner.index(),
                        last_standing: false,
                    },
                    match reason {
                        WinReason::Den => EndReason::Den,
                        WinReason::AllCaptured => EndReason::AllCaptured,
                        WinReason::NoMoves => EndReason::NoMoves,
                    },
                ),
                // Both of the rules' draws end a game by its length, as a round cap does
                // elsewhere (a draw without `round_cap` is a draw because everyone forfeited).
                RulesOutcome::Draw(DrawReason::NoCapture) => {
                    (Outcome::Draw { round_cap: true }, EndReason::NoCapture)
                }
                RulesOutcome::Draw(DrawReason::PlyCap) => {
                    (Outcome::Draw { round_cap: true }, EndReason::PlyCap)
                }
            };
            return Some(end(outcome, reason, pos, clocks, fuel, Vec::new(), turn));
        }
        let seat = pos.side_to_move().index();
        turn += 1;
        clocks[seat] = clocks[seat].saturating_add(clock.increment);
        let before = clocks[seat];
        let allowance = before.min(clock.decision_cap);
        let observation = Observation::new(
            &pos,
            ply_cap,
            Clock {
                mine: before,
                theirs: clocks[1 - seat],
                increment: clock.increment,
                decision_cap: clock.decision_cap,
            },
            &history[seen[seat]..],
        );
        seen[seat] = history.len();
        let reply = players[seat].choose(&Ask {
            seat,
            turn: pos.ply().saturating_add(1),
            round: pos.move_number(),
            record_turn: turn,
            observation: &observation,
            allowance,
        });
        if players[seat].left() {
            return None;
        }
        let logs: Vec<AgentLog> = players[seat]
            .take_log()
            .filter(|t| !t.is_empty())
            .map(|text| AgentLog { seat, text })
            .into_iter()
            .collect();
        let mut used = reply.fuel.min(allowance);
        let mut ply = Ply {
            turn,
            round: pos.move_number(),
            seat,
            answer: reply.answer.as_ref().ok().copied(),
            piece: None,
            captured: None,
            illegal: None,
            fault: None,
            fuel: 0,
            clock: 0,
            position: pos,
            logs,
        };
        let fault = match reply.answer {
            Ok(mv) => match pos.check_move(mv) {
                Ok(()) => {
                    let played = Played::of(&pos, mv);
                    ply.piece = played.piece;
                    ply.captured = played.captured;
                    history.push(played);
                    pos.make(mv);
                    None
                }
                Err(why) => {
                    ply.illegal = Some(why);
                    Some(illegal_fault(mv, why))
                }
            },
            Err(fault) => Some(fault),
        };
        let mut ended = None;
        if let Some(fault) = fault {
            // Running out of fuel spends all of it; with no more on the clock than the cap, the
            // clock was the limit: the game is lost on time, whatever the policy.
            let out_of_fuel = fault.kind == FaultKind::DecisionFuel;
            if out_of_fuel {
                used = allowance;
            }
            let time = out_of_fuel && before <= clock.decision_cap;
            let forfeit = !time && setup.policy == FaultPolicy::Forfeit;
            if time {
                ended = Some((
                    Outcome::Win {
                        seat: 1 - seat,
                        last_standing: false,
                    },
                    EndReason::Time,
                    Vec::new(),
                ));
            } else if forfeit {
                ended = Some((
                    Outcome::Win {
                        seat: 1 - seat,
                        last_standing: true,
                    },
                    EndReason::Forfeit,
                    vec![seat],
                ));
            } else {
                history.push(Played {
                    mv: None,
                    piece: None,
                    captured: None,
                });
                pos = passed(&pos);
            }
            ply.fault = Some(PlyFault { fault, forfeit });
        }
        clocks[seat] -= used;
        fuel[seat] = fuel[seat].saturating_add(used);
        ply.fuel = used;
        ply.clock = clocks[seat];
        ply.position = pos;
        if sink.ply(ply).is_break() {
            return None;
        }
        if let Some((outcome, reason, forfeits)) = ended {
            return Some(end(outcome, reason, pos, clocks, fuel, forfeits, turn));
        }
    }
}
