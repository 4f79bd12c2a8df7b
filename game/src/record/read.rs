//! Reading the envelope's lines back, for every game's verifier: a line of the expected type as
//! a game's own type ([`typed_line`]), the fields every setup line has, checked once for every
//! game ([`SetupHead`]), the start line as each seat's start ([`read_start`]), a turn line's seat
//! ([`seat_of`]), and a recorded decision's answer or fault ([`answer_or_fault`]) and its log
//! ([`first_log`]). A game reads its own fields around them.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::lines::Line;
use super::seat_checks::agent_hashes;
use super::seat_lines::{LogJson, PlayerJson, StartJson};
use super::{fail, Record, RecordMeta, VerifyError, FORMAT_NAME, FORMAT_VERSION};
use crate::rules::Loaded;
use crate::{Fault, FaultKind};

/// The line `value` (line number `line`) as a `T`, if its `type` is `what`: otherwise, or if a
/// field is missing or of the wrong type, an error naming the line's type and the field's path.
pub fn typed_line<T: DeserializeOwned>(
    value: &Value,
    line: usize,
    what: &str,
) -> Result<T, VerifyError> {
    if value.get("type").and_then(Value::as_str) != Some(what) {
        return Err(fail(line, format!("expected a `{what}` line")));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let at = if path == "." {
            String::new()
        } else {
            format!("{path}: ")
        };
        fail(line, format!("{what} line: {at}{}", e.into_inner()))
    })
}

/// The fields every setup line has (docs/RECORDS.md): what the record is, which game under
/// which rules, who played, under which limits. A game reads its own fields from the same line.
#[derive(Deserialize)]
pub struct SetupHead {
    format: String,
    format_version: u32,
    game: String,
    rules_version: u32,
    players: Vec<PlayerJson>,
    limits: Map<String, Value>,
}

impl SetupHead {
    /// The setup line (line 1) of a record of `rules`' game, checked as [`SetupHead::read`] does.
    pub fn of<R: Record>(
        rules: &R,
        line: &Line,
        seats: impl FnOnce(usize) -> Result<(), String>,
    ) -> Result<SetupHead, VerifyError> {
        SetupHead::read(line, rules.info().name, R::RULES_VERSION, seats)
    }

    /// The setup line (line 1) checked: a `setup` line of this record format, of `game` under
    /// `rules_version`, whose seats `seats` accepts (it is given their number; its error is the
    /// message), are numbered in order and name their agents by SHA-256 (or `null`).
    pub fn read(
        line: &Line,
        game: &str,
        rules_version: u32,
        seats: impl FnOnce(usize) -> Result<(), String>,
    ) -> Result<SetupHead, VerifyError> {
        let head: SetupHead = typed_line(&line.value, 1, "setup")?;
        if head.format != FORMAT_NAME || head.format_version != FORMAT_VERSION {
            return Err(fail(
                1,
                format!(
                    "format: expected {FORMAT_NAME:?} version {FORMAT_VERSION}, found {:?} version {}",
                    head.format, head.format_version
                ),
            ));
        }
        if head.game != game {
            return Err(fail(
                1,
                format!("game: expected {game:?}, found {:?}", head.game),
            ));
        }
        if head.rules_version != rules_version {
            return Err(fail(
                1,
                format!(
                    "rules_version {} is not the version this arena implements ({rules_version})",
                    head.rules_version
                ),
            ));
        }
        seats(head.players.len()).map_err(|m| fail(1, m))?;
        let misnumbered = head.players.iter().enumerate().find(|(i, p)| p.seat != *i);
        if let Some((i, p)) = misnumbered {
            return Err(fail(
                1,
                format!("players[{i}].seat is {}, expected {i}", p.seat),
            ));
        }
        agent_hashes(head.players.iter().map(|p| p.agent.as_deref()))?;
        Ok(head)
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.players.len()
    }

    /// The `limits` object.
    pub fn limits(&self) -> &Map<String, Value> {
        &self.limits
    }

    /// Who played, under which limits.
    pub fn meta(self) -> RecordMeta {
        RecordMeta {
            names: self.players.iter().map(|p| p.name.clone()).collect(),
            agent_hashes: self.players.into_iter().map(|p| p.agent).collect(),
            limits: std::sync::Arc::new(Value::Object(self.limits)),
        }
    }
}

/// Each of `seats` seats' start (its fault while loading, what it logged) from the start line
/// (line 2).
pub fn read_start(line: &Line, seats: usize) -> Result<Vec<Loaded>, VerifyError> {
    let start: StartJson = typed_line(&line.value, 2, "start")?;
    Ok(start
        .per_seat(seats)?
        .into_iter()
        .map(Loaded::from)
        .collect())
}

