//! `arena verify --league RESULTS_DIR --agents DIR --rerun [--sample FRACTION]`: plays a league's
//! games again with the published agents and compares the records byte for byte.
//!
//! The audit replays each record's *recorded answers* against the rules: it proves the record is
//! a consistent game of the schedule with the published agents' hashes in its seats, not that
//! those agents gave those answers. Whoever wrote the records (a worker holding the database's
//! password) could have played the scheduled seeds with other answers in a seat, put the agent's
//! hash back and computed the digests again: such a record verifies. Games are deterministic, so
//! playing a game again with the real agents, in the same sandbox limits, gives the same record,
//! byte for byte; a forged one differs. A game whose record has a wall-clock `timeout` fault
//! depended on the speed of the machine that played it: it may not come out the same, and is
//! listed apart rather than as a problem.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::Context;

use super::published::Published;
use crate::league::runner::RECORDS_DIR;
use crate::league::schedule::Schedule;
use crate::referee::{self as engine, Agent, Budgets, Engine, Limits, Rules};

/// What playing the games again found.
#[derive(Debug, Default)]
pub struct RerunReport {
    /// Games played again.
    pub played: usize,
    /// Games in the schedule.
    pub scheduled: usize,
    /// Played again, the same record.
    pub same: usize,
    /// Records a wall-clock timeout decided, which came out otherwise (not problems).
    pub machine_dependent: Vec<String>,
    /// Games whose record is not the one their agents play, in schedule order.
    pub problems: Vec<String>,
}

impl RerunReport {
    /// The line `arena verify --league --rerun` prints after the audit's.
    pub fn summary(&self) -> String {
        let which = if self.played == self.scheduled {
            "every game".to_owned()
        } else {
            format!(
                "a random sample of {} of {} games",
                self.played, self.scheduled
            )
        };
        let mut s = format!(
            "rerun {}: {which} played again with the published agents, {} the same record{}",
            if self.problems.is_empty() {
                "ok"
            } else {
                "FAILED"
            },
            self.same,
            if self.same == 1 { "" } else { "s" }
        );
        if !self.problems.is_empty() {
            s.push_str(&format!(", {} not", self.problems.len()));
        }
        if !self.machine_dependent.is_empty() {
            s.push_str(&format!(
                ", {} decided by a wall-clock timeout (not comparable)",
                self.machine_dependent.len()
            ));
        }
        s
    }
}

/// Plays again `sample` (0 to 1) of the games of the league in `dir`, chosen at random, with the
/// agent files of `agents_dir`, on `threads` threads. An error means the games cannot be played
/// again at all (an agent file missing, limits this arena cannot set up).
pub fn rerun_league(
    dir: &Path,
    agents_dir: &Path,
    sample: f64,
    threads: usize,
) -> anyhow::Result<RerunReport> {
    anyhow::ensure!(
        sample > 0.0 && sample <= 1.0,
        "--sample takes a fraction of the games, more than 0 and at most 1 (got {sample})"
    );
    let published = Published::read(dir)?;
    let s = &published.settings;
    let names = s.names();
    let modules = super::agents::published_modules(agents_dir, &s.agents)?;
    let rules = Rules {
        game: s.game,
        settings: match &s.game_settings {
            Some(serde_json::Value::Object(m)) => m.clone(),
            Some(other) => anyhow::bail!("the league's game settings are not a table: {other}"),
            None => Default::default(),
        },
        players: s.players_per_game,
        round_cap: s.round_cap,
        policy: s.fault_policy,
        budgets: budgets_for(&s.limits)?,
    };
    let schedule = Schedule::new(&names, s.players_per_game, s.games_per_group, s.seed)?;
    let games = sampled(schedule.len(), sample)?;
    let (engine, at_once) = Engine::for_games_at_once(rules, threads.max(1))?;
    let agents = names
        .iter()
        .zip(&modules)
        .map(|(name, wasm)| {
            engine
                .load(name, wasm)
                .with_context(|| format!("agent {name:?} cannot be loaded"))
        })
        .collect::<anyhow::Result<Vec<Agent>>>()?;

    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::with_capacity(games.len()));
    let records = dir.join(RECORDS_DIR);
    let play = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&id) = games.get(i) else {
            return;
        };
        let outcome = replay(&engine, &agents, &names, &schedule, &records, id);
        found
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((id, outcome));
    };
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let mut handles = Vec::new();
        for i in 0..at_once.min(threads.max(1)).min(games.len().max(1)) {
            handles.push(
                std::thread::Builder::new()
                    .name(format!("arena-rerun-{i}"))
                    .stack_size(engine::WORKER_STACK_BYTES)
                    .spawn_scoped(scope, play)
                    .context("cannot start a thread")?,
            );
        }
        for h in handles {
            if h.join().is_err() {
                anyhow::bail!("a thread playing games again panicked");
            }
        }
        Ok(())
    })?;
    let mut found = found.into_inner().unwrap_or_else(|p| p.into_inner());
    found.sort_by_key(|(id, _)| *id);
    let mut report = RerunReport {
        played: games.len(),
        scheduled: schedule.len(),
        ..RerunReport::default()
    };
    for (_, outcome) in found {
        match outcome {
            Outcome::Same => report.same += 1,
            Outcome::MachineDependent(m) => report.machine_dependent.push(m),
            Outcome::Differs(m) => report.problems.push(m),
        }
    }
    Ok(report)
}

