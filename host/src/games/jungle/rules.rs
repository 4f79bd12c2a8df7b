//! Jungle's rules as the arena plays them, a state machine for the host's game loop: the rules
//! crate judges every answer, the fuel clock runs as docs/JUNGLE.md says ("Playing Jungle in the
//! arena"), faults go through the fault policy (running out of a clock that holds no more than
//! the per-decision cap loses the game on time, whatever the policy).

use arena_abi::jungle::{Clock, Observation, Played};
use jungle_rules::{DrawReason, Illegal, Move, Outcome as RulesOutcome, Position};

use super::abi::{encode_observation, read_answer};
use super::turn::{EndReason, GameEnd, Ply, PlyFault, Setup};
use super::{Jungle, INFO};
use crate::game::fuel_clock::Asked;
use crate::game::rounds::standing;
use crate::game::{
    AgentLog, Answered, Decided, Fault, FaultKind, FaultPolicy, Faults, GameInfo, Host, Loaded,
    Next, Outcome, Question, Rules, Started, Summary, Table,
};

/// One decision the game asks of the side to move: what the seat is shown.
#[derive(Clone, Copy, Debug)]
pub struct Ask {
    /// The seat asked (seat 0 plays the first player, seat 1 the second).
    pub seat: usize,
    /// The envelope's turn (this decision's ply number from 1, as the position counts plies)
    /// and round (the position's move number).
    pub turn: u32,
    pub round: u32,
    /// The observation the ABI sends (board, clocks, legal moves, the plies since the seat's
    /// previous decision).
    pub observation: Observation,
    /// The most fuel this decision may use: the smaller of the per-decision cap and the clock.
    pub allowance: u64,
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

/// A game of Jungle being played.
pub struct State {
    setup: Setup,
    /// The start line: agents that failed to load, and what agents logged loading.
    pub started: Started,
    pos: Position,
    clocks: [u64; 2],
    fuel: [u64; 2],
    /// Every ply applied, and how much of it each seat has been shown.
    history: Vec<Played>,
    seen: [usize; 2],
    /// Plies asked so far.
    turn: u32,
    /// The decision being asked: its seat and its clock.
    asked: Option<(usize, Asked)>,
    finished: Option<Ply>,
    /// How the game ended, once it has: outcome, reason, forfeits.
    ended: Option<(Outcome, EndReason, Vec<usize>)>,
}

impl Rules for Jungle {
    type Setup = Setup;
    type State = State;
    type Observation<'s> = Ask;
    type Answer = Move;
    type Turn = Ply;
    type End = GameEnd;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn setup(&self, table: &Table, host: &Host<'_>) -> anyhow::Result<Setup> {
        INFO.check_players(table.meta.names.len())?;
        Setup::of(table, host)
    }

    crate::game::table_setup!(|_| 2);

    fn start(&self, setup: &Setup, loaded: &[Loaded]) -> State {
        let mut state = State {
            setup: setup.clone(),
            started: Started::of(loaded),
            pos: setup.start,
            clocks: [setup.clock.start; 2],
            fuel: [0; 2],
            history: Vec::new(),
            seen: [0; 2],
            turn: 0,
            asked: None,
            finished: None,
            ended: None,
        };
        // A seat whose agent failed to load forfeits.
        let faulted: Vec<usize> = state.started.load_faults.iter().map(|f| f.seat).collect();
        state.ended = standing(2, |s| faulted.contains(&s))
            .map(|outcome| (outcome, EndReason::Forfeit, faulted));
        state
    }

    fn next(&self, state: &mut State) -> Next {
        if state.ended.is_some() {
            return Next::End;
        }
        if let Some(o) = state.pos.outcome(state.setup.ply_cap()) {
            let (outcome, reason) = match o {
                RulesOutcome::Win { winner, reason } => {
                    (Outcome::won(winner.index()), EndReason::Won(reason))
                }
                // The rules' draws end a game by its length, as a round cap does elsewhere (a
                // draw without `round_cap` is a draw because everyone forfeited).
                RulesOutcome::Draw(reason) => {
                    (Outcome::Draw { round_cap: true }, EndReason::Drawn(reason))
                }
            };
            state.ended = Some((outcome, reason, Vec::new()));
            return Next::End;
        }
        Next::Seat(state.pos.side_to_move().index())
    }

