//! The registry of the games an arena hosts: built by the command line and handed down to every
//! command that plays, verifies or shows games, so that nothing below it looks a game up by name
//! on its own.

use std::io::Read;

use arena_sandbox::{AgentInterface, Games};
use serde_json::Value;

use crate::game::Game;
use crate::record::{fail, RecordReader, VerifyError, VerifySummary};

/// The games an arena hosts, in the order they are listed (the first is the default of league
/// files), and what the sandbox is told about each.
pub struct Registry {
    games: &'static [&'static dyn Game],
    agents: Games,
}

impl Registry {
    /// The registry of `games`; `agents[i]` is `games[i]`'s agent interface.
    pub const fn new(games: &'static [&'static dyn Game], agents: Games) -> Registry {
        Registry { games, agents }
    }

    /// Every game.
    pub fn all(&self) -> &'static [&'static dyn Game] {
        self.games
    }

    /// What the sandbox is told about every game, in the registry's order.
    pub fn agents(&self) -> Games {
        self.agents
    }

    /// The first game: the game of a league or challenge file that names none.
    pub fn first(&self) -> &'static dyn Game {
        self.games[0]
    }

    /// The game named `name` in league files, records and on the command line; an error lists
    /// the games there are.
    pub fn by_name(&self, name: &str) -> anyhow::Result<&'static dyn Game> {
        self.parse(name).map_err(anyhow::Error::msg)
    }

    /// [`Registry::by_name`] with the message as a string (command-line arguments).
    pub fn parse(&self, name: &str) -> Result<&'static dyn Game, String> {
        self.games
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = self.games.iter().map(|g| g.name()).collect();
                format!("unknown game {name:?} (known: {})", known.join(", "))
            })
    }

    /// The game of an agent interface the sandbox reports (a module's games).
    pub fn of_agent(&self, agent: &AgentInterface) -> &'static dyn Game {
        self.games
            .iter()
            .copied()
            .find(|g| g.info().agent.abi_id == agent.abi_id)
            .expect("the sandbox knows only the registry's games")
    }

    /// Verifies a record of any game read from `source` (a file, gzip-compressed or not), as a
    /// stream: the setup line's `game` field says which game's rules replay it. Memory holds one
    /// line (at most [`crate::record::MAX_LINE_BYTES`]) and the game, whatever the size of the
    /// file; the first inconsistency stops the reading. Never panics, whatever the text.
    pub fn verify_reader(&self, source: impl Read) -> Result<VerifySummary, VerifyError> {
        let mut reader = RecordReader::new(source)
            .map_err(|e| fail(0, format!("cannot read the record: {e}")))?;
        let Some(first) = reader.next_line()? else {
            return Err(fail(0, "empty file: a record has at least 3 lines"));
        };
        if first.kind() != Some("setup") {
            return Err(fail(
                first.number,
                format!("type: expected \"setup\", found {}", first.kind_shown()),
            ));
        }
        let game = match first.value.get("game") {
            Some(Value::String(name)) => self
                .by_name(name)
                .map_err(|e| fail(first.number, format!("game: {e}")))?,
            None => return Err(fail(first.number, "missing field `game`")),
            Some(other) => {
                return Err(fail(
                    first.number,
                    format!("game: invalid type: {other}, expected the name of a game"),
                ))
            }
        };
        game.verify(reader, first)
    }

    /// [`Registry::verify_reader`] of a record's bytes, gzip-compressed or not.
    pub fn verify_record_bytes(&self, bytes: &[u8]) -> Result<VerifySummary, VerifyError> {
        self.verify_reader(bytes)
    }

    /// [`Registry::verify_reader`] of a record's text.
    pub fn verify_record(&self, text: &str) -> Result<VerifySummary, VerifyError> {
        self.verify_reader(text.as_bytes())
    }
}
