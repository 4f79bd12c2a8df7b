//! `arena check`'s smoke games, the part every game shares: one game of the agent against the
//! game's built-in players ([`smoke_game`]), and its faults, each told once: an agent that fails
//! the same way in every decision (a Python agent whose exception comes back every turn; a
//! component, which is not called again after a fault, fails each later decision with the same
//! fault) gets one error with its count, not a screen of copies, so a failing check's report
//! stays short.

use std::io::Write;

use arena_sandbox::{run_with_big_stack, AgentModule};

use crate::info::Smoke;
use crate::kept::{play_seeded, Kept};
use crate::player::{Native, Player};
use crate::rules::Rules;
use crate::terminal;
use crate::vocab::SeatUsage;

/// One smoke game, on a thread with a big stack: `module` (asked with the round cap `round_cap`)
/// in `seat`, a player of each of `others` in the other seats in order, the dice of `setup`'s
/// seed. The game kept and what the agent used; an error is the host's failure to set the agent
/// up (its `HostFailure`) or a player that left (no verdict on the agent either way).
pub fn smoke_game<R: Rules>(
    rules: &R,
    setup: &R::Setup,
    module: &AgentModule,
    round_cap: u32,
    seat: usize,
    others: &[Native],
) -> anyhow::Result<(Kept<R>, SeatUsage)> {
    run_with_big_stack(|| {
        let mut agent = module.player_with_round_cap(round_cap);
        let mut others = others
            .iter()
            .map(|n| n.player::<R>())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| anyhow::anyhow!("a built-in player of another game"))?;
        let kept = {
            let mut players: Vec<&mut dyn Player<R>> = others
                .iter_mut()
                .map(|p| &mut **p as &mut dyn Player<R>)
                .collect();
            players.insert(seat.min(players.len()), &mut agent);
            play_seeded(rules, setup, &mut players)
                .ok_or_else(|| anyhow::anyhow!("a player left the game"))?
        };
        if let Some(failure) = agent.host_failure() {
            return Err(anyhow::Error::new(failure.clone()));
        }
        Ok((kept, SeatUsage::of(&agent)))
    })
}

/// What the sandbox adds to the fault of an agent it no longer calls (the fault is the first one).
const NOT_CALLED_AGAIN: [&str; 2] = [
    " (the component is not called again)",
    " (the agent is not called again)",
];

impl Smoke {
    /// A fault of a smoke game: `context` says where (`game 1 (seed 1)`, `game 2 (seed 2), turn
    /// 7`), `text` what (`trap fault in the Trade decision: trade: ...`). The first fault of each
    /// text is printed to `out` (`FAULT context: text`) and becomes an error; the same text
    /// again is only counted ([`Smoke::counted_errors`]).
    pub fn fault(&mut self, out: &mut dyn Write, context: &str, text: &str) {
        let key = NOT_CALLED_AGAIN
            .iter()
            .fold(text, |t, suffix| t.strip_suffix(suffix).unwrap_or(t));
        if let Some((_, more)) = self.repeats.get_mut(key) {
            *more += 1;
            return;
        }
        let error = format!("{context}: {text}");
        let _ = writeln!(out, "    FAULT {}", terminal::line(&error));
        self.repeats.insert(key.to_owned(), (self.errors.len(), 0));
        self.errors.push(error);
    }

    /// The errors, each fault with the count of the times it came again: `... (the same fault in
    /// 93 more decisions)`.
    pub fn counted_errors(mut self) -> Vec<String> {
        for (index, more) in self.repeats.into_values() {
            if more > 0 {
                let decisions = if more == 1 { "decision" } else { "decisions" };
                self.errors[index]
                    .push_str(&format!(" (the same fault in {more} more {decisions})"));
            }
        }
        self.errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_is_told_once_with_its_count() {
        let mut smoke = Smoke::default();
        let mut out = Vec::new();
        let trap = "trap fault in the Trade decision: trade: IndexError: list index out of range";
        smoke.fault(&mut out, "game 1 (seed 1)", trap);
        for game in 1..=3 {
            smoke.fault(
                &mut out,
                &format!("game {game} (seed {game})"),
                &format!("{trap} (the component is not called again)"),
            );
        }
        smoke.fault(&mut out, "game 2 (seed 2)", "decision_fuel fault: used up");
        smoke.fault(&mut out, "game 3 (seed 3)", "decision_fuel fault: used up");
        let printed = String::from_utf8(out).unwrap();
        assert_eq!(printed.lines().count(), 2, "{printed}");
        assert_eq!(
            smoke.counted_errors(),
            [
                format!("game 1 (seed 1): {trap} (the same fault in 3 more decisions)"),
                "game 2 (seed 2): decision_fuel fault: used up (the same fault in 1 more decision)"
                    .to_owned(),
            ]
        );
    }
}
