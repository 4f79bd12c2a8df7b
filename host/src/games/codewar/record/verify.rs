//! Verifying a code war record: the game is played again from the setup line's seed and the
//! players' modules, every visit run again in the sandbox, and the replay's lines must be the
//! record's (docs/CODEWAR.md, "Verifying a record"). Streamed: a line is read when the replay
//! reaches it and dropped once compared, so memory holds the players' modules, one module per
//! cell and one iteration's module lines, whatever the record's length.

use base64::Engine as _;
use codewar_rules::settings::{MAX_AGENT_BYTES, MAX_PLAYERS};
use codewar_rules::SegfaultKind;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::super::code::Snippet;
use super::super::executor::snippets_for;
use super::super::play::Playing;
use super::super::settings::CodewarSettings;
use super::super::INFO;
use super::lines::{self, BASE64, GAME_NAME};
use crate::game::record::{DiceOrigin, VerifySummary};
use crate::game::{FaultPolicy, Outcome};
use crate::records::lines::{Line, RecordReader};
use crate::records::read::SetupHead;
use crate::records::stream::{check_digest, compare_line};
use crate::records::verify::fail;
use crate::records::VerifyError;

/// How a verified game ended, in the code war's words: `winner: seat 0 (57 cells)`.
fn result(outcome: Outcome, iterations: u32, cells: &[i64]) -> String {
    let outcome = match outcome {
        Outcome::Win {
            seat,
            last_standing: true,
        } => format!("winner: seat {seat}, the last player left"),
        Outcome::Win { seat, .. } => format!("winner: seat {seat} ({} cells)", cells[seat]),
        Outcome::Draw { round_cap: true } => "draw: a shared lead".into(),
        Outcome::Draw { .. } | Outcome::Unfinished => "draw: no cell left".into(),
    };
    format!("{iterations} iterations, {outcome}")
}

