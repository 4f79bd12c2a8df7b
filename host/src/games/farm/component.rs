//! A component agent (world `arena:games/farm` or `arena:games/farm-json` of `wit/`) in a Little
//! Animal Farm seat: the game's observations become the WIT `view` (or its JSON text, [`json`]),
//! the typed answers become the rules' offers. The budgets, faults and log are the sandbox's
//! ([`WasmPlayer::call_component`]).

use farm_rules::{Herd, Offer, MAX_PLAYERS};
use wasmtime::component::InstancePre;

use super::{AcceptView, Decision, Event, Fault, Observation, Party};
use crate::game::FaultKind;
use crate::sandbox::{ComponentWorld, HostState, JavaScriptGlue, WasmPlayer, WorldPre};

mod json;
use json::view_json;

crate::game::component_world! {
    /// World `arena:games/farm`, the view as a record.
    struct RecordWorld for "farm" in mod bindings {
        world: Farm,
        pre: FarmPre,
        exports: ["init", "trade", "accept-offer"],
    }
}

use bindings::arena::games::farm_types as wit;
use bindings::arena::games::types as shared;

/// The typed exports of world `farm-json` (the view as JSON text), generated from the WIT
/// package; its offers are world `farm`'s types.
pub mod json_bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "arena:games/farm-json",
        with: { "arena:games/farm-types": super::bindings::arena::games::farm_types },
    });
}

crate::game::component_world! {
    /// World `arena:games/farm-json`, the view as JSON text (only its `prepare` and instances
    /// are used: [`FarmWorld`] names the game's worlds).
    struct JsonWorld for "farm-json" {
        bindings: json_bindings,
        world: FarmJson,
        pre: FarmJsonPre,
        exports: ["init", "trade", "accept-offer"],
        wit: include_str!("../../../../wit/farm.wit"),
    }
    /// The instance of a farm agent of world `farm-json`.
    fn farm_json;
}

/// Little Animal Farm's worlds, for the sandbox: `arena:games/farm`, and `farm-json` for a
/// component whose `trade` and `accept-offer` take the view as a string (both in
/// `wit/farm.wit`; the same decisions, so a component is of `farm-json` when its exports do not
/// type-check as `farm`'s).
pub struct FarmWorld;

impl ComponentWorld for FarmWorld {
    fn name(&self) -> &'static str {
        RecordWorld.name()
    }

    fn exports(&self) -> &'static [&'static str] {
        RecordWorld.exports()
    }

    fn type_interfaces(&self) -> &'static [&'static str] {
        RecordWorld.type_interfaces()
    }

    fn wit_file(&self) -> (&'static str, &'static str) {
        RecordWorld.wit_file()
    }

    /// A JavaScript agent is built for `farm-json` through [`farm_json_glue`].
    fn javascript_glue(&self, entry: &str) -> Option<JavaScriptGlue> {
        Some(farm_json_glue(entry))
    }

    fn other_worlds(&self) -> Vec<&'static str> {
        vec![JsonWorld.name()]
    }

    /// World `farm`, else `farm-json`; when neither fits, why it is of neither.
    fn prepare(&self, pre: InstancePre<HostState>) -> wasmtime::Result<Box<dyn WorldPre>> {
        RecordWorld.prepare(pre.clone()).or_else(|not_farm| {
            JsonWorld.prepare(pre).map_err(|not_json| {
                wasmtime::Error::msg(format!(
                    "{not_farm:#}; world {}: {not_json:#}",
                    (&JsonWorld as &dyn ComponentWorld).short_name()
                ))
            })
        })
    }
}

/// The glue module of a JavaScript farm agent whose module is `entry` (a path in the sources'
/// folder), its path next to `entry` and its text. It exports world `farm-json` and hands the
/// agent's own `init`, `trade` and `acceptOffer` what world `farm` would (one `JSON.parse` of the
/// view); build.mjs of `arena new`'s projects and of example-agents/javascript writes the same.
fn farm_json_glue(entry: &str) -> JavaScriptGlue {
    let (dir, file) = entry.rsplit_once('/').map_or(("", entry), |(d, f)| (d, f));
    let path = if dir.is_empty() {
        GLUE_FILE.to_owned()
    } else {
        format!("{dir}/{GLUE_FILE}")
    };
    let module = serde_json::to_string(&format!("./{file}")).expect("a string");
    let name = serde_json::to_string(file).expect("a string");
    let text = format!(
        "// Written by the arena's build: world farm-json for {file}.\n\
         import * as agent from {module};\n\
         for (const f of ['init', 'trade', 'acceptOffer']) {{\n\
         \x20 if (typeof agent[f] !== 'function') throw new Error({name} + ' exports no function ' + f);\n\
         }}\n\
         export function init(setup) {{ return agent.init(setup); }}\n\
         export function trade(view) {{ return agent.trade(JSON.parse(view)); }}\n\
         export function acceptOffer(view, offer) {{ return agent.acceptOffer(JSON.parse(view), offer); }}\n"
    );
    JavaScriptGlue {
        world: (&JsonWorld as &dyn ComponentWorld).short_name(),
        path,
        text,
    }
}

