//! A component agent (world `arena:games/farkle` of `wit/`) in a Farkle seat: the observation
//! becomes the WIT `view`, the typed answer the rules' answer. The budgets, faults and log are
//! the sandbox's ([`WasmPlayer::call_component`]).

use super::{Answer, Observation};
use crate::game::{Fault, FaultKind};
use crate::sandbox::WasmPlayer;

crate::game::component_world! {
    /// World `arena:games/farkle`, for the sandbox.
    pub struct FarkleWorld for "farkle" in mod bindings {
        world: Farkle,
        pre: FarklePre,
        exports: ["init", "draft"],
    }
}

use bindings::arena::games::farkle_types as wit;

/// Most dice a draft can name: the byte ABI's limit (k ≤ 6); more is a `bad_answer` fault.
const MAX_DICE: usize = 6;

pub(crate) fn draft(player: &mut WasmPlayer, obs: &Observation) -> Result<Answer, Fault> {
    let view = view(obs);
    let answer = player.call_component("draft", |store, world| {
        instance(world)?.call_draft(store, &view)
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
