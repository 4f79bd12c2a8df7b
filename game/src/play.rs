//! The game loop, written once for every game: it starts every seat's agent, then asks the rules
//! who decides next and does it: asks one seat, or several at once, through their players (the
//! sandbox's budgets apply, and a game's clock as the fuel each question allows), or throws the
//! dice; applies the fault policy to a decision without an answer; hands the game's parts to a
//! [`Sink`] as soon as they are finished (the record writer, the verifier, a terminal); and ends
//! when the rules say so.
//!
//! Verification plays a record through this very loop, with players that give back the recorded
//! answers (`crate::record::replay`): a game cannot verify differently from how it plays.

use std::ops::ControlFlow;

use crate::player::Player;
use crate::rules::{Answered, Decided, Faults, Loaded, Next, Rules, Sink};
use crate::seed::DiceSource;
use crate::FaultPolicy;

/// How a game ended, and the faults it counted.
pub struct Ended<E> {
    pub end: E,
    pub faults: Faults,
    /// How each seat's agent started.
    pub loaded: Vec<Loaded>,
}

/// Plays one game of `setup` to its end, `players[s]` in seat `s`, throwing `dice` when the rules
/// call for chance; hands its start and turns to `sink`. `None` when the sink stopped the game or
/// a player left it.
pub fn play<R: Rules>(
    rules: &R,
    setup: &R::Setup,
    players: &mut [&mut dyn Player<R>],
    dice: &mut dyn DiceSource,
    sink: &mut dyn Sink<R>,
) -> Option<Ended<R::End>> {
    assert_eq!(players.len(), rules.players(setup), "one player per seat");
    let policy = rules.policy(setup);
    let mut faults = Faults::default();
    let mut loaded = Vec::with_capacity(players.len());
    for (seat, player) in players.iter_mut().enumerate() {
        let started = player.start(rules, &rules.init(setup, seat));
        let log = player.take_log().filter(|t| !t.is_empty());
        let fault = started.err();
        if let Some(f) = &fault {
            faults.note(seat, "init", f);
        }
        loaded.push(Loaded { fault, log });
    }
    let mut state = rules.start(setup, &loaded);
    if sink.start(rules, &state).is_break() {
        return None;
    }
    let mut faces = Vec::new();
    loop {
        let next = rules.next(&mut state);
        drain(rules, &mut state, sink)?;
        match next {
            Next::End => break,
            Next::Seat(seat) => {
                let decided = ask(rules, &mut state, &mut *players[seat], seat, policy)?;
                rules.apply(&mut state, decided, &mut faults);
            }
            Next::Seats(seats) => {
                let mut decided = Vec::with_capacity(seats.len());
                for seat in seats.iter() {
                    decided.push(ask(rules, &mut state, &mut *players[seat], seat, policy)?);
                }
                rules.apply_together(&mut state, decided, &mut faults);
            }
            Next::Chance(d) => {
                let thrown = dice.throw(d, &mut faces);
                rules.roll(&mut state, thrown.then_some(&faces[..]));
            }
        }
    }
    Some(Ended {
        end: rules.end(state),
        faults,
        loaded,
    })
}

/// Hands the turns the rules finished to the sink; `None` when it stops the game.
fn drain<R: Rules>(rules: &R, state: &mut R::State, sink: &mut dyn Sink<R>) -> Option<()> {
    while let Some(turn) = rules.turn(state) {
        if let ControlFlow::Break(()) = sink.turn(rules, turn) {
            return None;
        }
    }
    Some(())
}

/// Asks `seat`'s player its decision; `None` when the player left the game.
fn ask<R: Rules>(
    rules: &R,
    state: &mut R::State,
    player: &mut dyn Player<R>,
    seat: usize,
    policy: FaultPolicy,
) -> Option<Decided<R::Answer>> {
    let (q, obs) = rules.observe(state, seat);
    let reply = player.decide(rules, &q, &obs);
    drop(obs);
    if player.left() {
        return None;
    }
    let log = player.take_log().filter(|t| !t.is_empty());
    let answered = match reply.answer {
        Ok(a) => Answered::Answer(a),
        Err(fault) => Answered::Fault {
            fault,
            forfeit: policy == FaultPolicy::Forfeit,
        },
    };
    Some(Decided {
        seat,
        decision: q.decision,
        answered,
        fuel: reply.fuel,
        log,
    })
}