/// The whole setup line, which may hold no other field (the envelope's are checked by
/// [`SetupHead`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupJson {
    #[serde(rename = "type")]
    _kind: String,
    #[serde(rename = "format")]
    _format: String,
    #[serde(rename = "format_version")]
    _format_version: u32,
    #[serde(rename = "game")]
    _game: String,
    #[serde(rename = "rules_version")]
    _rules_version: u32,
    players: Vec<PlayerJson>,
    seed: u64,
    round_cap: u32,
    fault_policy: FaultPolicy,
    settings: CodewarSettings,
    limits: Map<String, Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerJson {
    #[serde(rename = "seat")]
    _seat: usize,
    name: String,
    agent: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModuleJson {
    #[serde(rename = "type")]
    _kind: String,
    #[serde(rename = "id")]
    _id: u32,
    hash: String,
    bytes: String,
}

/// A module line's bytes, checked against its hash and `max_bytes`.
fn module_line(line: &Line, max_bytes: u32) -> Result<Snippet, VerifyError> {
    let m: ModuleJson = Deserialize::deserialize(&line.value)
        .map_err(|e| fail(line.number, format!("module line: {e}")))?;
    // Base64 of more than the largest module is refused before it is decoded.
    if m.bytes.len() > (max_bytes as usize).div_ceil(3) * 4 {
        return Err(fail(
            line.number,
            format!("bytes: a module of more than {max_bytes} bytes, the maximal size"),
        ));
    }
    let bytes = BASE64
        .decode(&m.bytes)
        .map_err(|e| fail(line.number, format!("bytes: not base64 ({e})")))?;
    if bytes.len() > max_bytes as usize {
        return Err(fail(
            line.number,
            format!(
                "bytes: a module of {} bytes, more than the maximal size of {max_bytes}",
                bytes.len()
            ),
        ));
    }
    let code = Snippet::new(bytes);
    if code.hash() != m.hash {
        return Err(fail(
            line.number,
            format!(
                "hash: the bytes' SHA-256 is {}, not {}",
                code.hash(),
                Value::String(m.hash)
            ),
        ));
    }
    Ok(code)
}

/// The cells whose visit an iteration line records as a timeout.
fn timeouts(line: &Line) -> std::collections::BTreeSet<usize> {
    let timeout = Value::String(SegfaultKind::Timeout.name().into());
    line.value
        .get("visits")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .filter(|v| {
            v.get(2).and_then(Value::as_str) == Some("segfault") && v.get(3) == Some(&timeout)
        })
        .filter_map(|v| v.first().and_then(Value::as_u64))
        .map(|c| c as usize)
        .collect()
}

/// Verifies a record whose setup line (`first`) has been read: plays the game again and
/// requires every line back. Guest code runs on the calling thread: it needs a big stack
/// (`sandbox::run_with_big_stack`).
pub fn verify_lines(
    mut reader: RecordReader<'_>,
    first: Line,
) -> Result<VerifySummary, VerifyError> {
    let setup = check_setup(&first)?;
    drop(first);
    let settings = setup.settings;
    let (seats, module_lines) = players_modules(&mut reader, &setup)?;
    let snippets = snippets_for(&settings).map_err(|e| {
        fail(
            0,
            format!("the host failed: cannot set up the sandbox: {e:#}"),
        )
    })?;
    let (playing, modules) = Playing::new(&snippets, &settings, seats, setup.seed)
        .map_err(|e| fail(1, format!("settings: {e}")))?;
    for (read, expected) in module_lines.iter().zip(&modules) {
        compare_line(read, expected, false, |_| String::new())?;
    }
    let mut replay = Replay {
        playing,
        pending: Vec::new(),
    };
    let end = replay.iterations(&mut reader, &settings)?;
    let (summary, replayed) = replay.playing.end("");
    compare_line(&end, &replayed, true, |_| String::new())?;
    let digest = end
        .value
        .get("digest")
        .and_then(Value::as_str)
        .ok_or_else(|| fail(end.number, "digest: missing"))?
        .to_owned();
    check_digest(&reader, &end, &digest)?;
    reader.expect_end_of_file()?;
    let scores = summary.scores.unwrap_or_default();
    Ok(VerifySummary {
        game: GAME_NAME,
        turn_word: INFO.turn_word,
        rolls_dice: INFO.dice,
        players: setup.players.len(),
        result: result(summary.outcome, summary.rounds, &scores),
        names: setup.players.iter().map(|p| p.name.clone()).collect(),
        agent_hashes: setup.players.into_iter().map(|p| Some(p.agent)).collect(),
        round_cap: setup.round_cap,
        policy: setup.fault_policy,
        limits: setup.limits,
        turns: summary.turns as usize,
        rounds: summary.rounds,
        outcome: summary.outcome,
        dice: DiceOrigin::Seeded(setup.seed),
        forfeits: summary.forfeits,
        faults: Default::default(),
        load_faults: Vec::new(),
        scores: Some(scores),
        settings: settings.to_map().ok(),
    })
}

/// The setup line read, checked (format, game, rules version, seats, settings) and compared with
/// the line the replay writes for it.
fn check_setup(first: &Line) -> Result<SetupJson, VerifyError> {
    SetupHead::read(first, GAME_NAME, codewar_rules::RULES_VERSION, |n| {
        if (1..=MAX_PLAYERS).contains(&n) {
            Ok(())
        } else {
            Err(format!("players: {n} seats, expected 1 to {MAX_PLAYERS}"))
        }
    })?;
    // Read again whole: a code war's setup line has no field but these.
    let setup: SetupJson =
        Deserialize::deserialize(&first.value).map_err(|e| fail(1, format!("setup line: {e}")))?;
    setup
        .settings
        .validate()
        .map_err(|e| fail(1, format!("settings: {e}")))?;
    let players = setup.players.iter();
    let replayed = lines::setup(
        players.map(|p| (p.name.as_str(), p.agent.clone())),
        setup.seed,
        &setup.settings,
        &setup.limits,
        (setup.round_cap, setup.fault_policy),
    );
    compare_line(first, &replayed, false, |_| String::new())?;
    Ok(setup)
}

/// The players' modules: one line per distinct module, in seat order, each checked against the
/// seat's agent hash. The module of each seat, and the lines read.
fn players_modules(
    reader: &mut RecordReader<'_>,
    setup: &SetupJson,
) -> Result<(Vec<Snippet>, Vec<Line>), VerifyError> {
    let mut module_lines: Vec<Line> = Vec::new();
    let mut seats: Vec<Snippet> = Vec::with_capacity(setup.players.len());
    for p in &setup.players {
        // A module read for an earlier seat is not written again.
        if let Some(m) = seats.iter().find(|m| m.hash() == p.agent) {
            seats.push(m.clone());
            continue;
        }
        let line = reader.next_before_end()?;
        if line.kind() != Some("module") {
            return Err(fail(
                line.number,
                format!(
                    "type: expected \"module\" (the module of seat {}), found {}",
                    seats.len(),
                    line.kind_shown()
                ),
            ));
        }
        let code = module_line(&line, MAX_AGENT_BYTES)?;
        if code.hash() != p.agent {
            return Err(fail(
                line.number,
                format!(
                    "hash: expected {} (the agent of seat {}), found {}",
                    Value::String(p.agent.clone()),
                    seats.len(),
                    Value::String(code.hash())
                ),
            ));
        }
        module_lines.push(line);
        seats.push(code);
    }
    Ok((seats, module_lines))
}

/// The game played again, iteration by iteration, against the record's lines.
struct Replay<'s> {
    playing: Playing<'s>,
    /// The module lines read since the last iteration line.
    pending: Vec<Line>,
}