enum Outcome {
    Same,
    MachineDependent(String),
    Differs(String),
}

/// Plays game `id` again and compares its record with the published one.
fn replay(
    engine: &Engine,
    agents: &[Agent],
    names: &[String],
    schedule: &Schedule,
    records: &Path,
    id: usize,
) -> Outcome {
    let spec = schedule.game(id);
    let plain = format!("game-{id:06}.jsonl");
    let (shown, published) = match read_record(records, &plain) {
        Ok(found) => found,
        Err(e) => return Outcome::Differs(e),
    };
    let seated: Vec<&Agent> = spec.seats.iter().map(|&a| &agents[a]).collect();
    let seat_names: Vec<String> = spec.seats.iter().map(|&a| names[a].clone()).collect();
    let played = match engine.play(&seated, &seat_names, spec.seed, spec.id, &spec.key, "") {
        Ok(p) => p,
        Err(e) => return Outcome::Differs(format!("{shown}: cannot be played again here: {e:#}")),
    };
    if played.record == published {
        return Outcome::Same;
    }
    let at = first_difference(&played.record, &published);
    if played.result.machine_dependent() {
        return Outcome::MachineDependent(format!(
            "{shown}: a wall-clock timeout decided it here: {at}"
        ));
    }
    Outcome::Differs(format!(
        "{shown}: not the game its agents play: played again with the published agents, {at} \
         (game {} ({}))",
        spec.id, spec.key
    ))
}

/// The published record of a game (`records/NAME` or `records/NAME.gz`), uncompressed, and how
/// messages name it.
fn read_record(records: &Path, plain: &str) -> Result<(String, Vec<u8>), String> {
    for (file, gz) in [(plain.to_owned(), false), (format!("{plain}.gz"), true)] {
        let shown = format!("{RECORDS_DIR}/{file}");
        let bytes = match std::fs::read(records.join(&file)) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("{shown}: cannot read: {e}")),
        };
        if !gz {
            return Ok((shown, bytes));
        }
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{shown}: cannot decompress: {e}"))?;
        return Ok((shown, out));
    }
    Err(format!("{RECORDS_DIR}/{plain}: no record (nor .gz)"))
}

/// Where two records part: `line N differs (played: `...`, published: `...`)`, each shown around
/// the first byte where they differ.
fn first_difference(played: &[u8], published: &[u8]) -> String {
    let a: Vec<&[u8]> = played.split(|&b| b == b'\n').collect();
    let b: Vec<&[u8]> = published.split(|&b| b == b'\n').collect();
    let line = (0..a.len().max(b.len()))
        .find(|&i| a.get(i) != b.get(i))
        .unwrap_or(0);
    let (x, y) = (a.get(line).copied(), b.get(line).copied());
    let at = match (x, y) {
        (Some(x), Some(y)) => x.iter().zip(y).take_while(|(p, q)| p == q).count(),
        _ => 0,
    };
    let show = |l: Option<&[u8]>| match l {
        Some(l) => format!("`{}`", around(l, at)),
        None => "nothing".to_owned(),
    };
    format!(
        "line {} differs (played: {}, published: {})",
        line + 1,
        show(x),
        show(y)
    )
}

