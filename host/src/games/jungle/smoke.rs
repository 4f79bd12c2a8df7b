//! The Jungle part of `arena check`: smoke games against the built-in random player (the
//! example agent `jungle-random`, played natively), the agent in both seats, every fault only
//! losing the move so that all of them are seen. Faults (an illegal move is one) and losses on
//! time are errors; the fuel per decision and the clock are reported.

use std::io::Write;

use jungle_random::Random;

use super::narrate::{fuel, result_line};
use super::settings::DEFAULT;
use super::turn::{EndReason, FuelClock, Setup};
use super::{native, Jungle};
use crate::game::smoke_games::{SmokeGame, SmokeGames, Spent};
use crate::game::{FaultPolicy, Native, Outcome, Smoke};
use crate::sandbox::AgentModule;
use crate::terminal;

impl SmokeGames for Jungle {
    type Tally = Spent;

    fn smoke_heading(&self) -> String {
        format!(
            "Jungle smoke games against the built-in random player (clock {} fuel + {} a move):",
            fuel(DEFAULT.clock),
            fuel(DEFAULT.increment)
        )
    }

    /// The default clock, and the agent's per-decision cap.
    fn smoke_setup(&self, agent: &AgentModule, seed: u64, round_cap: u32) -> Setup {
        let clock = FuelClock {
            start: DEFAULT.clock,
            increment: DEFAULT.increment,
            decision_cap: agent.sandbox().limits().fuel_per_decision,
        };
        Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::new(seed, round_cap, clock)
        }
    }

    fn smoke_others(&self) -> Vec<Native> {
        vec![native::<Random>()]
    }

    /// Faults and losses on time are errors.
    fn smoke_tell(
        &self,
        game: &SmokeGame<'_, Jungle>,
        spent: &mut Spent,
        smoke: &mut Smoke,
        out: &mut dyn Write,
    ) {
        let (record, seat, seed, number) = (&game.kept, game.seat, game.seed, game.number);
        let mine: Vec<_> = record.turns.iter().filter(|p| p.seat == seat).collect();
        let (used, max) = spent.add(mine.iter().map(|p| p.fuel));
        let end = &record.end;
        let result = match end.outcome {
            Outcome::Win { seat: w, .. } if w == seat => "won",
            Outcome::Win { .. } => "lost",
            _ => "drawn",
        };
        let name = |s: usize| {
            if s == seat {
                terminal::line(game.agent.name()).into_owned()
            } else {
                "random".to_string()
            }
        };
        let _ = writeln!(
            out,
            "  game {number} (seed {seed}, seat {seat}): {result}: {}; {} decisions, {} fuel ({} \
             at most), clock at the end {}, {}",
            result_line(end, &name),
            mine.len(),
            fuel(used),
            fuel(max),
            fuel(end.clocks[seat]),
            terminal::millis(game.took)
        );
        for f in end.started.load_faults.iter().filter(|f| f.seat == seat) {
            let what = format!(
                "{} fault while loading: {}",
                f.fault.kind.name(),
                f.fault.detail
            );
            smoke.fault(out, &format!("Jungle game {number} (seed {seed})"), &what);
        }
        for p in &mine {
            if let Some(f) = &p.fault {
                let what = format!("{} fault: {}", f.fault.kind.name(), f.fault.detail);
                let at = format!("Jungle game {number} (seed {seed}), ply {}", p.turn);
                smoke.fault(out, &at, &what);
            }
        }
        if end.reason == EndReason::Time && end.outcome.winner() != Some(seat) {
            let msg =
                format!("Jungle game {number} (seed {seed}): lost on time (its clock ran out)");
            let _ = writeln!(out, "    {}", terminal::line(&msg));
            smoke.errors.push(msg);
        }
        for p in &mine {
            for l in &p.logs {
                game.log(out, &format!("ply {}", p.turn), &l.text);
            }
        }
    }

    fn smoke_close(&self, spent: Spent, _games: u32, out: &mut dyn Write) {
        spent.close(out, fuel);
    }
}
