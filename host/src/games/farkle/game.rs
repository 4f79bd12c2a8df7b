use std::ops::ControlFlow;

use farkle_rules::{check_answer, is_farkle, Action, Reject, DICE};

use super::dice::SeededD6;
use super::player::{Answer, FarklePlayer, Observation};
use crate::game::{AgentLog, Fault, FaultPolicy, Outcome};

/// Everything that determines a game apart from the players' answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// 1 for the solo benchmark, 2 to 6 for a race.
    pub players: usize,
    pub seed: u64,
    /// After this many rounds the game ends: a solo game has not reached the target; a race is a
    /// draw (ranked by score).
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// Points to reach (10,000 in the seed's harness).
    pub target: u32,
}

impl Setup {
    pub fn new(players: usize, seed: u64, round_cap: u32) -> Setup {
        Setup {
            players,
            seed,
            round_cap,
            policy: FaultPolicy::default(),
            target: farkle_rules::TARGET,
        }
    }

    /// Seed for the agent in `seat`'s own randomness (as every game derives it).
    pub fn agent_seed(&self, seat: usize) -> u64 {
        crate::game::seed::agent_seed(self.seed, seat)
    }
}

/// One roll of a turn and what the player did with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollRecord {
    pub dice: Vec<u8>,
    /// The answer as given; `None` for a farkle (nobody is asked) or a fault.
    pub answer: Option<Answer>,
    /// Points of the draft, when the rules accepted it.
    pub points: Option<u32>,
}

/// How a turn ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The turn's points were added to the score.
    Banked,
    /// A roll scored nothing: the turn's points are lost.
    Farkle,
    /// The rules refused an answer: the turn ends without points.
    Rejected(Reject),
    /// The agent gave no usable answer; `forfeit` when it is now out of the game.
    Fault { fault: Fault, forfeit: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    pub turn: u32,
    pub round: u32,
    pub seat: usize,
    pub rolls: Vec<RollRecord>,
    pub end: TurnEnd,
    /// Points added to the score by this turn.
    pub banked: u32,
    /// The seat's score after the turn.
    pub score: u32,
    pub logs: Vec<AgentLog>,
}

/// A fault while an agent was loaded for the game (always a forfeit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadFault {
    pub seat: usize,
    pub fault: Fault,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub setup: Setup,
    pub load_faults: Vec<LoadFault>,
    /// Debug output of agents while loading.
    pub start_logs: Vec<AgentLog>,
    pub turns: Vec<TurnRecord>,
    pub outcome: Outcome,
    pub scores: Vec<u32>,
    /// Seats that forfeited, in the order they did.
    pub forfeits: Vec<usize>,
}

impl GameRecord {
    pub fn rounds(&self) -> u32 {
        self.turns.last().map_or(0, |t| t.round)
    }
}

/// Plays one game to its end; `players[s]` sits in seat `s`. Every answer goes through the rules;
/// a refused answer ends the turn without points, a fault is handled by `setup.policy`.
pub fn play_game(setup: &Setup, players: &mut [&mut dyn FarklePlayer]) -> GameRecord {
    #[derive(Default)]
    struct Keep {
        load_faults: Vec<LoadFault>,
        start_logs: Vec<AgentLog>,
        turns: Vec<TurnRecord>,
    }
    impl GameSink for Keep {
        fn start(&mut self, faults: Vec<LoadFault>, logs: Vec<AgentLog>) -> ControlFlow<()> {
            self.load_faults = faults;
            self.start_logs = logs;
            ControlFlow::Continue(())
        }
        fn turn(&mut self, turn: TurnRecord) -> ControlFlow<()> {
            self.turns.push(turn);
            ControlFlow::Continue(())
        }
    }
    let mut keep = Keep::default();
    let end = play_game_into(setup, players, &mut keep)
        .expect("a sink that keeps every turn never stops the game");
    GameRecord {
        setup: setup.clone(),
        load_faults: keep.load_faults,
        start_logs: keep.start_logs,
        turns: keep.turns,
        outcome: end.outcome,
        scores: end.scores,
        forfeits: end.forfeits,
    }
}

/// Takes a game's parts as it is played, for a caller that does not keep the whole game (a
/// streamed verification compares each turn with its record line and drops it). Either method
/// can stop the game.
pub trait GameSink {
    /// Before the first turn: the agents that failed to load, and what agents logged loading.
    fn start(&mut self, faults: Vec<LoadFault>, logs: Vec<AgentLog>) -> ControlFlow<()>;
    /// One turn, as soon as it is played.
    fn turn(&mut self, turn: TurnRecord) -> ControlFlow<()>;
}

