//! `arena check`'s smoke games of a game played by the host's loop, written once
//! ([`smoke_games`]): `games` games of the agent against the game's built-in players, seeds from
//! the first on, the agent changing seat every game where there are several, each game played by
//! [`crate::smoke_game`]. A game says only what is its own ([`SmokeGames`]): the setup of a smoke
//! game (every fault only losing the move, so that all of them are seen), its built-in players,
//! and what one game tells of the agent, in its own words.

use std::io::Write;
use std::time::{Duration, Instant};

use arena_sandbox::AgentModule;

use crate::info::{Smoke, SmokeOptions};
use crate::kept::Kept;
use crate::player::Native;
use crate::rules::Rules;
use crate::smoke_game;
use crate::started::Started;
use crate::terminal;
use crate::vocab::{AgentLog, SeatUsage};
use crate::words::won_or_lost;
use crate::Fault;

/// A game's part of its smoke games.
pub trait SmokeGames: Rules {
    /// What the game adds up over the games, for its closing lines.
    type Tally: Default;

    /// The line that heads the games.
    fn smoke_heading(&self) -> String;

    /// The setup of the smoke game of `seed` for `agent`.
    fn smoke_setup(&self, agent: &AgentModule, seed: u64, round_cap: u32) -> Self::Setup;

    /// The built-in players of the other seats, in seat order; by default none (the agent
    /// plays alone). The agent takes each seat in turn, game after game.
    fn smoke_others(&self) -> Vec<Native> {
        Vec::new()
    }

    /// Tells one game played to `out`: its line, the agent's faults (to `smoke`, which tells
    /// each once) and warnings, and what it logged if [`SmokeGame::logs`].
    fn smoke_tell(
        &self,
        game: &SmokeGame<'_, Self>,
        tally: &mut Self::Tally,
        smoke: &mut Smoke,
        out: &mut dyn Write,
    );

    /// The closing lines, after `games` games.
    fn smoke_close(&self, tally: Self::Tally, games: u32, out: &mut dyn Write);
}

/// One smoke game played.
pub struct SmokeGame<'a, R: Rules> {
    /// The game's number, from 1.
    pub number: u32,
    pub seed: u64,
    /// The agent's seat.
    pub seat: usize,
    pub agent: &'a AgentModule,
    pub kept: Kept<R>,
    /// What the agent used, loading included.
    pub usage: SeatUsage,
    pub took: Duration,
    /// Whether what the agent logged is told (the first game, when asked for).
    pub logs: bool,
}

