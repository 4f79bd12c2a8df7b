//! What a game brings to the arena, and what it reuses.
//!
//! A game implements [`Game`], in its own folder under `crate::games` (with its rules in
//! `rules/<game>/` and its ABI layouts in `abi/`): who may sit at its table and what the sandbox
//! is told about its agents ([`GameInfo`]), how it is played from a seed against a set of seats
//! ([`Game::play`]), how its records are replayed and verified ([`Game::verify`]), its `arena
//! play` narration, its `arena check` smoke games, its report's replay data and viewer, and its
//! `arena new` templates. Everything else is shared, and knows games only through this trait and
//! the registry (`crate::games`): the sandbox and its budgets (told only the game's
//! [`AgentInterface`]), faults and the fault policy, scheduling, the journal, results, ratings,
//! the records' envelope and streamed reading, the report, the server, matches and the bench.
//!
//! This module is the shared vocabulary: [`Outcome`], [`Summary`], [`FaultNote`], [`Table`],
//! [`Played`], [`Seat`], the faults, and the seeds games derive from theirs.

pub mod fault;
pub mod native;
pub mod seed;
mod smoke;

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::ops::RangeInclusive;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::records::lines::{Line, RecordReader};
use crate::records::{RecordMeta, VerifyError, VerifySummary};
use crate::report::RecordLines;
use crate::sandbox::{AgentInterface, AgentModule, HostFailure, Sandbox, WasmPlayer};

pub use fault::{Fault, FaultKind, FaultPolicy};

/// Who a game is and who may play it.
#[derive(Debug)]
pub struct GameInfo {
    /// The name in league files, records and on the command line (lower case, words joined by
    /// `-`).
    pub name: &'static str,
    /// The name for people (the game's title).
    pub title: &'static str,
    /// Players at one table. One player is a solo game, whose measure is the turns it takes to
    /// reach the game's target ([`GameInfo::solo_target`]).
    pub seats: RangeInclusive<usize>,
    /// The target a solo game plays for, as people write it (`10,000`); `None` for a game with
    /// no solo form.
    pub solo_target: Option<&'static str>,
    /// What one of the record's turns is called, singular (`"turn"`, or `"visit"` where a turn
    /// is a visit of a cell): how `arena verify` counts them.
    pub turn_word: &'static str,
    /// Whether the game's seed rolls dice (`arena verify` then says `dice: seeded N`, else
    /// `seed N`).
    pub dice: bool,
    /// All the sandbox is told about the game.
    pub agent: AgentInterface,
}

/// The game's own settings of a league or challenge file (its table, named after the game), as
/// the game checked and completed them: kept in the journal's header and the standings' settings
/// (only when there are any).
pub type GameSettings = serde_json::Map<String, serde_json::Value>;

/// A game of the arena. Implementations live in `crate::games::<game>/` and are listed in the
/// registry (`crate::games`); nothing else names a game.
pub trait Game: Send + Sync + 'static {
    fn info(&self) -> &'static GameInfo;

    /// The game's own settings from the table named after it in a league or challenge file
    /// (`None`: no such table): unknown keys refused, naming the key, defaults filled in. A game
    /// with no settings refuses every key ([`no_settings`]).
    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        no_settings(self.info(), keys)
    }

    /// Plays one game with `seats[s]` in seat `s` and writes its record. Never fails because of
    /// what an agent does (that is a fault in the record); an error is the host's own failure (a
    /// [`HostFailure`] when the host could not set a seat up: see [`check_host_failures`]).
    fn play(&self, host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played>;

    /// Verifies a record of this game whose setup line (`setup`) has been read, by replaying it
    /// from `reader` as a stream (see `crate::records::verify_reader`): the replay must give the
    /// very same lines back, and the digest must match.
    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError>;

    /// `arena play`: the game `played` as text for a terminal, written to `out`.
    fn narrate(
        &self,
        played: &Played,
        opts: &Narration<'_>,
        out: &mut dyn Write,
    ) -> anyhow::Result<()>;

    /// `arena check`: the smoke games of one agent, with what they tell of it written to `out`.
    /// An error is the host's own failure (no verdict on the agent).
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

    /// `arena bench`: the game's workload, for a game the bench can measure the arena on.
    fn workload(&self) -> Option<&'static dyn crate::bench::Workload> {
        None
    }

    /// `arena perft`: the move counter of a game of positions and moves (`None`: a game without
    /// one, such as a dice game).
    fn perft(&self) -> Option<&'static dyn Perft> {
        None
    }

    /// `arena play` with a person at the terminal: a seat of `seats` that is `None` is a person
    /// (the word `human` on the command line), whose moves are read from `io.input`; the game is
    /// told on `io.screen` as it is played. `Ok(None)`: the person left before the end (there is
    /// nothing to record). The default: a game people cannot play here, an error that says so.
    fn play_person(
        &self,
        host: &Host<'_>,
        table: &Table,
        seats: &[Option<Seat<'_>>],
        io: Terminal,
        opts: &Narration<'_>,
    ) -> anyhow::Result<Option<Played>> {
        let _ = (host, table, seats, io, opts);
        anyhow::bail!(
            "a person at the terminal cannot play {} (only agents can)",
            self.info().title
        )
    }
}