/// How a game ended: what a [`GameRecord`] holds besides its setup, start and turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub scores: Vec<u32>,
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
    players: &mut [&mut dyn FarklePlayer],
    sink: &mut dyn GameSink,
) -> Option<GameEnd> {
    assert_eq!(players.len(), setup.players, "one player per seat");
    let n = setup.players;
    let mut dice = SeededD6::new(setup.seed);
    let mut out = vec![false; n];
    let mut forfeits = Vec::new();
    let mut load_faults = Vec::new();
    let mut start_logs = Vec::new();
    for (seat, player) in players.iter_mut().enumerate() {
        let started = player.start(seat, n, setup.agent_seed(seat));
        take_log(&mut **player, seat, &mut start_logs);
        if let Err(fault) = started {
            load_faults.push(LoadFault { seat, fault });
            out[seat] = true;
            forfeits.push(seat);
        }
    }
    if sink.start(load_faults, start_logs).is_break() {
        return None;
    }

    let mut scores = vec![0u32; n];
    let mut turns_done = vec![0u32; n];
    let mut turn = 0;
    let mut rounds = 0;
    let mut outcome = standing(n, &out);
    let mut final_round = false;
    'rounds: for round in 1..=setup.round_cap {
        if outcome.is_some() {
            break;
        }
        for seat in 0..n {
            if out[seat] {
                continue;
            }
            turn += 1;
            rounds = round;
            let mut t = Turn {
                setup,
                seat,
                turn,
                round,
                scores: &scores,
                final_round,
                turns_done: turns_done[seat],
            };
            let mut record = t.play(&mut *players[seat], &mut dice);
            scores[seat] += record.banked;
            record.score = scores[seat];
            turns_done[seat] += 1;
            if let TurnEnd::Fault { forfeit: true, .. } = record.end {
                out[seat] = true;
                forfeits.push(seat);
            }
            if sink.turn(record).is_break() {
                return None;
            }
            if scores[seat] >= setup.target {
                final_round = true;
            }
            if let Some(o) = standing(n, &out) {
                outcome = Some(o);
                break 'rounds;
            }
        }
        if final_round {
            outcome = Some(best_score(&scores, &out));
        }
    }
    Some(GameEnd {
        outcome: outcome.unwrap_or(Outcome::Draw { round_cap: true }),
        scores,
        forfeits,
        turns: turn,
        rounds,
    })
}

/// The outcome forced by forfeits: in a race, one player left wins; nobody left is a draw (a
/// solo game whose player forfeited has not reached the target).
fn standing(n: usize, out: &[bool]) -> Option<Outcome> {
    let active: Vec<usize> = (0..n).filter(|&s| !out[s]).collect();
    match active.as_slice() {
        [] => Some(Outcome::Draw { round_cap: false }),
        [seat] if n > 1 => Some(Outcome::Win {
            seat: *seat,
            last_standing: true,
        }),
        _ => None,
    }
}

/// After the final round: the highest score wins; a shared highest score is a draw.
fn best_score(scores: &[u32], out: &[bool]) -> Outcome {
    let best = (0..scores.len())
        .filter(|&s| !out[s])
        .map(|s| scores[s])
        .max()
        .unwrap_or(0);
    let leaders: Vec<usize> = (0..scores.len())
        .filter(|&s| !out[s] && scores[s] == best)
        .collect();
    match leaders.as_slice() {
        [seat] => Outcome::Win {
            seat: *seat,
            last_standing: false,
        },
        _ => Outcome::Draw { round_cap: false },
    }
}

fn take_log(player: &mut dyn FarklePlayer, seat: usize, logs: &mut Vec<AgentLog>) {
    if let Some(text) = player.take_log() {
        if !text.is_empty() {
            logs.push(AgentLog { seat, text });
        }
    }
}

struct Turn<'a> {
    setup: &'a Setup,
    seat: usize,
    turn: u32,
    round: u32,
    scores: &'a [u32],
    final_round: bool,
    turns_done: u32,
}

impl Turn<'_> {
    fn play(&mut self, player: &mut dyn FarklePlayer, dice: &mut SeededD6) -> TurnRecord {
        let mut rolls = Vec::new();
        let mut logs = Vec::new();
        let mut points = 0u32;
        let mut left = DICE;
        let end = loop {
            let roll = dice.roll(left);
            if is_farkle(&roll) {
                rolls.push(RollRecord {
                    dice: roll,
                    answer: None,
                    points: None,
                });
                break TurnEnd::Farkle;
            }
            let obs = Observation {
                seat: self.seat,
                players: self.setup.players,
                turn: self.turn,
                round: self.round,
                roll: rolls.len() as u32 + 1,
                turn_points: points,
                dice: &roll,
                scores: self.scores,
                final_round: self.final_round,
                turns_done: self.turns_done,
                target: self.setup.target,
                round_cap: self.setup.round_cap,
            };
            let answer = player.draft(&obs);
            // One log entry per turn: the seat's output over all of its decisions in the turn.
            if let Some(text) = player.take_log().filter(|t| !t.is_empty()) {
                match logs.first_mut() {
                    Some(AgentLog { text: all, .. }) => all.push_str(&text),
                    None => logs.push(AgentLog {
                        seat: self.seat,
                        text,
                    }),
                }
            }
            let answer = match answer {
                Ok(a) => a,
                Err(fault) => {
                    rolls.push(RollRecord {
                        dice: roll,
                        answer: None,
                        points: None,
                    });
                    let forfeit = self.setup.policy == FaultPolicy::Forfeit;
                    break TurnEnd::Fault { fault, forfeit };
                }
            };
            let checked = check_answer(&roll, &answer.draft, answer.action);
            let drafted = answer.draft.len();
            let (gained, action) = match checked {
                Ok(ok) => ok,
                Err(reason) => {
                    rolls.push(RollRecord {
                        dice: roll,
                        answer: Some(answer),
                        points: None,
                    });
                    break TurnEnd::Rejected(reason);
                }
            };
            rolls.push(RollRecord {
                dice: roll,
                answer: Some(answer),
                points: Some(gained),
            });
            points += gained;
            left -= drafted;
            if left == 0 {
                // Hot dice: every die scored, all six are rolled again.
                left = DICE;
            }
            if action == Action::Bank {
                break TurnEnd::Banked;
            }
        };
        let banked = if end == TurnEnd::Banked { points } else { 0 };
        TurnRecord {
            turn: self.turn,
            round: self.round,
            seat: self.seat,
            rolls,
            end,
            banked,
            score: 0,
            logs,
        }
    }
}
