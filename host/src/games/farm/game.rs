use std::ops::ControlFlow;

use farm_rules::{
    apply_roll, check_offer, execute_trade, FailReason, Herd, Offer, Partner, Position, Roll,
    MAX_PLAYERS,
};

use super::dice::DiceSource;
use super::event::{Event, Party};
use super::fault::{Decision, Fault, FaultPolicy};
use super::player::{AcceptView, FarmPlayer, Observation};
pub use crate::game::{AgentLog, Outcome};

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

/// A whole game: its setup, what happened before the first turn, every turn, the outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub setup: Setup,
    /// Events before the first turn (agents that failed to load).
    pub start_events: Vec<Event>,
    /// Debug output of agents while loading.
    pub start_logs: Vec<AgentLog>,
    pub turns: Vec<TurnRecord>,
    pub outcome: Outcome,
    pub final_position: Position,
    /// Seats that forfeited, in the order they did.
    pub forfeits: Vec<usize>,
}

impl GameRecord {
    /// Complete rounds played (the game length used in standings).
    pub fn rounds(&self) -> u32 {
        self.turns.last().map_or(0, |t| t.round)
    }
}

/// Plays one game to its end. `players[s]` sits in seat `s`.
///
/// Never panics on anything a player answers: every answer goes through the rules' checks, and
/// every failed decision is a fault handled by `setup.policy`.
pub fn play_game(
    setup: &Setup,
    players: &mut [&mut dyn FarmPlayer],
    dice: &mut dyn DiceSource,
) -> GameRecord {
    #[derive(Default)]
    struct Keep {
        start_events: Vec<Event>,
        start_logs: Vec<AgentLog>,
        turns: Vec<TurnRecord>,
    }
    impl GameSink for Keep {
        fn start(&mut self, events: Vec<Event>, logs: Vec<AgentLog>) -> ControlFlow<()> {
            self.start_events = events;
            self.start_logs = logs;
            ControlFlow::Continue(())
        }
        fn turn(&mut self, turn: TurnRecord) -> ControlFlow<()> {
            self.turns.push(turn);
            ControlFlow::Continue(())
        }
    }
    let mut keep = Keep::default();
    let end = play_game_into(setup, players, dice, &mut keep)
        .expect("a sink that keeps every turn never stops the game");
    GameRecord {
        setup: setup.clone(),
        start_events: keep.start_events,
        start_logs: keep.start_logs,
        turns: keep.turns,
        outcome: end.outcome,
        final_position: end.final_position,
        forfeits: end.forfeits,
    }
}

/// Takes a game's parts as it is played, for a caller that does not keep the whole game (a
/// streamed verification compares each turn with its record line and drops it). Either method
/// can stop the game.
pub trait GameSink {
    /// What happened before the first turn: load faults (and their forfeits, and the outcome if
    /// the game is decided there) and what the agents logged while loading.
    fn start(&mut self, events: Vec<Event>, logs: Vec<AgentLog>) -> ControlFlow<()>;
    /// One turn, as soon as it is played.
    fn turn(&mut self, turn: TurnRecord) -> ControlFlow<()>;
}

/// How a game ended: what a [`GameRecord`] holds besides its setup, start and turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub final_position: Position,
    /// Seats that forfeited, in the order they did.
    pub forfeits: Vec<usize>,
    /// Turns played.
    pub turns: u32,
    /// The round of the last turn (0 if no turn was played).
    pub rounds: u32,
}

