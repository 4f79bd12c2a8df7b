//! What the league keeps of a Little Animal Farm game.

use super::{Event, GameRecord};
use crate::game::{FaultNote, Summary};

/// What the league keeps of a farm game.
pub fn summary(record: &GameRecord) -> Summary {
    let faults = record
        .start_events
        .iter()
        .chain(record.turns.iter().flat_map(|t| t.events.iter()))
        .filter_map(fault_note)
        .collect();
    Summary {
        outcome: record.outcome,
        rounds: record.rounds(),
        turns: record.turns.len() as u32,
        forfeits: record.forfeits.clone(),
        faults,
        scores: None,
    }
}

/// The league's note of a fault event; `None` for other events.
pub fn fault_note(e: &Event) -> Option<FaultNote> {
    match e {
        Event::Fault {
            seat,
            decision,
            fault,
        } => Some(FaultNote {
            seat: *seat,
            decision: serde_json::to_value(decision)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            kind: fault.kind.name().to_owned(),
            detail: fault.detail.clone(),
        }),
        _ => None,
    }
}
