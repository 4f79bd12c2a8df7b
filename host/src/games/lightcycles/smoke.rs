//! The light cycles part of `arena check`: 2-player smoke games against the built-in random
//! player (the example agent `lightcycles-random`, played natively), the agent changing seat
//! every game, every fault only losing the move (the cycle goes straight) so that all of them
//! are seen. Faults and losses on time are errors; the fuel per decision is reported.

use std::io::Write;

use lightcycles_random::Random;

use super::narrate::{fuel, result_line};
use super::rules::{FuelClock, Setup};
use super::settings::DEFAULT;
use super::{native, Lightcycles};
use crate::game::smoke_games::{SmokeGame, SmokeGames, Spent};
use crate::game::{FaultPolicy, Native, Outcome, Smoke};
use crate::sandbox::AgentModule;
use crate::terminal;

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
            clock: FuelClock {
                start: DEFAULT.clock,
                increment: DEFAULT.increment,
                decision_cap: agent.sandbox().limits().fuel_per_decision,
            },
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
        let (record, seat, seed, number) = (&game.kept, game.seat, game.seed, game.number);
        let mine: Vec<_> = record
            .turns
            .iter()
            .flat_map(|t| t.moves.iter().map(move |m| (t.tick, m)))
            .filter(|(_, m)| m.seat == seat && m.asked)
            .collect();
        let (used, max) = spent.add(mine.iter().map(|(_, m)| m.fuel));
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
             at most)",
            result_line(end, &name),
            mine.len(),
            fuel(used),
            fuel(max),
        );
        let context = format!("light cycles game {number} (seed {seed})");
        for f in end.started.load_faults.iter().filter(|f| f.seat == seat) {
            let f = &f.fault;
            let what = format!("{} fault while loading: {}", f.kind.name(), f.detail);
            smoke.fault(out, &context, &what);
        }
        for (tick, m) in &mine {
            if let Some(f) = &m.fault {
                let what = format!("{} fault: {}", f.fault.kind.name(), f.fault.detail);
                smoke.fault(out, &format!("{context}, tick {tick}"), &what);
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