/// The glue module's file name (the sandbox leaves its frames out of a JavaScript exception's
/// report).
const GLUE_FILE: &str = ".arena-glue.js";

/// The offer's `kind` codes of the byte ABI (docs/ABI.md) for each `party`.
const STOCK: u32 = 1;
const PLAYER: u32 = 2;

pub(crate) fn trade(player: &mut WasmPlayer, obs: &Observation) -> Result<Offer, Fault> {
    let answer = player.call_component("trade", |store, world| match instance(world) {
        Ok(typed) => typed.call_trade(store, &view(obs)),
        Err(_) => farm_json(world)?.call_trade(store, &view_json(obs)),
    })?;
    Ok(answer.map_or(Offer::PASS, |o| offer(&o)))
}

pub(crate) fn accept(
    player: &mut WasmPlayer,
    obs: &Observation,
    put: &AcceptView,
) -> Result<bool, Fault> {
    let given = offer_of(&put.offer);
    player.call_component("accept-offer", |store, world| match instance(world) {
        Ok(typed) => typed.call_accept_offer(store, &view(obs), given),
        Err(_) => farm_json(world)?.call_accept_offer(store, &view_json(obs), given),
    })
}

/// The offer exactly as the trader gave it, as WIT (its partner is the asked seat: the rules
/// only put offers to their partner).
fn offer_of(o: &Offer) -> wit::Offer {
    let partner = match o.kind {
        STOCK => wit::Party::Stock,
        _ => wit::Party::Player(o.partner.max(0) as u32),
    };
    let herd = |h: &[i32; 7]| herd(&h.map(|n| n.max(0) as u32));
    wit::Offer {
        partner,
        give: herd(&o.give),
        get: herd(&o.get),
    }
}

/// The rules' offer of a component's answer. Amounts above `i32::MAX` become `i32::MAX`: more
/// than the game holds, so the rules answer `invalid-amount` as for a byte-ABI offer.
fn offer(o: &wit::Offer) -> Offer {
    let (kind, partner) = match o.partner {
        wit::Party::Stock => (STOCK, 0),
        wit::Party::Player(p) => (PLAYER, i32::try_from(p).unwrap_or(i32::MAX)),
    };
    let amounts = |h: &wit::Herd| {
        [
            h.rabbit,
            h.sheep,
            h.pig,
            h.cow,
            h.horse,
            h.small_dog,
            h.big_dog,
        ]
        .map(|n| i32::try_from(n).unwrap_or(i32::MAX))
    };
    Offer {
        kind,
        partner,
        give: amounts(&o.give),
        get: amounts(&o.get),
    }
}

fn herd(a: &[u32; 7]) -> wit::Herd {
    wit::Herd {
        rabbit: a[0],
        sheep: a[1],
        pig: a[2],
        cow: a[3],
        horse: a[4],
        small_dog: a[5],
        big_dog: a[6],
    }
}

fn herd_of(h: &Herd) -> wit::Herd {
    herd(&h.0)
}

fn party(p: Party) -> wit::Party {
    match p {
        Party::Stock => wit::Party::Stock,
        Party::Player(s) => wit::Party::Player(s as u32),
    }
}

/// A die face from its byte-ABI code (0–4 animals, 7 fox, 8 wolf).
fn face(code: u8) -> wit::Face {
    match code {
        0 => wit::Face::Rabbit,
        1 => wit::Face::Sheep,
        2 => wit::Face::Pig,
        3 => wit::Face::Cow,
        4 => wit::Face::Horse,
        7 => wit::Face::Fox,
        _ => wit::Face::Wolf,
    }
}

