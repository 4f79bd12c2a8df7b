//! The report's per-game data as it was computed over `serde_json::Value` before the report used
//! its own JSON type (`report::json`): kept unchanged as the reference the report's output is
//! compared with, byte for byte.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context};
use farm_rules::{ANIMALS, KINDS, START_STOCK};
use serde_json::{json, Map, Value};

/// The data script of a game's record file as the report wrote it (`record` is the record's path
/// from the report folder), or the error the report showed instead.
pub fn game_script(path: &Path, id: usize, record: &str) -> Result<String, String> {
    match read_record_lines(path).and_then(|lines| replay_data(id, &lines)) {
        Ok(mut game) => {
            game["record"] = json!(record);
            Ok(script("ARENA_GAME", &game))
        }
        Err(e) => Err(format!("{e:#}")),
    }
}

/// `window.NAME = <json>;`, escaping U+2028 and U+2029.
pub fn script(global: &str, value: &Value) -> String {
    let json = serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029");
    format!("window.{global} = {json};\n")
}

/// The lines of a record file (`.jsonl`, or gzip-compressed `.jsonl.gz`), as JSON values.
pub fn read_record_lines(path: &Path) -> anyhow::Result<Vec<Value>> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .with_context(|| format!("cannot decompress {}", path.display()))?;
        s
    } else {
        String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let at = || format!("{}:{}", path.display(), i + 1);
            // A key given twice is refused (RECORDS.md), with the report's message; this
            // reference predates the rule and read such lines as `Value` does (the last one wins).
            serde_json::from_str::<crate::report::json::Json>(l).with_context(at)?;
            serde_json::from_str(l).with_context(at)
        })
        .collect()
}

type Counts = [i64; KINDS];

/// Animal counts of a record herd (`{"rabbit":3}`), by kind index.
fn counts(herd: Option<&Value>) -> anyhow::Result<Counts> {
    let mut c = [0; KINDS];
    let Some(herd) = herd else { return Ok(c) };
    let map = herd
        .as_object()
        .with_context(|| format!("{herd} is not a herd"))?;
    for (name, n) in map {
        let i = ANIMALS
            .iter()
            .position(|a| a.name() == name)
            .with_context(|| format!("unknown animal `{name}`"))?;
        c[i] = n.as_i64().with_context(|| format!("{n} is not a count"))?;
    }
    Ok(c)
}

/// Herds and stock as the events move animals. The report keeps its own tally, rather than
/// trusting a position stored per turn, because a record only stores events; `arena verify` is
/// the judge of whether those events were legal.
struct Tally {
    herds: Vec<Counts>,
    stock: Counts,
    out: Vec<usize>,
}

impl Tally {
    fn side(&mut self, party: &Value) -> anyhow::Result<&mut Counts> {
        if party.as_str() == Some("stock") {
            return Ok(&mut self.stock);
        }
        let seat = party
            .as_u64()
            .with_context(|| format!("{party} is not a party"))? as usize;
        self.herds
            .get_mut(seat)
            .with_context(|| format!("no seat {seat}"))
    }

    fn apply(&mut self, e: &Value) -> anyhow::Result<()> {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let seat = e.get("seat").cloned().unwrap_or(Value::Null);
        let (from, to, animals) = match kind {
            "transfer" => (
                e.get("from").cloned().unwrap_or(Value::Null),
                e.get("to").cloned().unwrap_or(Value::Null),
                counts(e.get("animals"))?,
            ),
            "wolf" | "fox" => (seat, json!("stock"), counts(e.get("lost"))?),
            "bred" => (json!("stock"), seat, counts(e.get("gained"))?),
            "forfeit" => {
                if let Some(s) = seat.as_u64() {
                    self.out.push(s as usize);
                }
                return Ok(());
            }
            _ => return Ok(()),
        };
        for (i, n) in animals.iter().enumerate() {
            self.side(&from)?[i] -= n;
            self.side(&to)?[i] += n;
        }
        Ok(())
    }

    fn apply_all(&mut self, events: Option<&Value>) -> anyhow::Result<()> {
        for e in events.and_then(Value::as_array).into_iter().flatten() {
            self.apply(e)?;
        }
        Ok(())
    }
}

fn of_type<'a>(lines: &'a [Value], t: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    lines
        .iter()
        .filter(move |l| l.get("type").and_then(Value::as_str) == Some(t))
}

/// The names of the players of a setup line, by seat.
fn player_names(setup: &Value) -> anyhow::Result<Vec<String>> {
    Ok(setup
        .get("players")
        .and_then(Value::as_array)
        .context("the setup line has no players")?
        .iter()
        .map(|p| {
            p.get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_owned()
        })
        .collect())
}

/// The replay viewer's data for one game, by the game its setup line names (a record without
/// `game` is Little Animal Farm's, as records were before there were other games).
pub fn replay_data(id: usize, lines: &[Value]) -> anyhow::Result<Value> {
    let setup = of_type(lines, "setup")
        .next()
        .context("the record has no setup line")?;
    let game = setup
        .get("game")
        .and_then(Value::as_str)
        .unwrap_or("little-animal-farm");
    match game {
        "little-animal-farm" => farm_replay_data(id, setup, lines),
        "farkle" => farkle_replay_data(id, setup, lines),
        other => bail!("{}", crate::games::registry().by_name(other).err().unwrap()),
    }
}