/// The terminal a person plays at: what they type, and the screen the game is told on.
pub struct Terminal {
    pub input: Box<dyn std::io::BufRead>,
    pub screen: Box<dyn Write>,
}

/// `arena perft`: counts the move sequences of a game's positions (the standard check of a move
/// generator, and a measure of its speed).
pub trait Perft: Sync {
    /// Counts the sequences of `depth` moves from `position` (in the game's notation; `None`:
    /// the start) and writes the count, the time and the speed to `out`; with `divide`, each
    /// first move with the count under it first. A position the game refuses is an error that
    /// says why.
    fn count(
        &self,
        position: Option<&str>,
        depth: u32,
        divide: bool,
        out: &mut dyn Write,
    ) -> anyhow::Result<()>;
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
    pub fn seats(&self) -> RangeInclusive<usize> {
        self.info().seats.clone()
    }
}

/// The settings of a game that has none: any key is refused.
pub fn no_settings(info: &GameInfo, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
    if let Some(key) = keys.and_then(|k| k.keys().next()) {
        anyhow::bail!(
            "unknown key `{}.{key}`: {} has no settings of its own",
            info.name,
            info.title
        );
    }
    Ok(GameSettings::new())
}

/// Who sits in a seat.
#[derive(Clone, Copy)]
pub enum Seat<'a> {
    /// A sandboxed agent (a core module or a component).
    Agent(&'a AgentModule),
    /// A strategy of the host's own (tests, benchmarks, a baseline): a value of the game's own
    /// type, which the game downcasts.
    Native(&'a (dyn Any + Sync)),
}

/// What a game may use from the host while it plays. A game of agents that create agents
/// (modules made during play) will validate, compile and run them through the sandbox.
#[derive(Clone, Copy, Default)]
pub struct Host<'a> {
    /// The sandbox the agents were loaded into; `None` where only native strategies play.
    pub sandbox: Option<&'a Sandbox>,
}

/// How one game ended, in terms every game shares (the standings read only this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// `last_standing`: every other player forfeited.
    Win { seat: usize, last_standing: bool },
    /// `round_cap`: the game reached its round cap (in a solo game: the target was not reached).
    Draw { round_cap: bool },
    /// An explicit list of dice ran out before the game ended (a studied position).
    Unfinished,
}

impl Outcome {
    pub fn winner(&self) -> Option<usize> {
        match self {
            Outcome::Win { seat, .. } => Some(*seat),
            _ => None,
        }
    }
}

/// One fault, attributed to a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultNote {
    pub seat: usize,
    /// The decision's name in the game's records (`init` for a fault while loading).
    pub decision: String,
    pub kind: String,
    pub detail: String,
}

/// What the league keeps of a finished game, whatever the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub outcome: Outcome,
    pub rounds: u32,
    pub turns: u32,
    /// Seats that forfeited, in order.
    pub forfeits: Vec<usize>,
    pub faults: Vec<FaultNote>,
    /// Final score of each seat, for games that keep a score; ranks follow it.
    pub scores: Option<Vec<i64>>,
}

/// Debug output of one agent during one decision (or while loading, for the start), as games
/// record it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentLog {
    pub seat: usize,
    pub text: String,
}

/// Everything about one scheduled game that is not the players.
#[derive(Clone, Debug)]
pub struct Table {
    pub seed: u64,
    pub round_cap: u32,
    pub policy: FaultPolicy,
    /// The game's own settings ([`Game::settings`]); shared by every game of a league.
    pub settings: Arc<GameSettings>,
    /// Names, code hashes and limits, written into the record.
    pub meta: RecordMeta,
}

/// What one agent used in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatUsage {
    /// Fuel, loading included.
    pub fuel: u64,
    /// The most fuel one decision used.
    pub max_decision_fuel: u64,
    /// Decisions the agent was asked for.
    pub decisions: u64,
}

