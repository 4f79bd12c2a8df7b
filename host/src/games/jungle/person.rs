//! A person at the terminal against an agent (`arena play human AGENT`, or `arena play AGENT
//! human` to play second): Jungle's words for the game every person's game is
//! ([`crate::game::person_game`]). The board is drawn before each of their moves, moves are typed
//! in the notation (`c3c4`), and a move the rules refuse is refused with the reason (the rules
//! crate's `Illegal`) and asked again; `moves` lists the legal moves; `quit`, or the end of the
//! input, leaves the game. The game is told as it is played, and recorded as any game.

use jungle_rules::{Move, Position, Side};

use super::narrate::{board, final_board, fuel, ply_line, side_words};
use super::rules::{Ask, State};
use super::turn::{Ply, Setup};
use super::Jungle;
use crate::game::info::WithPerson;
use crate::game::person::{Asking, Typed};
use crate::game::person_game::{self, PersonGame, Telling};
use crate::game::words::Teller;
use crate::game::{Hosted, Kept, Played, Seat, Table};
use crate::sandbox::HostFailure;
use crate::terminal;

/// What the person is told and asked: the players' names (as shown, and whether their logs
/// are), and the person's side.
struct Words<'a> {
    tell: Teller<'a>,
    /// The person's side.
    me: Side,
}

impl Words<'_> {
    /// The name of the person's opponent.
    fn opponent(&self) -> String {
        self.tell.name(self.me.opponent().index())
    }
}

/// Said as the person leaves, for the reason `why`.
fn leaving(why: &str) -> String {
    format!("\n{why}: the game is stopped, unfinished.\n")
}

/// The question, asked again after every line that is no move.
fn prompt(pos: &Position) -> String {
    format!(
        "Move {}: you are the {}. Your move, such as {} (`moves` lists them, `quit` stops): ",
        pos.move_number(),
        side_words(pos.side_to_move()),
        pos.legal_moves()[0]
    )
}

/// The legal moves, with the piece of each: `g3g4 rat, g3g2 rat, …`.
fn move_list(pos: &Position) -> String {
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| match pos.piece_at(m.from) {
            Some(p) => format!("{m} {}", p.kind.name()),
            None => m.to_string(),
        })
        .collect();
    moves.join(", ")
}

impl Asking<Jungle> for Words<'_> {
    fn shown(&self, ask: &Ask) -> Result<String, String> {
        let obs = ask.observation;
        let Some(pos) = obs.position() else {
            return Err(leaving("the host sent a position the rules refuse"));
        };
        let last = obs.played().last().and_then(|p| p.mv);
        Ok(format!(
            "\n{}\n{}'s clock: {} fuel\n{}",
            board(&pos, last),
            self.opponent(),
            fuel(obs.clock.theirs),
            prompt(&pos)
        ))
    }

    fn typed(&self, ask: &Ask, line: &str) -> Typed<Move> {
        let Some(pos) = ask.observation.position() else {
            return Typed::Leave(leaving("the host sent a position the rules refuse"));
        };
        let text = line.trim();
        let again = |said: String| Typed::Again(said + &prompt(&pos));
        match text {
            "" => return again(String::new()),
            "quit" | "exit" | "q" => return Typed::Leave(leaving("you left")),
            "moves" | "?" | "help" => return again(format!("legal moves: {}\n", move_list(&pos))),
            _ => {}
        }
        let mv = match Move::parse(text) {
            Ok(mv) => mv,
            Err(e) => return again(format!("not a move: {e} (`{}`)\n", terminal::line(text))),
        };
        match pos.check_move(mv) {
            Ok(()) => Typed::Answer(mv),
            Err(why) => again(format!(
                "illegal: {mv}: {} ({})\n",
                why.message(),
                why.name()
            )),
        }
    }
}

impl Telling<Jungle> for Words<'_> {
    fn intro(&self, setup: &Setup) -> String {
        let opponent = &self.tell.names[self.me.opponent().index()];
        let mut text = format!(
            "Jungle: you are the {}, {opponent} the {}. Seed {}; {opponent}'s clock: {} fuel + {} \
             a move.\nPieces: r rat, c cat, d dog, w wolf, p leopard, t tiger, l lion, e elephant \
             (upper case: the first player); ~ water, ^ trap, @ den. Move one square (a lion or \
             tiger may jump a lake) by typing its squares, e.g. c3c4.\n\n{}\n",
            side_words(self.me),
            side_words(self.me.opponent()),
            setup.seed,
            fuel(setup.clock.start),
            fuel(setup.clock.increment),
            setup.start,
        );
        if setup.start.side_to_move() != self.me {
            text += &board(&setup.start, None);
        }
        text
    }

    fn started(&self, state: &State) -> String {
        let faults = state.started.load_faults.iter();
        faults
            .map(|f| {
                format!(
                    "{} failed to load: {} fault: {}\n",
                    self.tell.name(f.seat),
                    f.fault.kind.name(),
                    f.fault.detail
                )
            })
            .collect()
    }

    fn turn(&self, ply: &Ply) -> String {
        let mut text = format!("{}\n", ply_line(ply, &|seat| self.tell.name(seat)));
        self.tell.logs(&mut text, "        ", &ply.logs);
        text
    }

    fn result(&self, game: &Kept<Jungle>) -> String {
        format!("\n{}", final_board(game, &|seat| self.tell.name(seat)))
    }

    /// The agent's failure, as it is: the person's game is no league's.
    fn host_failure(
        &self,
        _table: &Table,
        failures: Vec<Option<HostFailure>>,
    ) -> anyhow::Result<()> {
        match failures.into_iter().flatten().next() {
            Some(failure) => Err(anyhow::Error::new(failure)),
            None => Ok(()),
        }
    }
}

/// A game of the person in the seat that is `None` against the agent in the other, told as it
/// is played, and its record; `None` when the person left before the end. Must run on a
/// big-stack thread.
pub fn play_person(game: WithPerson<'_>) -> anyhow::Result<Option<Played>> {
    let setup = Setup::of(game.table, game.host)?;
    let (seat, module) = match game.seats {
        [None, Some(Seat::Agent(m))] => (0, *m),
        [Some(Seat::Agent(m)), None] => (1, *m),
        _ => anyhow::bail!(
            "a person plays Jungle against one agent: `arena play human AGENT` (or `arena \
             play AGENT human` to play second)"
        ),
    };
    let agent = module.player_with_round_cap(setup.round_cap);
    let words = || Words {
        tell: Teller {
            names: game.opts.names,
            logs: game.opts.logs,
        },
        me: Side::from_index(seat).expect("seat 0 or 1"),
    };
    let (asking, telling) = (words(), words());
    let with_agent = PersonGame {
        table: game.table,
        setup,
        seat,
        agents: vec![Box::new(agent)],
    };
    person_game::play_person(&Hosted(Jungle), with_agent, game.io, asking, telling)
}
