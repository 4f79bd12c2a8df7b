//! A person at the terminal against agents (`arena play human AGENT --game lightcycles`, the
//! word `human` in any seat): light cycles' words for the game every person's game is
//! ([`crate::game::person_game`]). The grid is shown at every tick, the person's turn read as a
//! key and Enter (`l`, `s` or `r`, the arrow keys ←, ↑, →, or Enter alone to go straight), and
//! the game recorded as any game. End of input leaves the game (nothing is recorded).

use lightcycles_rules::Turn;

use super::narrate::result_line;
use super::rules::{Ask, Setup};
use super::{GameRecord, Lightcycles};
use crate::game::info::WithPerson;
use crate::game::person::{Asking, Typed};
use crate::game::person_game::{self, PersonGame, Telling};
use crate::game::{seat_players, Hosted, Played, Seat};
use crate::terminal;

/// What a line typed means: a turn, or `None` for a line that is none.
pub fn read_turn(line: &str) -> Option<Turn> {
    match line.trim_end_matches(['\r', '\n']).trim() {
        "l" | "L" | "left" | "\x1b[D" => Some(Turn::Left),
        "" | "s" | "S" | "straight" | "\x1b[A" => Some(Turn::Straight),
        "r" | "R" | "right" | "\x1b[C" => Some(Turn::Right),
        _ => None,
    }
}

/// What the person is told and asked: the players' names, and the person's seat.
struct Words<'a> {
    names: &'a [String],
    me: usize,
}

impl Asking<Lightcycles> for Words<'_> {
    fn shown(&self, ask: &Ask) -> Result<String, String> {
        let state = &ask.observation.state;
        let me = state.cycle(ask.seat);
        let text = format!(
            "\ntick {} of at most {}:\n{state}you are {} at ({}, {}) heading {}: l left, s or Enter \
             straight, r right? ",
            ask.tick,
            state.tick_cap(),
            (b'A' + ask.seat as u8) as char,
            me.head.x,
            me.head.y,
            me.heading.name()
        );
        Ok(terminal::block(&text).into_owned())
    }

    fn typed(&self, _ask: &Ask, line: &str) -> Typed<Turn> {
        match read_turn(line) {
            Some(turn) => Typed::Answer(turn),
            None => Typed::Again("type l (left), s (straight) or r (right), then Enter: ".into()),
        }
    }
}

impl Telling<Lightcycles> for Words<'_> {
    fn intro(&self, setup: &Setup) -> String {
        format!(
            "Light cycles on a {} × {} grid, {} players; you are {} ({}). Every cycle moves one \
             cell each tick; leave the grid or enter a wall (#) or any trail and you crash. Last \
             one riding wins.\n",
            setup.settings.width,
            setup.settings.height,
            setup.players,
            (b'A' + self.me as u8) as char,
            terminal::line(&self.names[self.me])
        )
    }

    fn result(&self, game: &GameRecord) -> String {
        let last = super::narrate::grids(&game.setup, &game.turns).last();
        let name = |s: usize| terminal::line(&self.names[s]).into_owned();
        let grid = last.map(|g| g.to_string()).unwrap_or_default();
        format!("\n{grid}Result: {}\n", result_line(&game.end, &name))
    }
}

/// Plays a game with the person in the seat that is `None` and agents in the others.
pub fn play(game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
    let seats = game.seats;
    let people: Vec<usize> = (0..seats.len()).filter(|&s| seats[s].is_none()).collect();
    let [me] = people[..] else {
        anyhow::bail!(
            "one person plays light cycles against agents: `arena play human AGENT --game \
             lightcycles` (the word `human` in one seat)"
        );
    };
    let agents: Vec<Seat<'_>> = seats.iter().flatten().cloned().collect();
    let with_agents = PersonGame {
        table: game.table,
        setup: Setup::of(game.table, game.host)?,
        seat: me,
        agents: seat_players(&Lightcycles, &agents, game.table)?,
    };
    let words = || Words {
        names: game.opts.names,
        me,
    };
    person_game::play_person(&Hosted(Lightcycles), with_agents, game.io, words(), words())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_arrows_are_turns() {
        for (line, turn) in [
            ("l\n", Some(Turn::Left)),
            ("\x1b[D\n", Some(Turn::Left)),
            ("\n", Some(Turn::Straight)),
            ("\x1b[A\r\n", Some(Turn::Straight)),
            ("R\n", Some(Turn::Right)),
            ("x\n", None),
        ] {
            assert_eq!(read_turn(line), turn, "{line:?}");
        }
    }
}