impl SeatUsage {
    /// What a sandboxed player used in its game.
    pub fn of(player: &WasmPlayer) -> SeatUsage {
        SeatUsage {
            fuel: player.fuel_used(),
            max_decision_fuel: player.max_decision_fuel(),
            decisions: player.decisions(),
        }
    }
}

/// A played game: its record (JSON Lines, docs/RECORDS.md), its summary, what each agent used,
/// and the game's own account of it (for its narration).
pub struct Played {
    pub record: Vec<u8>,
    pub summary: Summary,
    /// Per seat: what its agent used (`None` for a native seat).
    pub usage: Vec<Option<SeatUsage>>,
    /// The game's own record of the game, which its [`Game::narrate`] downcasts.
    pub detail: Box<dyn Any + Send>,
}

/// How `arena play` narrates a game.
pub struct Narration<'a> {
    /// The players' names, by seat.
    pub names: &'a [String],
    /// Show what the agents logged, under the turn they logged it in.
    pub logs: bool,
    /// Draw the game's board after every turn, for a game with a board (which otherwise draws
    /// it where it chooses).
    pub boards: bool,
}

/// The smoke games of `arena check`.
#[derive(Clone, Debug)]
pub struct SmokeOptions {
    /// Number of games (the agent changes seat every game where there are several).
    pub games: u32,
    /// The seed of the first game; the next ones use the following seeds.
    pub seed: u64,
    pub round_cap: u32,
    /// Show what the agent logged in the first game.
    pub logs: bool,
}

/// What smoke games tell of an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Smoke {
    /// Faults: the agent fails the check. A fault seen again is not repeated here but counted
    /// ([`Smoke::fault`]).
    pub errors: Vec<String>,
    /// Answers the rules refused (not faults), counted by kind.
    pub warnings: BTreeMap<String, u32>,
    /// The faults seen so far: their text, the error that first reported it, and how many more
    /// times it came.
    repeats: BTreeMap<String, (usize, u32)>,
}

/// A game's replay viewer in the report: pages, scripts and style sheets (from the game's
/// folder), beside the report's shared ones.
#[derive(Debug)]
pub struct Viewer {
    /// The page that shows one game: `PAGE?game=N`.
    pub page: &'static str,
    /// The label of a game's link in the report's list of games.
    pub link: &'static str,
    /// The viewer's files: name and text.
    pub assets: &'static [(&'static str, &'static str)],
}

/// One file of a template: its path in the project and its text (with `{{name}}` and
/// `{{world}}` placeholders).
pub type TemplateFile = (&'static str, &'static str);

/// A game's `arena new` template in one language: the game's files (the language's own, such as
/// the SDK's bindings and the build files, are `arena new`'s).
#[derive(Debug)]
pub struct Template {
    /// The language, as `arena new --lang` names it (`rust`, `c`, `wat`, ...).
    pub lang: &'static str,
    pub files: &'static [TemplateFile],
}

/// Fails with the first seat's [`HostFailure`], if the host failed any seat: such a game is not
/// recorded (every game does this check).
pub fn check_host_failures(
    table: &Table,
    failures: impl Iterator<Item = Option<HostFailure>>,
) -> anyhow::Result<()> {
    for (seat, failure) in failures.enumerate() {
        if let Some(HostFailure(why)) = failure {
            let name = table.meta.names.get(seat).map_or("?", String::as_str);
            return Err(anyhow::Error::new(HostFailure(format!(
                "game with seed {} not recorded: seat {seat} ({name}): {why}",
                table.seed
            ))));
        }
    }
    Ok(())
}

/// The player of each seat for one game of `game`: a fresh instance of a sandboxed agent (told
/// the table's round cap), or what `native` makes of a native seat (the game's own type, or an
/// error naming the seat).
pub fn seat_players<P: ?Sized>(
    game: &GameInfo,
    table: &Table,
    seats: &[Seat<'_>],
    agent: impl Fn(WasmPlayer) -> Box<P>,
    native: impl Fn(&(dyn Any + Sync)) -> Option<Box<P>>,
) -> anyhow::Result<Vec<Box<P>>> {
    seats
        .iter()
        .enumerate()
        .map(|(s, seat)| match seat {
            Seat::Agent(m) => Ok(agent(m.player_with_round_cap(table.round_cap))),
            Seat::Native(n) => native(*n).ok_or_else(|| {
                anyhow::anyhow!(
                    "seat {s}: a native strategy that does not play {}",
                    game.title
                )
            }),
        })
        .collect()
}
