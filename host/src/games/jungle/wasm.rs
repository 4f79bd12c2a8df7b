//! A sandboxed agent in a Jungle seat: each decision may use the smaller of the per-decision
//! cap and the player's clock ([`WasmPlayer::set_fuel_allowance`]), and reports what it used.

use super::abi::{encode_observation, read_answer};
use super::player::{Ask, JunglePlayer, Reply};
use crate::game::Fault;
use crate::sandbox::{HostFailure, WasmPlayer};

/// Index of `jungle_move` in [`super::INFO`]'s decisions.
const MOVE: usize = 0;

impl JunglePlayer for WasmPlayer {
    fn start(&mut self, seat: usize, seed: u64) -> Result<(), Fault> {
        // Loading is not on the clock: it gets a decision's fuel, as in every game.
        self.set_fuel_allowance(None);
        WasmPlayer::start(self, &super::INFO.agent, seat, 2, seed)
    }

    fn choose(&mut self, ask: &Ask) -> Reply {
        let before = self.fuel_used();
        self.set_fuel_allowance(Some(ask.allowance));
        let answer = if self.module().is_component() {
            super::component::choose(self, ask)
        } else {
            self.call(MOVE, |buf| encode_observation(ask, buf))
                .and_then(|(ret, buf)| read_answer(ret, buf))
        };
        self.set_fuel_allowance(None);
        Reply {
            answer,
            fuel: self.fuel_used() - before,
        }
    }

    fn take_log(&mut self) -> Option<String> {
        WasmPlayer::take_log(self)
    }

    fn host_failure(&self) -> Option<HostFailure> {
        WasmPlayer::host_failure(self).cloned()
    }
}
