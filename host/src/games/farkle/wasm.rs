//! A sandboxed agent in a Farkle seat.

use super::abi::{encode_observation, read_answer};
use super::{Answer, FarklePlayer, Observation};
use crate::game::{Fault, SeatUsage};
use crate::sandbox::{HostFailure, WasmPlayer};

/// Index of `farkle_draft` in [`super::AGENT`]`.decisions`.
const DRAFT: usize = 0;

impl FarklePlayer for WasmPlayer {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        WasmPlayer::start(self, &super::INFO.agent, seat, players, seed)
    }

    fn draft(&mut self, obs: &Observation) -> Result<Answer, Fault> {
        if self.module().is_component() {
            return super::component::draft(self, obs);
        }
        let (ret, buf) = self.call(DRAFT, |buf| encode_observation(obs, buf))?;
        read_answer(ret, buf)
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
