//! Little Animal Farm's rules as the arena plays them, a state machine for the host's game loop:
//! each turn, the seat to move offers a trade (or passes), the partner player answers an offer
//! made to it, the dice are thrown, and the rules (`farm-rules`) apply it all; every event goes
//! to the turn's record and to the observations of the seats that have not seen it. A failed
//! decision is a fault, which the fault policy makes a forfeit or a lost move.

use farm_rules::{apply_roll, Partner, Position, Roll, FOX_DIE, WOLF_DIE};

use super::abi::{decode_accept_answer, decode_trade_answer, encode_observation};
use super::event::Event;
use super::fault::{Decision, Fault, FaultPolicy};
use super::turn::{AcceptView, Answer, Asked, GameEnd, Observation, Setup, TurnRecord};
use super::{Farm, INFO};
use crate::game::rounds::{standing, Rounds};
use crate::game::{
    AgentLog, Answered, Decided, Dice, Faults, GameInfo, Host, Loaded, Next, Outcome, Question,
    Rules, Summary, Table,
};
use crate::sandbox::{Init, WasmPlayer};

mod trades;

/// The index of each decision in [`INFO`]'s decisions.
pub const TRADE: usize = 0;
pub const ACCEPT: usize = 1;

/// Where the turn being played is.
enum Phase {
    /// The seat to move offers a trade.
    Trade,
    /// The partner answers the offer.
    Accept(AcceptView),
    /// The dice are thrown.
    Roll,
}

/// The turn being played.
struct Playing {
    record: TurnRecord,
    phase: Phase,
}

/// A game of Little Animal Farm being played.
pub struct State {
    setup: Setup,
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
    /// The start line: events and logs before the first turn.
    start_events: Vec<Event>,
    start_logs: Vec<AgentLog>,
    /// Turns begun, and the round of the last one (each round from the first to move).
    rounds: Rounds,
    outcome: Option<Outcome>,
    playing: Option<Playing>,
    finished: Option<TurnRecord>,
}

impl State {
    /// The start line: events and logs before the first turn.
    pub fn start(&self) -> (&[Event], &[AgentLog]) {
        (&self.start_events, &self.start_logs)
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

    /// Keeps what `seat` logged during the decision it just made, even if the decision faulted:
    /// that output is what its author needs to see.
    fn keep_log(&mut self, seat: usize, log: Option<String>) {
        if let Some(text) = log {
            self.agent_logs.push(AgentLog { seat, text });
        }
    }

    /// Records a fault; returns true when the seat is now out of the game.
    fn fault(&mut self, seat: usize, decision: Decision, fault: Fault, forfeit: bool) -> bool {
        self.emit(Event::Fault {
            seat,
            decision,
            fault,
        });
        if forfeit {
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
        let outcome = standing(self.setup.players, |s| self.pos.is_out(s))?;
        self.emit_outcome(outcome)
    }

    /// Records how the game ended (its win or draw event); returns the outcome.
    fn emit_outcome(&mut self, outcome: Outcome) -> Option<Outcome> {
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
        Some(outcome)
    }

    /// Begins the next turn, if the game goes on.
    fn begin_turn(&mut self) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let (n, first, cap) = (
            self.setup.players,
            self.setup.first_to_move(),
            self.setup.round_cap,
        );
        let pos = &self.pos;
        let Ok(seat) = self.rounds.begin(n, first, cap, |s| pos.is_out(s), false) else {
            return false;
        };
        self.playing = Some(Playing {
            record: TurnRecord {
                turn: self.rounds.turns,
                round: self.rounds.rounds,
                seat,
                offer: None,
                answer: None,
                roll: None,
                events: Vec::new(),
                logs: Vec::new(),
            },
            phase: Phase::Trade,
        });
        true
    }

    /// Ends the turn being played; `ended`: the game ends with it.
    fn end_turn(&mut self, ended: Option<Outcome>) {
        let Some(mut p) = self.playing.take() else {
            return;
        };
        p.record.events = std::mem::take(&mut self.current);
        p.record.logs = std::mem::take(&mut self.agent_logs);
        self.forget_seen_events();
        self.finished = Some(p.record);
        if ended.is_some() {
            self.outcome = ended;
        }
    }
}

impl Rules for Farm {
    type Setup = Setup;
    type State = State;
    type Observation<'s> = Asked<'s>;
    type Answer = Answer;
    type Turn = TurnRecord;
    type End = GameEnd;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, table: &Table, _host: &Host<'_>) -> anyhow::Result<Setup> {
        let players = table.meta.names.len();
        INFO.check_players(players)?;
        Ok(Setup {
            players,
            seed: Some(table.seed),
            round_cap: table.round_cap,
            policy: table.policy,
            start: None,
        })
    }

    fn players(&self, setup: &Setup) -> usize {
        setup.players
    }

    fn init(&self, setup: &Setup, seat: usize) -> Init {
        Init {
            seat,
            players: setup.players,
            seed: setup.agent_seed(seat),
            round_cap: setup.round_cap,
        }
    }

    fn policy(&self, setup: &Setup) -> FaultPolicy {
        setup.policy
    }

    fn seed(&self, setup: &Setup) -> Option<u64> {
        setup.seed
    }

