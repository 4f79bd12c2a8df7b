//! `arena check` for Farkle: a few solo games (the benchmark: turns to reach 10,000 alone),
//! every fault only losing the turn so that all of them are seen. Faults are errors; rejected
//! drafts are warnings, counted by reason.

use std::io::Write;

use super::narrate::describe_reject;
use super::{Farkle, Setup, TurnEnd};
use crate::game::smoke_games::{SmokeGame, SmokeGames};
use crate::game::{FaultPolicy, Smoke};
use crate::sandbox::AgentModule;

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

    fn smoke_tell(
        &self,
        game: &SmokeGame<'_, Farkle>,
        reached: &mut Vec<usize>,
        smoke: &mut Smoke,
        out: &mut dyn Write,
    ) {
        let (record, usage, seed) = (&game.kept, &game.usage, game.seed);
        let (target, turns) = (record.setup.target, record.turns.len());
        let score = record.end.scores.first().copied().unwrap_or(0);
        let result = if score >= target {
            reached.push(turns);
            format!("reached {target} in {turns} turns")
        } else {
            format!("did not reach {target} in {turns} turns (score {score})")
        };
        let ended = |end: fn(&TurnEnd) -> bool| record.turns.iter().filter(|t| end(&t.end)).count();
        let rejected = ended(|e| matches!(e, TurnEnd::Rejected(_)));
        let faults =
            record.end.started.load_faults.len() + ended(|e| matches!(e, TurnEnd::Fault { .. }));
        let _ = writeln!(
            out,
            "  game {} (seed {seed}): {result}, {rejected} rejected drafts, {faults} faults, {} \
             fuel ({} per decision at most), {}",
            game.number,
            usage.fuel,
            usage.max_decision_fuel,
            crate::terminal::millis(game.took)
        );
        let context = game.context("Farkle ");
        game.load_fault(smoke, out, &context, &record.end.started);
        for t in &record.turns {
            match &t.end {
                TurnEnd::Fault { fault, .. } => {
                    game.fault(smoke, out, &format!("{context}, turn {}", t.turn), fault)
                }
                TurnEnd::Rejected(reason) => {
                    let warning = format!(
                        "rejected Farkle drafts: {} ({})",
                        describe_reject(*reason),
                        reason.name()
                    );
                    *smoke.warnings.entry(warning).or_default() += 1;
                }
                _ => {}
            }
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
    use crate::game::smoke_game;

    const BANKER: &str = include_str!("templates/wat/farkle.wat");

    #[test]
    fn a_solo_game_tells_its_rejections_and_faults() {
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
        let setup = Farkle.smoke_setup(&m, 3, 10);
        let (kept, usage) = smoke_game(&Farkle, &setup, &m, setup.round_cap, 0, &[]).unwrap();
        let farkles = kept
            .turns
            .iter()
            .filter(|t| t.end == TurnEnd::Farkle)
            .count() as u32;
        let game = SmokeGame {
            number: 1,
            seed: 3,
            seat: 0,
            agent: &m,
            kept,
            usage,
            took: std::time::Duration::ZERO,
            logs: false,
        };
        let (mut reached, mut smoke, mut out) = (Vec::new(), Smoke::default(), Vec::new());
        Farkle.smoke_tell(&game, &mut reached, &mut smoke, &mut out);
        let out = String::from_utf8(out).unwrap();
        let line = format!(
            "  game 1 (seed 3): did not reach 10000 in 10 turns (score 0), {} rejected drafts, 0 \
             faults, ",
            10 - farkles
        );
        assert!(out.starts_with(&line) && out.lines().count() == 1, "{out}");
        assert!(reached.is_empty() && smoke.errors.is_empty());
        let warning = "rejected Farkle drafts: the action is neither 0 (roll) nor 1 (bank) \
                       (unknown_action)";
        let warnings = [(warning.to_string(), 10 - farkles)].into();
        assert_eq!(smoke.warnings, warnings);
    }
}
