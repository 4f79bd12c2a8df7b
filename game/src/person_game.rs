//! `arena play` with a person at the terminal in one seat and agents in the others, written once
//! for every game people can play: the game told on the person's screen as it is played (the
//! game's words, [`Telling`]), the person's seat ([`PersonSeat`], with the game's [`Asking`]
//! words), the result at the end, and the record, as of any game. A person who leaves stops the
//! game: nothing is recorded.

use std::ops::ControlFlow;

use arena_sandbox::HostFailure;

use crate::game::{Hosted, Played, Present};
use crate::info::Terminal;
use crate::kept::Kept;
use crate::person::{say, Asking, Person, PersonSeat, Screen};
use crate::player::{check_host_failures, Player};
use crate::record::{Record, Writer};
use crate::rules::{Rules, Sink};
use crate::{terminal, Table};

/// A game's words around a person's game, told on their screen (as a block of the terminal:
/// nothing in them acts on it).
pub trait Telling<R: Rules> {
    /// Said before the game: who plays what, and how to type a decision.
    fn intro(&self, setup: &R::Setup) -> String;

    /// Said when every seat's agent has started (agents that failed to load, say).
    fn started(&self, state: &R::State) -> String {
        let _ = state;
        String::new()
    }

    /// Said for each turn as it is played.
    fn turn(&self, turn: &R::Turn) -> String {
        let _ = turn;
        String::new()
    }

    /// Said at the end of a game played to its end: its result.
    fn result(&self, game: &Kept<R>) -> String;

    /// The host's failure with a seat's agent, if it had one (`failures` by seat; the person's
    /// is `None`): such a game is not recorded. By default as any game says it.
    fn host_failure(
        &self,
        table: &Table,
        failures: Vec<Option<HostFailure>>,
    ) -> anyhow::Result<()> {
        check_host_failures(table, failures.into_iter())
    }
}

/// The game to play with a person: its table and setup, the person's seat, and the players of
/// the other seats.
pub struct PersonGame<'a, R: Rules> {
    pub table: &'a Table,
    pub setup: R::Setup,
    /// The person's seat.
    pub seat: usize,
    /// The players of the other seats, in seat order.
    pub agents: Vec<Box<dyn Player<R> + 'a>>,
}

/// The record writer, with each part told on the screen before it is written.
struct Told<R: Record, T> {
    screen: Screen,
    telling: T,
    writer: Writer<R>,
}

impl<R: Record, T: Telling<R>> Sink<R> for Told<R, T> {
    fn start(&mut self, rules: &R, state: &R::State) -> ControlFlow<()> {
        say(&self.screen, &terminal::block(&self.telling.started(state)));
        self.writer.start(rules, state)
    }

    fn turn(&mut self, rules: &R, turn: R::Turn) -> ControlFlow<()> {
        say(&self.screen, &terminal::block(&self.telling.turn(&turn)));
        self.writer.turn(rules, turn)
    }
}

/// Plays `game` with the person at `io` in its seat, asked with `asking`, the game told with
/// `telling`: the game played and recorded, or `None` when the person left before the end.
pub fn play_person<R: Present>(
    hosted: &Hosted<R>,
    game: PersonGame<'_, R>,
    io: Terminal,
    asking: impl Asking<R>,
    telling: impl Telling<R>,
) -> anyhow::Result<Option<Played>> {
    let PersonGame {
        table,
        setup,
        seat,
        agents: mut players,
    } = game;
    let rules = &hosted.0;
    let person = Person::at(io);
    let screen = person.screen.clone();
    let mut sink = Told {
        screen: screen.clone(),
        writer: Writer::new(rules, &setup, &table.meta, true)?,
        telling,
    };
    say(&screen, &terminal::block(&sink.telling.intro(&setup)));
    players.insert(seat, Box::new(PersonSeat::new(person, asking)));
    let ended = hosted.play_seated(table, &setup, &mut players, &mut sink)?;
    let failures = players.iter().map(|p| p.host_failure()).collect();
    sink.telling.host_failure(table, failures)?;
    let Some(ended) = ended else {
        return Ok(None);
    };
    let counted = players.iter().map(|p| p.usage()).collect();
    drop(players);
    let Told {
        telling, writer, ..
    } = sink;
    let played = hosted.played(setup, ended, writer, counted)?;
    if let Some(kept) = played.detail.downcast_ref::<Kept<R>>() {
        say(&screen, &terminal::block(&telling.result(kept)));
    }
    Ok(Some(played))
}
