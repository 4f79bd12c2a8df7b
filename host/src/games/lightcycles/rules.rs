//! Light cycles as the arena plays it, a state machine for the host's game loop: every living
//! seat is asked at once each tick ([`Next::Seats`]) and the rules crate plays the tick with
//! every answer together; the fuel clock runs per seat; faults go through the fault
//! policy as docs/LIGHTCYCLES.md says ("Playing light cycles in the arena"): under `forfeit` the
//! faulting cycle is out at that tick, under `lose_move` it goes straight; running out of a clock
//! that holds no more than the per-decision cap, or failing to load, is out whatever the policy.

use arena_abi::lightcycles::{Clock, Observation};
use lightcycles_rules::{Answer, Answers, Cause, Death, Dir, End, Pos, State as Grid, Turn};
use lightcycles_rules::{Seats as RulesSeats, MAX_PLAYERS};

use super::abi::{encode_observation, read_answer};
use super::{Lightcycles, Settings, INFO};
use crate::game::fuel_clock::Asked;
use crate::game::{
    AgentLog, Answered, Decided, Fault, FaultPolicy, Faults, FuelClock, GameInfo, Host, Loaded,
    Next, Outcome, Question, Rules, Seats, Started, Summary, Table,
};

/// Everything that determines a game apart from the players' answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Places the walls (and seeds the agents' own randomness).
    pub seed: u64,
    pub players: usize,
    /// The tick cap.
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// The grid and the clock.
    pub settings: Settings,
    /// The most fuel a decision may use (the sandbox's `fuel_per_decision`).
    pub decision_cap: u64,
}

impl Setup {
    /// The setup of one game of `table`, the per-decision cap from `host`'s sandbox (the default
    /// limits' where only native strategies play).
    pub fn of(table: &Table, host: &Host<'_>) -> anyhow::Result<Setup> {
        let settings = Settings::of_map(&table.settings)?;
        let setup = Setup {
            seed: table.seed,
            players: table.meta.names.len(),
            round_cap: table.round_cap,
            policy: table.policy,
            decision_cap: FuelClock::decision_cap(host),
            settings,
        };
        setup.check()?;
        Ok(setup)
    }

    /// Refuses what the rules cannot start: 2 to 6 players, the grid, a tick cap (the round cap)
    /// from 1 to 4,096.
    pub fn check(&self) -> anyhow::Result<()> {
        self.start().map(|_| ()).map_err(|e| match e.key {
            "tick_cap" => anyhow::anyhow!(
                "round_cap {} is the light cycles tick cap: it must be from {} to {}",
                e.value,
                e.min,
                e.max
            ),
            "players" => anyhow::anyhow!(
                "light cycles is played by {} to {} players, not {}",
                e.min,
                e.max,
                e.value
            ),
            _ => anyhow::anyhow!("key `lightcycles.{}`: {e}", e.key),
        })
    }

    /// The fuel clock of every seat.
    pub fn clock(&self) -> FuelClock {
        FuelClock {
            start: self.settings.clock,
            increment: self.settings.increment,
            decision_cap: self.decision_cap,
        }
    }

    /// The start of the game, as the rules crate makes it.
    pub fn start(&self) -> Result<Grid, lightcycles_rules::SettingsError> {
        Grid::start(
            &self.settings.rules(self.round_cap),
            self.players,
            self.seed,
        )
    }
}

/// A fault in a decision, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveFault {
    pub fault: Fault,
    /// The cycle is out: a forfeit, or its clock ran out (`time`).
    pub out: bool,
    pub time: bool,
}

/// One seat's part of a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatMove {
    pub seat: usize,
    /// Asked this tick (a seat whose agent failed to load is not: it is out at the first tick).
    pub asked: bool,
    /// The readable answer, if any.
    pub answer: Option<Turn>,
    pub fault: Option<MoveFault>,
    /// What the rules played.
    pub played: Answer,
    /// Fuel the decision used, taken off the clock, and the clock after it.
    pub fuel: u64,
    pub clock: u64,
    /// The head and heading after the tick, and the cause if the cycle died in it.
    pub head: Pos,
    pub heading: Dir,
    pub death: Option<Cause>,
    pub logs: Vec<AgentLog>,
}