/// Plays one game as [`play_game`] does, handing the start and every turn to `sink` instead of
/// keeping them. `None` when the sink stopped the game.
pub fn play_game_into(
    setup: &Setup,
    players: &mut [&mut dyn FarmPlayer],
    dice: &mut dyn DiceSource,
    sink: &mut dyn GameSink,
) -> Option<GameEnd> {
    assert_eq!(players.len(), setup.players, "one player per seat");
    assert!((2..=MAX_PLAYERS).contains(&setup.players), "2 to 6 players");
    let mut g = Game {
        setup,
        pos: setup.initial_position(),
        log: Vec::new(),
        cursors: vec![0; setup.players],
        forfeits: Vec::new(),
        current: Vec::new(),
        agent_logs: Vec::new(),
    };

    for (seat, player) in players.iter_mut().enumerate() {
        let started = player.start(seat, setup.players, setup.agent_seed(seat));
        g.collect_log(&mut **player, seat);
        if let Err(fault) = started {
            g.fault(seat, Decision::Init, fault, true);
        }
    }
    // Before taking the start events: a game decided at load time records its win or draw there.
    let mut outcome = g.standing_outcome();
    let start_events = std::mem::take(&mut g.current);
    let start_logs = std::mem::take(&mut g.agent_logs);
    if sink.start(start_events, start_logs).is_break() {
        return None;
    }
    let mut turn = 0;
    let mut rounds = 0;
    let n = setup.players;
    'rounds: for round in 1..=setup.round_cap {
        if outcome.is_some() {
            break;
        }
        for k in 0..n {
            let seat = (setup.first_to_move() + k) % n;
            if g.pos.is_out(seat) {
                continue;
            }
            turn += 1;
            rounds = round;
            let (record, ended) = g.play_turn(players, dice, seat, turn, round);
            g.forget_seen_events();
            if sink.turn(record).is_break() {
                return None;
            }
            if let Some(o) = ended {
                outcome = Some(o);
                break 'rounds;
            }
        }
    }
    Some(GameEnd {
        outcome: outcome.unwrap_or(Outcome::Draw { round_cap: true }),
        final_position: g.pos,
        forfeits: g.forfeits,
        turns: turn,
        rounds,
    })
}

struct Game<'s> {
    setup: &'s Setup,
    pos: Position,
    /// The events some seat still in the game has not yet been shown, for the players'
    /// observations (older ones are dropped: a long game does not pile them up).
    log: Vec<Event>,
    /// Per seat: how much of `log` the seat has seen.
    cursors: Vec<usize>,
    forfeits: Vec<usize>,
    /// Events of the turn being played.
    current: Vec<Event>,
    /// Agents' debug output during the turn being played.
    agent_logs: Vec<AgentLog>,
}

