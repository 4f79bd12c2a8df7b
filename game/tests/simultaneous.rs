//! A game of simultaneous moves through the game loop: every living seat is asked at once each
//! tick (light cycles' shape), the dice are thrown between ticks, and a seat that faults under
//! the `forfeit` policy is no longer asked. The loop must ask each seat before it applies any
//! answer of the tick, and hand the rules the tick's decisions together, in seat order.

use std::ops::ControlFlow;

use arena_game::seed::SeededDice;
use arena_game::{
    play, Answered, Decided, Dice, Fault, FaultKind, FaultPolicy, Faults, GameInfo, Host, Loaded,
    Next, Outcome, Player, Question, Reply, Rules, Seats, Sink, Summary, Table,
};
use arena_sandbox::{AgentInterface, Init};

/// The game as declared before its changes (see `picks_is_changed_and_keeps_the_rest`).
const PICKS: GameInfo = GameInfo {
    name: "picks",
    title: "Picks",
    seats: 2..=3,
    solo_target: None,
    turn_word: "turn",
    dice: false,
    agent: AgentInterface {
        title: "Picks",
        abi_id: 99,
        decisions: &["picks_tick"],
        component: None,
        snippet: None,
    },
};

static INFO: GameInfo = PICKS
    .with_dice()
    .with_turn_word("tick")
    .with_solo_target("100");

/// Each tick every living seat picks a number at once; the highest pick of the tick scores it,
/// then a die adds to the score of the seat it names.
struct Picks;

#[derive(Clone)]
struct Setup {
    players: usize,
    /// The tick cap.
    round_cap: u32,
    policy: FaultPolicy,
    seed: u64,
}

struct State {
    tick: u32,
    cap: u32,
    scores: Vec<i64>,
    living: Seats,
    rolled: bool,
    /// The decisions of each tick as the rules received them: (seat, pick or None for a fault).
    applied: Vec<Vec<(usize, Option<u8>)>>,
    finished: Option<u32>,
}

impl Rules for Picks {
    type Setup = Setup;
    type State = State;
    type Observation<'s> = (u32, Vec<i64>);
    type Answer = u8;
    type Turn = u32;
    type End = State;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, table: &Table, _host: &Host<'_>) -> anyhow::Result<Setup> {
        Ok(Setup {
            players: table.meta.names.len(),
            round_cap: table.round_cap,
            policy: table.policy,
            seed: table.seed,
        })
    }

    arena_game::table_setup!(|s| s.players);

    fn start(&self, setup: &Setup, loaded: &[Loaded]) -> State {
        State {
            tick: 0,
            cap: setup.round_cap,
            scores: vec![0; setup.players],
            living: Seats::of((0..setup.players).filter(|&s| loaded[s].fault.is_none())),
            rolled: true,
            applied: Vec::new(),
            finished: None,
        }
    }

    fn next(&self, state: &mut State) -> Next {
        if !state.rolled {
            return Next::Chance(Dice {
                count: 1,
                faces: state.scores.len() as u8,
            });
        }
        if state.tick == state.cap || state.living.len() < 2 {
            return Next::End;
        }
        Next::Seats(state.living)
    }

    fn observe(&self, state: &mut State, seat: usize) -> (Question, (u32, Vec<i64>)) {
        let q = Question {
            seat,
            decision: 0,
            allowance: None,
        };
        (q, (state.tick, state.scores.clone()))
    }

    fn apply(&self, state: &mut State, decided: Decided<u8>, faults: &mut Faults) {
        self.apply_together(state, vec![decided], faults);
    }

    fn apply_together(&self, state: &mut State, decided: Vec<Decided<u8>>, faults: &mut Faults) {
        let mut tick = Vec::new();
        for d in &decided {
            match &d.answered {
                Answered::Answer(pick) => tick.push((d.seat, Some(*pick))),
                Answered::Fault { fault, forfeit } => {
                    faults.note(d.seat, "picks_tick", fault);
                    if *forfeit {
                        state.living = Seats::of(state.living.iter().filter(|&s| s != d.seat));
                    }
                    tick.push((d.seat, None));
                }
            }
        }
        let best = tick.iter().filter_map(|&(_, p)| p).max();
        for &(seat, pick) in &tick {
            if pick.is_some() && pick == best {
                state.scores[seat] += 10;
            }
        }
        state.applied.push(tick);
        state.tick += 1;
        state.rolled = false;
    }

    fn roll(&self, state: &mut State, faces: Option<&[u8]>) {
        let faces = faces.expect("seeded dice never run out");
        state.scores[faces[0] as usize] += 1;
        state.rolled = true;
        state.finished = Some(state.tick);
    }

    fn turn(&self, state: &mut State) -> Option<u32> {
        state.finished.take()
    }

    fn end(&self, state: State) -> State {
        state
    }

    fn summary(&self, end: &State) -> Summary {
        let top = end.scores.iter().max().copied().unwrap_or(0);
        let leaders: Vec<usize> = (0..end.scores.len())
            .filter(|&s| end.scores[s] == top)
            .collect();
        Summary {
            outcome: match leaders[..] {
                [seat] => Outcome::Win {
                    seat,
                    last_standing: false,
                },
                _ => Outcome::Draw { round_cap: true },
            },
            rounds: end.tick,
            turns: end.tick,
            forfeits: Vec::new(),
            faults: Vec::new(),
            scores: Some(end.scores.clone()),
        }
    }

    fn encode(&self, _q: &Question, obs: &(u32, Vec<i64>), buf: &mut [u8]) -> usize {
        buf[..4].copy_from_slice(&obs.0.to_le_bytes());
        4
    }

    fn decode(&self, _q: &Question, ret: i32, _buf: &[u8]) -> Result<u8, Fault> {
        u8::try_from(ret).map_err(|_| Fault::new(FaultKind::BadAnswer, "a pick is 0 to 255"))
    }
}

