//! Jungle as a [`Game`] of the league runner.

use crate::game::{check_host_failures, FaultNote, Game, GameKind, Played, Summary, Table};

use super::game::{play_game, FuelClock, GameRecord, Setup};
use super::player::JunglePlayer;
use super::record::write_record;
use super::settings::Settings;

/// Jungle for the league runner: two seats, the fuel clock of `settings`, the per-decision cap
/// of the sandbox the players run in (`decision_cap`).
pub struct JungleGame {
    pub settings: Settings,
    pub decision_cap: u64,
}

impl JungleGame {
    /// The clock of a game.
    pub fn clock(&self) -> FuelClock {
        FuelClock {
            start: self.settings.clock,
            increment: self.settings.increment,
            decision_cap: self.decision_cap,
        }
    }
}

impl Game for JungleGame {
    type Player = dyn JunglePlayer;

    fn kind(&self) -> GameKind {
        GameKind::Jungle
    }

    fn play(&self, table: &Table, players: &mut [Box<dyn JunglePlayer>]) -> anyhow::Result<Played> {
        let [a, b] = players else {
            anyhow::bail!("Jungle is played by 2 players, not {}", players.len());
        };
        let setup = Setup {
            policy: table.policy,
            ..Setup::new(table.seed, table.round_cap, self.clock())
        };
        let record = play_game(&setup, [&mut **a, &mut **b])
            .ok_or_else(|| anyhow::anyhow!("a player left the game before its end"))?;
        check_host_failures(table, players.iter().map(|p| p.host_failure()))?;
        Ok(Played {
            record: write_record(&record, &table.meta)?,
            summary: summary(&record),
        })
    }
}

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
