//! `arena play`'s narration of a light cycles game: the grid drawn every few ticks (every tick
//! with `--boards`), each death as it happens with its cause, faults and logs under their tick,
//! and the places at the end. The grids are the rules crate's pictures, replayed from the setup
//! with the answers the rules played (the record's turns keep no grids).

use std::fmt::Write;

use lightcycles_rules::{Answers, State as Grid, MAX_PLAYERS};

use super::rules::{GameEnd, Setup, TickPlayed};
use super::GameRecord;
use crate::game::Outcome;
use crate::terminal;

/// Ticks between two grids drawn.
pub const GRID_EVERY: u32 = 10;

/// Fuel for people: `1.5M`, `12.3k`, `800`.
pub fn fuel(n: u64) -> String {
    match n {
        1_000_000.. => format!("{:.1}M", n as f64 / 1e6),
        1_000.. => format!("{:.1}k", n as f64 / 1e3),
        _ => n.to_string(),
    }
}

/// The grids of a game: the start, then the state after each tick.
pub fn grids<'a, I: IntoIterator<Item = &'a TickPlayed>>(
    setup: &Setup,
    ticks: I,
) -> impl Iterator<Item = Grid> + use<'a, I> {
    let mut state = setup.start().expect("a played game's setup starts");
    let start = std::iter::once(state);
    start.chain(ticks.into_iter().map(move |t| {
        let mut answers: Answers = [None; MAX_PLAYERS];
        for m in &t.moves {
            answers[m.seat] = Some(m.played);
        }
        state.apply(&answers).expect("a played tick plays again");
        state
    }))
}

/// One line on how the game ended: `Ada wins (last_alive, tick 57)`.
pub fn result_line(end: &GameEnd, name: &dyn Fn(usize) -> String) -> String {
    match end.outcome {
        Outcome::Win { seat, .. } => format!(
            "{} wins ({}, tick {})",
            name(seat),
            end.end.name(),
            end.ticks
        ),
        _ => {
            let first: Vec<String> = (0..end.places.len())
                .filter(|&s| end.places[s] == 1)
                .map(name)
                .collect();
            format!(
                "{} share first place ({}, tick {})",
                first.join(" and "),
                end.end.name(),
                end.ticks
            )
        }
    }
}

/// The game as text.
pub fn narrate(names: &[String], game: &GameRecord, logs: bool, every_tick: bool) -> String {
    let name = |s: usize| {
        format!(
            "{} ({})",
            terminal::line(&names[s]),
            (b'A' + s as u8) as char
        )
    };
    let mut out = String::new();
    let setup = &game.setup;
    let _ = writeln!(
        out,
        "Light cycles, {} × {} grid, {} players, {}% walls (seed {}), tick cap {}",
        setup.settings.width,
        setup.settings.height,
        setup.players,
        setup.settings.walls,
        setup.seed,
        setup.round_cap
    );
    for f in &game.end.started.load_faults {
        let _ = writeln!(
            out,
            "{} failed to load ({}): out at the first tick",
            name(f.seat),
            terminal::line(&f.fault.detail)
        );
    }
    let last = game.turns.len();
    for (i, state) in grids(setup, &game.turns).enumerate() {
        if let Some(t) = i.checked_sub(1).map(|i| &game.turns[i]) {
            for m in &t.moves {
                if let Some(f) = &m.fault {
                    let _ = writeln!(
                        out,
                        "tick {}: {} fault ({}): {}",
                        t.tick,
                        name(m.seat),
                        f.fault.kind.name(),
                        terminal::line(&f.fault.detail)
                    );
                }
                if let Some(cause) = m.death {
                    let _ = writeln!(
                        out,
                        "tick {}: {} died ({}) at ({}, {})",
                        t.tick,
                        name(m.seat),
                        cause.name(),
                        m.head.x,
                        m.head.y
                    );
                }
                for l in m.logs.iter().filter(|_| logs) {
                    for line in terminal::log_lines(&l.text) {
                        let _ = writeln!(out, "  [log {}] {line}", name(m.seat));
                    }
                }
            }
        }
        if every_tick || i == last || (i as u32).is_multiple_of(GRID_EVERY) {
            let _ = writeln!(out, "\ntick {}:\n{state}", state.tick());
        }
    }
    let end = &game.end;
    let _ = writeln!(out, "{}", result_line(end, &name));
    for seat in 0..end.places.len() {
        let _ = writeln!(
            out,
            "  place {}: {}, fuel {}",
            end.places[seat],
            name(seat),
            fuel(end.fuel[seat])
        );
    }
    out
}
