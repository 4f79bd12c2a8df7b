//! The lines of a code war record as JSON values (docs/CODEWAR.md, "Records"). The writer writes
//! them and the verifier builds the same values from its replay to compare, so each line has one
//! function here.

use base64::Engine as _;
use codewar_rules::visit::Outcome as VisitOutcome;
use codewar_rules::{Array, Instruction, Iteration, Visit};
use serde_json::{json, Map, Value};

use super::super::code::Snippet;
use super::super::settings::CodewarSettings;
use super::modules::ModuleTable;
use crate::game::{FaultPolicy, Outcome};
use crate::records::{FORMAT_NAME, FORMAT_VERSION};

/// The setup line's `game`.
pub const GAME_NAME: &str = "codewar";

/// Base64 as records write module bytes: RFC 4648, with padding.
pub const BASE64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// The setup line of a game of `players` (each seat's name and its module's SHA-256).
pub fn setup<'a>(
    players: impl IntoIterator<Item = (&'a str, String)>,
    seed: u64,
    settings: &CodewarSettings,
    limits: &Map<String, Value>,
    league: (u32, FaultPolicy),
) -> Value {
    json!({
        "type": "setup",
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "game": GAME_NAME,
        "rules_version": codewar_rules::RULES_VERSION,
        "players": players.into_iter().enumerate().map(|(seat, (name, agent))| json!({
            "seat": seat, "name": name, "agent": agent,
        })).collect::<Vec<_>>(),
        "seed": seed,
        "round_cap": league.0,
        "fault_policy": league.1,
        "settings": settings,
        "limits": limits,
    })
}

pub fn module(id: u32, code: &Snippet) -> Value {
    json!({
        "type": "module",
        "id": id,
        "hash": code.hash(),
        "bytes": BASE64.encode(code.bytes()),
    })
}

/// A visit: `[cell, owner, what, ...]` (docs/CODEWAR.md, "Iteration lines").
pub fn visit(v: &Visit<Snippet>) -> Value {
    let head = [json!(v.cell), json!(v.owner)];
    let rest: Vec<Value> = match &v.outcome {
        VisitOutcome::Segfault(s) => {
            let mut r = vec![json!("segfault"), json!(s.kind.name())];
            if !s.detail.is_empty() {
                r.push(json!(s.detail));
            }
            r
        }
        VisitOutcome::Ran {
            instruction,
            effect,
            ..
        } => match *instruction {
            Instruction::Noop => vec![json!("noop")],
            Instruction::Copy { x, y } => {
                vec![json!("copy"), json!(x), json!(y), json!(effect.name())]
            }
            Instruction::Nuke { x } | Instruction::Update { x } | Instruction::Claim { x } => {
                vec![json!(instruction.name()), json!(x), json!(effect.name())]
            }
        },
    };
    Value::Array(head.into_iter().chain(rest).collect())
}

/// The cells after an iteration: `[owner, facade, module id]` or `null`.
pub fn cells(array: &Array<Snippet>, modules: &ModuleTable) -> Value {
    Value::Array(
        array
            .cells()
            .iter()
            .map(|c| match c {
                None => Value::Null,
                Some(c) => json!([c.owner, c.facade, modules.id_of(&c.code)]),
            })
            .collect(),
    )
}

pub fn iteration(it: &Iteration<Snippet>, array: &Array<Snippet>, modules: &ModuleTable) -> Value {
    json!({
        "type": "iteration",
        "iteration": it.iteration,
        "max_size": it.max_size,
        "entered": it.entries.iter().map(|e| json!({
            "seat": e.seat, "cell": e.cell, "replaced": e.replaced,
        })).collect::<Vec<_>>(),
        "out_before": it.out_before,
        "visits": it.visits.iter().map(visit).collect::<Vec<_>>(),
        "out_after": it.out_after,
        "cells": cells(array, modules),
    })
}

/// The shared outcome of a code war outcome: a shared lead after the last iteration is a draw
/// at the round cap; no player with a cell, a draw without it.
pub fn outcome(o: codewar_rules::Outcome) -> Outcome {
    match o {
        codewar_rules::Outcome::Win {
            seat,
            last_standing,
        } => Outcome::Win {
            seat,
            last_standing,
        },
        codewar_rules::Outcome::Draw { nobody_left } => Outcome::Draw {
            round_cap: !nobody_left,
        },
    }
}

pub fn end(
    outcome: Outcome,
    iterations: u32,
    counts: &[u32],
    eliminated: &[usize],
    digest: &str,
) -> Value {
    json!({
        "type": "end",
        "outcome": outcome,
        "iterations": iterations,
        "cells": counts,
        "eliminated": eliminated,
        "digest": digest,
    })
}
