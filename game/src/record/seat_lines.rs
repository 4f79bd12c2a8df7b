//! Parts of a record's lines that games may share rather than each declare again: the seats of
//! the setup line, the `start` line (agents that failed to load, what agents logged while
//! loading), an agent's log entry, and the end line's digest. A game's record module puts its own
//! fields around them (the oldest game's records keep types of their own, whose bytes must not
//! change).

use serde::{Deserialize, Serialize};

use super::jsonl::{FaultJson, LogsJson};
use super::{fail, VerifyError};
use crate::{AgentLog, Fault};

/// A seat of the setup line, as read.
#[derive(Deserialize)]
pub struct PlayerJson {
    pub seat: usize,
    pub name: String,
    pub agent: Option<String>,
}

/// One entry of an agent's log, as read.
#[derive(Deserialize)]
pub struct LogJson {
    pub seat: usize,
    pub text: String,
}

/// The start line, as read.
#[derive(Deserialize)]
pub struct StartJson {
    pub faults: Vec<SeatFaultJson>,
    #[serde(default)]
    pub logs: Vec<LogJson>,
}

impl StartJson {
    /// Each of `seats` seats' fault while loading and what it logged, in seat order; a fault or a
    /// log of a seat that does not exist is refused (the start line is line 2).
    pub fn per_seat(self, seats: usize) -> Result<Vec<SeatStart>, VerifyError> {
        let mut out: Vec<SeatStart> = (0..seats).map(|_| SeatStart::default()).collect();
        for f in self.faults {
            let s = out.get_mut(f.seat).ok_or_else(|| {
                fail(
                    2,
                    format!("a fault of seat {}, which does not exist", f.seat),
                )
            })?;
            s.load = Some(f.fault);
        }
        for log in self.logs {
            let s = out.get_mut(log.seat).ok_or_else(|| {
                fail(
                    2,
                    format!("a log of seat {}, which does not exist", log.seat),
                )
            })?;
            s.log = Some(log.text);
        }
        Ok(out)
    }
}

/// A seat's part of the start line: its fault while loading, and what it logged.
#[derive(Default)]
pub struct SeatStart {
    pub load: Option<Fault>,
    pub log: Option<String>,
}

/// An agent that failed to load, as read.
#[derive(Deserialize)]
pub struct SeatFaultJson {
    pub seat: usize,
    pub fault: Fault,
}

/// The end line's digest, as read (each game reads its other fields by comparing the line).
#[derive(Deserialize)]
pub struct EndJson {
    pub digest: String,
}

/// The start line, as written: fields in sorted order; `kind` is the `type` field, which sorts
/// last.
#[derive(Serialize)]
pub struct StartLine<'a> {
    faults: Vec<SeatFault<'a>>,
    #[serde(skip_serializing_if = "LogsJson::is_empty")]
    logs: LogsJson<'a>,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// An agent that failed to load, as written.
#[derive(Serialize)]
struct SeatFault<'a> {
    fault: FaultJson<'a>,
    seat: usize,
}

impl<'a> StartLine<'a> {
    /// The start line of agents that failed to load, `(seat, fault)`, and of what agents logged
    /// loading.
    pub fn new(
        faults: impl IntoIterator<Item = (usize, &'a Fault)>,
        logs: &'a [AgentLog],
    ) -> StartLine<'a> {
        let faults = faults.into_iter();
        StartLine {
            faults: faults
                .map(|(seat, f)| SeatFault {
                    fault: FaultJson(f),
                    seat,
                })
                .collect(),
            logs: LogsJson(logs),
            kind: "start",
        }
    }
}

impl From<SeatStart> for crate::Loaded {
    fn from(s: SeatStart) -> crate::Loaded {
        crate::Loaded {
            fault: s.load,
            log: s.log,
        }
    }
}
