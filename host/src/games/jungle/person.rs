//! A person at the terminal against an agent (`arena play human AGENT`, or `arena play AGENT
//! human` to play second): the game told as it is played, the person's moves read by
//! [`Human`], and recorded as any game.

use std::ops::ControlFlow;

use jungle_rules::Move;

use super::human::Human;
use super::narrate::{board, fuel, ply_line, result_line, side_words};
use super::rules::State;
use super::turn::{Ply, Setup};
use super::Jungle;
use crate::game::info::WithPerson;
use crate::game::person::{self, Person, Screen};
use crate::game::record::Writer;
use crate::game::seed::SeededDice;
use crate::game::{play, Hosted, Played, Player, Seat, SeatUsage, Sink};
use crate::terminal;

/// Tells the game on the screen as it is played, and writes its record.
struct Narrating {
    screen: Screen,
    names: Vec<String>,
    logs: bool,
    writer: Writer<Jungle>,
    /// The last move played, for the board at the end.
    last: Option<Move>,
}

impl Narrating {
    fn name(&self, seat: usize) -> String {
        terminal::line(&self.names[seat]).into_owned()
    }

    fn say(&self, text: &str) {
        person::say(&self.screen, &terminal::block(text));
    }
}

impl Sink<Jungle> for Narrating {
    fn start(&mut self, rules: &Jungle, state: &State) -> ControlFlow<()> {
        for f in &state.started.load_faults {
            self.say(&format!(
                "{} failed to load: {} fault: {}\n",
                self.name(f.seat),
                f.fault.kind.name(),
                f.fault.detail
            ));
        }
        self.writer.start(rules, state)
    }

    fn turn(&mut self, rules: &Jungle, ply: Ply) -> ControlFlow<()> {
        let name = |seat: usize| self.name(seat);
        let mut text = format!("{}\n", ply_line(&ply, &name));
        if self.logs {
            for l in &ply.logs {
                for line in terminal::log_lines(&l.text) {
                    text.push_str(&format!("        [{} log] {line}\n", self.name(l.seat)));
                }
            }
        }
        self.say(&text);
        self.last = ply.answer.filter(|_| ply.fault.is_none());
        self.writer.turn(rules, ply)
    }
}

/// A game of the person in the seat that is `None` against the agent in the other, told as it
/// is played, and its record; `None` when the person left before the end. Must run on a
/// big-stack thread.
pub fn play_person(game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
    let setup = &Setup::of(game.table, game.host)?;
    let (human_seat, module) = match game.seats {
        [None, Some(Seat::Agent(m))] => (0, *m),
        [Some(Seat::Agent(m)), None] => (1, *m),
        _ => anyhow::bail!(
            "a person plays Jungle against one agent: `arena play human AGENT` (or `arena \
             play AGENT human` to play second)"
        ),
    };
    let names = game.opts.names;
    let mut agent = module.player_with_round_cap(setup.round_cap);
    let person = Person::at(game.io);
    let screen = person.screen.clone();
    let mut human = Human::new(person, &names[1 - human_seat]);
    let mut sink = Narrating {
        screen,
        names: names.to_vec(),
        logs: game.opts.logs,
        writer: Writer::new(&Jungle, setup, &game.table.meta, true)?,
        last: None,
    };
    let me = jungle_rules::Side::from_index(human_seat).expect("seat 0 or 1");
    sink.say(&format!(
        "Jungle: you are the {}, {} the {}. Seed {}; {}'s clock: {} fuel + {} a move.\n\
         Pieces: r rat, c cat, d dog, w wolf, p leopard, t tiger, l lion, e elephant (upper \
         case: the first player); ~ water, ^ trap, @ den. Move one square (a lion or tiger may \
         jump a lake) by typing its squares, e.g. c3c4.\n\n{}\n",
        side_words(me),
        names[1 - human_seat],
        side_words(me.opponent()),
        setup.seed,
        names[1 - human_seat],
        fuel(setup.clock.start),
        fuel(setup.clock.increment),
        setup.start,
    ));
    if setup.start.side_to_move() != me {
        sink.say(&board(&setup.start, None));
    }
    let ended = {
        let mut players: [&mut dyn Player<Jungle>; 2] = if human_seat == 0 {
            [&mut human, &mut agent]
        } else {
            [&mut agent, &mut human]
        };
        play(
            &Jungle,
            setup,
            &mut players,
            &mut SeededDice::new(setup.seed),
            &mut sink,
        )
    };
    if let Some(failure) = agent.host_failure() {
        return Err(anyhow::Error::new(failure.clone()));
    }
    let Some(ended) = ended else {
        return Ok(None);
    };
    let name = |seat: usize| sink.name(seat);
    sink.say(&format!(
        "\n{}\nResult: {}\n",
        board(&ended.end.position, sink.last),
        result_line(&ended.end, &name)
    ));
    let mut counted = vec![None, None];
    counted[1 - human_seat] = Some(SeatUsage::of(&agent));
    Hosted(Jungle)
        .played(setup.clone(), ended, sink.writer, counted)
        .map(Some)
}
