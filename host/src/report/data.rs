//! The report's data: what the pages show, gathered from the files of a league output folder.
//! Everything here is plain JSON for the templates; nothing in it is recomputed from agents, so the
//! report shows exactly what the league wrote.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Serialize;
use serde_json::{json, Value};

use super::packs::pack_name;
use super::replay::game_json;
use super::rows::compact_rows;
use crate::league::journal::JOURNAL_FILE;
use crate::league::output::{result_name, NOT_PLAYED, STANDINGS_JSON};
use crate::league::result::GameResult;
use crate::records::strict_json;

/// The league-level files of an output folder.
#[derive(Clone, Debug)]
pub struct LeagueFiles {
    pub dir: PathBuf,
    /// `standings.json` as written (league, settings, agents, cross, games, mean_rounds).
    pub standings: Value,
    /// Every journaled game, by id.
    pub games: Vec<GameResult>,
}

/// One line of the report's list of games.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameRow {
    pub id: usize,
    /// The game's name from the record's setup line; `None` when
    /// the record could not be read. The report picks the replay page by it.
    pub game: Option<String>,
    pub seats: Vec<String>,
    /// Final scores by seat, for games that keep a score.
    pub scores: Option<Vec<i64>>,
    /// The winner's name; `None` for a draw.
    pub winner: Option<String>,
    /// `win`, `win_last_standing`, `draw_round_cap`, `draw_all_forfeited`, `unfinished`, or
    /// `not_played` (no agent could load: a result for nobody).
    pub result: &'static str,
    pub rounds: u32,
    pub turns: u32,
    /// Names of the agents that forfeited, in order.
    pub forfeits: Vec<String>,
    pub faults: Vec<FaultRow>,
    /// The replay pack that holds the game's data, relative to the report folder; `None` when
    /// the record could not be read (then `error` says why).
    pub data: Option<String>,
    /// The record file, relative to the report folder.
    pub record: String,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FaultRow {
    pub agent: String,
    pub seat: usize,
    pub decision: String,
    pub kind: String,
    pub detail: String,
}

/// Reads standings.json and journal.jsonl of a league output folder. The error names the folder
/// when it is not one.
pub fn load_league(dir: &Path) -> anyhow::Result<LeagueFiles> {
    if !dir.is_dir() {
        bail!("{} is not a folder", dir.display());
    }
    for file in [STANDINGS_JSON, JOURNAL_FILE] {
        if !dir.join(file).is_file() {
            bail!(
                "{} is not a league output folder: it has no {file} (`arena league` writes one)",
                dir.display()
            );
        }
    }
    let path = dir.join(STANDINGS_JSON);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let standings: Value = strict_json::parse(&text, usize::MAX)
        .map_err(|e| anyhow::anyhow!("{} is not valid JSON: {e}", path.display()))?;
    if !standings.get("agents").is_some_and(Value::is_array) {
        bail!("{}: no `agents` list", path.display());
    }
    let games = read_journal(&dir.join(JOURNAL_FILE))?;
    Ok(LeagueFiles {
        dir: dir.to_path_buf(),
        standings,
        games,
    })
}

fn read_journal(path: &Path) -> anyhow::Result<Vec<GameResult>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut games = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // Strictly: a key given twice is refused, as `--resume` refuses it.
        let value: Value = match strict_json::parse(line, usize::MAX) {
            Ok(v) => v,
            // A league killed mid-write leaves a torn last line; `--resume` drops it too.
            Err(_) if i + 1 == lines.len() => break,
            Err(e) => bail!("{}:{}: {e}", path.display(), i + 1),
        };
        if value.get("type").and_then(Value::as_str) != Some("game") {
            continue;
        }
        let game: GameResult = serde_json::from_value(value)
            .with_context(|| format!("{}:{}: not a game result", path.display(), i + 1))?;
        game.check_seats()
            .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))?;
        games.push(game);
    }
    games.sort_by_key(|g| g.id);
    games.dedup_by_key(|g| g.id);
    Ok(games)
}

/// The list row of a game and, when its record can be read, the data the replay viewer animates
/// (as JSON).
pub fn game_data(dir: &Path, g: &GameResult) -> (GameRow, Option<Vec<u8>>) {
    let name = |seat: usize| {
        g.seats
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    };
    let mut row = GameRow {
        id: g.id,
        game: None,
        seats: g.seats.clone(),
        scores: g.scores.clone(),
        winner: g.outcome.winner().map(name),
        result: if g.nobody_played() {
            NOT_PLAYED
        } else {
            result_name(&g.outcome)
        },
        rounds: g.rounds,
        turns: g.turns,
        forfeits: g.forfeits.iter().map(|&s| name(s)).collect(),
        faults: g
            .faults
            .iter()
            .map(|f| FaultRow {
                agent: name(f.seat),
                seat: f.seat,
                decision: f.decision.clone(),
                kind: f.kind.clone(),
                detail: f.detail.clone(),
            })
            .collect(),
        data: None,
        record: format!("../{}", g.record),
        error: None,
    };
    match game_json(&dir.join(&g.record), g.id, &row.record) {
        Ok((game, json)) => {
            row.game = Some(game.to_owned());
            row.data = Some(format!("{}/{}", super::GAMES_DIR, pack_name(g.id)));
            (row, Some(json))
        }
        Err(e) => {
            row.error = Some(format!("{e:#}"));
            (row, None)
        }
    }
}

