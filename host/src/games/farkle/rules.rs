//! Farkle's rules as the arena plays them, a state machine for the host's game loop: each turn
//! throws the dice left (six after hot dice), asks the seat which dice to draft and whether to
//! bank or roll on, checks the answer with the rules crate (`farkle-rules`), and ends on a bank, a
//! farkle, a refused draft or a fault (which the fault policy may make a forfeit). A solo game
//! plays for the target alone; a race ends after the round in which someone reaches it.

use farkle_rules::{check_answer, is_farkle, Action, DICE};

use super::abi::{encode_observation, read_answer};
use super::turn::{Answer, GameEnd, Observation, RollRecord, Setup, TurnEnd, TurnRecord};
use super::{Farkle, INFO};
use crate::game::rounds::{standing, NoTurn, Rounds};
use crate::game::{
    AgentLog, Answered, Decided, Dice, Faults, GameInfo, Host, Loaded, Next, Outcome, Question,
    Rules, Started, Summary, Table,
};

/// The turn being played.
struct Playing {
    record: TurnRecord,
    /// Points drafted so far.
    points: u32,
    /// Dice to throw next.
    left: usize,
    /// The roll awaiting the seat's draft; `None`: the dice are to be thrown.
    roll: Option<Vec<u8>>,
    /// As the turn began: whether it is the final round, and the seat's turns before it.
    final_round: bool,
    turns_done: u32,
}

/// A game of Farkle being played.
pub struct State {
    setup: Setup,
    /// The start line: agents that failed to load, and what agents logged loading.
    pub started: Started,
    /// Seats out of the game, in the order they forfeited.
    forfeits: Vec<usize>,
    scores: Vec<u32>,
    turns_done: Vec<u32>,
    rounds: Rounds,
    final_round: bool,
    outcome: Option<Outcome>,
    playing: Option<Playing>,
    finished: Option<TurnRecord>,
}

impl State {
    /// The outcome forced by forfeits: in a race, one player left wins; nobody left is a draw (a
    /// solo game whose player forfeited has not reached the target).
    fn standing(&self) -> Option<Outcome> {
        standing(self.setup.players, |s| self.forfeits.contains(&s))
    }

    /// After the final round: the highest score wins; a shared highest score is a draw.
    fn best_score(&self) -> Outcome {
        let standing = (0..self.scores.len()).filter(|s| !self.forfeits.contains(s));
        let best = standing.clone().map(|s| self.scores[s]).max().unwrap_or(0);
        let leaders: Vec<usize> = standing.filter(|&s| self.scores[s] == best).collect();
        match leaders[..] {
            [seat] => Outcome::won(seat),
            _ => Outcome::Draw { round_cap: false },
        }
    }

    /// Begins the next turn, if the game goes on.
    fn begin_turn(&mut self) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let (out, last) = (&self.forfeits, self.final_round);
        let (n, cap) = (self.setup.players, self.setup.round_cap);
        let seat = match self.rounds.begin(n, 0, cap, |s| out.contains(&s), last) {
            Ok(seat) => seat,
            Err(NoTurn::LastRound) => {
                self.outcome = Some(self.best_score());
                return false;
            }
            Err(NoTurn::RoundCap) => return false,
        };
        self.playing = Some(Playing {
            record: TurnRecord {
                turn: self.rounds.turns,
                round: self.rounds.rounds,
                seat,
                rolls: Vec::new(),
                end: TurnEnd::Banked,
                banked: 0,
                score: 0,
                logs: Vec::new(),
            },
            points: 0,
            left: DICE,
            roll: None,
            final_round: self.final_round,
            turns_done: self.turns_done[seat],
        });
        true
    }

    /// Ends the turn being played with `end`.
    fn end_turn(&mut self, end: TurnEnd) {
        let Some(p) = self.playing.take() else {
            return;
        };
        let mut record = p.record;
        let seat = record.seat;
        record.banked = if end == TurnEnd::Banked { p.points } else { 0 };
        self.scores[seat] += record.banked;
        record.score = self.scores[seat];
        self.turns_done[seat] += 1;
        if let TurnEnd::Fault { forfeit: true, .. } = end {
            self.forfeits.push(seat);
        }
        record.end = end;
        self.finished = Some(record);
        self.final_round |= self.scores[seat] >= self.setup.target;
        // No outcome yet: a turn is played only while the game goes on.
        self.outcome = self.standing();
    }
}

