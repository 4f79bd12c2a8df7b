//! A game as the arena sees it ([`Game`]: what the registry lists and every command uses), made
//! of the game's rules, records and words ([`Rules`], [`Record`], [`Present`]) by the host's
//! services, written once here ([`Hosted`]): playing a table, verifying a record, narrating a
//! game played, smoke games.

use std::any::Any;
use std::fmt;
use std::io::Write;
use std::time::Duration;

use arena_sandbox::{AgentModule, Init};

use crate::info::{
    no_settings, GameInfo, Narration, Perft, Smoke, SmokeOptions, Template, Viewer, WithPerson,
};
use crate::kept::{unfinished, Kept};
use crate::play::{play, Ended};
use crate::player::{check_host_failures, seat_players, Host, NativeAgent, Player, Seat};
use crate::record::{Line, Record, RecordReader, VerifyError, VerifySummary, Writer};
use crate::replay::RecordLines;
use crate::rules::{Rules, Sink};
use crate::seed::SeededDice;
use crate::smoke_games::{smoke_games, SmokeGames};
use crate::{GameSettings, SeatUsage, Summary, Table};

/// A played game: its record (JSON Lines, docs/RECORDS.md), its summary, what each agent used,
/// and the game as played (for its narration).
pub struct Played {
    pub record: Vec<u8>,
    pub summary: Summary,
    /// Per seat: what its agent used (`None` for a native seat).
    pub usage: Vec<Option<SeatUsage>>,
    /// The game as played ([`Kept`] of its rules), which its narration reads.
    pub detail: Box<dyn Any + Send>,
}

/// A game's example strategies, for `arena bench`: played natively in the host, as wasm agents
/// (`NAME.wasm`) and as processes of their own (`arena-stdio-agent NAME`).
pub struct Strategies {
    /// The strategies' names, as their crates and wasm files are named.
    pub names: &'static [&'static str],
    /// The strategy that answers at once, for the per-decision timings.
    pub passer: &'static str,
    /// The same strategy written in WebAssembly text (no compiler's code in the timing).
    pub passer_wat: &'static str,
    /// The strategy whose per-game start is timed.
    pub starter: &'static str,
    /// A fresh native agent of the strategy `name`; `None` for a name that is not a strategy.
    pub native: fn(&str) -> Option<Box<dyn NativeAgent>>,
    /// The per-decision timing: starts a player of the seat told `init` (not timed), then asks it
    /// `calls` times one decision on a small fixed observation, built once, through the game's
    /// player (a core module's or a native strategy's ABI bytes, a component's typed call), as
    /// the game loop asks it; the time of the calls ([`crate::player::time_decisions`]).
    pub time_sample: fn(Seat<'_>, &Init, u32) -> anyhow::Result<Duration>,
}

/// What a game brings besides its rules and records: its settings, its words and pictures (the
/// narration, the report's replay data, its viewer, what its smoke games tell: [`SmokeGames`]),
/// `arena new`'s templates, and what it alone has (a move counter, a person at the terminal, strategies for the bench).
pub trait Present: Record + SmokeGames {
    /// The game's own settings from the table named after it in a league or challenge file
    /// (`None`: no such table): unknown keys refused, naming the key, defaults filled in.
    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        no_settings(self.info(), keys)
    }

    /// The players of a table's seats (by default: sandboxed agents and native strategies).
    fn seat_players<'a>(
        &self,
        host: &Host<'a>,
        table: &Table,
        seats: &[Seat<'a>],
    ) -> anyhow::Result<Vec<Box<dyn Player<Self> + 'a>>> {
        let _ = host;
        seat_players(self, seats, table)
    }

    /// What the agent of `seat` used, for a game that counts it itself (a fuel clock: what each
    /// decision took off the clock, [`SeatUsage::of_decisions`]); `None` (the default): what its
    /// player counted. A native seat counts nothing either way.
    fn usage(&self, kept: &Kept<Self>, seat: usize) -> Option<SeatUsage> {
        let _ = (kept, seat);
        None
    }

    /// `arena play`: the game as text for a terminal (which the host fits to the terminal's
    /// width and writes).
    fn narrate(&self, game: &Kept<Self>, opts: &Narration<'_>) -> String;

    /// The report: the data (JSON) the game's viewer animates, from its record's lines.
    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>>;

    /// The report's viewer of the game's replays.
    const VIEWER: &'static Viewer;

    /// `arena new`: the game's templates, one per language (made with [`crate::templates!`]).
    const TEMPLATES: &'static [Template];

    /// `arena bench`: the game's example strategies, for a game the bench can measure the arena
    /// on.
    fn strategies(&self) -> Option<&'static Strategies> {
        None
    }

    /// `arena perft`: the move counter of a game of positions and moves.
    fn perft(&self) -> Option<&'static dyn Perft> {
        None
    }

    /// `arena play` with a person at the terminal (see [`Game::play_person`]).
    fn play_person(&self, game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
        no_person(self.info(), game)
    }
}