impl Game<'_> {
    /// Keeps what `seat` logged during the decision it just made, even if the decision faulted:
    /// that output is what its author needs to see.
    fn collect_log(&mut self, player: &mut dyn FarmPlayer, seat: usize) {
        if let Some(text) = player.take_log() {
            if !text.is_empty() {
                self.agent_logs.push(AgentLog { seat, text });
            }
        }
    }

    /// Drops the events every seat still in the game has seen. A seat that is out is never
    /// shown anything again.
    fn forget_seen_events(&mut self) {
        let seen_by_all = (0..self.setup.players)
            .filter(|&s| !self.pos.is_out(s))
            .map(|s| self.cursors[s])
            .min()
            .unwrap_or(self.log.len());
        if seen_by_all > 0 {
            self.log.drain(..seen_by_all);
            for c in &mut self.cursors {
                *c = c.saturating_sub(seen_by_all);
            }
        }
    }

    fn emit(&mut self, e: Event) {
        self.log.push(e.clone());
        self.current.push(e);
    }

    fn observe<R>(
        &mut self,
        seat: usize,
        to_move: usize,
        turn: u32,
        round: u32,
        f: impl FnOnce(&Observation) -> R,
    ) -> R {
        let seen = self.cursors[seat];
        self.cursors[seat] = self.log.len();
        let obs = Observation {
            seat,
            to_move,
            turn,
            round,
            position: &self.pos,
            events: &self.log[seen..],
        };
        f(&obs)
    }

    /// Records a fault; returns true when the seat is now out of the game.
    fn fault(
        &mut self,
        seat: usize,
        decision: Decision,
        fault: Fault,
        always_forfeit: bool,
    ) -> bool {
        self.emit(Event::Fault {
            seat,
            decision,
            fault,
        });
        if always_forfeit || self.setup.policy == FaultPolicy::Forfeit {
            self.pos.out |= 1 << seat;
            self.forfeits.push(seat);
            self.emit(Event::Forfeit { seat });
            true
        } else {
            false
        }
    }

    /// The outcome forced by forfeits: one player left wins, none left is a draw.
    fn standing_outcome(&mut self) -> Option<Outcome> {
        let active: Vec<usize> = (0..self.setup.players)
            .filter(|&s| !self.pos.is_out(s))
            .collect();
        let outcome = match active.as_slice() {
            [] => Outcome::Draw { round_cap: false },
            [seat] if self.setup.players > 1 => Outcome::Win {
                seat: *seat,
                last_standing: true,
            },
            _ => return None,
        };
        self.emit_outcome(outcome);
        Some(outcome)
    }

    fn emit_outcome(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win {
                seat,
                last_standing,
            } => self.emit(Event::Win {
                seat,
                last_standing,
            }),
            Outcome::Draw { round_cap } => self.emit(Event::Draw { round_cap }),
            Outcome::Unfinished => {}
        }
    }

    fn play_turn(
        &mut self,
        players: &mut [&mut dyn FarmPlayer],
        dice: &mut dyn DiceSource,
        seat: usize,
        turn: u32,
        round: u32,
    ) -> (TurnRecord, Option<Outcome>) {
        let mut record = TurnRecord {
            turn,
            round,
            seat,
            offer: None,
            answer: None,
            roll: None,
            events: Vec::new(),
            logs: Vec::new(),
        };
        let ended = self.turn_body(players, dice, &mut record);
        record.events = std::mem::take(&mut self.current);
        record.logs = std::mem::take(&mut self.agent_logs);
        (record, ended)
    }

    fn turn_body(
        &mut self,
        players: &mut [&mut dyn FarmPlayer],
        dice: &mut dyn DiceSource,
        record: &mut TurnRecord,
    ) -> Option<Outcome> {
        let (seat, turn, round) = (record.seat, record.turn, record.round);
        let answer = self.observe(seat, seat, turn, round, |obs| players[seat].trade(obs));
        self.collect_log(&mut *players[seat], seat);
        match answer {
            Err(fault) => {
                if self.fault(seat, Decision::Trade, fault, false) {
                    return self.standing_outcome();
                }
            }
            Ok(offer) => {
                record.offer = Some(offer);
                record.answer = self.settle_offer(players, seat, turn, round, &offer);
                if let Some(o) = self.standing_outcome() {
                    return Some(o);
                }
            }
        }

        if self.pos.herds[seat].is_winning() {
            return self.win(seat);
        }
        let Some(roll) = dice.next_roll() else {
            return Some(Outcome::Unfinished);
        };
        record.roll = Some(roll);
        self.emit(Event::Rolled { seat, roll });
        let effect = apply_roll(&mut self.pos, seat, roll);
        if !effect.wolf.is_empty() {
            self.emit(Event::Wolf {
                seat,
                lost: effect.wolf,
            });
        }
        if !effect.fox.is_empty() {
            self.emit(Event::Fox {
                seat,
                lost: effect.fox,
            });
        }
        if !effect.bred.is_empty() {
            self.emit(Event::Bred {
                seat,
                gained: effect.bred,
            });
        }
        if self.pos.herds[seat].is_winning() {
            return self.win(seat);
        }
        None
    }

    fn win(&mut self, seat: usize) -> Option<Outcome> {
        let outcome = Outcome::Win {
            seat,
            last_standing: false,
        };
        self.emit_outcome(outcome);
        Some(outcome)
    }

    /// Checks, asks the partner if needed, and carries out one offer. Returns the partner's answer.
    fn settle_offer(
        &mut self,
        players: &mut [&mut dyn FarmPlayer],
        seat: usize,
        turn: u32,
        round: u32,
        offer: &Offer,
    ) -> Option<bool> {
        let trade = match check_offer(&self.pos, seat, offer) {
            Ok(None) => return None,
            Ok(Some(trade)) => trade,
            Err(reason) => {
                self.emit(Event::TradeFailed { seat, reason });
                return None;
            }
        };
        let mut answer = None;
        if let Partner::Player(partner) = trade.partner {
            let view = AcceptView {
                trader: seat,
                offer: *offer,
                trade,
            };
            let reply = self.observe(partner, seat, turn, round, |obs| {
                players[partner].accept(obs, &view)
            });
            self.collect_log(&mut *players[partner], partner);
            match reply {
                Ok(accepted) => {
                    answer = Some(accepted);
                    self.emit(Event::Answer {
                        seat: partner,
                        trader: seat,
                        accepted,
                    });
                    if !accepted {
                        self.emit(Event::TradeFailed {
                            seat,
                            reason: FailReason::Declined,
                        });
                        return answer;
                    }
                }
                Err(fault) => {
                    let out = self.fault(partner, Decision::Accept, fault, false);
                    let reason = if out {
                        FailReason::PartnerOut
                    } else {
                        FailReason::Declined
                    };
                    self.emit(Event::TradeFailed { seat, reason });
                    return None;
                }
            }
        }
        let delivered = execute_trade(&mut self.pos, seat, &trade);
        let other = match trade.partner {
            Partner::Stock => Party::Stock,
            Partner::Player(p) => Party::Player(p),
        };
        self.emit(Event::Transfer {
            from: Party::Player(seat),
            to: other,
            animals: trade.give,
        });
        self.emit(Event::Transfer {
            from: other,
            to: Party::Player(seat),
            animals: delivered,
        });
        answer
    }
}
