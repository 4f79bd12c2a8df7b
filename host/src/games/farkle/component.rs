//! A component agent (world `arena:games/farkle` of `wit/`) in a Farkle seat: the observation
//! becomes the WIT `view`, the typed answer the rules' answer. The budgets, faults and log are
//! the sandbox's ([`WasmPlayer::call_component`]).

use std::any::Any;

use wasmtime::component::InstancePre;
use wasmtime::Store;

use super::{Answer, Observation};
use crate::game::{Fault, FaultKind};
use crate::sandbox::{wrong_world, ComponentWorld, HostState, Init, WasmPlayer, WorldPre};

/// The typed exports of world `farkle`, generated from the WIT package.
pub mod bindings {
    wasmtime::component::bindgen!({ path: "../wit", world: "arena:games/farkle" });
}

use bindings::arena::games::farkle_types as wit;
use bindings::arena::games::types as shared;
use bindings::{Farkle, FarklePre};

/// World `arena:games/farkle`, for the sandbox.
pub struct FarkleWorld;

impl ComponentWorld for FarkleWorld {
    fn name(&self) -> &'static str {
        "arena:games/farkle@1.0.0"
    }

    fn exports(&self) -> &'static [&'static str] {
        &["init", "draft"]
    }

    fn type_interfaces(&self) -> &'static [&'static str] {
        &["arena:games/farkle-types@1.0.0"]
    }

    fn wit_file(&self) -> (&'static str, &'static str) {
        ("wit/farkle.wit", include_str!("../../../../wit/farkle.wit"))
    }

    fn prepare(&self, pre: InstancePre<HostState>) -> wasmtime::Result<Box<dyn WorldPre>> {
        Ok(Box::new(FarklePre::new(pre)?))
    }
}

impl WorldPre for FarklePre<HostState> {
    fn instantiate(&self, store: &mut Store<HostState>) -> wasmtime::Result<Box<dyn Any + Send>> {
        Ok(Box::new(FarklePre::instantiate(self, store)?))
    }

    fn init(
        &self,
        instance: &(dyn Any + Send),
        store: &mut Store<HostState>,
        init: &Init,
    ) -> wasmtime::Result<Result<(), String>> {
        farkle(instance)?.call_init(store, setup(init))
    }
}

/// The instance of a Farkle agent.
fn farkle(instance: &(dyn Any + Send)) -> wasmtime::Result<&Farkle> {
    (instance as &dyn Any)
        .downcast_ref::<Farkle>()
        .ok_or_else(|| wrong_world("farkle"))
}

/// Most dice a draft can name: the byte ABI's limit (k ≤ 6); more is a `bad_answer` fault.
const MAX_DICE: usize = 6;

pub(crate) fn draft(player: &mut WasmPlayer, obs: &Observation) -> Result<Answer, Fault> {
    let view = view(obs);
    let answer = player.call_component("draft", |store, world| {
        farkle(world)?.call_draft(store, &view)
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
fn setup(init: &Init) -> shared::Setup {
    shared::Setup {
        seat: init.seat as u32,
        players: init.players as u32,
        seed: init.seed,
        round_cap: init.round_cap,
    }
}
