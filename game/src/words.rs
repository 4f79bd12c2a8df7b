//! The words every game's narration (`arena play`) and smoke games (`arena check`) say alike,
//! written once so that the games read alike and each game's narration is only its own words: a
//! seat's name as a terminal shows it ([`Teller`]), what an agent logged under the turn it logged
//! it in, the fault policy's name, how a game ended for people ([`outcome_words`]) and for one seat
//! ([`won_or_lost`]), figures with thousands separators ([`thousands`]).

use std::fmt::Write as _;

use crate::terminal;
use crate::vocab::{AgentLog, Outcome};
use crate::FaultPolicy;

impl FaultPolicy {
    /// The policy's name, as league files and the command line write it.
    pub fn name(self) -> &'static str {
        match self {
            FaultPolicy::Forfeit => "forfeit",
            FaultPolicy::LoseMove => "lose_move",
        }
    }
}

/// Who a narration tells of: the players' names, and whether what their agents logged is told.
#[derive(Clone, Copy)]
pub struct Teller<'a> {
    pub names: &'a [String],
    pub logs: bool,
}

impl Teller<'_> {
    /// The name of `seat`, ready for a terminal (names come from agents); `seat N` for a seat
    /// without one.
    pub fn name(&self, seat: usize) -> String {
        self.names
            .get(seat)
            .map(|n| terminal::line(n).into_owned())
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    /// Who sits where: `seat 0: a, seat 1: b`.
    pub fn seats(&self, players: usize) -> String {
        let seats: Vec<String> = (0..players)
            .map(|s| format!("seat {s}: {}", self.name(s)))
            .collect();
        seats.join(", ")
    }

    /// Writes what the agents logged when their logs are told, a line each:
    /// `{indent}[name log] line`.
    pub fn logs(&self, out: &mut String, indent: &str, logs: &[AgentLog]) {
        if !self.logs {
            return;
        }
        for l in logs {
            for line in terminal::log_lines(&l.text) {
                let _ = writeln!(out, "{indent}[{} log] {line}", self.name(l.seat));
            }
        }
    }

    /// How a game of several players ended ([`outcome_words`]) with these names.
    pub fn outcome(&self, outcome: Outcome, draw: &str) -> String {
        outcome_words(outcome, &|s| self.name(s), draw)
    }
}

/// How a game of several players ended, for people: `a wins`, `a wins (last player left)`,
/// `draw (round cap)`, `draw` (a draw before the round cap, in the game's words) or `unfinished`.
pub fn outcome_words(outcome: Outcome, name: &dyn Fn(usize) -> String, draw: &str) -> String {
    match outcome {
        Outcome::Win {
            seat,
            last_standing,
        } => format!(
            "{} wins{}",
            name(seat),
            if last_standing {
                " (last player left)"
            } else {
                ""
            }
        ),
        Outcome::Draw { round_cap: true } => "draw (round cap)".into(),
        Outcome::Draw { round_cap: false } => draw.into(),
        Outcome::Unfinished => "unfinished".into(),
    }
}

/// How a game ended for `seat`: `won`, `lost`, or `None` (no one won).
pub fn won_or_lost(winner: Option<usize>, seat: usize) -> Option<&'static str> {
    winner.map(|w| if w == seat { "won" } else { "lost" })
}

/// A figure with thousands separators: `60,000,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_have_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(60_000_000), "60,000,000");
    }

    #[test]
    fn names_are_ready_for_a_terminal() {
        let names = ["a\u{1b}[2K".to_string(), "b".to_string()];
        let teller = Teller {
            names: &names,
            logs: true,
        };
        assert_eq!(
            teller.seats(3),
            "seat 0: a\\x1b[2K, seat 1: b, seat 2: seat 2"
        );
        let mut out = String::new();
        let log = AgentLog {
            seat: 1,
            text: "one\ntwo\r".into(),
        };
        teller.logs(&mut out, "  ", &[log]);
        assert_eq!(out, "  [b log] one\n  [b log] two\\r\n");
        let win = Outcome::last_standing(0);
        assert_eq!(
            teller.outcome(win, "draw"),
            "a\\x1b[2K wins (last player left)"
        );
    }
}