    fn observe(&self, state: &mut State, seat: usize) -> (Question, Ask) {
        let clock = state.setup.clock;
        state.turn += 1;
        let asked = clock.ask(&mut state.clocks[seat]);
        let observation = Observation::new(
            &state.pos,
            state.setup.ply_cap(),
            Clock {
                mine: asked.before,
                theirs: state.clocks[1 - seat],
                increment: clock.increment,
                decision_cap: clock.decision_cap,
            },
            &state.history[state.seen[seat]..],
        );
        state.seen[seat] = state.history.len();
        state.asked = Some((seat, asked));
        let allowance = asked.allowance;
        let ask = Ask {
            seat,
            turn: state.pos.ply().saturating_add(1),
            round: state.pos.move_number(),
            observation,
            allowance,
        };
        let q = Question::new(seat, 0).on_clock(allowance);
        (q, ask)
    }

    fn apply(&self, state: &mut State, decided: Decided<Move>, faults: &mut Faults) {
        let Some((seat, asked)) = state.asked.take() else {
            return;
        };
        let pos = state.pos;
        let mut ply = Ply {
            turn: state.turn,
            round: pos.move_number(),
            seat,
            answer: None,
            piece: None,
            captured: None,
            illegal: None,
            fault: None,
            fuel: 0,
            clock: 0,
            position: pos,
            logs: decided
                .log
                .map(|text| AgentLog { seat, text })
                .into_iter()
                .collect(),
        };
        let fault = match decided.answered {
            Answered::Answer(mv) => {
                ply.answer = Some(mv);
                match pos.check_move(mv) {
                    Ok(()) => {
                        let played = Played::of(&pos, mv);
                        ply.piece = played.piece;
                        ply.captured = played.captured;
                        state.history.push(played);
                        state.pos.make(mv);
                        None
                    }
                    Err(why) => {
                        ply.illegal = Some(why);
                        Some(illegal_fault(mv, why))
                    }
                }
            }
            Answered::Fault { fault, .. } => Some(fault),
        };
        let spent = asked.spend(
            decided.fuel,
            fault.as_ref(),
            &mut state.clocks[seat],
            &mut state.fuel[seat],
        );
        if let Some(fault) = fault {
            faults.note(seat, "move", &fault);
            // Out of fuel on a clock no larger than the cap loses on time, whatever the policy.
            let time = spent.time;
            let forfeit = !time && state.setup.policy == FaultPolicy::Forfeit;
            if time {
                state.ended = Some((Outcome::won(1 - seat), EndReason::Time, Vec::new()));
            } else if forfeit {
                state.ended = Some((
                    Outcome::last_standing(1 - seat),
                    EndReason::Forfeit,
                    vec![seat],
                ));
            } else {
                state.history.push(Played {
                    mv: None,
                    piece: None,
                    captured: None,
                });
                state.pos = passed(&state.pos);
            }
            ply.fault = Some(PlyFault { fault, forfeit });
        }
        ply.fuel = spent.fuel;
        ply.clock = state.clocks[seat];
        ply.position = state.pos;
        state.finished = Some(ply);
    }

    fn turn(&self, state: &mut State) -> Option<Ply> {
        state.finished.take()
    }

    fn end(&self, state: State) -> GameEnd {
        let (outcome, reason, forfeits) = state.ended.unwrap_or((
            Outcome::Draw { round_cap: true },
            EndReason::Drawn(DrawReason::PlyCap),
            Vec::new(),
        ));
        GameEnd {
            started: state.started,
            outcome,
            reason,
            position: state.pos,
            clocks: state.clocks,
            fuel: state.fuel,
            forfeits,
            turns: state.turn,
        }
    }

    fn summary(&self, end: &GameEnd) -> Summary {
        Summary::of(end.outcome, end.turns, end.rounds(), &end.forfeits, None)
    }

    crate::game::abi_calls! {
        encode: encode_observation,
        decode: read_answer,
        component: super::component::choose,
    }
}
