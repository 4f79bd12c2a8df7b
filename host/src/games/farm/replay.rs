//! The Little Animal Farm replay viewer's data: the record's lines, each turn with the herds and
//! stock after it. Turn lines are passed through whole, so fields added to records later (such as
//! the agents' captured `logs`) reach the viewer without a change here.

use std::borrow::Cow;

use anyhow::Context;
use farm_rules::{ANIMALS, KINDS, START_STOCK};
use serde::Serialize;

use crate::game::json::Json;
use crate::game::replay::{of_type, player_names, Data, Edited, RecordLines, StartEnd, NULL};

type Counts = [i64; KINDS];

/// The party that is not a seat, as the events name it.
static STOCK: Json<'static> = Json::String(Cow::Borrowed("stock"));

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

/// A field the report adds to a turn line.
#[derive(Serialize)]
#[serde(untagged)]
enum Added {
    Herds(Vec<Counts>),
    Stock(Counts),
    Out(Vec<usize>),
}

/// The replay data of a game, as JSON, from its record's lines.
pub(super) fn replay(r: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
    let (setup, lines) = (r.setup, r.lines);
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
    let ends = StartEnd::of(lines);
    let start_events = ends.start_list("events");
    tally.apply_all(Some(&start_events))?;
    let initial = Initial {
        events: start_events,
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
        let added = [
            ("herds", Added::Herds(tally.herds.clone())),
            ("out", Added::Out(tally.out.clone())),
            ("stock", Added::Stock(tally.stock)),
        ];
        turns.push(Edited { line, added });
    }

    let final_position = match ends.end("final") {
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
    let mut data = Data::new(super::NAME, r, &players);
    data.setup(&["fault_policy", "round_cap", "seed"]);
    data.end(&ends, &["outcome", "rounds"]);
    data.set("final", &final_position);
    data.set("initial", &initial);
    // False would mean the events do not add up to the final position the record states: the
    // viewer then warns that the record should be checked with `arena verify`.
    data.set("tally_matches_final", &tally_matches_final);
    // The turn lines, each with the herds, the seats out and the stock after it.
    data.set("turns", &turns);
    Ok(data.json())
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