impl Rules for Farkle {
    type Setup = Setup;
    type State = State;
    type Observation<'s> = Observation<'s>;
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
            policy: table.policy,
            ..Setup::new(players, table.seed, table.round_cap)
        })
    }

    crate::game::table_setup!(|s| s.players);

    fn start(&self, setup: &Setup, loaded: &[Loaded]) -> State {
        let (n, started) = (setup.players, Started::of(loaded));
        let mut state = State {
            setup: setup.clone(),
            // A seat whose agent failed to load forfeits.
            forfeits: started.load_faults.iter().map(|f| f.seat).collect(),
            started,
            scores: vec![0; n],
            turns_done: vec![0; n],
            rounds: Rounds::default(),
            final_round: false,
            outcome: None,
            playing: None,
            finished: None,
        };
        state.outcome = state.standing();
        state
    }

    fn next(&self, state: &mut State) -> Next {
        if state.playing.is_none() && !state.begin_turn() {
            return Next::End;
        }
        let p = state.playing.as_ref().expect("a turn is being played");
        match p.roll {
            None => Next::Chance(Dice {
                count: p.left as u8,
                faces: 6,
            }),
            Some(_) => Next::Seat(p.record.seat),
        }
    }

    fn observe<'s>(&self, state: &'s mut State, seat: usize) -> (Question, Observation<'s>) {
        let p = state.playing.as_ref().expect("a turn is being played");
        let obs = Observation {
            seat,
            players: state.setup.players,
            turn: p.record.turn,
            round: p.record.round,
            roll: p.record.rolls.len() as u32 + 1,
            turn_points: p.points,
            dice: p.roll.as_deref().unwrap_or(&[]),
            scores: &state.scores,
            final_round: p.final_round,
            turns_done: p.turns_done,
            target: state.setup.target,
            round_cap: state.setup.round_cap,
        };
        (Question::new(seat, 0), obs)
    }

    fn roll(&self, state: &mut State, faces: Option<&[u8]>) {
        let Some(faces) = faces else {
            // Farkle's dice are always seeded: they do not run out.
            state.playing = None;
            state.outcome = Some(Outcome::Unfinished);
            return;
        };
        let roll: Vec<u8> = faces.iter().map(|f| f + 1).collect();
        let Some(p) = &mut state.playing else {
            return;
        };
        if is_farkle(&roll) {
            p.record.rolls.push(RollRecord {
                dice: roll,
                answer: None,
                points: None,
            });
            state.end_turn(TurnEnd::Farkle);
        } else {
            p.roll = Some(roll);
        }
    }

    fn apply(&self, state: &mut State, decided: Decided<Answer>, faults: &mut Faults) {
        let Some(p) = &mut state.playing else {
            return;
        };
        // One log entry per turn: the seat's output over all of its decisions in the turn.
        if let Some(text) = decided.log {
            match p.record.logs.first_mut() {
                Some(AgentLog { text: all, .. }) => all.push_str(&text),
                None => p.record.logs.push(AgentLog {
                    seat: decided.seat,
                    text,
                }),
            }
        }
        let roll = p.roll.take().unwrap_or_default();
        let answer = match decided.answered {
            Answered::Answer(a) => a,
            Answered::Fault { fault, forfeit } => {
                faults.note(decided.seat, "draft", &fault);
                p.record.rolls.push(RollRecord {
                    dice: roll,
                    answer: None,
                    points: None,
                });
                return state.end_turn(TurnEnd::Fault { fault, forfeit });
            }
        };
        let checked = check_answer(&roll, &answer.draft, answer.action);
        let drafted = answer.draft.len();
        p.record.rolls.push(RollRecord {
            dice: roll,
            answer: Some(answer),
            points: checked.as_ref().ok().map(|(gained, _)| *gained),
        });
        let (gained, action) = match checked {
            Ok(ok) => ok,
            Err(reason) => return state.end_turn(TurnEnd::Rejected(reason)),
        };
        p.points += gained;
        p.left -= drafted;
        if p.left == 0 {
            // Hot dice: every die scored, all six are rolled again.
            p.left = DICE;
        }
        if action == Action::Bank {
            state.end_turn(TurnEnd::Banked);
        }
    }

    fn turn(&self, state: &mut State) -> Option<TurnRecord> {
        state.finished.take()
    }

    fn end(&self, state: State) -> GameEnd {
        GameEnd {
            started: state.started,
            outcome: state.outcome.unwrap_or(Outcome::Draw { round_cap: true }),
            scores: state.scores,
            forfeits: state.forfeits,
            turns: state.rounds.turns,
            rounds: state.rounds.rounds,
        }
    }

    fn summary(&self, end: &GameEnd) -> Summary {
        let scores = end.scores.iter().map(|&s| i64::from(s)).collect();
        Summary::of(
            end.outcome,
            end.turns,
            end.rounds,
            &end.forfeits,
            Some(scores),
        )
    }

    crate::game::abi_calls! {
        encode: encode_observation,
        decode: read_answer,
        component: super::component::draft,
    }
}
