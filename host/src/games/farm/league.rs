//! Little Animal Farm as a [`Game`] of the league runner.

use crate::game::{check_host_failures, FaultNote, Game, GameKind, Played, Summary, Table};
use crate::records::record_bytes;

use super::{play_game, Event, FarmPlayer, GameRecord, SeededDice, Setup};

/// Little Animal Farm for the league runner; tables of 2 to 6.
pub struct FarmGame;

impl Game for FarmGame {
    type Player = dyn FarmPlayer;

    fn kind(&self) -> GameKind {
        GameKind::Farm
    }

    fn play(&self, table: &Table, players: &mut [Box<dyn FarmPlayer>]) -> anyhow::Result<Played> {
        let setup = Setup {
            players: players.len(),
            seed: Some(table.seed),
            round_cap: table.round_cap,
            policy: table.policy,
            start: None,
        };
        let mut seats: Vec<&mut dyn FarmPlayer> =
            players.iter_mut().map(|p| &mut **p as _).collect();
        let record = play_game(&setup, &mut seats, &mut SeededDice::new(table.seed));
        drop(seats);
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        Ok(Played {
            record: record_bytes(&record, &table.meta)?,
            summary: summary(&record),
        })
    }
}

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
