//! A person at the terminal against agents (`arena play human AGENT --game lightcycles`, the
//! word `human` in any seat): the grid shown at every tick, the person's turn read as a key and
//! Enter (`l`, `s` or `r`, the arrow keys ←, ↑, →, or Enter alone to go straight), and the game
//! recorded as any game. End of input leaves the game (nothing is recorded).

use lightcycles_rules::Turn;

use super::narrate::result_line;
use super::rules::{Ask, Setup};
use super::{GameRecord, Lightcycles};
use crate::game::info::WithPerson;
use crate::game::person::{self, Person, Screen};
use crate::game::record::Writer;
use crate::game::{seat_players, Fault, FaultKind, Hosted, Played, Player, Question, Reply, Seat};
use crate::sandbox::Init;
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

/// The person's seat: shown the grid, asked a turn.
struct PersonSeat(Person);

/// Writes `text` to `screen` at once, as a block of the terminal.
fn say(screen: &Screen, text: &str) {
    person::say(screen, &terminal::block(text));
}

impl PersonSeat {
    fn say(&mut self, text: &str) {
        say(&self.0.screen, text);
    }
}

impl Player<Lightcycles> for PersonSeat {
    fn start(&mut self, _rules: &Lightcycles, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _rules: &Lightcycles, _q: &Question, ask: &Ask) -> Reply<Turn> {
        let state = &ask.observation.state;
        let me = state.cycle(ask.seat);
        self.say(&format!(
            "\ntick {} of at most {}:\n{state}you are {} at ({}, {}) heading {}: l left, s or Enter \
             straight, r right? ",
            ask.tick,
            state.tick_cap(),
            (b'A' + ask.seat as u8) as char,
            me.head.x,
            me.head.y,
            me.heading.name()
        ));
        loop {
            let Some(line) = self.0.read() else {
                let fault = Fault::new(FaultKind::BadAnswer, "the person left the game");
                return self.0.leave(fault);
            };
            if let Some(turn) = read_turn(&line) {
                return Reply {
                    answer: Ok(turn),
                    fuel: 0,
                };
            }
            self.say("type l (left), s (straight) or r (right), then Enter: ");
        }
    }

    fn left(&self) -> bool {
        self.0.left()
    }
}

/// Plays a game with the person in the seat that is `None` and agents in the others.
pub fn play(game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
    let WithPerson {
        host,
        table,
        seats,
        io,
        opts,
    } = game;
    let people: Vec<usize> = (0..seats.len()).filter(|&s| seats[s].is_none()).collect();
    let [me] = people[..] else {
        anyhow::bail!(
            "one person plays light cycles against agents: `arena play human AGENT --game \
             lightcycles` (the word `human` in one seat)"
        );
    };
    let setup = Setup::of(table, host)?;
    let agents: Vec<Seat<'_>> = seats.iter().flatten().cloned().collect();
    let mut players = seat_players(&Lightcycles, &agents, table)?;
    let mut person = PersonSeat(Person::at(io));
    let screen = person.0.screen.clone();
    person.say(&format!(
        "Light cycles on a {} × {} grid, {} players; you are {} ({}). Every cycle moves one cell \
         each tick; leave the grid or enter a wall (#) or any trail and you crash. Last one \
         riding wins.\n",
        setup.settings.width,
        setup.settings.height,
        setup.players,
        (b'A' + me as u8) as char,
        terminal::line(&opts.names[me])
    ));
    players.insert(me, Box::new(person));
    let hosted = Hosted(Lightcycles);
    let mut writer = Writer::new(&Lightcycles, &setup, &table.meta, true)?;
    let Some(ended) = hosted.play_into(table, &setup, &mut players, &mut writer)? else {
        return Ok(None);
    };
    let counted = players.iter().map(|p| p.usage()).collect();
    drop(players);
    let played = hosted.played(setup, ended, writer, counted)?;
    if let Some(game) = played.detail.downcast_ref::<GameRecord>() {
        let last = super::narrate::grids(&game.setup, &game.turns).last();
        let name = |s: usize| terminal::line(&opts.names[s]).into_owned();
        let grid = last.map(|g| g.to_string()).unwrap_or_default();
        say(
            &screen,
            &format!("\n{grid}Result: {}\n", result_line(&game.end, &name)),
        );
    }
    Ok(Some(played))
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