/// The refusal of a game people cannot play at the terminal.
fn no_person(info: &GameInfo, game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
    let _ = game;
    anyhow::bail!(
        "a person at the terminal cannot play {} (only agents can)",
        info.title
    )
}

/// A game of the arena: what the registry lists. Games implement [`Rules`], [`Record`] and
/// [`Present`]; [`Hosted`] makes them a `Game`.
pub trait Game: Send + Sync + 'static {
    fn info(&self) -> &'static GameInfo;

    /// The game's own settings of a league or challenge file ([`Present::settings`]).
    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings>;

    /// Plays one game with `seats[s]` in seat `s` and writes its record. Never fails because of
    /// what an agent does (that is a fault in the record); an error is the host's own failure (a
    /// `HostFailure` when the host could not set a seat up).
    fn play(&self, host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played>;

    /// Plays one game as [`Game::play`] does, without writing a record (the bench); by default
    /// the summary of a game played.
    fn play_unrecorded(
        &self,
        host: &Host<'_>,
        table: &Table,
        seats: &[Seat<'_>],
    ) -> anyhow::Result<Summary> {
        Ok(self.play(host, table, seats)?.summary)
    }

    /// Verifies a record of this game whose setup line (`setup`) has been read, by replaying it
    /// from `reader` as a stream: the replay must give the very same lines back, and the digest
    /// must match.
    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError>;

    /// `arena play`: the game `played` as text for a terminal, written to `out`.
    fn narrate(
        &self,
        played: &Played,
        opts: &Narration<'_>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()>;

    /// `arena check`: the smoke games of one agent, with what they tell of it written to `out`
    /// ([`smoke_games`] for a game of the host's loop). An error is the host's own failure (no
    /// verdict on the agent).
    fn smoke(
        &self,
        host: &Host<'_>,
        agent: &AgentModule,
        opts: &SmokeOptions,
        out: &mut dyn Write,
    ) -> anyhow::Result<Smoke>;

    /// The report: the data (JSON) the game's viewer animates, from its record's lines.
    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>>;

    /// The report's viewer of the game's replays.
    fn viewer(&self) -> &'static Viewer;

    /// `arena new`: the game's templates, one per language.
    fn templates(&self) -> &'static [Template];

    /// `arena bench`: the game's example strategies (by default none: the bench cannot measure
    /// the arena on the game).
    fn strategies(&self) -> Option<&'static Strategies> {
        None
    }

    /// `arena perft`: the move counter of a game of positions and moves (by default none).
    fn perft(&self) -> Option<&'static dyn Perft> {
        None
    }

    /// `arena play` with a person at the terminal: a seat of `game.seats` that is `None` is a
    /// person, whose moves are read from `game.io.input`; the game is told on `game.io.screen` as
    /// it is played. `Ok(None)`: the person left before the end (there is nothing to record). A
    /// game people cannot play here refuses (the default).
    fn play_person(&self, game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
        no_person(self.info(), game)
    }
}

impl fmt::Debug for dyn Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

impl fmt::Display for dyn Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info().name)
    }
}

impl PartialEq for dyn Game {
    fn eq(&self, other: &dyn Game) -> bool {
        self.info().name == other.info().name
    }
}

impl dyn Game {
    /// The name in league files, records and on the command line.
    pub fn name(&self) -> &'static str {
        self.info().name
    }

    /// The name for people.
    pub fn title(&self) -> &'static str {
        self.info().title
    }

    /// Players at one table.
    pub fn seats(&self) -> std::ops::RangeInclusive<usize> {
        self.info().seats.clone()
    }
}

/// A game's rules, records and words made a [`Game`] by the host's services.
pub struct Hosted<R>(pub R);

/// A sink that keeps nothing (a game played without a record).
struct Discard;

impl<R: Rules> Sink<R> for Discard {
    fn start(&mut self, _: &R, _: &R::State) -> std::ops::ControlFlow<()> {
        std::ops::ControlFlow::Continue(())
    }
    fn turn(&mut self, _: &R, _: R::Turn) -> std::ops::ControlFlow<()> {
        std::ops::ControlFlow::Continue(())
    }
}

