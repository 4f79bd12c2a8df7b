//! Farkle as a [`Game`] of the league runner.

use crate::game::{check_host_failures, FaultNote, Game, GameKind, Played, Summary, Table};

use super::game::{play_game, GameRecord, Setup, TurnEnd};
use super::record::write_record;
use super::FarklePlayer;

/// Farkle for the league runner: one player per table is the solo benchmark, 2 to 6 a race.
pub struct FarkleGame;

impl Game for FarkleGame {
    type Player = dyn FarklePlayer;

    fn kind(&self) -> GameKind {
        GameKind::Farkle
    }

    fn play(&self, table: &Table, players: &mut [Box<dyn FarklePlayer>]) -> anyhow::Result<Played> {
        let setup = Setup {
            policy: table.policy,
            ..Setup::new(players.len(), table.seed, table.round_cap)
        };
        let mut seats: Vec<&mut dyn FarklePlayer> =
            players.iter_mut().map(|p| &mut **p as _).collect();
        let record = play_game(&setup, &mut seats);
        drop(seats);
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        Ok(Played {
            record: write_record(&record, &table.meta)?,
            summary: summary(&record),
        })
    }
}

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
