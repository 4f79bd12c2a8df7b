//! `arena play`'s narration of a code war: the Array after each iteration as a row of owner
//! marks, from the game's record.

use std::io::Write;

use anyhow::{bail, Context};
use serde_json::Value;

use crate::records::lines::RecordReader;

/// The mark of seat `s`: `A`, `B`...; lower case for an agent whose facade is another player.
pub fn mark(owner: usize, facade: usize) -> char {
    let c = (b'A' + (owner % 26) as u8) as char;
    if facade == owner {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

fn seat_of(v: &Value) -> Option<usize> {
    v.as_u64().map(|s| s as usize)
}

/// Writes the narration of the record `record` (its bytes, gzip-compressed or not).
pub fn narrate(record: &[u8], out: &mut dyn Write) -> anyhow::Result<()> {
    let mut reader = RecordReader::new(record).context("cannot read the record")?;
    let mut names: Vec<String> = Vec::new();
    let mut segfault_total = 0u64;
    while let Some(line) = reader.next_line().context("cannot read the record")? {
        let v = &line.value;
        match line.kind() {
            Some("setup") => names = setup(v, out)?,
            Some("iteration") => segfault_total += iteration(v, names.len(), out)?,
            Some("end") => return end(v, &names, segfault_total, out),
            _ => {}
        }
    }
    bail!("the record has no end line")
}

/// The setup line told: the Array, the rules, the players and their marks. The players' names.
fn setup(v: &Value, out: &mut dyn Write) -> anyhow::Result<Vec<String>> {
    let names: Vec<String> = v["players"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| p["name"].as_str().unwrap_or("?").to_owned())
        .collect();
    let s = &v["settings"];
    writeln!(
        out,
        "Code war: {} players, an Array of {} cells, agents of at most {} bytes{}, \
         {} iterations, seed {}",
        names.len(),
        s["array_size"],
        s["max_size"],
        match s["mambo_step"].as_u64() {
            Some(0) | None => String::new(),
            Some(step) => format!(" (Mambo: {step} fewer each iteration)"),
        },
        s["iterations"],
        v["seed"]
    )?;
    for (seat, name) in names.iter().enumerate() {
        writeln!(out, "  {} = {name} (seat {seat})", mark(seat, seat))?;
    }
    writeln!(
        out,
        "  (a mark is the cell's owner, in lower case when the agent shows another \
         player's facade; . is an empty cell)"
    )?;
    Ok(names)
}

/// An iteration line told: the Array as a row of marks, each player's cells, segfaults and
/// players out. The segfaults of the iteration.
fn iteration(v: &Value, players: usize, out: &mut dyn Write) -> anyhow::Result<u64> {
    let cells = v["cells"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let row: String = cells
        .iter()
        .map(|c| match c.as_array() {
            Some(c) => mark(seat_of(&c[0]).unwrap_or(0), seat_of(&c[1]).unwrap_or(0)),
            None => '.',
        })
        .collect();
    let mut counts = vec![0usize; players];
    for c in cells.iter().filter_map(Value::as_array) {
        if let Some(n) = seat_of(&c[0]).and_then(|s| counts.get_mut(s)) {
            *n += 1;
        }
    }
    let segfaults = v["visits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|x| x[2] == "segfault")
        .count();
    let mut notes = Vec::new();
    if segfaults > 0 {
        notes.push(format!("{segfaults} segfault{}", plural(segfaults)));
    }
    for key in ["out_before", "out_after"] {
        for s in v[key].as_array().into_iter().flatten().filter_map(seat_of) {
            notes.push(format!("{} is out", mark(s, s)));
        }
    }
    let tally: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(s, n)| format!("{}{n}", mark(s, s)))
        .collect();
    writeln!(
        out,
        "{:>5} {row}  {}{}",
        v["iteration"].as_u64().unwrap_or(0),
        tally.join(" "),
        if notes.is_empty() {
            String::new()
        } else {
            format!("  ({})", notes.join(", "))
        }
    )?;
    Ok(segfaults as u64)
}

/// The end line told: the result and the segfaults of the whole game.
fn end(
    v: &Value,
    names: &[String],
    segfault_total: u64,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let name = |s: usize| names.get(s).map_or("?", String::as_str).to_owned();
    let o = &v["outcome"];
    let text = match (o["result"].as_str(), seat_of(&o["seat"])) {
        (Some("win"), Some(s)) if o["last_standing"] == true => {
            format!("{} ({}) wins: the last player left", mark(s, s), name(s))
        }
        (Some("win"), Some(s)) => format!(
            "{} ({}) wins with {} cells",
            mark(s, s),
            name(s),
            v["cells"][s]
        ),
        (Some("draw"), _) if o["round_cap"] == true => {
            "a draw: the most cells are shared".to_owned()
        }
        _ => "a draw: no player has a cell".to_owned(),
    };
    writeln!(
        out,
        "Result after {} iterations: {text} ({segfault_total} segfault{} in all)",
        v["iterations"],
        plural(segfault_total as usize)
    )?;
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
