//! A component agent (world `arena:games/farkle` of `wit/`) in a Farkle seat: the observation
//! becomes the WIT `view`, the typed answer the rules' answer. The budgets, faults and log are
//! the sandbox's ([`WasmPlayer::call_component`]).

use super::{Answer, Observation};
use crate::game::{Fault, FaultKind};
use crate::sandbox::{WasmPlayer, WorldInstance};

/// The typed exports of world `farkle`, generated from the WIT package.
pub mod bindings {
    wasmtime::component::bindgen!({ path: "../wit", world: "arena:games/farkle" });
}

use bindings::arena::games::farkle_types as wit;
use bindings::arena::games::types as shared;

/// Most dice a draft can name: the byte ABI's limit (k ≤ 6); more is a `bad_answer` fault.
const MAX_DICE: usize = 6;

pub(crate) fn draft(player: &mut WasmPlayer, obs: &Observation) -> Result<Answer, Fault> {
    let view = view(obs);
    let answer = player.call_component("draft", |store, world| match world {
        WorldInstance::Farkle(farkle) => farkle.call_draft(store, &view),
        other => Err(other.wrong_world("farkle")),
    })?;
    if answer.dice.len() > MAX_DICE {
        return Err(Fault::new(
            FaultKind::BadAnswer,
            format!(
                "draft answered {} dice indices; at most {MAX_DICE} can be drafted",
                answer.dice.len()
            ),
        ));
    }
    Ok(Answer {
        action: match answer.action {
            wit::Action::Roll => 0,
            wit::Action::Bank => 1,
        },
        draft: answer.dice,
    })
}

fn view(obs: &Observation) -> wit::View {
    wit::View {
        seat: obs.seat as u32,
        players: obs.players as u32,
        turn: obs.turn,
        round: obs.round,
        target: obs.target,
        turn_points: obs.turn_points,
        roll_number: obs.roll,
        roll: obs.dice.to_vec(),
        scores: obs.scores.to_vec(),
        final_round: obs.final_round,
        turns_done: obs.turns_done,
        turn_cap: obs.round_cap,
    }
}

/// What `init` is given.
pub(crate) fn setup(seat: usize, players: usize, seed: u64, round_cap: u32) -> shared::Setup {
    shared::Setup {
        seat: seat as u32,
        players: players as u32,
        seed,
        round_cap,
    }
}
