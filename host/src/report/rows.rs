//! The list of games as the report's front page receives it: compact, because a league of
//! 100,000 games gives 100,000 rows, and the page must load and parse them in well under a second.
//!
//! Every string (agent names, game names, results, fault kinds) is written once in `words` and
//! rows refer to it by index. A row is an array:
//!
//! `[id, game, [seat, ...], winner, result, rounds, turns, scores, [forfeited seat, ...],
//!   [[seat, fault kind], ...], record, error]`
//!
//! where `game`, each `seat`, `result` and each `fault kind` index `words` (`game` is -1 when the
//! record could not be read), `winner` is a seat number or -1, `scores` is a list or 0, `record`
//! is 0 for `../records/game-NNNNNN.jsonl`, 1 for the same with `.gz`, or the record's path from
//! the report folder as a string, and `error` is 0 or the reason the record cannot be shown.
//! index.js decodes it (`decodeRows`).

use std::collections::HashMap;

use serde_json::{json, Value};

use super::data::GameRow;
use crate::league::runner::RECORDS_DIR;

#[derive(Default)]
struct Words {
    list: Vec<String>,
    index: HashMap<String, usize>,
}

impl Words {
    fn of(&mut self, word: &str) -> usize {
        if let Some(&i) = self.index.get(word) {
            return i;
        }
        self.list.push(word.to_owned());
        self.index.insert(word.to_owned(), self.list.len() - 1);
        self.list.len() - 1
    }
}

pub fn compact_rows(rows: &[GameRow]) -> Value {
    let mut words = Words::default();
    let list: Vec<Value> = rows
        .iter()
        .map(|r| {
            let seat_of = |name: &str| r.seats.iter().position(|s| s == name);
            let game = r.game.as_deref().map_or(-1, |g| words.of(g) as i64);
            let seats: Vec<usize> = r.seats.iter().map(|s| words.of(s)).collect();
            let winner = r
                .winner
                .as_deref()
                .and_then(seat_of)
                .map_or(-1, |s| s as i64);
            let result = words.of(r.result);
            let scores = r.scores.as_ref().map_or(json!(0), |s| json!(s));
            let forfeits: Vec<usize> = r.forfeits.iter().filter_map(|n| seat_of(n)).collect();
            let faults: Vec<[usize; 2]> = r
                .faults
                .iter()
                .map(|f| [f.seat, words.of(&f.kind)])
                .collect();
            let plain = format!("../{RECORDS_DIR}/game-{:06}.jsonl", r.id);
            let record = if r.record == plain {
                json!(0)
            } else if r.record.strip_suffix(".gz") == Some(plain.as_str()) {
                json!(1)
            } else {
                json!(r.record)
            };
            let error = r.error.as_ref().map_or(json!(0), |e| json!(e));
            json!([
                r.id, game, seats, winner, result, r.rounds, r.turns, scores, forfeits, faults,
                record, error
            ])
        })
        .collect();
    json!({"words": words.list, "rows": list})
}

/// The rows of [`compact_rows`] as objects with the fields of [`GameRow`] (without fault details
/// and `data`, which the page does not need), as index.js decodes them.
#[cfg(test)]
pub fn decode_rows(games: &Value) -> Vec<Value> {
    let words = games["words"].as_array().unwrap();
    let word = |v: &Value| words[v.as_u64().unwrap() as usize].clone();
    games["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = r[0].as_u64().unwrap();
            let seats: Vec<Value> = r[2].as_array().unwrap().iter().map(word).collect();
            let seat = |v: &Value| seats[v.as_u64().unwrap() as usize].clone();
            let record = match &r[10] {
                Value::String(s) => s.clone(),
                n => format!(
                    "../{RECORDS_DIR}/game-{id:06}.jsonl{}",
                    if n == 1 { ".gz" } else { "" }
                ),
            };
            json!({
                "id": id,
                "game": if r[1] == -1 { Value::Null } else { word(&r[1]) },
                "winner": if r[3] == -1 { Value::Null } else { seat(&r[3]) },
                "result": word(&r[4]),
                "rounds": r[5],
                "turns": r[6],
                "scores": if r[7] == 0 { Value::Null } else { r[7].clone() },
                "forfeits": r[8].as_array().unwrap().iter().map(seat).collect::<Vec<_>>(),
                "faults": r[9].as_array().unwrap().iter()
                    .map(|f| json!({"agent": seat(&f[0]), "seat": f[0], "kind": word(&f[1])}))
                    .collect::<Vec<_>>(),
                "record": record,
                "error": if r[11] == 0 { Value::Null } else { r[11].clone() },
                "seats": seats,
            })
        })
        .collect()
}
