//! The light cycles part of `arena check`: 2-player smoke games against the built-in random
//! player (the example agent `lightcycles-random`, played natively), the agent changing seat
//! every game, every fault only losing the move (the cycle goes straight) so that all of them
//! are seen. Faults and losses on time are errors; the fuel per decision is reported.

use std::io::Write;

use lightcycles_random::Random;

use super::narrate::{fuel, result_line};
use super::rules::Setup;
use super::settings::DEFAULT;
use super::{native, Lightcycles};
use crate::game::smoke_games::{SmokeGame, SmokeGames, Spent};
use crate::game::{FaultPolicy, Native, Smoke};
use crate::sandbox::AgentModule;

impl SmokeGames for Lightcycles {
    type Tally = Spent;

    fn smoke_heading(&self) -> String {
        format!(
            "Light cycles smoke games against the built-in random player ({} × {} grid, clock {} \
             fuel + {} a tick):",
            DEFAULT.width,
            DEFAULT.height,
            fuel(DEFAULT.clock),
            fuel(DEFAULT.increment)
        )
    }

    /// Two players on the default grid, with the default clock and the agent's per-decision
    /// cap.
    fn smoke_setup(&self, agent: &AgentModule, seed: u64, round_cap: u32) -> Setup {
        Setup {
            seed,
            players: 2,
            round_cap: round_cap.clamp(1, lightcycles_rules::MAX_TICK_CAP),
            policy: FaultPolicy::LoseMove,
            settings: DEFAULT,
            decision_cap: agent.sandbox().limits().fuel_per_decision,
        }
    }

    fn smoke_others(&self) -> Vec<Native> {
        vec![native::<Random>()]
    }

    /// Faults and losses on time are errors.
    fn smoke_tell(
        &self,
        game: &SmokeGame<'_, Lightcycles>,
        spent: &mut Spent,
        smoke: &mut Smoke,
        out: &mut dyn Write,
    ) {
        let (seat, end) = (game.seat, &game.kept.end);
        let mine: Vec<_> = game
            .kept
            .turns
            .iter()
            .flat_map(|t| t.moves.iter().map(move |m| (t.tick, m)))
            .filter(|(_, m)| m.seat == seat && m.asked)
            .collect();
        let ended = result_line(end, &|s| game.name_or(s, "random"));
        let fuels: Vec<u64> = mine.iter().map(|(_, m)| m.fuel).collect();
        let line = game.decisions_line(spent, fuel, (end.outcome.winner(), ended), &fuels);
        let _ = writeln!(out, "{line}");
        let context = game.context("light cycles ");
        game.load_fault(smoke, out, &context, &end.started);
        for (tick, m) in &mine {
            if let Some(f) = &m.fault {
                game.fault(smoke, out, &format!("{context}, tick {tick}"), &f.fault);
                if f.time {
                    let msg = format!("{context}: out on time (its clock ran out)");
                    smoke.errors.push(msg);
                }
            }
            for l in &m.logs {
                game.log(out, &format!("tick {tick}"), &l.text);
            }
        }
    }

    fn smoke_close(&self, spent: Spent, _games: u32, out: &mut dyn Write) {
        spent.close(out, fuel);
    }
}
