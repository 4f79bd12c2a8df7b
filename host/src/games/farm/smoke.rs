//! `arena check` for Little Animal Farm: smoke games of the agent against a built-in greedy
//! opponent, the agent changing seat every game and every fault only losing the move (so that all
//! of them are seen). Faults are errors; illegal trade offers are warnings, counted by reason.

use std::io::Write;
use std::time::Instant;

use farm_rules::{for_each_stock_trade, Herd, Offer, Trade, FARM_ANIMALS};

use super::rules::ACCEPT;
use super::turn::{Answer, Asked};
use super::{Event, Farm, FaultPolicy, GameRecord, Outcome, Setup};
#[cfg(test)]
use crate::game::play_seeded;
use crate::game::{
    smoke_game as play_smoke, Fault, Native, Player, Question, Reply, Smoke, SmokeOptions,
};
use crate::sandbox::{AgentModule, Init};
use crate::terminal;

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

/// Little Animal Farm smoke games against the built-in greedy opponent: faults are errors,
/// illegal trade offers warnings.
pub(super) fn smoke(
    module: &AgentModule,
    args: &SmokeOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Smoke> {
    let mut smoke = Smoke::default();
    say!(
        out,
        "\nLittle Animal Farm smoke games against the built-in greedy opponent:"
    );
    let (mut all_fuel, mut all_decisions) = (0u64, 0u64);
    for g in 0..args.games {
        let seed = args.seed.wrapping_add(g as u64);
        let seat = (g % 2) as usize;
        let t = Instant::now();
        let (record, logs) = smoke_game(module, seat, seed, args.round_cap)?;
        all_fuel += logs.1;
        all_decisions += logs.2;
        let took = t.elapsed();
        let result = match record.end.outcome {
            Outcome::Win { seat: w, .. } if w == seat => "won".to_string(),
            Outcome::Win { .. } => "lost".to_string(),
            Outcome::Draw { .. } => "draw".to_string(),
            Outcome::Unfinished => "unfinished".to_string(),
        };
        let (decisions, fuel) = (record.turns.len(), logs.1);
        say!(
            out,
            "  game {} (seed {seed}, seat {seat}): {result} after {} rounds, {} turns, {fuel} fuel, {}",
            g + 1,
            record.end.rounds,
            decisions,
            terminal::millis(took)
        );
        for e in all_events(&record) {
            match e {
                Event::Fault {
                    seat: s,
                    decision,
                    fault,
                } if *s == seat => {
                    let what = format!(
                        "{} fault in the {decision:?} decision: {}",
                        fault.kind.name(),
                        fault.detail
                    );
                    smoke.fault(out, &format!("game {} (seed {seed})", g + 1), &what);
                }
                Event::TradeFailed { seat: s, reason }
                    if *s == seat
                        && !matches!(
                            reason,
                            farm_rules::FailReason::Declined | farm_rules::FailReason::PartnerOut
                        ) =>
                {
                    *smoke
                        .warnings
                        .entry(format!(
                            "illegal trade offers: {} ({})",
                            reason.describe(),
                            reason.name()
                        ))
                        .or_default() += 1;
                }
                _ => {}
            }
        }
        if args.logs && g == 0 {
            for (turn, text) in &logs.0 {
                for line in terminal::log_lines(text) {
                    say!(out, "    [log, turn {turn}] {line}");
                }
            }
        }
    }
    if let Some(mean) = all_fuel.checked_div(all_decisions) {
        say!(
            out,
            "  fuel per decision: {mean} on average over {all_decisions} decisions (loading included)"
        );
    }
    Ok(smoke)
}

fn all_events(r: &GameRecord) -> impl Iterator<Item = &Event> {
    r.end
        .start_events
        .iter()
        .chain(r.turns.iter().flat_map(|t| t.events.iter()))
}

/// One smoke game: the agent in `seat` against the built-in greedy opponent, every fault only
/// losing the move (so that all of them are seen). Returns the record, the agent's logs, the fuel
/// it used (loading included) and its decisions.
fn smoke_game(
    module: &AgentModule,
    seat: usize,
    seed: u64,
    round_cap: u32,
) -> anyhow::Result<(GameRecord, (AgentLogs, u64, u64))> {
    let mut setup = Setup::standard(2, seed, round_cap);
    setup.policy = FaultPolicy::LoseMove;
    let greedy = [Native::typed::<Farm>(|| Box::new(Greedy))];
    let (record, usage) = play_smoke(&Farm, &setup, module, setup.round_cap, seat, &greedy)?;
    let logs = record
        .end
        .start_logs
        .iter()
        .map(|l| (0, l))
        .chain(
            record
                .turns
                .iter()
                .flat_map(|t| t.logs.iter().map(move |l| (t.turn, l))),
        )
        .filter(|(_, l)| l.seat == seat)
        .map(|(turn, l)| (turn, l.text.clone()))
        .collect();
    Ok((record, (logs, usage.fuel, usage.decisions)))
}

type AgentLogs = Vec<(u32, String)>;

/// The built-in opponent: buys, from the stock, a farm animal it lacks whenever it can afford one
/// without giving up another kind it needs; refuses every offer from players.
pub struct Greedy;

fn kinds_owned(h: &Herd) -> usize {
    FARM_ANIMALS.iter().filter(|a| h.get(**a) > 0).count()
}

impl Player<Farm> for Greedy {
    fn start(&mut self, _rules: &Farm, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _rules: &Farm, q: &Question, asked: &Asked<'_>) -> Reply<Answer> {
        let answer = if q.decision == ACCEPT {
            Answer::Accept(false)
        } else {
            Answer::Offer(Greedy::offer(asked))
        };
        Reply {
            answer: Ok(answer),
            fuel: 0,
        }
    }
}

impl Greedy {
    /// The farm animal it lacks, from the stock, if it can buy one.
    fn offer(asked: &Asked<'_>) -> Offer {
        let obs = &asked.observation;
        let pos = obs.position;
        let herd = pos.herds[obs.seat];
        let now = kinds_owned(&herd);
        let mut best: Option<(usize, u64, Trade)> = None;
        for_each_stock_trade(pos, obs.seat, &mut |t: &Trade| {
            let after = herd.minus(&t.give).plus(&t.get);
            let score = (kinds_owned(&after), after.total());
            if score.0 > now && best.as_ref().is_none_or(|b| (b.0, b.1) < score) {
                best = Some((score.0, score.1, *t));
            }
        });
        best.map_or(Offer::PASS, |(_, _, t)| Offer::with_stock(t.give, t.get))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_greedy_wins_games_against_itself() {
        let mut wins = 0;
        for seed in 0..10 {
            let (mut a, mut b) = (Greedy, Greedy);
            let r =
                play_seeded(&Farm, &Setup::standard(2, seed, 300), &mut [&mut a, &mut b]).unwrap();
            let faults = all_events(&r)
                .filter(|e| matches!(e, Event::Fault { .. } | Event::TradeFailed { .. }))
                .count();
            assert_eq!(faults, 0);
            wins += r.end.outcome.winner().is_some() as u32;
        }
        assert!(wins >= 5, "{wins}");
    }
}
