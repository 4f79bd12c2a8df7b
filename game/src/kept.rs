//! Games kept as played ([`Kept`]: the setup, how each agent started, every record turn and the
//! end), which narrations, smoke games and tests read: played without a record
//! ([`play_kept`], [`play_seeded`]) or with one ([`play_recorded`]).

use std::fmt;

use crate::play::play;
use crate::player::Player;
use crate::record::{Record, RecordMeta, Writer};
use crate::rules::{Loaded, Rules, Sink};
use crate::seed::{DiceSource, SeededDice};
use crate::SeatUsage;

/// A game as played, for its narration: its setup, how each agent started, every record turn and
/// the end.
pub struct Kept<R: Rules> {
    pub setup: R::Setup,
    pub loaded: Vec<Loaded>,
    pub turns: Vec<R::Turn>,
    pub end: R::End,
}

impl SeatUsage {
    /// What a seat used in a game that counts it itself: the game's `total` for the seat, and
    /// the fuel of each of its decisions (the largest, and how many).
    pub fn of_decisions(total: u64, decisions: impl Iterator<Item = u64>) -> SeatUsage {
        decisions.fold(
            SeatUsage {
                fuel: total,
                ..SeatUsage::default()
            },
            |u, fuel| SeatUsage {
                max_decision_fuel: u.max_decision_fuel.max(fuel),
                decisions: u.decisions + 1,
                ..u
            },
        )
    }
}

impl<R: Rules> Clone for Kept<R>
where
    R::Turn: Clone,
    R::End: Clone,
{
    fn clone(&self) -> Self {
        Kept {
            setup: self.setup.clone(),
            loaded: self.loaded.clone(),
            turns: self.turns.clone(),
            end: self.end.clone(),
        }
    }
}

impl<R: Rules> PartialEq for Kept<R>
where
    R::Setup: PartialEq,
    R::Turn: PartialEq,
    R::End: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.setup == other.setup
            && self.loaded == other.loaded
            && self.turns == other.turns
            && self.end == other.end
    }
}

impl<R: Rules> fmt::Debug for Kept<R>
where
    R::Setup: fmt::Debug,
    R::Turn: fmt::Debug,
    R::End: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kept")
            .field("setup", &self.setup)
            .field("loaded", &self.loaded)
            .field("turns", &self.turns)
            .field("end", &self.end)
            .finish()
    }
}

/// Keeps every turn of a game (a game played without a record).
struct Keep<R: Rules> {
    turns: Vec<R::Turn>,
}

impl<R: Rules> Sink<R> for Keep<R> {
    fn start(&mut self, _: &R, _: &R::State) -> std::ops::ControlFlow<()> {
        std::ops::ControlFlow::Continue(())
    }
    fn turn(&mut self, _: &R, turn: R::Turn) -> std::ops::ControlFlow<()> {
        self.turns.push(turn);
        std::ops::ControlFlow::Continue(())
    }
}

/// Plays a game of `setup` with `players[s]` in seat `s` and keeps it, without a record (smoke
/// games, tests), throwing `dice`; `None` when a player left it.
pub fn play_kept<R: Rules>(
    rules: &R,
    setup: &R::Setup,
    players: &mut [&mut dyn Player<R>],
    dice: &mut dyn DiceSource,
) -> Option<Kept<R>> {
    let mut keep = Keep::<R> { turns: Vec::new() };
    let ended = play(rules, setup, players, dice, &mut keep)?;
    Some(Kept {
        setup: setup.clone(),
        loaded: ended.loaded,
        turns: keep.turns,
        end: ended.end,
    })
}

/// Plays a game of `setup` with the dice of its seed, and keeps it ([`play_kept`]).
pub fn play_seeded<R: Rules>(
    rules: &R,
    setup: &R::Setup,
    players: &mut [&mut dyn Player<R>],
) -> Option<Kept<R>> {
    let mut dice = SeededDice::new(rules.seed(setup).unwrap_or(0));
    play_kept(rules, setup, players, &mut dice)
}

/// Plays a game of `setup` with `players` and writes its record for `meta`'s players (tests,
/// the bench of records): the game kept, and the record's bytes.
pub fn play_recorded<R: Record>(
    rules: &R,
    setup: &R::Setup,
    meta: &RecordMeta,
    players: &mut [&mut dyn Player<R>],
    dice: &mut dyn DiceSource,
) -> anyhow::Result<(Kept<R>, Vec<u8>)> {
    let mut writer = Writer::new(rules, setup, meta, true)?;
    let Some(ended) = play(rules, setup, players, dice, &mut writer) else {
        return Err(unfinished(writer));
    };
    let (record, turns) = writer.finish(rules, &ended.end)?;
    Ok((
        Kept {
            setup: setup.clone(),
            loaded: ended.loaded,
            turns,
            end: ended.end,
        },
        record,
    ))
}

/// The error of a game whose loop stopped before the end: the record could not be written, or a
/// player left.
pub(crate) fn unfinished<R: Record>(mut writer: Writer<R>) -> anyhow::Error {
    match writer.take_error() {
        Some(e) => anyhow::Error::new(e).context("cannot write the record"),
        None => anyhow::anyhow!("a player left the game before its end"),
    }
}