/// A seat that picks `pick(tick)`, or faults at tick `faults_at`, and remembers what it saw.
struct Scripted {
    pick: fn(u32) -> u8,
    faults_at: Option<u32>,
    seen: Vec<(u32, Vec<i64>)>,
}

impl Player<Picks> for Scripted {
    fn start(&mut self, _rules: &Picks, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _rules: &Picks, _q: &Question, obs: &(u32, Vec<i64>)) -> Reply<u8> {
        self.seen.push(obs.clone());
        let answer = match self.faults_at {
            Some(t) if t == obs.0 => Err(Fault::new(FaultKind::DecisionFuel, "ran out")),
            _ => Ok((self.pick)(obs.0)),
        };
        Reply { answer, fuel: 1 }
    }
}

struct Turns(Vec<u32>);

impl Sink<Picks> for Turns {
    fn start(&mut self, _rules: &Picks, _state: &State) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn turn(&mut self, _rules: &Picks, turn: u32) -> ControlFlow<()> {
        self.0.push(turn);
        ControlFlow::Continue(())
    }
}

fn scripted(pick: fn(u32) -> u8, faults_at: Option<u32>) -> Scripted {
    Scripted {
        pick,
        faults_at,
        seen: Vec::new(),
    }
}

#[test]
fn every_living_seat_answers_each_tick_before_any_answer_is_applied() {
    let setup = Setup {
        players: 3,
        round_cap: 4,
        policy: FaultPolicy::Forfeit,
        seed: 11,
    };
    let (mut a, mut b, mut c) = (
        scripted(|t| t as u8, None),
        scripted(|_| 2, None),
        scripted(|_| 9, Some(1)),
    );
    let mut turns = Turns(Vec::new());
    let ended = {
        let mut players: [&mut dyn Player<Picks>; 3] = [&mut a, &mut b, &mut c];
        play(
            &Picks,
            &setup,
            &mut players,
            &mut SeededDice::new(setup.seed),
            &mut turns,
        )
        .expect("the game ends")
    };
    let state = &ended.end;
    // Tick 0: all three at once; tick 1: seat 2 faults and is out; ticks 2 and 3: two seats.
    assert_eq!(
        state.applied,
        [
            vec![(0, Some(0)), (1, Some(2)), (2, Some(9))],
            vec![(0, Some(1)), (1, Some(2)), (2, None)],
            vec![(0, Some(2)), (1, Some(2))],
            vec![(0, Some(3)), (1, Some(2))],
        ]
    );
    // Within a tick, every seat saw the same state: nobody saw an answer of its own tick.
    for tick in 0..4 {
        let views: Vec<_> = [&a.seen, &b.seen, &c.seen]
            .iter()
            .filter_map(|seen| seen.iter().find(|(t, _)| *t == tick))
            .collect();
        assert!(views.len() >= 2, "tick {tick}");
        assert!(
            views.windows(2).all(|w| w[0] == w[1]),
            "tick {tick}: {views:?}"
        );
    }
    assert_eq!(c.seen.len(), 2, "the forfeited seat is not asked again");
    // The fault is the rules' to count; one die after each tick, from the game's seed.
    assert_eq!(ended.faults.notes.len(), 1);
    assert_eq!(
        (
            ended.faults.notes[0].seat,
            ended.faults.notes[0].kind.as_str()
        ),
        (2, FaultKind::DecisionFuel.name())
    );
    assert_eq!(turns.0, [1, 2, 3, 4]);
    let mut dice = SeededDice::new(setup.seed);
    let mut expected = [0i64, 0, 0];
    for tick in &state.applied {
        let best = tick.iter().filter_map(|&(_, p)| p).max();
        for &(seat, pick) in tick {
            if pick.is_some() && pick == best {
                expected[seat] += 10;
            }
        }
        expected[dice.face(3) as usize] += 1;
    }
    assert_eq!(state.scores, expected);
}

#[test]
fn picks_is_changed_and_keeps_the_rest() {
    assert!(!PICKS.dice && PICKS.solo_target.is_none() && PICKS.turn_word == "turn");
    assert!(INFO.dice);
    assert_eq!(INFO.turn_word, "tick");
    assert_eq!(INFO.solo_target, Some("100"));
    assert_eq!(
        (INFO.name, INFO.title, INFO.seats.clone()),
        ("picks", "Picks", 2..=3)
    );
    assert_eq!(INFO.agent.abi_id, 99);
    assert_eq!(INFO.agent.decisions, ["picks_tick"]);
}