/// A tick played: the record's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickPlayed {
    /// The tick, from 1.
    pub tick: u32,
    /// Every seat alive before the tick, in seat order.
    pub moves: Vec<SeatMove>,
}

/// How a game ended (and how it began: what the record's start line says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Agents that failed to load, and what agents logged loading.
    pub started: Started,
    pub end: End,
    /// Every seat's place, from 1, and death.
    pub places: Vec<u8>,
    pub deaths: Vec<Option<Death>>,
    pub outcome: Outcome,
    pub clocks: Vec<u64>,
    pub fuel: Vec<u64>,
    /// Seats the host took out (a fault under `forfeit`, time, a fault at load), in order.
    pub forfeits: Vec<usize>,
    pub ticks: u32,
}

impl GameEnd {
    /// Each seat's score: the seats it outlasted (places 1, 2, 3, 3 score 3, 2, 0, 0), which the
    /// league's ranks follow.
    pub fn scores(&self) -> Vec<i64> {
        let p = &self.places;
        p.iter()
            .map(|mine| p.iter().filter(|o| *o > mine).count() as i64)
            .collect()
    }
}

/// What a seat is asked at a tick.
#[derive(Clone, Copy, Debug)]
pub struct Ask {
    pub seat: usize,
    /// The tick this decision is for, from 1.
    pub tick: u32,
    pub observation: Observation,
    /// The most fuel this decision may use: the smaller of the per-decision cap and the clock.
    pub allowance: u64,
}

/// A game of light cycles being played.
pub struct State {
    setup: Setup,
    game: Grid,
    clocks: [u64; MAX_PLAYERS],
    fuel: [u64; MAX_PLAYERS],
    /// The start line: agents that failed to load, and what agents logged loading.
    pub started: Started,
    /// Seats out before the first tick (a fault while loading): not asked, out at tick 1.
    unloaded: RulesSeats,
    /// Each seat's clock when asked this tick (the increment added), and its allowance.
    asked: [Asked; MAX_PLAYERS],
    forfeits: Vec<usize>,
    finished: Option<TickPlayed>,
}

impl State {
    /// The seats to ask at the next tick: the living, but those out before the first.
    fn to_ask(&self) -> Seats {
        Seats::of(
            self.game
                .to_move()
                .iter()
                .filter(|&s| !self.unloaded.contains(s)),
        )
    }

    /// Plays one tick with `decided` (in seat order) and the seats not asked out.
    fn tick(&mut self, decided: Vec<Decided<Turn>>, faults: &mut Faults) {
        let mut answers: Answers = [None; MAX_PLAYERS];
        let mut moves = Vec::new();
        let mut decided = decided.into_iter().peekable();
        for seat in self.game.to_move().iter() {
            let mut m = SeatMove {
                seat,
                asked: false,
                answer: None,
                fault: None,
                played: Answer::Out,
                fuel: 0,
                clock: self.clocks[seat],
                head: Pos::new(0, 0),
                heading: Dir::North,
                death: None,
                logs: Vec::new(),
            };
            if let Some(d) = decided.next_if(|d| d.seat == seat) {
                m.asked = true;
                m.logs = d
                    .log
                    .map(|text| AgentLog { seat, text })
                    .into_iter()
                    .collect();
                let fault = match d.answered {
                    Answered::Answer(turn) => {
                        m.answer = Some(turn);
                        m.played = Answer::Turn(turn);
                        None
                    }
                    Answered::Fault { fault, .. } => Some(fault),
                };
                let spent = self.asked[seat].spend(
                    d.fuel,
                    fault.as_ref(),
                    &mut self.clocks[seat],
                    &mut self.fuel[seat],
                );
                if let Some(fault) = fault {
                    faults.note(seat, "turn", &fault);
                    // Out of fuel on a clock no larger than the cap: out on time, whatever the
                    // policy.
                    let time = spent.time;
                    let out = time || self.setup.policy == FaultPolicy::Forfeit;
                    m.played = if out {
                        Answer::Out
                    } else {
                        Answer::Turn(Turn::Straight)
                    };
                    m.fault = Some(MoveFault { fault, out, time });
                }
                m.fuel = spent.fuel;
                m.clock = self.clocks[seat];
            }
            if m.played == Answer::Out {
                self.forfeits.push(seat);
            }
            answers[seat] = Some(m.played);
            moves.push(m);
        }
        let tick = self
            .game
            .apply(&answers)
            .expect("one answer for every living seat of a game on");
        for (m, step) in moves.iter_mut().zip(tick.steps()) {
            let cycle = self.game.cycle(m.seat);
            (m.head, m.heading, m.death) = (cycle.head, cycle.heading, step.death);
        }
        self.unloaded = RulesSeats::NONE;
        self.finished = Some(TickPlayed {
            tick: tick.number,
            moves,
        });
    }
}

