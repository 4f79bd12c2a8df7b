//! `arena check` for Little Animal Farm: smoke games of the agent against a built-in greedy
//! opponent, the agent changing seat every game and every fault only losing the move (so that all
//! of them are seen). Faults are errors; illegal trade offers are warnings, counted by reason.

use std::io::Write;

use farm_rules::{for_each_stock_trade, FailReason, Herd, Offer, Trade, FARM_ANIMALS};

use super::rules::ACCEPT;
use super::turn::{Answer, Asked};
use super::{Event, Farm, FaultPolicy, GameRecord, Outcome, Setup};
#[cfg(test)]
use crate::game::play_seeded;
use crate::game::smoke_games::{SmokeGame, SmokeGames};
use crate::game::{Fault, Native, Player, Question, Reply, Smoke};
use crate::sandbox::{AgentModule, Init};
use crate::terminal;

impl SmokeGames for Farm {
    /// The agent's fuel (loading included) and decisions.
    type Tally = (u64, u64);

    fn smoke_heading(&self) -> String {
        "Little Animal Farm smoke games against the built-in greedy opponent:".into()
    }

    fn smoke_setup(&self, _agent: &AgentModule, seed: u64, round_cap: u32) -> Setup {
        Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::standard(2, seed, round_cap)
        }
    }

    fn smoke_others(&self) -> Vec<Native> {
        vec![Native::typed::<Farm>(|| Box::new(Greedy))]
    }

    fn smoke_tell(
        &self,
        game: &SmokeGame<'_, Farm>,
        tally: &mut (u64, u64),
        smoke: &mut Smoke,
        out: &mut dyn Write,
    ) {
        let (record, seat, fuel) = (&game.kept, game.seat, game.usage.fuel);
        tally.0 += fuel;
        tally.1 += game.usage.decisions;
        let result = match record.end.outcome {
            Outcome::Unfinished => "unfinished",
            outcome => game.result(outcome.winner(), "draw"),
        };
        let _ = writeln!(
            out,
            "  game {} (seed {}, seat {seat}): {result} after {} rounds, {} turns, {fuel} fuel, {}",
            game.number,
            game.seed,
            record.end.rounds,
            record.turns.len(),
            terminal::millis(game.took)
        );
        let context = game.context("");
        for e in all_events(record) {
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
                    smoke.fault(out, &context, &what);
                }
                Event::TradeFailed { seat: s, reason }
                    if *s == seat
                        && !matches!(reason, FailReason::Declined | FailReason::PartnerOut) =>
                {
                    let warning = format!(
                        "illegal trade offers: {} ({})",
                        reason.describe(),
                        reason.name()
                    );
                    *smoke.warnings.entry(warning).or_default() += 1;
                }
                _ => {}
            }
        }
        let turns = record.turns.iter().map(|t| (t.turn, &t.logs[..]));
        game.turn_logs(out, &record.end.start_logs, turns);
    }

    fn smoke_close(&self, (fuel, decisions): (u64, u64), _games: u32, out: &mut dyn Write) {
        if let Some(mean) = fuel.checked_div(decisions) {
            let _ = writeln!(
                out,
                "  fuel per decision: {mean} on average over {decisions} decisions (loading \
                 included)"
            );
        }
    }
}

fn all_events(r: &GameRecord) -> impl Iterator<Item = &Event> {
    r.end
        .start_events
        .iter()
        .chain(r.turns.iter().flat_map(|t| t.events.iter()))
}

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
