//! A state as a picture, one character a cell, one line a row from the top: `.` empty, `#` wall,
//! `a` to `f` the trail of seats 0 to 5, `A` to `F` the head of a living cycle. [`parse`] reads one
//! back with the headings given apart, so that tests and agents' tests can write positions by
//! hand.

use core::fmt;

use crate::cycle::Cycle;
use crate::geometry::{Dir, Pos};
use crate::grid::{Content, Grid};
use crate::settings::MAX_PLAYERS;
use crate::state::{State, StateError};

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grid = self.grid();
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let pos = Pos::new(x as u8, y as u8);
                let c = match grid.get(pos) {
                    Content::Empty => '.',
                    Content::Wall => '#',
                    Content::Trail(seat) => {
                        let cycle = self.cycle(seat);
                        let base = if cycle.is_alive() && cycle.head == pos {
                            b'A'
                        } else {
                            b'a'
                        };
                        (base + seat as u8) as char
                    }
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Why a picture is not a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// A character that is none of `.#a-fA-F`.
    Character(char),
    /// A row (from 0) is not as long as the first.
    Ragged(usize),
    /// The grid's sides are out of bounds.
    Size { width: usize, height: usize },
    /// A seat (from 0) has no head, or more than one; or a letter names a seat beyond the
    /// headings given.
    Head(usize),
    /// The state the picture describes is refused.
    State(StateError),
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::Character(c) => write!(f, "{c:?} is not a cell"),
            PictureError::Ragged(row) => write!(f, "row {row} is not as long as the first"),
            PictureError::Size { width, height } => {
                write!(f, "a grid of {width} x {height} cells is out of bounds")
            }
            PictureError::Head(seat) => write!(f, "seat {seat} needs exactly one head"),
            PictureError::State(e) => e.fmt(f),
        }
    }
}

/// The state a picture draws (see the module's header), with `headings.len()` players, every
/// cycle alive and heading as given, at tick 0 with the tick cap given. Blank lines and the
/// spaces around a row are ignored.
pub fn parse(text: &str, headings: &[Dir], tick_cap: u32) -> Result<State, PictureError> {
    let rows = || text.lines().map(str::trim).filter(|l| !l.is_empty());
    let width = rows().next().map_or(0, |r| r.chars().count());
    let height = rows().count();
    for (y, row) in rows().enumerate() {
        if row.chars().count() != width {
            return Err(PictureError::Ragged(y));
        }
    }
    let mut grid =
        Grid::new(width as u32, height as u32).ok_or(PictureError::Size { width, height })?;
    let players = headings.len().min(MAX_PLAYERS);
    let mut heads: [Option<Pos>; MAX_PLAYERS] = [None; MAX_PLAYERS];
    for (y, row) in rows().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let pos = Pos::new(x as u8, y as u8);
            let content = match c {
                '.' => Content::Empty,
                '#' => Content::Wall,
                'a'..='f' => Content::Trail(c as usize - 'a' as usize),
                'A'..='F' => {
                    let seat = c as usize - 'A' as usize;
                    if seat >= players || heads[seat].is_some() {
                        return Err(PictureError::Head(seat));
                    }
                    heads[seat] = Some(pos);
                    Content::Trail(seat)
                }
                other => return Err(PictureError::Character(other)),
            };
            grid.set(pos, content);
        }
    }
    let mut cycles = [Cycle::new(Pos::new(0, 0), Dir::North); MAX_PLAYERS];
    for seat in 0..players {
        let head = heads[seat].ok_or(PictureError::Head(seat))?;
        cycles[seat] = Cycle::new(head, headings[seat]);
    }
    State::from_parts(grid, &cycles[..players], 0, tick_cap).map_err(PictureError::State)
}
