//! The Farkle viewer's data: the record's turn lines whole (rolls, drafts, how the turn ended,
//! logs), each with every seat's score after it.

use std::borrow::Cow;

use anyhow::Context;
use serde::{Serialize, Serializer};

use crate::game::json::{Json, Object};
use crate::game::replay::{json, of_type, player_names, RecordLines, NULL};

/// Fields in key order (see `crate::report::replay`).
#[derive(Serialize)]
struct FarkleReplay<'r> {
    fault_policy: Option<&'r Json<'r>>,
    forfeits: Option<&'r Json<'r>>,
    game: &'static str,
    id: usize,
    outcome: Option<&'r Json<'r>>,
    players: Vec<&'r str>,
    record: &'r str,
    round_cap: Option<&'r Json<'r>>,
    rounds: Option<&'r Json<'r>>,
    scores: Option<&'r Json<'r>>,
    /// A string: JavaScript numbers would round a 64-bit seed.
    seed: Option<String>,
    start: Start<'r>,
    /// False would mean the banked points do not add up to the scores the record states.
    tally_matches_final: bool,
    target: Option<&'r Json<'r>>,
    turns: Vec<Turn<'r>>,
}

#[derive(Serialize)]
struct Start<'r> {
    faults: Cow<'r, Json<'r>>,
    logs: Cow<'r, Json<'r>>,
}

/// A turn line without its `type`, with every seat's score after it.
struct Turn<'r> {
    line: &'r Object<'r>,
    scores: Vec<i64>,
}

impl Serialize for Turn<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.line
            .serialize_edited(serializer, "type", &[("scores", &self.scores)])
    }
}

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    Ok(json(&data(r.id, r.record, r.setup, r.lines)?))
}

fn data<'r>(
    id: usize,
    record: &'r str,
    setup: &'r Object<'r>,
    lines: &'r [Json<'r>],
) -> anyhow::Result<FarkleReplay<'r>> {
    let players = player_names(setup)?;
    let n = players.len();
    let mut scores = vec![0i64; n];
    // Whether each turn's `score` is the sum of the seat's banked points so far.
    let mut consistent = true;
    let mut turns = Vec::new();
    for line in of_type(lines, "turn") {
        let number = line.get("turn").unwrap_or(&NULL);
        let seat = line
            .get("seat")
            .and_then(Json::as_u64)
            .filter(|&s| (s as usize) < n)
            .with_context(|| format!("turn {number}: no such seat"))? as usize;
        scores[seat] += line.get("banked").and_then(Json::as_i64).unwrap_or(0);
        consistent &= line.get("score").and_then(Json::as_i64) == Some(scores[seat]);
        turns.push(Turn {
            line,
            scores: scores.clone(),
        });
    }
    let start = of_type(lines, "start").next();
    let end = of_type(lines, "end").next();
    let final_scores = end.and_then(|e| e.get("scores"));
    consistent &= final_scores.is_none_or(|f| is_scores(f, &scores));
    let empty = || Cow::Owned(Json::Array(Vec::new()));
    Ok(FarkleReplay {
        fault_policy: setup.get("fault_policy"),
        forfeits: end.and_then(|e| e.get("forfeits")),
        game: super::NAME,
        id,
        outcome: end.and_then(|e| e.get("outcome")),
        players,
        record,
        round_cap: setup.get("round_cap"),
        rounds: end.and_then(|e| e.get("rounds")),
        scores: final_scores,
        seed: setup.get("seed").map(Json::to_string),
        start: Start {
            faults: start
                .and_then(|s| s.get("faults"))
                .map_or_else(empty, Cow::Borrowed),
            logs: start
                .and_then(|s| s.get("logs"))
                .map_or_else(empty, Cow::Borrowed),
        },
        tally_matches_final: consistent,
        target: setup.get("target"),
        turns,
    })
}

/// Whether a record value is the list of these scores, as JSON values compare (so `10.0` is not
/// `10`).
fn is_scores(value: &Json, scores: &[i64]) -> bool {
    value.as_array().is_some_and(|a| {
        a.len() == scores.len()
            && a.iter()
                .zip(scores)
                .all(|(v, &s)| *v == Json::Number(s.into()))
    })
}