impl<R: Rules> SmokeGame<'_, R> {
    /// `game N (seed S)`, after `game` (the game's title, or nothing): where a fault was seen.
    pub fn context(&self, game: &str) -> String {
        format!("{game}game {} (seed {})", self.number, self.seed)
    }

    /// How the game ended for the agent, of the game's `winner`: `won`, `lost`, or `drawn` (in
    /// the game's words) when no one won.
    pub fn result(&self, winner: Option<usize>, drawn: &'static str) -> &'static str {
        won_or_lost(winner, self.seat).unwrap_or(drawn)
    }

    /// The name of `seat` in a game against built-in players called `others`: the agent's,
    /// ready for a terminal, in its seat.
    pub fn name_or(&self, seat: usize, others: &str) -> String {
        if seat == self.seat {
            terminal::line(self.agent.name()).into_owned()
        } else {
            others.to_owned()
        }
    }

    /// The line of a game told by decision, but its end: `  game 1 (seed 1, seat 0): won:
    /// {ended}; 40 decisions, 1.2M fuel (50k at most)`, the figures in the game's words (`fuel`),
    /// the fuel of the agent's `decisions` added to `spent`.
    pub fn decisions_line(
        &self,
        spent: &mut Spent,
        fuel: fn(u64) -> String,
        (winner, ended): (Option<usize>, String),
        decisions: &[u64],
    ) -> String {
        let (used, max) = spent.add(decisions.iter().copied());
        format!(
            "  game {} (seed {}, seat {}): {}: {ended}; {} decisions, {} fuel ({} at most)",
            self.number,
            self.seed,
            self.seat,
            self.result(winner, "drawn"),
            decisions.len(),
            fuel(used),
            fuel(max)
        )
    }

    /// The agent's fault in a decision, at `at` (`game 1 (seed 1), turn 7`), to `smoke`.
    pub fn fault(&self, smoke: &mut Smoke, out: &mut dyn Write, at: &str, fault: &Fault) {
        let what = format!("{} fault: {}", fault.kind.name(), fault.detail);
        smoke.fault(out, at, &what);
    }

    /// The agent's fault while loading, if it had one, in `context`, to `smoke`.
    pub fn load_fault(&self, smoke: &mut Smoke, out: &mut dyn Write, context: &str, s: &Started) {
        for f in s.load_faults.iter().filter(|f| f.seat == self.seat) {
            let f = &f.fault;
            let what = format!("{} fault while loading: {}", f.kind.name(), f.detail);
            smoke.fault(out, context, &what);
        }
    }

    /// What the agent logged while loading (`turn 0`) and in each of `turns` (its number and its
    /// logs), when its logs are told.
    pub fn turn_logs<'l>(
        &self,
        out: &mut dyn Write,
        start: &'l [AgentLog],
        turns: impl Iterator<Item = (u32, &'l [AgentLog])>,
    ) {
        let start = start.iter().map(|l| (0, l));
        let turns = turns.flat_map(|(turn, logs)| logs.iter().map(move |l| (turn, l)));
        for (turn, l) in start.chain(turns).filter(|(_, l)| l.seat == self.seat) {
            self.log(out, &format!("turn {turn}"), &l.text);
        }
    }

    /// What the agent logged at `at` (`turn 7`), one line each (`    [log, turn 7] ...`), when
    /// its logs are told.
    pub fn log(&self, out: &mut dyn Write, at: &str, text: &str) {
        if self.logs {
            for line in terminal::log_lines(text) {
                let _ = writeln!(out, "    [log, {at}] {line}");
            }
        }
    }
}

/// The smoke games of `agent` in `rules`' game, told to `out` (whose errors are ignored: a
/// closed standard output must not change the verdict). An error is the host's own failure.
pub fn smoke_games<R: SmokeGames>(
    rules: &R,
    agent: &AgentModule,
    opts: &SmokeOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Smoke> {
    let _ = writeln!(out, "\n{}", rules.smoke_heading());
    let others = rules.smoke_others();
    let (mut smoke, mut tally) = (Smoke::default(), R::Tally::default());
    for g in 0..opts.games {
        let seed = opts.seed.wrapping_add(u64::from(g));
        let seat = g as usize % (others.len() + 1);
        let setup = rules.smoke_setup(agent, seed, opts.round_cap);
        let round_cap = rules.init(&setup, seat).round_cap;
        let started = Instant::now();
        let (kept, usage) = smoke_game(rules, &setup, agent, round_cap, seat, &others)?;
        let game = SmokeGame {
            number: g + 1,
            seed,
            seat,
            agent,
            kept,
            usage,
            took: started.elapsed(),
            logs: opts.logs && g == 0,
        };
        rules.smoke_tell(&game, &mut tally, &mut smoke, out);
    }
    rules.smoke_close(tally, opts.games, out);
    Ok(smoke)
}

/// What an agent's decisions used over the games (of a game that tells it by decision).
#[derive(Debug, Default)]
pub struct Spent {
    pub fuel: u64,
    pub decisions: u64,
    /// The largest decision.
    pub most: u64,
}

impl Spent {
    /// Adds the fuel of one game's decisions; returns their sum and the largest.
    pub fn add(&mut self, decisions: impl Iterator<Item = u64>) -> (u64, u64) {
        let (mut used, mut max) = (0, 0);
        for fuel in decisions {
            used += fuel;
            max = max.max(fuel);
            self.decisions += 1;
        }
        self.fuel += used;
        self.most = self.most.max(max);
        (used, max)
    }

    /// The closing line, the figures in the game's words (`fuel`): `  fuel per decision: 1,046
    /// on average, 2,000 at most, over 96 decisions`; nothing without a decision.
    pub fn close(&self, out: &mut dyn Write, fuel: fn(u64) -> String) {
        if let Some(mean) = self.fuel.checked_div(self.decisions) {
            let _ = writeln!(
                out,
                "  fuel per decision: {} on average, {} at most, over {} decisions",
                fuel(mean),
                fuel(self.most),
                self.decisions
            );
        }
    }
}
