//! The game of the sandbox's own tests: two decision exports (those of the hand-written test
//! agents, `farm_trade` and `farm_accept`) and no component world. The tests call the decisions
//! with whatever bytes they need; no game is played here.

use arena_abi::names;

use crate::interface::{AgentInterface, Games};

pub(crate) static TEST_GAME: AgentInterface = AgentInterface {
    title: "the test game",
    abi_id: arena_abi::game::LITTLE_ANIMAL_FARM,
    decisions: &[names::FARM_TRADE, names::FARM_ACCEPT],
    component: None,
    snippet: None,
};

pub(crate) static GAMES: Games = &[&TEST_GAME];
