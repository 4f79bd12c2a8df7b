//! An independent bookkeeping check of a game: moves every animal the events say moved, from the
//! starting position, and checks that nobody ever gives what it does not have, that the number of
//! each kind in the game never changes, and that the result is the final position. It does not
//! know the rules: the property tests check the rules' games with it.

use farm_rules::{Herd, Position, ANIMALS};

use crate::games::farm::{Event, GameRecord, Party, Setup};

/// A broken ledger: the line (as numbered in the record file) and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerError {
    pub line: usize,
    pub message: String,
}

/// Line of the start events in a record file; turn `i` (from 0) is on line `FIRST_TURN_LINE + i`.
pub const START_LINE: usize = 2;
pub const FIRST_TURN_LINE: usize = 3;

pub fn check_ledger(record: &GameRecord) -> Result<(), LedgerError> {
    let mut ledger = Ledger::new(&record.setup);
    ledger.line(START_LINE, &record.end.start_events)?;
    for (i, turn) in record.turns.iter().enumerate() {
        ledger.line(FIRST_TURN_LINE + i, &turn.events)?;
    }
    ledger.finish(
        FIRST_TURN_LINE + record.turns.len(),
        &record.end.final_position,
    )
}

/// The books of one game, kept line by line as a record is read.
pub struct Ledger {
    pos: Position,
    /// Animals of each kind in the game, which never changes.
    totals: Herd,
}

impl Ledger {
    /// The books at the start of a game with `setup`.
    pub fn new(setup: &Setup) -> Ledger {
        let pos = setup.initial_position();
        Ledger {
            totals: pos.totals(),
            pos,
        }
    }

    /// Moves the animals of one line's `events` (the line numbered `line` in the file).
    pub fn line(&mut self, line: usize, events: &[Event]) -> Result<(), LedgerError> {
        for (i, e) in events.iter().enumerate() {
            apply(&mut self.pos, e).map_err(|m| LedgerError {
                line,
                message: format!("events[{i}]: {m}"),
            })?;
            if self.pos.totals() != self.totals {
                return Err(LedgerError {
                    line,
                    message: format!(
                        "events[{i}]: animals are not conserved: the game holds {}, started with {}",
                        show(&self.pos.totals()),
                        show(&self.totals)
                    ),
                });
            }
        }
        Ok(())
    }

    /// Checks that the events leave the recorded final position (on line `end_line`).
    pub fn finish(&self, end_line: usize, fin: &Position) -> Result<(), LedgerError> {
        let pos = &self.pos;
        for seat in 0..pos.players {
            if pos.herds[seat] != fin.herds[seat] {
                return Err(LedgerError {
                    line: end_line,
                    message: format!(
                        "final.herds[{seat}]: the events leave {}, found {}",
                        show(&pos.herds[seat]),
                        show(&fin.herds[seat])
                    ),
                });
            }
        }
        if pos.stock != fin.stock {
            return Err(LedgerError {
                line: end_line,
                message: format!(
                    "final.stock: the events leave {}, found {}",
                    show(&pos.stock),
                    show(&fin.stock)
                ),
            });
        }
        Ok(())
    }
}

fn apply(pos: &mut Position, e: &Event) -> Result<(), String> {
    match *e {
        Event::Transfer { from, to, animals } => {
            take(pos, from, &animals)?;
            *slot(pos, to) = slot(pos, to).plus(&animals);
        }
        Event::Wolf { seat, lost } | Event::Fox { seat, lost } => {
            take(pos, Party::Player(seat), &lost)?;
            pos.stock = pos.stock.plus(&lost);
        }
        Event::Bred { seat, gained } => {
            take(pos, Party::Stock, &gained)?;
            pos.herds[seat] = pos.herds[seat].plus(&gained);
        }
        _ => {}
    }
    Ok(())
}

fn slot(pos: &mut Position, party: Party) -> &mut Herd {
    match party {
        Party::Stock => &mut pos.stock,
        Party::Player(s) => &mut pos.herds[s],
    }
}

fn take(pos: &mut Position, party: Party, animals: &Herd) -> Result<(), String> {
    let from = slot(pos, party);
    if !from.contains(animals) {
        let who = match party {
            Party::Stock => "the stock".to_string(),
            Party::Player(s) => format!("seat {s}"),
        };
        return Err(format!(
            "{who} gives {} but holds only {}",
            show(animals),
            show(from)
        ));
    }
    *from = from.minus(animals);
    Ok(())
}

/// `{rabbit: 3, sheep: 1}` style, for messages.
pub fn show(h: &Herd) -> String {
    let parts: Vec<String> = ANIMALS
        .iter()
        .filter(|&&a| h.get(a) > 0)
        .map(|&a| format!("{} {}", h.get(a), a.name()))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}
