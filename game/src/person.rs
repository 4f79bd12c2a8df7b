//! A person at the terminal in a seat (`arena play human …`): what every game's person player
//! does alike. It reads the lines they type, writes to the screen it shares with the game's
//! narration, and leaves the game at the end of the input or when they say so (the game then
//! stops there, unfinished and unrecorded: [`Player::left`](crate::Player::left)).

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::rc::Rc;

use crate::info::Terminal;
use crate::player::Reply;
use crate::Fault;

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
