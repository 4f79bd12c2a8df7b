//! `arena check` for Farkle: a few solo games (the benchmark: turns to reach 10,000 alone),
//! every fault only losing the turn so that all of them are seen. Faults are errors; rejected
//! drafts are warnings, counted by reason.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use super::narrate::describe_reject;
use super::{Farkle, GameRecord, Setup, TurnEnd};
use crate::game::{smoke_game, FaultPolicy, SeatUsage, Smoke, SmokeOptions};
use crate::sandbox::AgentModule;

/// `writeln!` whose error is ignored: a closed standard output must not change the verdict (the
/// exit status says it), and a `Vec<u8>` never fails.
macro_rules! say {
    ($out:expr) => {
        let _ = writeln!($out);
    };
    ($out:expr, $($arg:tt)*) => {
        let _ = writeln!($out, $($arg)*);
    };
}

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
    for f in &record.end.load_faults {
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

/// One solo game of `module`: its record and what the agent used ([`smoke_game`]).
pub(super) fn play_alone(
    setup: &Setup,
    module: &AgentModule,
) -> anyhow::Result<(GameRecord, SeatUsage)> {
    smoke_game(&Farkle, setup, module, setup.round_cap, 0, &[])
}

/// `args.games` solo Farkle games of `module`, seeds from `args.seed` on.
pub(super) fn smoke(
    module: &AgentModule,
    args: &SmokeOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Smoke> {
    let mut smoke = Smoke::default();
    say!(
        out,
        "\nFarkle smoke games (solo, turns to reach {}):",
        farkle_rules::TARGET
    );
    let mut reached = Vec::new();
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(g));
        let setup = Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::new(1, seed, args.round_cap)
        };
        let t = Instant::now();
        let (record, usage) = play_alone(&setup, module)?;
        let took = t.elapsed();
        let report = solo_report(&record);
        let result = match report.turns_to_target {
            Some(n) => {
                reached.push(n);
                format!("reached {} in {n} turns", setup.target)
            }
            None => format!(
                "did not reach {} in {} turns (score {})",
                setup.target, report.turns, report.score
            ),
        };
        let rejected: u32 = report.rejections.values().sum();
        say!(
            out,
            "  game {} (seed {seed}): {result}, {rejected} rejected drafts, {} faults, {} fuel \
             ({} per decision at most), {}",
            g + 1,
            report.faults.len(),
            usage.fuel,
            usage.max_decision_fuel,
            crate::terminal::millis(took)
        );
        for (at, what) in &report.faults {
            smoke.fault(
                out,
                &format!("Farkle game {} (seed {seed}){at}", g + 1),
                what,
            );
        }
        for (reason, n) in &report.rejections {
            let reason = farkle_rules::Reject::ALL
                .into_iter()
                .find(|r| r.name() == *reason)
                .expect("a reason of the rules");
            *smoke
                .warnings
                .entry(format!(
                    "rejected Farkle drafts: {} ({})",
                    describe_reject(reason),
                    reason.name()
                ))
                .or_default() += n;
        }
        if args.logs && g == 0 {
            let logs = record.end.start_logs.iter().map(|l| (0, l)).chain(
                record
                    .turns
                    .iter()
                    .flat_map(|t| t.logs.iter().map(move |l| (t.turn, l))),
            );
            for (turn, log) in logs {
                for line in crate::terminal::log_lines(&log.text) {
                    say!(out, "    [log, turn {turn}] {line}");
                }
            }
        }
    }
    if !reached.is_empty() {
        let mean = reached.iter().sum::<usize>() as f64 / reached.len() as f64;
        say!(
            out,
            "  reached {} in {} of {} games, {mean:.1} turns on average",
            farkle_rules::TARGET,
            reached.len(),
            args.games
        );
    }
    Ok(smoke)
}

#[cfg(test)]
mod tests {
    use super::*;

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