/// A Farkle game for its viewer: the record's turn lines whole (rolls, drafts, how the turn
/// ended, logs), each with every seat's score after it.
fn farkle_replay_data(id: usize, setup: &Value, lines: &[Value]) -> anyhow::Result<Value> {
    let players = player_names(setup)?;
    let n = players.len();
    let mut scores = vec![0i64; n];
    // Whether each turn's `score` is the sum of the seat's banked points so far.
    let mut consistent = true;
    let mut turns = Vec::new();
    for line in of_type(lines, "turn") {
        let number = line.get("turn").cloned().unwrap_or(Value::Null);
        let seat = line
            .get("seat")
            .and_then(Value::as_u64)
            .filter(|&s| (s as usize) < n)
            .with_context(|| format!("turn {number}: no such seat"))? as usize;
        scores[seat] += line.get("banked").and_then(Value::as_i64).unwrap_or(0);
        consistent &= line.get("score").and_then(Value::as_i64) == Some(scores[seat]);
        let mut turn: Map<String, Value> = line.as_object().cloned().unwrap_or_default();
        turn.remove("type");
        turn.insert("scores".into(), json!(scores));
        turns.push(Value::Object(turn));
    }
    let start = of_type(lines, "start").next();
    let end = of_type(lines, "end").next();
    let final_scores = end.and_then(|e| e.get("scores")).cloned();
    consistent &= final_scores.as_ref().is_none_or(|f| *f == json!(scores));
    Ok(json!({
        "id": id,
        "game": "farkle",
        "players": players,
        // A string: JavaScript numbers would round a 64-bit seed.
        "seed": setup.get("seed").map(Value::to_string),
        "round_cap": setup.get("round_cap"),
        "target": setup.get("target"),
        "fault_policy": setup.get("fault_policy"),
        "start": {
            "faults": start.and_then(|s| s.get("faults")).cloned().unwrap_or(json!([])),
            "logs": start.and_then(|s| s.get("logs")).cloned().unwrap_or(json!([])),
        },
        "turns": turns,
        "outcome": end.and_then(|e| e.get("outcome")),
        "scores": final_scores,
        "forfeits": end.and_then(|e| e.get("forfeits")),
        "rounds": end.and_then(|e| e.get("rounds")),
        // False would mean the banked points do not add up to the scores the record states.
        "tally_matches_final": consistent,
    }))
}

/// The farm replay viewer's data: the record's lines, each turn with the herds and stock after
/// it. Turn lines are passed through whole, so fields added to records later (such as the
/// agents' captured `logs`) reach the viewer without a change here.
fn farm_replay_data(id: usize, setup: &Value, lines: &[Value]) -> anyhow::Result<Value> {
    let players = player_names(setup)?;
    let n = players.len();
    let start = setup.get("start").filter(|s| !s.is_null());
    let mut tally = Tally {
        herds: vec![[0; KINDS]; n],
        stock: START_STOCK.0.map(i64::from),
        out: Vec::new(),
    };
    if let Some(start) = start {
        for (seat, h) in start
            .get("herds")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if seat < n {
                tally.herds[seat] = counts(Some(h))?;
            }
        }
        tally.stock = counts(start.get("stock"))?;
    }
    let start_line = of_type(lines, "start").next();
    let start_events = start_line
        .and_then(|l| l.get("events"))
        .cloned()
        .unwrap_or(json!([]));
    tally.apply_all(Some(&start_events))?;
    let initial = json!({
        "herds": tally.herds,
        "stock": tally.stock,
        "out": tally.out,
        "events": start_events,
        "to_move": start.and_then(|s| s.get("to_move")).cloned().unwrap_or(json!(0)),
    });

    let mut turns = Vec::new();
    for line in of_type(lines, "turn") {
        tally
            .apply_all(line.get("events"))
            .with_context(|| format!("turn {}", line.get("turn").unwrap_or(&Value::Null)))?;
        let mut turn: Map<String, Value> = line.as_object().cloned().unwrap_or_default();
        turn.remove("type");
        turn.insert("herds".into(), json!(tally.herds));
        turn.insert("stock".into(), json!(tally.stock));
        turn.insert("out".into(), json!(tally.out));
        turns.push(Value::Object(turn));
    }

    let end = of_type(lines, "end").next();
    let final_herds = match end.and_then(|e| e.get("final")) {
        Some(f) => Some((
            f.get("herds")
                .and_then(Value::as_array)
                .map(|hs| {
                    hs.iter()
                        .map(|h| counts(Some(h)))
                        .collect::<Result<Vec<_>, _>>()
                })
                .transpose()?
                .unwrap_or_default(),
            counts(f.get("stock"))?,
        )),
        None => None,
    };
    let tally_matches = final_herds
        .as_ref()
        .map(|(h, s)| *h == tally.herds && *s == tally.stock);
    Ok(json!({
        "id": id,
        "game": "little-animal-farm",
        "players": players,
        "seed": setup.get("seed"),
        "round_cap": setup.get("round_cap"),
        "fault_policy": setup.get("fault_policy"),
        "initial": initial,
        "turns": turns,
        "outcome": end.and_then(|e| e.get("outcome")),
        "rounds": end.and_then(|e| e.get("rounds")),
        "final": final_herds.map(|(h, s)| json!({"herds": h, "stock": s})),
        // False would mean the events do not add up to the final position the record states:
        // the viewer then warns that the record should be checked with `arena verify`.
        "tally_matches_final": tally_matches,
    }))
}
