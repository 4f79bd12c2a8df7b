//! A person at the terminal in a seat (`arena play human …`): what every game's person player
//! does alike. It reads the lines they type, writes to the screen it shares with the game's
//! narration, and leaves the game at the end of the input or when they say so (the game then
//! stops there, unfinished and unrecorded: [`Player::left`](crate::Player::left)). Its seat
//! ([`PersonSeat`]) is the same in every game; the game gives only its words ([`Asking`]): how a
//! question is shown and what a line typed means.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::rc::Rc;

use arena_sandbox::Init;

use crate::info::Terminal;
use crate::player::{Player, Reply};
use crate::rules::{Question, Rules};
use crate::{Fault, FaultKind};

/// The terminal's screen, shared by a person's seat and the narration of the game.
pub type Screen = Rc<RefCell<Box<dyn Write>>>;

/// Writes `text` to `screen` at once.
pub fn say(screen: &Screen, text: &str) {
    let mut s = screen.borrow_mut();
    let _ = s.write_all(text.as_bytes());
    let _ = s.flush();
}

/// A person at the terminal: what they type, the screen, and whether they left.
pub struct Person {
    input: Box<dyn BufRead>,
    pub screen: Screen,
    left: bool,
}

impl Person {
    pub fn new(input: Box<dyn BufRead>, screen: Screen) -> Person {
        Person {
            input,
            screen,
            left: false,
        }
    }

    /// The person at `terminal`, whose screen is then shared.
    pub fn at(terminal: Terminal) -> Person {
        Person::new(terminal.input, Rc::new(RefCell::new(terminal.screen)))
    }

    /// Writes `text` to the screen at once.
    pub fn say(&self, text: &str) {
        say(&self.screen, text);
    }

    /// The next line typed, as typed; `None` at the end of the input (or when it cannot be read).
    pub fn read(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }

    /// The person leaves the game: the reply of the decision they did not make, with `fault`.
    pub fn leave<A>(&mut self, fault: Fault) -> Reply<A> {
        self.left = true;
        Reply {
            answer: Err(fault),
            fuel: 0,
        }
    }

    /// True once the person has left.
    pub fn left(&self) -> bool {
        self.left
    }
}

/// What a line the person typed means to the game that asked.
pub enum Typed<A> {
    /// Their decision.
    Answer(A),
    /// No decision: this is said (why, and the question again), and the next line is read.
    Again(String),
    /// They leave the game: this is said.
    Leave(String),
}

/// A game's words to a person asked a decision; the text is written as it is (a game shows
/// through [`crate::terminal`] what it did not write itself).
pub trait Asking<R: Rules> {
    /// What the person is shown when asked (the game as they see it, and the question); `Err`:
    /// a question the words cannot show, and what is said as the person leaves instead.
    fn shown(&self, obs: &R::Observation<'_>) -> Result<String, String>;

    /// What `line` (as typed, with its line end) means.
    fn typed(&self, obs: &R::Observation<'_>, line: &str) -> Typed<R::Answer>;

    /// What is said when the input ends before a decision: by default the same words in every
    /// game, on a line of their own (the prompt before them waits on its line).
    fn input_ended(&self) -> String {
        "\nend of input: the game is stopped, unfinished.\n".to_string()
    }
}

/// A person's seat: each question shown, lines read until one is a decision, the game left at
/// the end of the input or when the words say so. The same in every game, so that a person
/// meets the same terminal whatever they play.
pub struct PersonSeat<W> {
    person: Person,
    words: W,
}

impl<W> PersonSeat<W> {
    pub fn new(person: Person, words: W) -> PersonSeat<W> {
        PersonSeat { person, words }
    }

    fn leave<A>(&mut self, said: &str) -> Reply<A> {
        self.person.say(said);
        // Never seen: the loop stops the game at a player that left, before it reads the reply.
        let fault = Fault::new(FaultKind::BadAnswer, "the person left the game");
        self.person.leave(fault)
    }
}

impl<R: Rules, W: Asking<R>> Player<R> for PersonSeat<W> {
    fn start(&mut self, _rules: &R, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _rules: &R, _q: &Question, obs: &R::Observation<'_>) -> Reply<R::Answer> {
        match self.words.shown(obs) {
            Ok(shown) => self.person.say(&shown),
            Err(said) => return self.leave(&said),
        }
        loop {
            let Some(line) = self.person.read() else {
                let said = self.words.input_ended();
                return self.leave(&said);
            };
            match self.words.typed(obs, &line) {
                Typed::Answer(answer) => {
                    return Reply {
                        answer: Ok(answer),
                        fuel: 0,
                    }
                }
                Typed::Again(said) => self.person.say(&said),
                Typed::Leave(said) => return self.leave(&said),
            }
        }
    }

    fn left(&self) -> bool {
        self.person.left()
    }
}
