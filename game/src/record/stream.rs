//! What streamed verification shares between games. The game loop plays the recorded game again;
//! the replay's players ask [`TurnLines`] for the recorded decisions of the turn being played,
//! which reads that turn's line then (and not before); once the turn is played, its replayed line
//! is compared with the recorded one, which is then dropped. Memory holds one line and the game.

use serde_json::Value;

use super::diff::first_difference;
use super::lines::{Line, RecordReader};
use super::verify::{fail, VerifyError};

/// What a game makes of one of its turn lines.
type ParseTurn<'r, T> = Box<dyn Fn(&Line) -> Result<T, VerifyError> + 'r>;

/// Reads a record's turn lines as the replay reaches them. `T` is what a game makes of a turn
/// line (the decisions its replay players hand back).
pub struct TurnLines<'r, T> {
    reader: RecordReader<'r>,
    parse: ParseTurn<'r, T>,
    /// Turn lines read so far.
    read: u32,
    /// Turn lines compared with the replay's so far.
    checked: u32,
    /// The turn line read last and what it says; `None` once a read found no turn.
    current: Option<(Line, T)>,
    /// The first problem met; the replay stops at it.
    error: Option<VerifyError>,
}

impl<'r, T> TurnLines<'r, T> {
    /// Turn lines of `reader`, whose setup and start lines have been read.
    pub fn new(
        reader: RecordReader<'r>,
        parse: impl Fn(&Line) -> Result<T, VerifyError> + 'r,
    ) -> TurnLines<'r, T> {
        TurnLines {
            reader,
            parse: Box::new(parse),
            read: 0,
            checked: 0,
            current: None,
            error: None,
        }
    }

    /// What the record says of the turn the game is playing (the one after the last compared):
    /// reads its line if it is not read yet. `None` when the record has no such turn line (the
    /// reason is kept for [`TurnLines::error`]).
    pub fn playing(&mut self) -> Option<&mut T> {
        self.turn(self.checked + 1)
    }

    /// Compares the replay's next turn (the one being played), as the writer writes it, with the
    /// record's line; on a difference (or an earlier problem) keeps the error and returns it.
    /// `hint` adds to a difference's message from its path.
    pub fn check(
        &mut self,
        replayed: &Value,
        hint: impl Fn(&str) -> String,
    ) -> Result<(), VerifyError> {
        self.checked += 1;
        self.check_turn(self.checked, replayed, hint)
    }

    /// What the record says of turn `n` (from 1), the turn the game is playing: reads lines up
    /// to it. `None` when the record has no such turn line (the reason is kept for
    /// [`TurnLines::error`]).
    pub fn turn(&mut self, n: u32) -> Option<&mut T> {
        while self.read < n && self.error.is_none() {
            self.current = None;
            match self.next_turn(n) {
                Ok(turn) => {
                    self.read += 1;
                    self.current = Some(turn);
                }
                Err(e) => self.error = Some(e),
            }
        }
        match &mut self.current {
            Some((_, t)) if self.read == n => Some(t),
            _ => None,
        }
    }

    /// What the record says of the turn being played (the last one read), if anything.
    pub fn current(&mut self) -> Option<&mut T> {
        self.current.as_mut().map(|(_, t)| t)
    }

    fn next_turn(&mut self, n: u32) -> Result<(Line, T), VerifyError> {
        let line = self.reader.next_before_end()?;
        match line.kind() {
            Some("turn") => {
                let parsed = (self.parse)(&line)?;
                Ok((line, parsed))
            }
            Some("end") => Err(fail(
                line.number,
                format!(
                    "type: expected \"turn\", found \"end\": the game goes on with turn {n}, \
                     which the record does not have"
                ),
            )),
            _ => Err(fail(
                line.number,
                format!(
                    "type: expected \"turn\" or \"end\", found {}",
                    line.kind_shown()
                ),
            )),
        }
    }

    /// Compares the replay's turn `n`, as the writer writes it, with the record's line; on a
    /// difference (or an earlier problem) keeps the error and returns it. `hint` adds to a
    /// difference's message from its path.
    pub fn check_turn(
        &mut self,
        n: u32,
        replayed: &Value,
        hint: impl Fn(&str) -> String,
    ) -> Result<(), VerifyError> {
        self.turn(n);
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let Some((line, _)) = &self.current else {
            unreachable!("turn {n} was read or an error kept")
        };
        compare_line(line, replayed, false, hint).inspect_err(|e| self.error = Some(e.clone()))
    }

    /// The problem that stopped the replay, if any.
    pub fn error(&self) -> Option<&VerifyError> {
        self.error.as_ref()
    }

    /// After the replayed game ended: the end line, which must come next. `ended` says how the
    /// replay ended, for the message when the record goes on.
    pub fn end_line(
        mut self,
        ended: impl FnOnce() -> String,
    ) -> Result<(Line, RecordReader<'r>), VerifyError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let line = self.reader.next_before_end()?;
        match line.kind() {
            Some("end") => Ok((line, self.reader)),
            Some("turn") => Err(fail(
                line.number,
                format!(
                    "type: expected \"end\", found \"turn\": the replayed game ended after turn {} ({})",
                    self.read,
                    ended()
                ),
            )),
            _ => Err(fail(
                line.number,
                format!("type: expected \"end\", found {}", line.kind_shown()),
            )),
        }
    }
}

/// Compares a recorded line with the replay's (`expected`, as the writer writes it) as JSON
/// values; the end line's digest aside when `is_end` (it is checked against the file's bytes).
/// The first difference is an error naming its line and field; `hint` adds to it, from the
/// field's path.
pub fn compare_line(
    found: &Line,
    expected: &Value,
    is_end: bool,
    hint: impl Fn(&str) -> String,
) -> Result<(), VerifyError> {
    let difference = if is_end {
        let strip = |v: &Value| {
            let mut v = v.clone();
            if let Value::Object(m) = &mut v {
                m.remove("digest");
            }
            v
        };
        first_difference(&strip(expected), &strip(&found.value))
    } else {
        first_difference(expected, &found.value)
    };
    match difference {
        None => Ok(()),
        Some(d) => {
            let hint = hint(&d.path);
            Err(fail(found.number, format!("{d}{hint}")))
        }
    }
}

/// The digest check of an end line: `found` is its `digest` field.
pub fn check_digest(reader: &RecordReader, end: &Line, found: &str) -> Result<(), VerifyError> {
    let digest = reader.digest();
    if digest == found {
        Ok(())
    } else {
        Err(fail(
            end.number,
            format!(
                "digest: expected {digest}, found {}",
                Value::String(found.to_owned())
            ),
        ))
    }
}

/// A replayed line as the writer writes it, as a JSON value.
pub fn to_value(line: &impl serde::Serialize) -> Result<Value, VerifyError> {
    serde_json::to_value(line).map_err(|e| fail(0, format!("cannot write the replayed game: {e}")))
}
