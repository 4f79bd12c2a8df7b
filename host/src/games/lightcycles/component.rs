//! A component agent (world `arena:games/lightcycles` of `wit/`) in a light cycles seat: the
//! observation becomes the WIT `view`, the typed turn the rules' turn. The budgets, faults and
//! log are the sandbox's ([`WasmPlayer::call_component`]), the clock's allowance too.

use lightcycles_rules::{Cause, Dir, Turn};

use super::rules::Ask;
use crate::game::Fault;
use crate::sandbox::WasmPlayer;

crate::game::component_world! {
    /// World `arena:games/lightcycles`, for the sandbox.
    pub struct LightcyclesWorld for "lightcycles" in mod bindings {
        world: Lightcycles,
        pre: LightcyclesPre,
        exports: ["init", "choose-turn"],
    }
}

use bindings::arena::games::lightcycles_types as wit;

pub(crate) fn choose(player: &mut WasmPlayer, ask: &Ask) -> Result<Turn, Fault> {
    let view = view(ask);
    let turn = player.call_component("choose-turn", |store, w| {
        instance(w)?.call_choose_turn(store, &view)
    })?;
    Ok(match turn {
        wit::Turn::Left => Turn::Left,
        wit::Turn::Straight => Turn::Straight,
        wit::Turn::Right => Turn::Right,
    })
}

fn heading(d: Dir) -> wit::Heading {
    match d {
        Dir::North => wit::Heading::North,
        Dir::East => wit::Heading::East,
        Dir::South => wit::Heading::South,
        Dir::West => wit::Heading::West,
    }
}

fn cause(c: Cause) -> wit::Cause {
    match c {
        Cause::Wall => wit::Cause::Wall,
        Cause::Trail => wit::Cause::Trail,
        Cause::SameCell => wit::Cause::SameCell,
        Cause::Swap => wit::Cause::Swap,
        Cause::Out => wit::Cause::Out,
    }
}

fn view(ask: &Ask) -> wit::View {
    let obs = &ask.observation;
    let state = &obs.state;
    let grid = state.grid();
    wit::View {
        seat: ask.seat as u32,
        players: state.players() as u32,
        tick: ask.tick,
        tick_cap: state.tick_cap(),
        width: grid.width(),
        height: grid.height(),
        grid: grid.codes().to_vec(),
        cycles: state
            .cycles()
            .iter()
            .map(|c| wit::Cycle {
                x: c.head.x.into(),
                y: c.head.y.into(),
                heading: heading(c.heading),
                death: c.death.map(|d| wit::Death {
                    cause: cause(d.cause),
                    tick: d.tick,
                }),
            })
            .collect(),
        clock: wit::Clock {
            mine: obs.clock.mine,
            increment: obs.clock.increment,
            decision_cap: obs.clock.decision_cap,
            seats: obs.clock.seats[..state.players()].to_vec(),
        },
    }
}