impl Rules for Lightcycles {
    type Setup = Setup;
    type State = State;
    type Observation<'s> = Ask;
    type Answer = Turn;
    type Turn = TickPlayed;
    type End = GameEnd;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, table: &Table, host: &Host<'_>) -> anyhow::Result<Setup> {
        Setup::of(table, host)
    }

    crate::game::table_setup!(|s| s.players);

    fn start(&self, setup: &Setup, loaded: &[Loaded]) -> State {
        let mut state = State {
            setup: *setup,
            game: setup.start().expect("a checked setup starts"),
            clocks: [setup.settings.clock; MAX_PLAYERS],
            fuel: [0; MAX_PLAYERS],
            started: Started::of(loaded),
            unloaded: RulesSeats::NONE,
            asked: [Asked::default(); MAX_PLAYERS],
            forfeits: Vec::new(),
            finished: None,
        };
        for f in &state.started.load_faults {
            state.unloaded.insert(f.seat);
        }
        state
    }

    fn next(&self, state: &mut State) -> Next {
        if state.game.is_over() {
            return Next::End;
        }
        let seats = state.to_ask();
        if seats.is_empty() {
            // Nobody to ask (every living seat failed to load): the tick plays itself.
            state.tick(Vec::new(), &mut Faults::default());
            return Next::End;
        }
        Next::Seats(seats)
    }

    fn observe(&self, state: &mut State, seat: usize) -> (Question, Ask) {
        let clock = state.setup.clock();
        let asked = clock.ask(&mut state.clocks[seat]);
        state.asked[seat] = asked;
        let mut seats = [0; MAX_PLAYERS];
        seats[..state.setup.players].copy_from_slice(&state.clocks[..state.setup.players]);
        let observation = Observation::new(
            &state.game,
            Clock {
                mine: asked.before,
                increment: clock.increment,
                decision_cap: clock.decision_cap,
                seats,
            },
        );
        let ask = Ask {
            seat,
            tick: state.game.tick() + 1,
            observation,
            allowance: asked.allowance,
        };
        let q = Question::new(seat, 0).on_clock(asked.allowance);
        (q, ask)
    }

    fn apply(&self, state: &mut State, decided: Decided<Turn>, faults: &mut Faults) {
        state.tick(vec![decided], faults);
    }

    fn apply_together(&self, state: &mut State, decided: Vec<Decided<Turn>>, faults: &mut Faults) {
        state.tick(decided, faults);
    }

    fn turn(&self, state: &mut State) -> Option<TickPlayed> {
        state.finished.take()
    }

    fn end(&self, state: State) -> GameEnd {
        let players = state.setup.players;
        let outcome = state.game.outcome().expect("the game is over");
        let winners: Vec<usize> = outcome.winners().iter().collect();
        let outcome_all = match (outcome.end, &winners[..]) {
            (End::LastAlive, &[seat]) => Outcome::Win {
                seat,
                last_standing: (0..players).all(|s| s == seat || state.forfeits.contains(&s)),
            },
            (end, _) => Outcome::Draw {
                round_cap: end == End::TickCap,
            },
        };
        GameEnd {
            started: state.started,
            end: outcome.end,
            places: outcome.places[..players].to_vec(),
            deaths: state.game.cycles().iter().map(|c| c.death).collect(),
            outcome: outcome_all,
            clocks: state.clocks[..players].to_vec(),
            fuel: state.fuel[..players].to_vec(),
            forfeits: state.forfeits,
            ticks: state.game.tick(),
        }
    }

    fn summary(&self, end: &GameEnd) -> Summary {
        Summary::of(
            end.outcome,
            end.ticks,
            end.ticks,
            &end.forfeits,
            Some(end.scores()),
        )
    }

    crate::game::abi_calls! {
        encode: encode_observation,
        decode: read_answer,
        component: super::component::choose,
    }
}