fn failure(r: farm_rules::FailReason) -> wit::TradeFailure {
    use farm_rules::FailReason as F;
    match r {
        F::WrongType => wit::TradeFailure::WrongType,
        F::InvalidAmount => wit::TradeFailure::InvalidAmount,
        F::NotEnoughAnimals => wit::TradeFailure::NotEnoughAnimals,
        F::NoSuchPlayer => wit::TradeFailure::NoSuchPlayer,
        F::SelfTrade => wit::TradeFailure::SelfTrade,
        F::PartnerOut => wit::TradeFailure::PartnerOut,
        F::PartnerNotEnoughAnimals => wit::TradeFailure::PartnerNotEnoughAnimals,
        F::UnequalTrade => wit::TradeFailure::UnequalTrade,
        F::ManyToMany => wit::TradeFailure::ManyToMany,
        F::Declined => wit::TradeFailure::Declined,
    }
}

/// The WIT fault kind of a recorded fault (`Forfeited` is never recorded).
fn fault_kind(k: FaultKind) -> shared::FaultKind {
    match k {
        FaultKind::Trap => shared::FaultKind::Trap,
        FaultKind::StackOverflow => shared::FaultKind::StackOverflow,
        FaultKind::DecisionFuel => shared::FaultKind::DecisionFuel,
        FaultKind::GameFuel => shared::FaultKind::GameFuel,
        FaultKind::MemoryLimit => shared::FaultKind::MemoryLimit,
        FaultKind::Timeout => shared::FaultKind::Timeout,
        FaultKind::BadAnswer => shared::FaultKind::BadAnswer,
        FaultKind::LoadFailed | FaultKind::Forfeited => shared::FaultKind::LoadFailed,
    }
}

fn event(e: &Event) -> wit::Event {
    let seat = |s: usize| s as u32;
    match *e {
        Event::Answer {
            seat: s,
            trader,
            accepted,
        } => wit::Event::Answer(wit::Answered {
            seat: seat(s),
            trader: seat(trader),
            accepted,
        }),
        Event::TradeFailed { seat: s, reason } => wit::Event::TradeFailed(wit::TradeFailed {
            seat: seat(s),
            reason: failure(reason),
        }),
        Event::Transfer { from, to, animals } => wit::Event::Transfer(wit::Transfer {
            sender: party(from),
            receiver: party(to),
            animals: herd_of(&animals),
        }),
        Event::Rolled { seat: s, roll } => wit::Event::Rolled(wit::Rolled {
            seat: seat(s),
            wolf_die: face(roll.wolf.code()),
            fox_die: face(roll.fox.code()),
        }),
        Event::Wolf { seat: s, lost } => wit::Event::Wolf(wit::HerdChange {
            seat: seat(s),
            animals: herd_of(&lost),
        }),
        Event::Fox { seat: s, lost } => wit::Event::Fox(wit::HerdChange {
            seat: seat(s),
            animals: herd_of(&lost),
        }),
        Event::Bred { seat: s, gained } => wit::Event::Bred(wit::HerdChange {
            seat: seat(s),
            animals: herd_of(&gained),
        }),
        Event::Fault {
            seat: s,
            decision,
            ref fault,
        } => wit::Event::Fault(wit::Faulted {
            seat: seat(s),
            decision: match decision {
                Decision::Init => wit::Decision::Init,
                Decision::Trade => wit::Decision::Trade,
                Decision::Accept => wit::Decision::Accept,
            },
            kind: fault_kind(fault.kind),
        }),
        Event::Forfeit { seat: s } => wit::Event::Forfeit(seat(s)),
        Event::Win {
            seat: s,
            last_standing,
        } => wit::Event::Win(wit::Won {
            seat: seat(s),
            last_player_left: last_standing,
        }),
        Event::Draw { round_cap } => wit::Event::Draw(round_cap),
    }
}

fn view(obs: &Observation) -> wit::View {
    let n = obs.position.players.min(MAX_PLAYERS);
    wit::View {
        seat: obs.seat as u32,
        players: n as u32,
        turn: obs.turn,
        round: obs.round,
        to_move: obs.to_move as u32,
        stock: herd_of(&obs.position.stock),
        herds: obs.position.herds[..n].iter().map(herd_of).collect(),
        forfeited: (0..n).map(|s| obs.position.out & (1 << s) != 0).collect(),
        events: obs.events.iter().map(event).collect(),
    }
}
