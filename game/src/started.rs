//! How the seats' agents started a game: the faults of those that failed to load (each such seat
//! forfeits, whatever the policy) and what agents logged while loading. Every game keeps the same
//! two lists from the loop's [`Loaded`], writes them as its record's `start` line and tells them
//! in its narration: made once here from what the loop hands to [`crate::Rules::start`].

use crate::record::seat_lines::StartLine;
use crate::{AgentLog, Fault, Loaded};

/// A fault while an agent was loaded for the game (always a forfeit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadFault {
    pub seat: usize,
    pub fault: Fault,
}

/// The start of a game: agents that failed to load, and what agents logged loading, in seat
/// order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Started {
    pub load_faults: Vec<LoadFault>,
    pub logs: Vec<AgentLog>,
}

impl Started {
    /// The start of the game whose seats loaded as `loaded` says.
    pub fn of(loaded: &[Loaded]) -> Started {
        let mut started = Started::default();
        for (seat, l) in loaded.iter().enumerate() {
            if let Some(text) = &l.log {
                started.logs.push(AgentLog {
                    seat,
                    text: text.clone(),
                });
            }
            if let Some(fault) = &l.fault {
                started.load_faults.push(LoadFault {
                    seat,
                    fault: fault.clone(),
                });
            }
        }
        started
    }

    /// The record's start line.
    pub fn line(&self) -> StartLine<'_> {
        StartLine::new(
            self.load_faults.iter().map(|f| (f.seat, &f.fault)),
            &self.logs,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FaultKind;

    #[test]
    fn faults_and_logs_keep_their_seats() {
        let fault = Fault::new(FaultKind::LoadFailed, "no module");
        let loaded = [
            Loaded {
                fault: None,
                log: Some("hello".into()),
            },
            Loaded::default(),
            Loaded {
                fault: Some(fault.clone()),
                log: Some("bye".into()),
            },
        ];
        let started = Started::of(&loaded);
        assert_eq!(started.load_faults, vec![LoadFault { seat: 2, fault }]);
        let logs: Vec<(usize, &str)> = started.logs.iter().map(|l| (l.seat, &l.text[..])).collect();
        assert_eq!(logs, vec![(0, "hello"), (2, "bye")]);
        let line = serde_json::to_string(&started.line()).unwrap();
        assert!(line.starts_with(r#"{"faults":[{"fault":{"#), "{line}");
        assert!(line.ends_with(r#""seat":2}],"logs":[{"seat":0,"text":"hello"},{"seat":2,"text":"bye"}],"type":"start"}"#), "{line}");
    }
}
