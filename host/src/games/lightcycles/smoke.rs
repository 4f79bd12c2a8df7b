//! The light cycles part of `arena check`: 2-player smoke games against the built-in random
//! player (the example agent `lightcycles-random`, played natively), the agent changing seat
//! every game, every fault only losing the move (the cycle goes straight) so that all of them
//! are seen. Faults and losses on time are errors; the fuel per decision is reported.

use std::io::Write;

use lightcycles_random::Random;

use super::narrate::{fuel, result_line};
use super::rules::{FuelClock, Setup};
use super::settings::DEFAULT;
use super::{native, GameRecord, Lightcycles};
use crate::game::{smoke_game as play_smoke, FaultPolicy, Outcome, Smoke, SmokeOptions};
use crate::sandbox::AgentModule;
use crate::terminal;

/// One smoke game: `module` in `seat` against the native random player on the default grid,
/// with the default clock and the module's per-decision cap.
pub fn smoke_game(
    module: &AgentModule,
    seat: usize,
    seed: u64,
    round_cap: u32,
) -> anyhow::Result<GameRecord> {
    let setup = Setup {
        seed,
        players: 2,
        round_cap: round_cap.clamp(1, lightcycles_rules::MAX_TICK_CAP),
        policy: FaultPolicy::LoseMove,
        settings: DEFAULT,
        clock: FuelClock {
            start: DEFAULT.clock,
            increment: DEFAULT.increment,
            decision_cap: module.sandbox().limits().fuel_per_decision,
        },
    };
    let others = [native::<Random>()];
    let (record, _) = play_smoke(&Lightcycles, &setup, module, setup.round_cap, seat, &others)?;
    Ok(record)
}

/// `args.games` smoke games of `module`, seeds from `args.seed` on. Faults and losses on time
/// go to `smoke`'s errors; the report to `out`.
pub fn smoke_games(
    module: &AgentModule,
    args: &SmokeOptions,
    smoke: &mut Smoke,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let _ = writeln!(
        out,
        "\nLight cycles smoke games against the built-in random player ({} × {} grid, clock {} \
         fuel + {} a tick):",
        DEFAULT.width,
        DEFAULT.height,
        fuel(DEFAULT.clock),
        fuel(DEFAULT.increment)
    );
    let (mut all_fuel, mut all_decisions, mut most) = (0u64, 0u64, 0u64);
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(g));
        let seat = (g % 2) as usize;
        let record = smoke_game(module, seat, seed, args.round_cap)?;
        let mine: Vec<_> = record
            .turns
            .iter()
            .flat_map(|t| t.moves.iter().map(move |m| (t.tick, m)))
            .filter(|(_, m)| m.seat == seat && m.asked)
            .collect();
        let spent: u64 = mine.iter().map(|(_, m)| m.fuel).sum();
        let max = mine.iter().map(|(_, m)| m.fuel).max().unwrap_or(0);
        all_fuel += spent;
        all_decisions += mine.len() as u64;
        most = most.max(max);
        let end = &record.end;
        let result = match end.outcome {
            Outcome::Win { seat: w, .. } if w == seat => "won",
            Outcome::Win { .. } => "lost",
            _ => "drawn",
        };
        let name = |s: usize| {
            if s == seat {
                terminal::line(module.name()).into_owned()
            } else {
                "random".to_string()
            }
        };
        let _ = writeln!(
            out,
            "  game {} (seed {seed}, seat {seat}): {result}: {}; {} decisions, {} fuel ({} at \
             most)",
            g + 1,
            result_line(end, &name),
            mine.len(),
            fuel(spent),
            fuel(max),
        );
        let context = format!("light cycles game {} (seed {seed})", g + 1);
        for (_, f) in end.load_faults.iter().filter(|(s, _)| *s == seat) {
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
            if args.logs && g == 0 {
                for l in &m.logs {
                    for line in terminal::log_lines(&l.text) {
                        let _ = writeln!(out, "    [log, tick {tick}] {line}");
                    }
                }
            }
        }
    }
    if let Some(mean) = all_fuel.checked_div(all_decisions) {
        let _ = writeln!(
            out,
            "  fuel per decision: {} on average, {} at most, over {all_decisions} decisions",
            fuel(mean),
            fuel(most)
        );
    }
    Ok(())
}
