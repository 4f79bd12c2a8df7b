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
use crate::game::{FaultPolicy, Native, Smoke};
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
        let (seat, end) = (game.seat, &game.kept.end);
        let mine: Vec<_> = game.kept.turns.iter().filter(|p| p.seat == seat).collect();
        let ended = result_line(end, &|s| game.name_or(s, "random"));
        let fuels: Vec<u64> = mine.iter().map(|p| p.fuel).collect();
        let _ = writeln!(
            out,
            "{}, clock at the end {}, {}",
            game.decisions_line(spent, fuel, (end.outcome.winner(), ended), &fuels),
            fuel(end.clocks[seat]),
            terminal::millis(game.took)
        );
        let context = game.context("Jungle ");
        game.load_fault(smoke, out, &context, &end.started);
        for p in &mine {
            if let Some(f) = &p.fault {
                game.fault(smoke, out, &format!("{context}, ply {}", p.turn), &f.fault);
            }
        }
        if end.reason == EndReason::Time && end.outcome.winner() != Some(seat) {
            let msg = format!("{context}: lost on time (its clock ran out)");
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