/// Game lengths in rounds as histogram bins of a round width (1, 2, 5, 10, 20, 25, 50...), at
/// most about 20 bins; draws are counted apart so the chart can show where the round cap bit.
fn length_histogram(rows: &[GameRow]) -> Value {
    let Some(max) = rows.iter().map(|r| r.rounds).max() else {
        return json!({"width": 1, "bins": []});
    };
    let min = rows.iter().map(|r| r.rounds).min().unwrap_or(0);
    let span = max - min + 1;
    let width = [1u32, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|w| span.div_ceil(*w) <= 20)
        .unwrap_or(span.div_ceil(20).max(1));
    let first = min / width * width;
    let count = (max - first) / width + 1;
    let mut bins: Vec<(u32, u32)> = vec![(0, 0); count as usize];
    for r in rows {
        let b = &mut bins[((r.rounds - first) / width) as usize];
        if r.winner.is_some() {
            b.0 += 1;
        } else {
            b.1 += 1;
        }
    }
    let bins: Vec<Value> = bins
        .iter()
        .enumerate()
        .map(|(i, &(wins, draws))| {
            let from = first + i as u32 * width;
            json!({"from": from, "to": from + width - 1, "wins": wins, "draws": draws})
        })
        .collect();
    json!({"width": width, "bins": bins})
}

/// Faults per agent, grouped by decision, kind and detail, so that a thousand identical traps read
/// as one line with a count and a few example games.
fn faults_by_agent(agents: &[String], rows: &[GameRow]) -> Value {
    const EXAMPLES: usize = 12;
    // (decision, kind, detail) -> (count, example games), per agent.
    type Groups<'a> = BTreeMap<(&'a str, &'a str, &'a str), (u32, Vec<usize>)>;
    let mut per: BTreeMap<&str, Groups> = BTreeMap::new();
    for r in rows {
        for f in &r.faults {
            let e = per
                .entry(f.agent.as_str())
                .or_default()
                .entry((f.decision.as_str(), f.kind.as_str(), f.detail.as_str()))
                .or_default();
            e.0 += 1;
            if e.1.len() < EXAMPLES && e.1.last() != Some(&r.id) {
                e.1.push(r.id);
            }
        }
    }
    let list: Vec<Value> = agents
        .iter()
        .map(|a| {
            let groups = per.get(a.as_str());
            let mut reasons: Vec<Value> = groups
                .into_iter()
                .flatten()
                .map(|((decision, kind, detail), (count, games))| {
                    json!({"decision": decision, "kind": kind, "detail": detail,
                           "count": count, "games": games})
                })
                .collect();
            reasons.sort_by_key(|r| std::cmp::Reverse(r["count"].as_u64().unwrap_or(0)));
            let total: u64 = reasons.iter().filter_map(|r| r["count"].as_u64()).sum();
            json!({"agent": a, "total": total, "reasons": reasons})
        })
        .collect();
    Value::Array(list)
}

/// Everything the report's front page shows.
pub fn report_data(league: &LeagueFiles, rows: &[GameRow]) -> Value {
    let s = &league.standings;
    let agents: Vec<String> = s["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect();
    let mut data = json!({
        "league": s.get("league").cloned().unwrap_or(json!("league")),
        "settings": s.get("settings").cloned().unwrap_or(json!({})),
        "agents": s["agents"],
        "cross": s.get("cross").cloned().unwrap_or(json!([])),
        "games_total": s.get("games").cloned().unwrap_or(json!(rows.len())),
        "mean_rounds": s.get("mean_rounds"),
        // Solo leagues only: turns to the target per agent, with each agent's distribution.
        "benchmark": s.get("benchmark").cloned().unwrap_or(Value::Null),
        "games": compact_rows(rows),
        "faults": faults_by_agent(&agents, rows),
        "lengths": length_histogram(rows),
    });
    // Present only when not zero, as in standings.json: games nobody could play, and games with
    // a `timeout` fault (their results depend on the machine).
    for key in ["unplayed_games", "machine_dependent_games"] {
        if let Some(n) = s.get(key) {
            data[key] = n.clone();
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_line_that_gives_a_key_twice_is_refused() {
        let dir = std::env::temp_dir().join(format!("arena-report-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(STANDINGS_JSON), r#"{"agents":[]}"#).unwrap();
        let game = |id: usize, extra: &str| {
            format!(
                r#"{{"type":"game","id":{id},{extra}"key":"a,b#0","seed":1,"seats":["a","b"],"outcome":{{"result":"draw","round_cap":true}},"rounds":3,"turns":6,"forfeits":[],"faults":[],"record":"records/game-00000{id}.jsonl"}}"#
            )
        };
        let journal = |second: String| {
            let lines = [
                r#"{"type":"league","fingerprint":"f","name":"l","games":3}"#.to_string(),
                game(0, ""),
                second,
                game(2, ""),
            ];
            std::fs::write(dir.join(JOURNAL_FILE), lines.join("\n") + "\n").unwrap();
        };
        journal(game(1, ""));
        assert_eq!(load_league(&dir).unwrap().games.len(), 3);
        // A second `rounds` that `serde_json::Value` would have kept silently.
        journal(game(1, r#""rounds":99,"#));
        let e = format!("{:#}", load_league(&dir).unwrap_err());
        assert!(
            e.contains("journal.jsonl:3: key `rounds` given twice"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
