//! What the league keeps of a Farkle game.

use super::game::{GameRecord, TurnEnd};
use crate::game::{FaultNote, Summary};

/// What the league keeps of a Farkle game; `turns` of a solo game is its turns to the target.
pub fn summary(record: &GameRecord) -> Summary {
    let load = record.load_faults.iter().map(|f| FaultNote {
        seat: f.seat,
        decision: "init".into(),
        kind: f.fault.kind.name().into(),
        detail: f.fault.detail.clone(),
    });
    let turns = record.turns.iter().filter_map(|t| match &t.end {
        TurnEnd::Fault { fault, .. } => Some(FaultNote {
            seat: t.seat,
            decision: "draft".into(),
            kind: fault.kind.name().into(),
            detail: fault.detail.clone(),
        }),
        _ => None,
    });
    Summary {
        outcome: record.outcome,
        rounds: record.rounds(),
        turns: record.turns.len() as u32,
        forfeits: record.forfeits.clone(),
        faults: load.chain(turns).collect(),
        scores: Some(record.scores.iter().map(|&s| i64::from(s)).collect()),
    }
}
