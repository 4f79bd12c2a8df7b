//! Jungle (Dou Shou Qi) as the arena plays it: two players, the rules of the `jungle-rules`
//! crate, a fuel clock (docs/JUNGLE.md, "Playing Jungle in the arena"), the byte ABI's
//! observation and move (docs/ABI.md, "Jungle") and the WIT world `arena:games/jungle`.
//!
//! What the module offers the rest of the arena, as a game plug-in would:
//!
//! * playing a game: [`play_game`] / [`play_game_into`] with a [`Setup`] (seed, round cap,
//!   fault policy, [`FuelClock`], start position) and two [`JunglePlayer`]s, giving a
//!   [`GameRecord`]; [`JungleGame`] for the league runner; players: sandboxed agents
//!   ([`crate::sandbox::WasmPlayer`]), native SDK strategies ([`NativeJunglePlayer`]), a person
//!   at the terminal ([`human::Human`]);
//! * records: [`record::write_record`] and the streamed [`record::verify_lines`];
//! * the terminal: [`narrate`] (the board drawn), [`play_cli`] (`arena play`), [`perft`];
//! * `arena check`'s smoke games: [`check::smoke_games`];
//! * the report: [`replay::replay`] (a game's replay data) and [`viewer`] (its page);
//! * `arena new`'s templates: [`templates`];
//! * the league keys: [`Settings::from_keys`] (the `[jungle]` table: the clock).

pub mod abi;
pub mod check;
pub(crate) mod component;
pub mod game;
pub mod human;
pub mod league;
pub mod narrate;
pub mod native;
pub mod perft;
pub mod play_cli;
pub mod player;
pub mod record;
pub mod replay;
pub mod settings;
pub mod templates;
pub mod viewer;
mod wasm;

pub use game::{
    passed, play_game, play_game_into, EndReason, FuelClock, GameEnd, GameRecord, GameSink,
    LoadFault, Ply, PlyFault, Setup,
};
pub use league::{summary, JungleGame};
pub use native::NativeJunglePlayer;
pub use player::{Ask, JunglePlayer, Reply};
pub use settings::Settings;

#[cfg(test)]
mod tests;
