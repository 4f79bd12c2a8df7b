//! The Farkle part of `arena check`: a few solo games (the benchmark: turns to reach 10,000
//! alone), every fault only losing the turn so that all of them are seen. Faults are errors;
//! rejected drafts are warnings, counted by reason.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use super::check::{ms, say, CheckArgs};
use super::play_farkle::{describe_reject, play_metered};
use crate::farkle::{GameRecord, Setup, TurnEnd};
use crate::game::FaultPolicy;
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
    /// "kind in the decision: detail", one per fault.
    pub faults: Vec<String>,
}

/// Reads a solo game's record.
pub fn solo_report(record: &GameRecord) -> SoloReport {
    let mut r = SoloReport {
        turns: record.turns.len(),
        score: record.scores.first().copied().unwrap_or(0),
        ..SoloReport::default()
    };
    if r.score >= record.setup.target {
        r.turns_to_target = Some(r.turns);
    }
    for f in &record.load_faults {
        r.faults.push(format!(
            "{} fault while loading: {}",
            f.fault.kind.name(),
            f.fault.detail
        ));
    }
    for t in &record.turns {
        match &t.end {
            TurnEnd::Rejected(reason) => *r.rejections.entry(reason.name()).or_default() += 1,
            TurnEnd::Fault { fault, .. } => r.faults.push(format!(
                "{} fault in the draft decision of turn {}: {}",
                fault.kind.name(),
                t.turn,
                fault.detail
            )),
            _ => {}
        }
    }
    r
}

/// `args.games` solo Farkle games of `module`, seeds from `args.seed` on.
pub fn smoke_games(
    module: &AgentModule,
    args: &CheckArgs,
    errors: &mut Vec<String>,
    warnings: &mut BTreeMap<String, u32>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
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
        let (record, fuel) = play_metered(&setup, std::slice::from_ref(module))?;
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
            fuel[0].0,
            fuel[0].1,
            ms(took)
        );
        for f in &report.faults {
            let msg = format!("Farkle game {} (seed {seed}): {f}", g + 1);
            say!(out, "    FAULT {}", crate::terminal::line(&msg));
            errors.push(msg);
        }
        for (reason, n) in &report.rejections {
            let reason = farkle_rules::Reject::ALL
                .into_iter()
                .find(|r| r.name() == *reason)
                .expect("a reason of the rules");
            *warnings
                .entry(format!(
                    "rejected Farkle drafts: {} ({})",
                    describe_reject(reason),
                    reason.name()
                ))
                .or_default() += n;
        }
        if args.logs && g == 0 {
            let logs = record.start_logs.iter().map(|l| (0, l)).chain(
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::check::run;
    use crate::cli::play::LimitArgs;

    const BANKER: &str = include_str!("new/templates/wat/farkle.wat");

    fn check(name: &str, content: &str) -> i32 {
        let dir = std::env::temp_dir().join(format!("arena-check-farkle-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        run(CheckArgs {
            agents: vec![path],
            games: 2,
            round_cap: 100,
            seed: 1,
            logs: true,
            json: false,
            limits: LimitArgs {
                fuel_per_decision: Some(200_000),
                fuel_per_game: Some(5_000_000),
                ..LimitArgs::default()
            },
        })
        .unwrap()
    }

    #[test]
    fn check_passes_a_farkle_agent_warns_on_rejections_and_fails_on_faults() {
        assert_eq!(check("banker.wat", BANKER), 0);
        // Drafting nothing is rejected every turn: warnings, not a failure.
        let empty = BANKER.replace(
            "(i32.store (i32.const 4) (local.get $k))",
            "(local.set $k (i32.const 0)) (i32.store (i32.const 4) (local.get $k))",
        );
        assert_ne!(empty, BANKER);
        assert_eq!(check("empty.wat", &empty), 0);
        // An unreadable answer is a fault.
        let short = BANKER.replace(
            "(i32.add (i32.const 8) (i32.shl (local.get $k) (i32.const 2))))\n)",
            "(i32.const 4))\n)",
        );
        assert_ne!(short, BANKER);
        assert_eq!(check("short.wat", &short), 1);
    }

    #[test]
    fn solo_reports_count_rejections_and_faults() {
        let sb =
            crate::sandbox::Sandbox::new(crate::games::AGENTS, crate::sandbox::Limits::default())
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
        let (record, _) = play_metered(&setup, &[m]).unwrap();
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