impl Replay<'_> {
    /// Replays the iterations as their lines come, up to the end line, which it returns.
    fn iterations(
        &mut self,
        reader: &mut RecordReader<'_>,
        settings: &CodewarSettings,
    ) -> Result<Line, VerifyError> {
        loop {
            let line = reader.next_before_end()?;
            match line.kind() {
                Some("module") => {
                    // An iteration writes at most two modules per visit.
                    if self.pending.len() >= 2 * settings.array_size as usize {
                        return Err(fail(
                            line.number,
                            "more module lines than an iteration can make",
                        ));
                    }
                    module_line(&line, settings.max_size)?;
                    self.pending.push(line);
                }
                Some("iteration") => self.iteration(&line)?,
                Some("end") => {
                    if let Some(early) = self.pending.first() {
                        return Err(fail(
                            early.number,
                            "a module line before the end line, not before an iteration",
                        ));
                    }
                    if !self.playing.game.is_over() {
                        return Err(fail(
                            line.number,
                            format!(
                                "type: expected \"iteration\", found \"end\": the game goes on \
                                 with iteration {}",
                                self.playing.game.played() + 1
                            ),
                        ));
                    }
                    return Ok(line);
                }
                _ => {
                    return Err(fail(
                        line.number,
                        format!(
                            "type: expected \"module\", \"iteration\" or \"end\", found {}",
                            line.kind_shown()
                        ),
                    ))
                }
            }
        }
    }

    /// Plays the iteration of `line` again and compares it, and the module lines read before it,
    /// with what the replay writes.
    fn iteration(&mut self, line: &Line) -> Result<(), VerifyError> {
        let played = self.playing.game.played();
        let Some(lines) = self.playing.iteration(timeouts(line)) else {
            return Err(fail(
                line.number,
                format!(
                    "type: expected \"end\", found \"iteration\": the replayed game ended \
                     after iteration {played}"
                ),
            ));
        };
        let (new, replayed) = lines.map_err(|h| fail(0, format!("{h}")))?;
        let iteration = played + 1;
        for (k, expected) in new.iter().enumerate() {
            let Some(read) = self.pending.get(k) else {
                return Err(fail(
                    line.number,
                    format!(
                        "type: expected \"module\", found \"iteration\": the replay of \
                         iteration {iteration} writes {} module lines before it, the record {}",
                        new.len(),
                        self.pending.len()
                    ),
                ));
            };
            compare_line(read, expected, false, |_| String::new())?;
        }
        if let Some(extra) = self.pending.get(new.len()) {
            return Err(fail(
                extra.number,
                format!(
                    "a module line the replay of iteration {iteration} does not write (it writes {})",
                    new.len()
                ),
            ));
        }
        self.pending.clear();
        compare_line(line, &replayed, false, |_| String::new())
    }
}