/// About 30 bytes of `line` on either side of byte `at`, with `…` where it is cut.
fn around(line: &[u8], at: usize) -> String {
    const SIDE: usize = 30;
    let start = at.saturating_sub(SIDE);
    let end = (at + SIDE).min(line.len());
    let mut s = String::new();
    if start > 0 {
        s.push('…');
    }
    s.push_str(&String::from_utf8_lossy(&line[start.min(end)..end]));
    if end < line.len() {
        s.push('…');
    }
    s
}

/// The budgets that give the sandbox `limits` (a league's published limits): every budget set,
/// checked to give exactly those limits.
fn budgets_for(limits: &serde_json::Value) -> anyhow::Result<Budgets> {
    let l: Limits = serde_json::from_value(limits.clone())
        .map_err(|e| anyhow::anyhow!("the league's limits are not this arena's: {e}"))?;
    let b = Budgets {
        fuel_per_decision: Some(l.fuel_per_decision),
        fuel_per_game: Some(l.fuel_per_game),
        memory_mib: Some(l.memory_bytes >> 20),
        table_elements: Some(l.table_elements),
        module_mib: Some(l.module_bytes >> 20),
        decision_wall_ms: Some(l.decision_wall_ms),
        log_kib: Some(l.log_bytes >> 10),
    };
    anyhow::ensure!(
        serde_json::to_value(engine::limits(&b))? == *limits,
        "the league's limits ({limits}) are not ones this arena's budgets set: its games cannot \
         be played again here"
    );
    Ok(b)
}

/// `ceil(fraction × n)` game numbers out of `n`, chosen at random (a fresh choice each run, which
/// whoever wrote the records cannot know), in order.
fn sampled(n: usize, fraction: f64) -> anyhow::Result<Vec<usize>> {
    let k = ((fraction * n as f64).ceil() as usize).min(n);
    if k == n {
        return Ok((0..n).collect());
    }
    use rand_core::{RngCore, SeedableRng};
    let token = crate::jobs::new_token()?;
    use sha2::Digest;
    let seed: [u8; 32] = sha2::Sha256::digest(token.as_bytes()).into();
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(seed);
    // The first k places of a Fisher–Yates shuffle.
    let mut ids: Vec<usize> = (0..n).collect();
    for i in 0..k {
        let j = i + (rng.next_u64() % (n - i) as u64) as usize;
        ids.swap(i, j);
    }
    let mut chosen = ids[..k].to_vec();
    chosen.sort_unstable();
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_is_a_random_set_of_its_size() {
        assert_eq!(sampled(10, 1.0).unwrap(), (0..10).collect::<Vec<_>>());
        let a = sampled(1000, 0.05).unwrap();
        assert_eq!(a.len(), 50);
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a[49] < 1000);
        assert_ne!(a, sampled(1000, 0.05).unwrap(), "a fresh choice each time");
        assert_eq!(sampled(3, 0.01).unwrap().len(), 1);
    }

    #[test]
    fn limits_are_set_up_again_from_a_league_s_published_limits() {
        let b = Budgets {
            fuel_per_decision: Some(40_000_000),
            memory_mib: Some(16),
            ..Budgets::default()
        };
        let limits = serde_json::to_value(engine::limits(&b)).unwrap();
        let again = budgets_for(&limits).unwrap();
        assert_eq!(
            serde_json::to_value(engine::limits(&again)).unwrap(),
            limits
        );
        let mut odd = limits.clone();
        odd["memory_bytes"] = serde_json::json!(1000);
        assert!(budgets_for(&odd)
            .unwrap_err()
            .to_string()
            .contains("cannot be played again"));
    }

    #[test]
    fn the_first_difference_is_named_by_its_line() {
        assert_eq!(
            first_difference(b"a\nb\nc\n", b"a\nx\nc\n"),
            "line 2 differs (played: `b`, published: `x`)"
        );
        let long = |c: char| format!("{}{c}{}", "a".repeat(50), "b".repeat(50));
        assert_eq!(
            first_difference(long('1').as_bytes(), long('2').as_bytes()),
            format!(
                "line 1 differs (played: `…{a}1{b}…`, published: `…{a}2{b}…`)",
                a = "a".repeat(30),
                b = "b".repeat(29)
            )
        );
        assert_eq!(
            first_difference(b"a\n", b"a\nb\n"),
            "line 2 differs (played: ``, published: `b`)"
        );
    }
}