impl<R: Present> Hosted<R> {
    /// Plays a game of `setup` with `players`, into `sink`: how it ended, or the host's failure.
    pub fn play_into(
        &self,
        table: &Table,
        setup: &R::Setup,
        players: &mut [Box<dyn Player<R> + '_>],
        sink: &mut dyn Sink<R>,
    ) -> anyhow::Result<Option<Ended<R::End>>> {
        let ended = self.play_seated(table, setup, players, sink)?;
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        Ok(ended)
    }

    /// [`Hosted::play_into`] without its check of the host's failures, for a caller that says
    /// them in its own words (a person's game).
    pub fn play_seated(
        &self,
        table: &Table,
        setup: &R::Setup,
        players: &mut [Box<dyn Player<R> + '_>],
        sink: &mut dyn Sink<R>,
    ) -> anyhow::Result<Option<Ended<R::End>>> {
        let rules = &self.0;
        anyhow::ensure!(
            players.len() == rules.players(setup),
            "{} players for a table of {}",
            players.len(),
            rules.players(setup)
        );
        let mut dice = SeededDice::new(rules.seed(setup).unwrap_or(table.seed));
        let mut at_table: Vec<&mut dyn Player<R>> = players
            .iter_mut()
            .map(|p| &mut **p as &mut dyn Player<R>)
            .collect();
        Ok(play(rules, setup, &mut at_table, &mut dice, sink))
    }

    /// Plays one game of `table` and writes its record, keeping the game for its narration.
    pub fn play_kept(
        &self,
        host: &Host<'_>,
        table: &Table,
        seats: &[Seat<'_>],
    ) -> anyhow::Result<Played> {
        let rules = &self.0;
        let setup = rules.setup(table, host)?;
        let mut players = rules.seat_players(host, table, seats)?;
        let mut writer = Writer::new(rules, &setup, &table.meta, true)?;
        let ended = self.play_into(table, &setup, &mut players, &mut writer)?;
        let Some(ended) = ended else {
            return Err(unfinished(writer));
        };
        let counted: Vec<Option<SeatUsage>> = players.iter().map(|p| p.usage()).collect();
        drop(players);
        self.played(setup, ended, writer, counted)
    }

    /// A played game from how it ended and its writer.
    pub fn played(
        &self,
        setup: R::Setup,
        ended: Ended<R::End>,
        writer: Writer<R>,
        counted: Vec<Option<SeatUsage>>,
    ) -> anyhow::Result<Played> {
        let rules = &self.0;
        let mut summary = rules.summary(&ended.end);
        summary.faults = ended.faults.notes;
        let (record, turns) = writer.finish(rules, &ended.end)?;
        let kept = Kept::<R> {
            setup,
            loaded: ended.loaded,
            turns,
            end: ended.end,
        };
        let usage = counted
            .into_iter()
            .enumerate()
            .map(|(seat, c)| c.map(|c| rules.usage(&kept, seat).unwrap_or(c)))
            .collect();
        Ok(Played {
            record,
            summary,
            usage,
            detail: Box::new(kept),
        })
    }
}

impl<R: Present> Game for Hosted<R> {
    fn info(&self) -> &'static GameInfo {
        self.0.info()
    }

    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        self.0.settings(keys)
    }

    fn play(&self, host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        self.play_kept(host, table, seats)
    }

    fn play_unrecorded(
        &self,
        host: &Host<'_>,
        table: &Table,
        seats: &[Seat<'_>],
    ) -> anyhow::Result<Summary> {
        let rules = &self.0;
        let setup = rules.setup(table, host)?;
        let mut players = rules.seat_players(host, table, seats)?;
        let ended = self
            .play_into(table, &setup, &mut players, &mut Discard)?
            .ok_or_else(|| anyhow::anyhow!("a player left the game before its end"))?;
        let mut summary = rules.summary(&ended.end);
        summary.faults = ended.faults.notes;
        Ok(summary)
    }

    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError> {
        crate::record::replay::verify(&self.0, reader, setup)
    }

    fn narrate(
        &self,
        played: &Played,
        opts: &Narration<'_>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let kept = played.detail.downcast_ref::<Kept<R>>().ok_or_else(|| {
            anyhow::anyhow!("the game played is not a game of {}", self.0.info().title)
        })?;
        let text = self.0.narrate(kept, opts);
        out.write_all(crate::terminal::block(&text).as_bytes())?;
        Ok(())
    }

    fn smoke(
        &self,
        _host: &Host<'_>,
        agent: &AgentModule,
        opts: &SmokeOptions,
        out: &mut dyn Write,
    ) -> anyhow::Result<Smoke> {
        smoke_games(&self.0, agent, opts, out)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        self.0.replay(record)
    }

    fn viewer(&self) -> &'static Viewer {
        R::VIEWER
    }

    fn templates(&self) -> &'static [Template] {
        R::TEMPLATES
    }

    fn strategies(&self) -> Option<&'static Strategies> {
        self.0.strategies()
    }

    fn perft(&self) -> Option<&'static dyn Perft> {
        self.0.perft()
    }

    fn play_person(&self, game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
        self.0.play_person(game)
    }
}