/// `seat`, which line `line` names, if it is a seat of a game of `players` seats.
pub fn seat_of(line: &Line, seat: usize, players: usize) -> Result<usize, VerifyError> {
    if seat < players {
        Ok(seat)
    } else {
        Err(fail(line.number, format!("seat {seat} does not exist")))
    }
}

/// What a seat logged during a decision, from a line's logs: the first (a decision keeps one).
pub fn first_log(logs: Vec<LogJson>) -> Option<String> {
    logs.into_iter().map(|l| l.text).next()
}

/// A recorded decision's answer: the one the line gives (`answer`, read), else the decision's
/// fault; a decision with neither is a bad answer (`a_word`: what the game calls an answer,
/// `"a move"`).
pub fn answer_or_fault<A>(
    answer: Option<Result<A, VerifyError>>,
    fault: Option<Fault>,
    a_word: &str,
) -> Result<Result<A, Fault>, VerifyError> {
    Ok(match (answer, fault) {
        (Some(read), _) => Ok(read?),
        (None, Some(fault)) => Err(fault),
        (None, None) => Err(Fault::new(
            FaultKind::BadAnswer,
            format!("the record has neither {a_word} nor a fault for this decision"),
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(value: Value) -> Line {
        Line { number: 1, value }
    }

    fn setup(game: &str, rules: u32, seats: &[usize]) -> Line {
        let players: Vec<Value> = seats
            .iter()
            .map(|s| json!({"seat": s, "name": format!("p{s}"), "agent": null}))
            .collect();
        line(json!({
            "type": "setup", "format": FORMAT_NAME, "format_version": FORMAT_VERSION,
            "game": game, "rules_version": rules, "players": players, "limits": {"clock": 5},
        }))
    }

    fn error(r: Result<SetupHead, VerifyError>) -> String {
        r.err().expect("refused").to_string()
    }

    #[test]
    fn a_setup_head_gives_the_players_and_limits() {
        let head = SetupHead::read(&setup("g", 3, &[0, 1]), "g", 3, |_| Ok(())).unwrap();
        assert_eq!(head.players(), 2);
        assert_eq!(head.limits()["clock"], 5);
        let meta = head.meta();
        assert_eq!(meta.names, ["p0", "p1"]);
        assert_eq!(meta.agent_hashes, [None, None]);
    }

    #[test]
    fn a_setup_head_names_what_is_wrong() {
        assert_eq!(
            error(SetupHead::read(&setup("g", 3, &[0]), "h", 3, |_| Ok(()))),
            "line 1: game: expected \"h\", found \"g\""
        );
        assert_eq!(
            error(SetupHead::read(&setup("g", 2, &[0]), "g", 3, |_| Ok(()))),
            "line 1: rules_version 2 is not the version this arena implements (3)"
        );
        assert_eq!(
            error(SetupHead::read(&setup("g", 3, &[0, 2]), "g", 3, |_| Ok(()))),
            "line 1: players[1].seat is 2, expected 1"
        );
        assert_eq!(
            error(SetupHead::read(&setup("g", 3, &[0]), "g", 3, |n| Err(
                format!("players: {n} seats")
            ))),
            "line 1: players: 1 seats"
        );
        let mut other = setup("g", 3, &[0]);
        other.value["format_version"] = json!(FORMAT_VERSION + 1);
        assert!(error(SetupHead::read(&other, "g", 3, |_| Ok(()))).contains("format: expected"));
        let mut tampered = setup("g", 3, &[0, 1]);
        tampered.value["players"][1]["agent"] = json!("f00d");
        assert_eq!(
            error(SetupHead::read(&tampered, "g", 3, |_| Ok(()))),
            "line 1: players[1].agent: expected 64 lower-case hex digits or null, found \"f00d\""
        );
        other.value["type"] = json!("turn");
        assert_eq!(
            error(SetupHead::read(&other, "g", 3, |_| Ok(()))),
            "line 1: expected a `setup` line"
        );
    }

    #[test]
    fn a_decision_with_neither_answer_nor_fault_is_a_bad_answer() {
        let neither = answer_or_fault::<u8>(None, None, "a move").unwrap();
        let fault = neither.unwrap_err();
        assert_eq!(fault.kind, FaultKind::BadAnswer);
        assert!(fault.detail.contains("neither a move nor a fault"));
        let given = Fault::new(FaultKind::Trap, "x");
        assert_eq!(
            answer_or_fault::<u8>(None, Some(given.clone()), "a move").unwrap(),
            Err(given)
        );
        assert_eq!(
            answer_or_fault(Some(Ok(4u8)), None, "a move").unwrap(),
            Ok(4)
        );
        assert!(answer_or_fault::<u8>(Some(Err(fail(3, "bad"))), None, "a move").is_err());
    }
}
