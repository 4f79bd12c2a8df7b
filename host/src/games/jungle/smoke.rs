//! The Jungle part of `arena check`: smoke games against the built-in random player (the
//! example agent `jungle-random`, played natively), the agent in both seats, every fault only
//! losing the move so that all of them are seen. Faults (an illegal move is one) and losses on
//! time are errors; the fuel per decision and the clock are reported.

use std::io::Write;
use std::time::Instant;

use jungle_random::Random;

use super::narrate::{fuel, result_line};
use super::settings::DEFAULT;
use super::turn::{EndReason, FuelClock, Setup};
use super::{native, GameRecord, Jungle};
use crate::game::{smoke_game as play_smoke, FaultPolicy, Outcome, Smoke, SmokeOptions};
use crate::sandbox::AgentModule;
use crate::terminal;

/// One smoke game: `module` in `seat` against the native random player, with the default clock
/// and the module's per-decision cap.
pub fn smoke_game(
    module: &AgentModule,
    seat: usize,
    seed: u64,
    round_cap: u32,
) -> anyhow::Result<GameRecord> {
    let setup = Setup {
        policy: FaultPolicy::LoseMove,
        ..Setup::new(
            seed,
            round_cap,
            FuelClock {
                start: DEFAULT.clock,
                increment: DEFAULT.increment,
                decision_cap: module.sandbox().limits().fuel_per_decision,
            },
        )
    };
    let (record, _) = play_smoke(
        &Jungle,
        &setup,
        module,
        round_cap,
        seat,
        &[native::<Random>()],
    )?;
    Ok(record)
}

/// `args.games` smoke games of `module`, seeds from `args.seed` on, the agent changing seat
/// every game. Faults and losses on time go to `smoke`'s errors; the report to `out`.
pub fn smoke_games(
    module: &AgentModule,
    args: &SmokeOptions,
    smoke: &mut Smoke,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let _ = writeln!(
        out,
        "\nJungle smoke games against the built-in random player (clock {} fuel + {} a move):",
        fuel(DEFAULT.clock),
        fuel(DEFAULT.increment)
    );
    let (mut all_fuel, mut all_decisions, mut most) = (0u64, 0u64, 0u64);
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(g));
        let seat = (g % 2) as usize;
        let t = Instant::now();
        let record = smoke_game(module, seat, seed, args.round_cap)?;
        let took = t.elapsed();
        let mine: Vec<_> = record.turns.iter().filter(|p| p.seat == seat).collect();
        let spent: u64 = mine.iter().map(|p| p.fuel).sum();
        let max = mine.iter().map(|p| p.fuel).max().unwrap_or(0);
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
             most), clock at the end {}, {:.1} ms",
            g + 1,
            result_line(end, &name),
            mine.len(),
            fuel(spent),
            fuel(max),
            fuel(end.clocks[seat]),
            took.as_secs_f64() * 1000.0
        );
        for f in record.end.load_faults.iter().filter(|f| f.seat == seat) {
            let what = format!(
                "{} fault while loading: {}",
                f.fault.kind.name(),
                f.fault.detail
            );
            smoke.fault(out, &format!("Jungle game {} (seed {seed})", g + 1), &what);
        }
        for p in &mine {
            if let Some(f) = &p.fault {
                let what = format!("{} fault: {}", f.fault.kind.name(), f.fault.detail);
                let at = format!("Jungle game {} (seed {seed}), ply {}", g + 1, p.turn);
                smoke.fault(out, &at, &what);
            }
        }
        if end.reason == EndReason::Time && end.outcome.winner() != Some(seat) {
            let msg = format!(
                "Jungle game {} (seed {seed}): lost on time (its clock ran out)",
                g + 1
            );
            let _ = writeln!(out, "    {}", terminal::line(&msg));
            smoke.errors.push(msg);
        }
        if args.logs && g == 0 {
            for p in &mine {
                for l in &p.logs {
                    for line in terminal::log_lines(&l.text) {
                        let _ = writeln!(out, "    [log, ply {}] {line}", p.turn);
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
