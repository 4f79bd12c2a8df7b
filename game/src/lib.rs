//! The arena's games as rules, and what the host writes once over them.
//!
//! A game is a state machine ([`Rules`], in the manner of OpenSpiel's `Game` and `State`): a
//! start from a setup, who decides next (one seat, several seats at once, or the dice), a seat's
//! observation (the payload of the agents' ABI), the answer checked and applied, the end and its
//! outcome. Its records say what their lines hold ([`Record`]); its words and pictures are its own
//! ([`Present`]). Everything else is written once, here: the game loop ([`play()`]) with the
//! sandbox's budgets, a game's clock and the fault policy; the players over the sandbox (core
//! modules, components) and native strategies ([`player`]); the record writer and the verifier,
//! which replays a record through the loop that plays ([`record`]); the registry of the games an
//! arena hosts ([`Registry`]).
//!
//! The vocabulary every game shares with the arena is here too: [`Outcome`], [`Summary`],
//! [`FaultNote`], [`Fault`], [`FaultPolicy`], [`Table`], the seeds and dice ([`seed`]).

mod abi_calls;
pub mod component;
pub mod fault;
pub mod fuel_clock;
pub mod game;
pub mod info;
pub mod json;
pub mod kept;
pub mod person;
pub mod person_game;
pub mod play;
pub mod player;
pub mod record;
pub mod registry;
pub mod replay;
pub mod rounds;
pub mod rules;
pub mod sdk_agent;
pub mod seed;
pub mod setting_keys;
mod smoke;
pub mod smoke_games;
pub mod started;
pub mod table_setup;
pub mod terminal;
pub mod vocab;
pub mod words;

pub use fault::{Fault, FaultKind, FaultPolicy};
pub use fuel_clock::FuelClock;
pub use game::{Game, Hosted, Played, Present, Strategies};
pub use info::{
    no_settings, GameInfo, Narration, Perft, Smoke, SmokeOptions, Template, TemplateFile, Terminal,
    Viewer,
};
pub use kept::{play_kept, play_recorded, play_seeded, Kept};
pub use play::{play, Ended};
pub use player::{
    catch_panic, check_host_failures, seat_players, time_decisions, Answers, Host, Native,
    NativeAgent, NativePlayer, NativeReply, Player, Reply, Seat, BUFFER_SIZE,
};
pub use record::{Record, RecordMeta};
pub use registry::Registry;
pub use rules::{Answered, Decided, Dice, Faults, Loaded, Next, Question, Rules, Seats, Sink};
pub use smoke::smoke_game;
pub use started::{LoadFault, Started};
pub use vocab::{AgentLog, FaultNote, GameSettings, Outcome, SeatUsage, Summary, Table};
