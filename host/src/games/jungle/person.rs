//! A person at the terminal against an agent (`arena play human AGENT`, or `arena play AGENT
//! human` to play second): the game told as it is played, the person's moves read by
//! [`Human`].

use std::io::{BufRead, Write};
use std::ops::ControlFlow;

use super::game::{play_game_into, GameRecord, GameSink, LoadFault, Ply, Setup};
use super::human::{Human, Screen};
use super::narrate::{board, fuel, ply_line, result_line, side_words};
use super::player::JunglePlayer;
use crate::game::AgentLog;
use crate::sandbox::AgentModule;
use crate::terminal;

/// Tells the game on the screen as it is played, and keeps it.
struct Narrating {
    screen: Screen,
    names: Vec<String>,
    load_faults: Vec<LoadFault>,
    start_logs: Vec<AgentLog>,
    plies: Vec<Ply>,
    logs: bool,
}

impl Narrating {
    fn name(&self, seat: usize) -> String {
        terminal::line(&self.names[seat]).into_owned()
    }

    fn say(&self, text: &str) {
        let mut s = self.screen.borrow_mut();
        let _ = s.write_all(terminal::block(text).as_bytes());
        let _ = s.flush();
    }
}

impl GameSink for Narrating {
    fn start(&mut self, faults: &[LoadFault], logs: &[AgentLog]) -> ControlFlow<()> {
        for f in faults {
            self.say(&format!(
                "{} failed to load: {} fault: {}\n",
                self.name(f.seat),
                f.fault.kind.name(),
                f.fault.detail
            ));
        }
        self.load_faults = faults.to_vec();
        self.start_logs = logs.to_vec();
        ControlFlow::Continue(())
    }

    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
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
        self.plies.push(ply);
        ControlFlow::Continue(())
    }
}

/// A game of the person at `screen` and `input` (in `human_seat`) against `module`, told as it is
/// played; `None` when the person left before the end. Must run on a big-stack thread.
pub fn play_with_person(
    setup: &Setup,
    module: &AgentModule,
    names: &[String],
    human_seat: usize,
    input: Box<dyn BufRead>,
    screen: Screen,
    logs: bool,
) -> anyhow::Result<Option<GameRecord>> {
    let mut agent = module.player_with_round_cap(setup.round_cap);
    let mut human = Human::new(input, screen.clone(), &names[1 - human_seat]);
    let mut sink = Narrating {
        screen: screen.clone(),
        names: names.to_vec(),
        load_faults: Vec::new(),
        start_logs: Vec::new(),
        plies: Vec::new(),
        logs,
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
    let players: [&mut dyn JunglePlayer; 2] = if human_seat == 0 {
        [&mut human, &mut agent]
    } else {
        [&mut agent, &mut human]
    };
    let end = play_game_into(setup, players, &mut sink);
    if let Some(failure) = agent.host_failure() {
        return Err(anyhow::Error::new(failure.clone()));
    }
    let Some(end) = end else {
        return Ok(None);
    };
    let last = sink
        .plies
        .last()
        .and_then(|p| p.answer.filter(|_| p.fault.is_none()));
    let name = |seat: usize| sink.name(seat);
    sink.say(&format!(
        "\n{}\nResult: {}\n",
        board(&end.position, last),
        result_line(&end, &name)
    ));
    Ok(Some(GameRecord {
        setup: setup.clone(),
        load_faults: sink.load_faults,
        start_logs: sink.start_logs,
        plies: sink.plies,
        end,
    }))
}
