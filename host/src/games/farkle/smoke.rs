//! `arena check` for Farkle: a few solo games (the benchmark: turns to reach 10,000 alone),
//! every fault only losing the turn so that all of them are seen. Faults are errors; rejected
//! drafts are warnings, counted by reason.

use std::collections::BTreeMap;
use std::io::Write;

use super::narrate::describe_reject;
use super::{Farkle, GameRecord, Setup, TurnEnd};
use crate::game::smoke_games::{SmokeGame, SmokeGames};
use crate::game::{FaultPolicy, Native, Smoke};
use crate::sandbox::AgentModule;

/// What one solo smoke game showed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SoloReport {
    /// Turns to reach the target; `None` when the game ended before.
    pub turns_to_target: Option<usize>,
    pub turns: usize,
    pub score: u32,
    /// Rejected drafts, by reason name.
    pub rejections: BTreeMap<&'static str, u32>,
    /// One per fault: where (`, turn 7`, or nothing while loading) and what ("kind fault in the
    /// decision: detail").
    pub faults: Vec<(String, String)>,
}

/// Reads a solo game's record.
pub fn solo_report(record: &GameRecord) -> SoloReport {
    let mut r = SoloReport {
        turns: record.turns.len(),
        score: record.end.scores.first().copied().unwrap_or(0),
        ..SoloReport::default()
    };
    if r.score >= record.setup.target {
        r.turns_to_target = Some(r.turns);
    }
    for f in &record.end.started.load_faults {
        r.faults.push((
            String::new(),
            format!(
                "{} fault while loading: {}",
                f.fault.kind.name(),
                f.fault.detail
            ),
        ));
    }
    for t in &record.turns {
        match &t.end {
            TurnEnd::Rejected(reason) => *r.rejections.entry(reason.name()).or_default() += 1,
            TurnEnd::Fault { fault, .. } => r.faults.push((
                format!(", turn {}", t.turn),
                format!(
                    "{} fault in the draft decision: {}",
                    fault.kind.name(),
                    fault.detail
                ),
            )),
            _ => {}
        }
    }
    r
}

impl SmokeGames for Farkle {
    /// The turns each game that reached the target took.
    type Tally = Vec<usize>;

    fn smoke_heading(&self) -> String {
        format!(
            "Farkle smoke games (solo, turns to reach {}):",
            farkle_rules::TARGET
        )
    }

    fn smoke_setup(&self, _agent: &AgentModule, seed: u64, round_cap: u32) -> Setup {
        Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::new(1, seed, round_cap)
        }
    }

    /// None: the agent plays alone.
    fn smoke_others(&self) -> Vec<Native> {
        Vec::new()
    }

    fn smoke_seat(&self, _game: u32) -> usize {
        0
    }

    fn smoke_tell(
        &self,
        game: &SmokeGame<'_, Farkle>,
        reached: &mut Vec<usize>,
        smoke: &mut Smoke,
        out: &mut dyn Write,
    ) {
        let (record, usage, seed) = (&game.kept, &game.usage, game.seed);
        let target = record.setup.target;
        let report = solo_report(record);
        let result = match report.turns_to_target {
            Some(n) => {
                reached.push(n);
                format!("reached {target} in {n} turns")
            }
            None => format!(
                "did not reach {target} in {} turns (score {})",
                report.turns, report.score
            ),
        };
        let rejected: u32 = report.rejections.values().sum();
        let _ = writeln!(
            out,
            "  game {} (seed {seed}): {result}, {rejected} rejected drafts, {} faults, {} fuel \
             ({} per decision at most), {}",
            game.number,
            report.faults.len(),
            usage.fuel,
            usage.max_decision_fuel,
            crate::terminal::millis(game.took)
        );
        let context = game.context("Farkle ");
        for (at, what) in &report.faults {
            smoke.fault(out, &format!("{context}{at}"), what);
        }
        for (reason, n) in &report.rejections {
            let reason = farkle_rules::Reject::ALL
                .into_iter()
                .find(|r| r.name() == *reason)
                .expect("a reason of the rules");
            let warning = format!(
                "rejected Farkle drafts: {} ({})",
                describe_reject(reason),
                reason.name()
            );
            *smoke.warnings.entry(warning).or_default() += n;
        }
        let turns = record.turns.iter().map(|t| (t.turn, &t.logs[..]));
        game.turn_logs(out, &record.end.started.logs, turns);
    }

    fn smoke_close(&self, reached: Vec<usize>, games: u32, out: &mut dyn Write) {
        if !reached.is_empty() {
            let mean = reached.iter().sum::<usize>() as f64 / reached.len() as f64;
            let _ = writeln!(
                out,
                "  reached {} in {} of {games} games, {mean:.1} turns on average",
                farkle_rules::TARGET,
                reached.len(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{smoke_game, SeatUsage};

    /// One solo game of `module`: its record and what the agent used.
    fn play_alone(setup: &Setup, module: &AgentModule) -> anyhow::Result<(GameRecord, SeatUsage)> {
        smoke_game(&Farkle, setup, module, setup.round_cap, 0, &[])
    }

    const BANKER: &str = include_str!("templates/wat/farkle.wat");

    #[test]
    fn solo_reports_count_rejections_and_faults() {
        let sb = crate::sandbox::Sandbox::new(
            crate::games::registry().agents(),
            crate::sandbox::Limits::default(),
        )
        .unwrap();
        let bad = BANKER.replace(
            "(i32.store (i32.const 0) (local.get $action))",
            "(i32.store (i32.const 0) (i32.const 7))",
        );
        let m = sb.load_bytes("bad", bad.as_bytes()).unwrap();
        let setup = Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::new(1, 3, 10)
        };
        let (record, _) = play_alone(&setup, &m).unwrap();
        let r = solo_report(&record);
        assert_eq!(r.turns, 10);
        assert_eq!(r.turns_to_target, None);
        assert_eq!(r.score, 0);
        let farkles = record
            .turns
            .iter()
            .filter(|t| t.end == TurnEnd::Farkle)
            .count() as u32;
        assert_eq!(r.rejections.get("unknown_action"), Some(&(10 - farkles)));
        assert!(r.faults.is_empty());
    }
}
