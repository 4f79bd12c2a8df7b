//! A person at the terminal in a Jungle seat (`arena play human AGENT`): the board is drawn
//! before each of their moves, moves are typed in the notation (`c3c4`), and a move the rules
//! refuse is refused with the reason (the rules crate's `Illegal`) and asked again. `moves`
//! lists the legal moves; `quit`, or the end of the input, leaves the game.

use jungle_rules::{Move, Position};

use super::narrate::{board, fuel, piece_name, side_words};
use super::rules::Ask;
use super::Jungle;
use crate::game::person::Person;
use crate::game::{Fault, FaultKind, Player, Question, Reply};
use crate::sandbox::Init;
use crate::terminal;

/// A person playing through `input` and `screen`.
pub struct Human {
    person: Person,
    /// The opponent's name, as shown.
    opponent: String,
}

impl Human {
    pub fn new(person: Person, opponent: &str) -> Human {
        Human {
            person,
            opponent: terminal::line(opponent).into_owned(),
        }
    }

    fn say(&self, text: &str) {
        self.person.say(text);
    }

    /// The next line typed, trimmed; `None` at the end of the input.
    fn read(&mut self) -> Option<String> {
        self.person.read().map(|line| line.trim().to_owned())
    }

    fn leave(&mut self, why: &str) -> Reply<Move> {
        self.say(&format!("\n{why}: the game is stopped, unfinished.\n"));
        let fault = Fault::new(FaultKind::LoadFailed, "the player left");
        self.person.leave(fault)
    }
}

/// The legal moves, with the piece of each: `g3g4 rat, g3g2 rat, …`.
fn move_list(pos: &Position) -> String {
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| match pos.piece_at(m.from) {
            Some(p) => format!("{m} {}", piece_name(p)),
            None => m.to_string(),
        })
        .collect();
    moves.join(", ")
}

impl Player<Jungle> for Human {
    fn start(&mut self, _rules: &Jungle, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _rules: &Jungle, _q: &Question, ask: &Ask) -> Reply<Move> {
        let obs = ask.observation;
        let Some(pos) = obs.position() else {
            return self.leave("the host sent a position the rules refuse");
        };
        let last = obs.played().last().and_then(|p| p.mv);
        self.say(&format!(
            "\n{}\n{}'s clock: {} fuel\n",
            board(&pos, last),
            self.opponent,
            fuel(obs.clock.theirs)
        ));
        loop {
            self.say(&format!(
                "Move {}: you are the {}. Your move, such as {} (`moves` lists them, `quit` \
                 stops): ",
                pos.move_number(),
                side_words(pos.side_to_move()),
                pos.legal_moves()[0]
            ));
            let Some(text) = self.read() else {
                return self.leave("end of input");
            };
            match text.as_str() {
                "" => continue,
                "quit" | "exit" | "q" => return self.leave("you left"),
                "moves" | "?" | "help" => {
                    self.say(&format!("legal moves: {}\n", move_list(&pos)));
                    continue;
                }
                _ => {}
            }
            let mv = match Move::parse(&text) {
                Ok(mv) => mv,
                Err(e) => {
                    self.say(&format!("not a move: {e} (`{}`)\n", terminal::line(&text)));
                    continue;
                }
            };
            match pos.check_move(mv) {
                Ok(()) => {
                    return Reply {
                        answer: Ok(mv),
                        fuel: 0,
                    }
                }
                Err(why) => self.say(&format!(
                    "illegal: {mv}: {} ({})\n",
                    why.message(),
                    why.name()
                )),
            }
        }
    }

    fn left(&self) -> bool {
        self.person.left()
    }
}
