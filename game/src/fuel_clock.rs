//! A fuel clock, for a game that runs one: each seat starts with some fuel, gets an increment
//! before each decision, and may use at most the smaller of its clock and the sandbox's
//! per-decision cap. Running out of fuel spends all that was allowed; when the clock held no more
//! than the cap, the clock was the limit: the seat has lost on time, whatever the fault policy.
//! Written once here, with the clock's part of a record's setup line, so that two games cannot
//! run (or record, or verify) a clock differently.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::record::{fail, VerifyError};
use crate::{Fault, FaultKind, Host};

/// The fuel clock of a game: what each player starts with, what it gets at each decision, and
/// the per-decision cap (the sandbox's `fuel_per_decision`). A record's setup line has it as
/// `clock`, its fields in sorted order (hence their order here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuelClock {
    pub decision_cap: u64,
    pub increment: u64,
    pub start: u64,
}

/// A decision being asked: the seat's clock once the increment was added, and the fuel the
/// decision may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    pub before: u64,
    pub allowance: u64,
}

/// What a decision cost: the fuel taken off the clock, and whether the seat lost on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spent {
    pub fuel: u64,
    pub time: bool,
}

impl FuelClock {
    /// The clock of a game's settings (`start`, `increment`), the cap per decision from `host`'s
    /// sandbox (the default limits' where only native strategies play).
    pub fn of(start: u64, increment: u64, host: &Host<'_>) -> FuelClock {
        FuelClock {
            start,
            increment,
            decision_cap: FuelClock::decision_cap(host),
        }
    }

    /// The cap per decision of `host`'s sandbox (the default limits' where only native
    /// strategies play).
    pub fn decision_cap(host: &Host<'_>) -> u64 {
        host.sandbox
            .map_or(arena_sandbox::Limits::default().fuel_per_decision, |s| {
                s.limits().fuel_per_decision
            })
    }

    /// Asks a decision of the seat whose clock is `clock`: adds the increment.
    pub fn ask(&self, clock: &mut u64) -> Asked {
        *clock = clock.saturating_add(self.increment);
        Asked {
            before: *clock,
            allowance: (*clock).min(self.decision_cap),
        }
    }
}

impl Asked {
    /// Charges the decision that used `fuel` and faulted with `fault`, if it did, to the clock
    /// `clock` and the seat's total `total`.
    pub fn spend(
        &self,
        fuel: u64,
        fault: Option<&Fault>,
        clock: &mut u64,
        total: &mut u64,
    ) -> Spent {
        let out_of_fuel = fault.is_some_and(|f| f.kind == FaultKind::DecisionFuel);
        let fuel = if out_of_fuel {
            self.allowance
        } else {
            fuel.min(self.allowance)
        };
        *clock -= fuel;
        *total = total.saturating_add(fuel);
        Spent {
            fuel,
            // With no more on the clock than the cap, the clock was the limit.
            time: out_of_fuel && self.allowance == self.before,
        }
    }
}

/// A limit of a setup line that says otherwise than its clock (a league's limits carry its clock
/// and cap, and `arena verify --league` compares the limits).
#[derive(Debug, PartialEq)]
pub struct Disagreement {
    /// The limit's key (`clock`, `increment`, `fuel_per_decision`), and what it says.
    pub key: &'static str,
    pub found: Value,
    /// The clock's field of the same figure, and what the clock says.
    pub field: &'static str,
    pub value: u64,
}

impl FuelClock {
    /// The clock a setup line (line 1) states, refused when its `limits` disagree with it
    /// (`message`: what to say of the disagreement).
    pub fn agreeing_with(
        self,
        limits: &Map<String, Value>,
        message: impl FnOnce(Disagreement) -> String,
    ) -> Result<FuelClock, VerifyError> {
        match self.disagreement(limits) {
            Some(d) => Err(fail(1, message(d))),
            None => Ok(self),
        }
    }

    /// The first of `limits` that disagrees with the clock, if any.
    pub fn disagreement(&self, limits: &Map<String, Value>) -> Option<Disagreement> {
        [
            ("clock", "start", self.start),
            ("increment", "increment", self.increment),
            ("fuel_per_decision", "decision_cap", self.decision_cap),
        ]
        .into_iter()
        .find_map(|(key, field, value)| {
            let found = limits.get(key).filter(|f| f.as_u64() != Some(value))?;
            Some(Disagreement {
                key,
                found: found.clone(),
                field,
                value,
            })
        })
    }
}

/// What `arena verify` adds to the message of a difference in a clock or a fuel figure.
pub const CLOCK_HINT: &str = " (the clock: the increment is added before each decision, the fuel \
                              the decision used is taken off, and a decision may use at most the \
                              smaller of the clock and the per-decision cap)";

#[cfg(test)]
mod tests {
    use super::*;

    const CLOCK: FuelClock = FuelClock {
        start: 100,
        increment: 10,
        decision_cap: 50,
    };

    #[test]
    fn a_clock_above_the_cap_is_not_lost_on_time() {
        let mut clock = CLOCK.start;
        let asked = CLOCK.ask(&mut clock);
        assert_eq!((clock, asked.allowance), (110, 50));
        let out = Fault::new(FaultKind::DecisionFuel, "out of fuel");
        let mut total = 0;
        let spent = asked.spend(7, Some(&out), &mut clock, &mut total);
        assert_eq!(
            spent,
            Spent {
                fuel: 50,
                time: false
            }
        );
        assert_eq!((clock, total), (60, 50));
    }

    #[test]
    fn a_clock_at_or_below_the_cap_runs_out_on_time() {
        let mut clock = 40;
        let asked = CLOCK.ask(&mut clock);
        assert_eq!(
            asked,
            Asked {
                before: 50,
                allowance: 50
            }
        );
        let out = Fault::new(FaultKind::DecisionFuel, "out of fuel");
        let (mut total, mut left) = (5, clock);
        let spent = asked.spend(3, Some(&out), &mut left, &mut total);
        assert_eq!((spent.fuel, spent.time, left, total), (50, true, 0, 55));
        // Another fault, or none, spends what was used, never more than allowed.
        let other = Fault::new(FaultKind::BadAnswer, "no");
        let spent = asked.spend(70, Some(&other), &mut clock, &mut total);
        assert_eq!((spent.fuel, spent.time, clock), (50, false, 0));
    }

    #[test]
    fn limits_that_disagree_with_the_clock_are_named() {
        let limits: Map<String, Value> =
            serde_json::from_str(r#"{"clock": 100, "fuel_per_decision": 7}"#).unwrap();
        let d = CLOCK.disagreement(&limits).unwrap();
        assert_eq!(
            (d.key, d.field, d.value),
            ("fuel_per_decision", "decision_cap", 50)
        );
        assert_eq!(d.found, Value::from(7));
        let agree: Map<String, Value> = serde_json::from_str(r#"{"increment": 10}"#).unwrap();
        assert_eq!(CLOCK.disagreement(&agree), None);
    }
}
