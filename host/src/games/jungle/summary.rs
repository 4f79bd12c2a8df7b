//! What the league keeps of a Jungle game.

use crate::game::{FaultNote, Summary};

use super::game::GameRecord;

/// What the league keeps of a Jungle game.
pub fn summary(record: &GameRecord) -> Summary {
    let load = record.load_faults.iter().map(|f| FaultNote {
        seat: f.seat,
        decision: "init".into(),
        kind: f.fault.kind.name().into(),
        detail: f.fault.detail.clone(),
    });
    let plies = record.plies.iter().filter_map(|p| {
        p.fault.as_ref().map(|f| FaultNote {
            seat: p.seat,
            decision: "move".into(),
            kind: f.fault.kind.name().into(),
            detail: f.fault.detail.clone(),
        })
    });
    Summary {
        outcome: record.end.outcome,
        rounds: record.end.rounds(),
        turns: record.end.turns,
        forfeits: record.end.forfeits.clone(),
        faults: load.chain(plies).collect(),
        scores: None,
    }
}
