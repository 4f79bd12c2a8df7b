//! Who a game is ([`GameInfo`]), and what it brings besides its rules: its settings' keys, the
//! report's viewer of its replays ([`Viewer`]), `arena new`'s templates ([`Template`]), and the
//! options of the services the host gives it (`arena play`'s narration, `arena check`'s smoke
//! games).

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::RangeInclusive;

use anyhow::Context;
use arena_sandbox::{AgentInterface, ComponentWorld};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{GameSettings, Host, Seat, Table};

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

impl GameInfo {
    /// A game whose agents answer its `decisions` as core modules (the byte ABI's game `abi_id`)
    /// or as components of its WIT world: each turn called a turn, no dice, no solo form ([`Self::
    /// with_dice`] and [`Self::with_solo_target`] say otherwise).
    pub const fn deciding(
        name: &'static str,
        title: &'static str,
        seats: RangeInclusive<usize>,
        abi_id: u32,
        decisions: &'static [&'static str],
        component: &'static dyn ComponentWorld,
    ) -> GameInfo {
        GameInfo {
            name,
            title,
            seats,
            solo_target: None,
            turn_word: "turn",
            dice: false,
            agent: AgentInterface {
                title,
                abi_id,
                decisions,
                component: Some(component),
                snippet: None,
            },
        }
    }

    /// The same game, whose seed rolls dice.
    pub const fn with_dice(mut self) -> GameInfo {
        self.dice = true;
        self
    }

    /// The same game, with a solo form playing for `target`.
    pub const fn with_solo_target(mut self, target: &'static str) -> GameInfo {
        self.solo_target = Some(target);
        self
    }

    /// Refuses a table of `players` the game is not played by, in the words every game uses
    /// (`Dominoes is played by 2 to 4 players, not 5`).
    pub fn check_players(&self, players: usize) -> anyhow::Result<()> {
        let (least, most) = (*self.seats.start(), *self.seats.end());
        let counts = if least == most {
            format!("{least}")
        } else {
            format!("{least} to {most}")
        };
        anyhow::ensure!(
            self.seats.contains(&players),
            "{} is played by {counts} players, not {players}",
            self.title
        );
        Ok(())
    }

    /// The same game, whose turns are called `word`.
    pub const fn with_turn_word(mut self, word: &'static str) -> GameInfo {
        self.turn_word = word;
        self
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

/// A game's own settings (`settings`, which `whose` names in errors: `the game's settings`) as
/// the game's settings of a league: a JSON object.
pub fn settings_map<T: Serialize>(settings: &T, whose: &str) -> anyhow::Result<GameSettings> {
    match serde_json::to_value(settings)? {
        serde_json::Value::Object(map) => Ok(map),
        _ => anyhow::bail!("{whose} are not a JSON object"),
    }
}

/// A game's own settings from the game's settings of a league (as [`settings_map`] wrote them).
pub fn settings_of_map<T: DeserializeOwned>(map: &GameSettings, whose: &str) -> anyhow::Result<T> {
    serde_json::from_value(serde_json::Value::Object(map.clone()))
        .with_context(|| format!("{whose} of this table"))
}

/// What a game's own settings (a serde type `$settings`, with its defaults the constant
/// `$defaults`) have the same way in every game with settings: `Default` (the defaults), and the
/// methods `to_map` and `of_map` ([`settings_map`], [`settings_of_map`]). Written once rather
/// than by every game with settings. The last argument names the settings in errors
/// (`"the game's settings"`).
#[macro_export]
macro_rules! own_settings {
    ($settings:ty = $defaults:expr, $whose:expr) => {
        impl Default for $settings {
            fn default() -> $settings {
                $defaults
            }
        }

        impl $settings {
            /// The settings as the game's settings of a league (JSON).
            pub fn to_map(&self) -> ::anyhow::Result<$crate::GameSettings> {
                $crate::info::settings_map(self, $whose)
            }

            /// The settings from the game's settings of a league (as `to_map` wrote them).
            pub fn of_map(map: &$crate::GameSettings) -> ::anyhow::Result<Self> {
                $crate::info::settings_of_map(map, $whose)
            }
        }
    };
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

/// The terminal a person plays at: what they type, and the screen the game is told on.
pub struct Terminal {
    pub input: Box<dyn std::io::BufRead>,
    pub screen: Box<dyn Write>,
}

/// `arena play` with a person at the terminal ([`crate::Game::play_person`]): the table, its
/// seats (a `None` seat is the person: the word `human` on the command line), the terminal the
/// person plays at, and how the game is told.
pub struct WithPerson<'a> {
    pub host: &'a Host<'a>,
    pub table: &'a Table,
    pub seats: &'a [Option<Seat<'a>>],
    pub io: Terminal,
    pub opts: &'a Narration<'a>,
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
    pub(crate) repeats: BTreeMap<String, (usize, u32)>,
}

/// A game's replay viewer in the report: the host's viewer chrome (page, controls, keys, frame
/// stepping) around the game's own script, which draws a frame, and style sheet.
#[derive(Debug)]
pub struct Viewer {
    /// The page that shows one game: `PAGE?game=N` (made by the host from its chrome).
    pub page: &'static str,
    /// The label of a game's link in the report's list of games.
    pub link: &'static str,
    /// The viewer's own files, name and text: its scripts (`.js`, registered with
    /// `Arena.viewer`) and style sheets (`.css`), which the page loads in this order.
    pub assets: &'static [(&'static str, &'static str)],
}

/// A game's [`Viewer`]: its page, the label of its link, and its files, read from the folder
/// `viewer/` beside the file that names them: `viewer!("board.html", "▶ board", ["board.html",
/// "board.js"])`.
#[macro_export]
macro_rules! viewer {
    ($page:literal, $link:literal, [$($file:literal),* $(,)?]) => {
        $crate::Viewer {
            page: $page,
            link: $link,
            assets: &[$(($file, include_str!(concat!("viewer/", $file)))),*],
        }
    };
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

/// A game's `arena new` templates of one file each, as an array of [`Template`]:
/// `templates!["rust": "src/lib.rs" => include_str!("templates/rust/lib.rs"), ...]` (language, the
/// file's path in the project, its text).
#[macro_export]
macro_rules! templates {
    ($($lang:literal: $path:literal => $text:expr),* $(,)?) => {
        [$($crate::Template { lang: $lang, files: &[($path, $text)] }),*]
    };
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
