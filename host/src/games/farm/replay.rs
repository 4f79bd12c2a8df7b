//! The Little Animal Farm replay viewer's data: the record's lines, each turn with the herds and
//! stock after it. Turn lines are passed through whole, so fields added to records later (such as
//! the agents' captured `logs`) reach the viewer without a change here.

use std::borrow::Cow;

use anyhow::Context;
use farm_rules::{ANIMALS, KINDS, START_STOCK};
use serde::{Serialize, Serializer};

use crate::game::json::{Json, Object};
use crate::game::replay::{json, of_type, player_names, RecordLines, NULL};

type Counts = [i64; KINDS];

/// The party that is not a seat, as the events name it.
static STOCK: Json<'static> = Json::String(Cow::Borrowed("stock"));

/// Fields in key order (see `crate::report::replay`).
#[derive(Serialize)]
struct FarmReplay<'r> {
    fault_policy: Option<&'r Json<'r>>,
    #[serde(rename = "final")]
    final_position: Option<Position>,
    game: &'static str,
    id: usize,
    initial: Initial<'r>,
    outcome: Option<&'r Json<'r>>,
    players: Vec<&'r str>,
    record: &'r str,
    round_cap: Option<&'r Json<'r>>,
    rounds: Option<&'r Json<'r>>,
    seed: Option<&'r Json<'r>>,
    /// False would mean the events do not add up to the final position the record states: the
    /// viewer then warns that the record should be checked with `arena verify`.
    tally_matches_final: Option<bool>,
    turns: Vec<Turn<'r>>,
}

#[derive(Serialize)]
struct Position {
    herds: Vec<Counts>,
    stock: Counts,
}

#[derive(Serialize)]
struct Initial<'r> {
    events: Cow<'r, Json<'r>>,
    herds: Vec<Counts>,
    out: Vec<usize>,
    stock: Counts,
    to_move: Cow<'r, Json<'r>>,
}

/// A turn line without its `type`, with the tally after it.
struct Turn<'r> {
    line: &'r Object<'r>,
    herds: Vec<Counts>,
    stock: Counts,
    out: Vec<usize>,
}

/// A field the report adds to a turn line.
#[derive(Serialize)]
#[serde(untagged)]
enum Added<'t> {
    Herds(&'t [Counts]),
    Stock(&'t Counts),
    Out(&'t [usize]),
}

impl Serialize for Turn<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let added = [
            ("herds", Added::Herds(&self.herds)),
            ("out", Added::Out(&self.out)),
            ("stock", Added::Stock(&self.stock)),
        ];
        self.line.serialize_edited(serializer, "type", &added)
    }
}

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let &RecordLines {
        id,
        record,
        setup,
        lines,
    } = r;
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
            .and_then(Json::as_array)
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
    let start_events = of_type(lines, "start").next().and_then(|l| l.get("events"));
    tally.apply_all(start_events)?;
    let initial = Initial {
        events: start_events.map_or_else(|| Cow::Owned(Json::Array(Vec::new())), Cow::Borrowed),
        herds: tally.herds.clone(),
        out: tally.out.clone(),
        stock: tally.stock,
        to_move: start
            .and_then(|s| s.get("to_move"))
            .map_or_else(|| Cow::Owned(Json::Number(0.into())), Cow::Borrowed),
    };

    let mut turns = Vec::new();
    for line in of_type(lines, "turn") {
        tally
            .apply_all(line.get("events"))
            .with_context(|| format!("turn {}", line.get("turn").unwrap_or(&NULL)))?;
        turns.push(Turn {
            line,
            herds: tally.herds.clone(),
            stock: tally.stock,
            out: tally.out.clone(),
        });
    }

    let end = of_type(lines, "end").next();
    let final_position = match end.and_then(|e| e.get("final")) {
        Some(f) => Some(Position {
            herds: f
                .get("herds")
                .and_then(Json::as_array)
                .map(|hs| hs.iter().map(|h| counts(Some(h))).collect::<Result<_, _>>())
                .transpose()?
                .unwrap_or_default(),
            stock: counts(f.get("stock"))?,
        }),
        None => None,
    };
    let tally_matches_final = final_position
        .as_ref()
        .map(|f| f.herds == tally.herds && f.stock == tally.stock);
    Ok(json(&FarmReplay {
        fault_policy: setup.get("fault_policy"),
        final_position,
        game: super::NAME,
        id,
        initial,
        outcome: end.and_then(|e| e.get("outcome")),
        players,
        record,
        round_cap: setup.get("round_cap"),
        rounds: end.and_then(|e| e.get("rounds")),
        seed: setup.get("seed"),
        tally_matches_final,
        turns,
    }))
}

/// Animal counts of a record herd (`{"rabbit":3}`), by kind index.
fn counts(herd: Option<&Json>) -> anyhow::Result<Counts> {
    let mut c = [0; KINDS];
    let Some(herd) = herd else { return Ok(c) };
    let map = herd
        .as_object()
        .with_context(|| format!("{herd} is not a herd"))?;
    for (name, n) in map.iter() {
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
    fn side(&mut self, party: &Json) -> anyhow::Result<&mut Counts> {
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

    fn apply(&mut self, e: &Json) -> anyhow::Result<()> {
        let kind = e.get("type").and_then(Json::as_str).unwrap_or("");
        let seat = e.get("seat").unwrap_or(&NULL);
        let (from, to, animals) = match kind {
            "transfer" => (
                e.get("from").unwrap_or(&NULL),
                e.get("to").unwrap_or(&NULL),
                counts(e.get("animals"))?,
            ),
            "wolf" | "fox" => (seat, &STOCK, counts(e.get("lost"))?),
            "bred" => (&STOCK, seat, counts(e.get("gained"))?),
            "forfeit" => {
                if let Some(s) = seat.as_u64() {
                    self.out.push(s as usize);
                }
                return Ok(());
            }
            _ => return Ok(()),
        };
        for (i, n) in animals.iter().enumerate() {
            self.side(from)?[i] -= n;
            self.side(to)?[i] += n;
        }
        Ok(())
    }

    fn apply_all(&mut self, events: Option<&Json>) -> anyhow::Result<()> {
        for e in events.and_then(Json::as_array).into_iter().flatten() {
            self.apply(e)?;
        }
        Ok(())
    }
}
