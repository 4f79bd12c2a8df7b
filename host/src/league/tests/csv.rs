//! The CSV files read back as what they say, whatever the agents are called.

use super::*;

/// Splits CSV text into rows of fields (RFC 4180: quoted fields, doubled quotes).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        field.is_empty() && row.is_empty(),
        "text ends with a line break"
    );
    rows
}

/// A text cell as the arena wrote it, back to the text: one leading apostrophe dropped.
fn text_of(cell: &str) -> &str {
    cell.strip_prefix('\'').unwrap_or(cell)
}

const NAMES: [&str; 4] = [
    "=HYPERLINK(\"http://x\",\"y\")",
    "two words",
    "a,b \"c\"",
    "'-1",
];

fn league(dir: &Path) -> super::super::runner::LeagueRun {
    let mut text =
        String::from("players_per_game = 2\ngames_per_group = 4\nseed = 5\nround_cap = 60\n");
    for (i, name) in NAMES.iter().enumerate() {
        std::fs::write(dir.join(format!("{i}.wasm")), b"").unwrap();
        text.push_str(&format!(
            "[[agent]]\nname = {}\npath = '{i}.wasm'\n",
            toml::Value::String(name.to_string())
        ));
    }
    let cfg = LeagueConfig::parse(&text, dir).unwrap();
    try_run(&cfg, &dir.join("out"), &habits(), 2, false).unwrap()
}

#[test]
fn names_that_look_like_formulas_or_hold_separators_read_back_exactly() {
    let dir = temp("csv");
    let run = league(&dir);
    let out = dir.join("out");
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();

    let games = parse_csv(&read(GAMES_CSV));
    assert_eq!(
        games[0],
        ["id", "seed", "seat0", "seat1", "winner", "result", "rounds", "forfeits", "record"]
    );
    assert_eq!(games.len(), 1 + run.results.len());
    for (row, r) in games[1..].iter().zip(&run.results) {
        assert_eq!(row.len(), 9, "{row:?}");
        assert_eq!(row[0], r.id.to_string());
        assert_eq!(
            [text_of(&row[2]), text_of(&row[3])],
            [&r.seats[0], &r.seats[1]]
        );
        let winner = r.outcome.winner().map_or("", |s| r.seats[s].as_str());
        assert_eq!(text_of(&row[4]), winner);
        let forfeits: Vec<String> = r.forfeits.iter().map(|s| s.to_string()).collect();
        assert_eq!(row[7], forfeits.join(" "));
        assert_eq!(row[8], r.record);
        // No text cell can start a formula.
        for cell in &row[2..5] {
            assert!(!cell.starts_with(['=', '+', '-', '@']), "{cell}");
        }
    }

    let standings = parse_csv(&read(STANDINGS_CSV));
    assert_eq!(standings.len(), 5);
    let mut named: Vec<&str> = standings[1..].iter().map(|r| text_of(&r[1])).collect();
    named.sort_unstable();
    let mut expected = NAMES.to_vec();
    expected.sort_unstable();
    assert_eq!(named, expected);
    // Negative ratings are numbers the arena wrote: left as they are.
    assert!(
        standings[1..]
            .iter()
            .any(|r| r[9].starts_with('-') && r[9].parse::<f64>().is_ok()),
        "{standings:?}"
    );

    let cross = parse_csv(&read(CROSSTABLE_CSV));
    let header: Vec<&str> = cross[0][1..].iter().map(|c| text_of(c)).collect();
    let rows: Vec<&str> = cross[1..].iter().map(|r| text_of(&r[0])).collect();
    assert_eq!(header, rows);
    assert_eq!(header.len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}
