//! The report's data: what the pages show, gathered from the files of a league output folder.
//! Everything here is plain JSON for the templates; nothing in it is recomputed from agents, so the
//! report shows exactly what the league wrote.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use farm_rules::{ANIMALS, KINDS, START_STOCK};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::game::GameKind;
use crate::league::journal::JOURNAL_FILE;
use crate::league::output::STANDINGS_JSON;
use crate::league::result::GameResult;

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
    /// The game's name from the record's setup line (`little-animal-farm`, `farkle`); `None` when
    /// the record could not be read. The report picks the replay page by it.
    pub game: Option<String>,
    pub seats: Vec<String>,
    /// Final scores by seat, for games that keep a score (Farkle).
    pub scores: Option<Vec<i64>>,
    /// The winner's name; `None` for a draw.
    pub winner: Option<String>,
    /// `win`, `win_last_standing`, `draw_round_cap`, `draw_all_forfeited` or `unfinished`.
    pub result: &'static str,
    pub rounds: u32,
    pub turns: u32,
    /// Names of the agents that forfeited, in order.
    pub forfeits: Vec<String>,
    pub faults: Vec<FaultRow>,
    /// The game's data script, relative to the report folder; `None` when the record could not
    /// be read (then `error` says why).
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
    let standings: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid JSON", path.display()))?;
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
        let value: Value = match serde_json::from_str(line) {
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

/// File name of a game's data script.
pub fn game_script_name(id: usize) -> String {
    format!("game-{id:06}.js")
}

fn result_name(outcome: &crate::farm::Outcome) -> &'static str {
    use crate::farm::Outcome;
    match outcome {
        Outcome::Win {
            last_standing: true,
            ..
        } => "win_last_standing",
        Outcome::Win { .. } => "win",
        Outcome::Draw { round_cap: true } => "draw_round_cap",
        Outcome::Draw { .. } => "draw_all_forfeited",
        Outcome::Unfinished => "unfinished",
    }
}

/// The list row of a game and, when its record can be read, the data the replay viewer animates.
pub fn game_data(dir: &Path, g: &GameResult) -> (GameRow, Option<Value>) {
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
        result: result_name(&g.outcome),
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
    match read_record_lines(&dir.join(&g.record)).and_then(|lines| replay_data(g.id, &lines)) {
        Ok(mut game) => {
            game["record"] = json!(row.record);
            row.game = game.get("game").and_then(Value::as_str).map(str::to_owned);
            row.data = Some(format!("{}/{}", super::GAMES_DIR, game_script_name(g.id)));
            (row, Some(game))
        }
        Err(e) => {
            row.error = Some(format!("{e:#}"));
            (row, None)
        }
    }
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
            serde_json::from_str(l).with_context(|| format!("{}:{}", path.display(), i + 1))
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
        .unwrap_or(GameKind::Farm.name());
    match game.parse::<GameKind>() {
        Ok(GameKind::Farm) => farm_replay_data(id, setup, lines),
        Ok(GameKind::Farkle) => farkle_replay_data(id, setup, lines),
        Err(e) => bail!("{e}"),
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
        "game": GameKind::Farkle.name(),
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
        "game": GameKind::Farm.name(),
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
    json!({
        "league": s.get("league").cloned().unwrap_or(json!("league")),
        "settings": s.get("settings").cloned().unwrap_or(json!({})),
        "agents": s["agents"],
        "cross": s.get("cross").cloned().unwrap_or(json!([])),
        "games_total": s.get("games").cloned().unwrap_or(json!(rows.len())),
        "mean_rounds": s.get("mean_rounds"),
        // Solo leagues only: turns to the target per agent, with each agent's distribution.
        "benchmark": s.get("benchmark").cloned().unwrap_or(Value::Null),
        "games": rows,
        "faults": faults_by_agent(&agents, rows),
        "lengths": length_histogram(rows),
    })
}