    fn start(&self, setup: &Setup, loaded: &[Loaded]) -> State {
        let n = setup.players;
        let mut state = State {
            setup: setup.clone(),
            pos: setup.initial_position(),
            log: Vec::new(),
            cursors: vec![0; n],
            forfeits: Vec::new(),
            current: Vec::new(),
            agent_logs: Vec::new(),
            start_events: Vec::new(),
            start_logs: Vec::new(),
            rounds: Rounds::default(),
            outcome: None,
            playing: None,
            finished: None,
        };
        for (seat, l) in loaded.iter().enumerate() {
            state.keep_log(seat, l.log.clone());
            if let Some(fault) = &l.fault {
                state.fault(seat, Decision::Init, fault.clone(), true);
            }
        }
        // Before taking the start events: a game decided at load time records its win or draw
        // there.
        state.outcome = state.standing_outcome();
        state.start_events = std::mem::take(&mut state.current);
        state.start_logs = std::mem::take(&mut state.agent_logs);
        state
    }

    fn next(&self, state: &mut State) -> Next {
        if state.playing.is_none() && !state.begin_turn() {
            return Next::End;
        }
        let p = state.playing.as_ref().expect("a turn is being played");
        match &p.phase {
            Phase::Trade => Next::Seat(p.record.seat),
            Phase::Accept(view) => match view.trade.partner {
                Partner::Player(partner) => Next::Seat(partner),
                Partner::Stock => unreachable!("only a player is asked to accept"),
            },
            Phase::Roll => Next::Chance(Dice {
                count: 2,
                faces: farm_rules::DIE_FACES as u8,
            }),
        }
    }

    fn observe<'s>(&self, state: &'s mut State, seat: usize) -> (Question, Asked<'s>) {
        let p = state.playing.as_ref().expect("a turn is being played");
        let (to_move, turn, round) = (p.record.seat, p.record.turn, p.record.round);
        let offer = match &p.phase {
            Phase::Accept(view) => Some(*view),
            _ => None,
        };
        let seen = state.cursors[seat];
        state.cursors[seat] = state.log.len();
        let q = Question::new(seat, if offer.is_some() { ACCEPT } else { TRADE });
        let asked = Asked {
            observation: Observation {
                seat,
                to_move,
                turn,
                round,
                position: &state.pos,
                events: &state.log[seen..],
            },
            offer,
        };
        (q, asked)
    }

    fn apply(&self, state: &mut State, decided: Decided<Answer>, faults: &mut Faults) {
        let seat = decided.seat;
        state.keep_log(seat, decided.log);
        if let Answered::Fault { fault, .. } = &decided.answered {
            let name = if decided.decision == ACCEPT {
                "accept"
            } else {
                "trade"
            };
            faults.note(seat, name, fault);
        }
        let Some(p) = &state.playing else {
            return;
        };
        match &p.phase {
            Phase::Trade => state.trade(seat, decided.answered),
            Phase::Accept(view) => state.accept(seat, *view, decided.answered),
            Phase::Roll => {}
        }
    }

    fn roll(&self, state: &mut State, faces: Option<&[u8]>) {
        let Some(p) = &mut state.playing else {
            return;
        };
        let seat = p.record.seat;
        let Some(&[fox, wolf]) = faces else {
            // The given dice ran out: the game ends here, unfinished.
            return state.end_turn(Some(Outcome::Unfinished));
        };
        let roll = Roll::from_indices(fox as usize, wolf as usize);
        p.record.roll = Some(roll);
        state.emit(Event::Rolled { seat, roll });
        let effect = apply_roll(&mut state.pos, seat, roll);
        if !effect.wolf.is_empty() {
            state.emit(Event::Wolf {
                seat,
                lost: effect.wolf,
            });
        }
        if !effect.fox.is_empty() {
            state.emit(Event::Fox {
                seat,
                lost: effect.fox,
            });
        }
        if !effect.bred.is_empty() {
            state.emit(Event::Bred {
                seat,
                gained: effect.bred,
            });
        }
        let ended = if state.pos.herds[seat].is_winning() {
            state.emit_outcome(Outcome::won(seat))
        } else {
            None
        };
        state.end_turn(ended)
    }

    fn turn(&self, state: &mut State) -> Option<TurnRecord> {
        state.finished.take()
    }

    fn end(&self, state: State) -> GameEnd {
        GameEnd {
            start_events: state.start_events,
            start_logs: state.start_logs,
            outcome: state.outcome.unwrap_or(Outcome::Draw { round_cap: true }),
            final_position: state.pos,
            forfeits: state.forfeits,
            turns: state.rounds.turns,
            rounds: state.rounds.rounds,
        }
    }

    fn summary(&self, end: &GameEnd) -> Summary {
        Summary::of(end.outcome, end.turns, end.rounds, &end.forfeits, None)
    }

    fn encode(&self, _q: &Question, asked: &Asked<'_>, buf: &mut [u8]) -> usize {
        encode_observation(&asked.observation, asked.offer.as_ref(), buf)
    }

    fn decode(&self, q: &Question, ret: i32, buf: &[u8]) -> Result<Answer, Fault> {
        if q.decision == ACCEPT {
            decode_accept_answer(ret).map(Answer::Accept)
        } else {
            decode_trade_answer(ret, buf).map(Answer::Offer)
        }
    }

    fn call_component(
        &self,
        q: &Question,
        asked: &Asked<'_>,
        player: &mut WasmPlayer,
    ) -> Result<Answer, Fault> {
        match &asked.offer {
            Some(offer) if q.decision == ACCEPT => {
                super::component::accept(player, &asked.observation, offer).map(Answer::Accept)
            }
            _ => super::component::trade(player, &asked.observation).map(Answer::Offer),
        }
    }
}

/// The face indices of a roll (the first face that shows it on each die), as the dice are thrown.
pub fn roll_faces(roll: Roll) -> Vec<u8> {
    let fox = FOX_DIE.iter().position(|&f| f == roll.fox).unwrap_or(0);
    let wolf = WOLF_DIE.iter().position(|&f| f == roll.wolf).unwrap_or(0);
    vec![fox as u8, wolf as u8]
}
