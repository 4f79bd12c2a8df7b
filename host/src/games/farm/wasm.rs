//! A sandboxed agent in a Little Animal Farm seat: for a core module, observations go into the
//! exchange buffer as ABI v1 bytes; a component is called through its WIT exports
//! (`component.rs`). Answers come back through the rules' checks.

use farm_rules::Offer;

use super::abi::{decode_accept_answer, decode_trade_answer, encode_observation};
use super::{AcceptView, FarmPlayer, Fault, Observation};
use crate::game::SeatUsage;
use crate::sandbox::{HostFailure, WasmPlayer};

/// Index of each decision export in [`super::AGENT`]`.decisions`.
const TRADE: usize = 0;
const ACCEPT: usize = 1;

impl FarmPlayer for WasmPlayer {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        WasmPlayer::start(self, &super::INFO.agent, seat, players, seed)
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        if self.module().is_component() {
            return super::component::trade(self, obs);
        }
        let (answer, buf) = self.call(TRADE, |buf| encode_observation(obs, None, buf))?;
        decode_trade_answer(answer, buf)
    }

    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault> {
        if self.module().is_component() {
            return super::component::accept(self, obs, offer);
        }
        let (answer, _) = self.call(ACCEPT, |buf| encode_observation(obs, Some(offer), buf))?;
        decode_accept_answer(answer)
    }

    fn take_log(&mut self) -> Option<String> {
        WasmPlayer::take_log(self)
    }

    fn host_failure(&self) -> Option<HostFailure> {
        WasmPlayer::host_failure(self).cloned()
    }

    fn usage(&self) -> Option<SeatUsage> {
        Some(SeatUsage::of(self))
    }
}
