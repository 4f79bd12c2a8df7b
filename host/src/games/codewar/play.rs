//! Playing one code war: the rules' game, run by the sandbox, written as a record.

use anyhow::{bail, Context};
use codewar_rules::settings::{MAX_AGENT_BYTES, MAX_PLAYERS};
use codewar_rules::visit::Outcome as VisitOutcome;
use codewar_rules::Game;
use serde_json::{Map, Value};

use super::code::Snippet;
use super::executor::{snippets_for, SandboxExecutor};
use super::imports::VisitState;
use super::record::lines::{self, PlayerLine};
use super::record::Recorder;
use super::settings::CodewarSettings;
use crate::game::{Played, SeatUsage, Summary, Table};
use crate::records::jsonl::push_line;
use crate::records::sha256_hex;
use crate::sandbox::Snippets;

/// What `play` measured besides the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayStats {
    pub iterations: u32,
    pub visits: u64,
    pub segfaults: u64,
    /// Fuel used by every visit.
    pub fuel_used: u64,
    /// Most modules the record's table held at once (players' included).
    pub modules_held: usize,
}

/// A played game with its figures.
pub struct Report {
    pub played: Played,
    pub stats: PlayStats,
}

/// Plays a code war between `modules` (WebAssembly binaries, one per seat) with the seed and
/// names of `table` (its round cap and fault policy do not apply: the game lasts
/// `settings.iterations`, and an agent's failure is a segfault of its cell) and returns its
/// record and summary. An error is the host's own failure: the game is not recorded.
pub fn play(
    table: &Table,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
) -> anyhow::Result<Played> {
    Ok(play_with_stats(table, settings, modules)?.played)
}

/// [`play`], with the game's figures.
pub fn play_with_stats(
    table: &Table,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
) -> anyhow::Result<Report> {
    let snippets = snippets_for(settings)?;
    play_in(&snippets, table, settings, modules)
}

/// [`play_with_stats`] with the given snippets (whose limits must be `settings`'s): another
/// engine's, to measure it.
pub fn play_in(
    snippets: &Snippets<VisitState>,
    table: &Table,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
) -> anyhow::Result<Report> {
    let (seats, limits) = seats_of(snippets, table, settings, modules)?;
    let players = seats.len();
    let setup = lines::setup(
        &seats
            .iter()
            .zip(&table.meta.names)
            .map(|(s, name)| PlayerLine {
                name,
                agent: s.hash(),
            })
            .collect::<Vec<_>>(),
        table.seed,
        settings,
        &limits,
        (table.round_cap, table.policy),
    );
    crate::sandbox::run_with_big_stack(|| {
        let mut record = Vec::with_capacity(64 << 10);
        push_line(&mut record, &setup)?;
        let mut recorder = Recorder::default();
        for line in recorder.start(&seats) {
            push_line(&mut record, &line)?;
        }
        let mut game =
            Game::new(settings.rules(), seats, table.seed).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut executor = SandboxExecutor::new(snippets);
        let mut stats = PlayStats::default();
        while let Some(it) = game.play_iteration(&mut executor) {
            if let Some(h) = executor.host_failure.take() {
                return Err(anyhow::Error::new(crate::sandbox::HostFailure(format!(
                    "code war with seed {} not recorded: {}",
                    table.seed, h.0
                ))));
            }
            stats.visits += it.visits.len() as u64;
            stats.segfaults += it
                .visits
                .iter()
                .filter(|v| matches!(v.outcome, VisitOutcome::Segfault(_)))
                .count() as u64;
            let (new, line) = recorder.iteration(&it, game.array());
            stats.modules_held = stats.modules_held.max(recorder.modules().len() + new.len());
            for m in &new {
                push_line(&mut record, m)?;
            }
            push_line(&mut record, &line)?;
        }
        stats.iterations = game.played();
        stats.fuel_used = executor.fuel_used;
        let digest = sha256_hex(&record);
        let outcome = lines::outcome(game.outcome());
        let counts = game.counts();
        push_line(
            &mut record,
            &lines::end(outcome, game.played(), &counts, game.eliminated(), &digest),
        )?;
        let summary = Summary {
            outcome,
            rounds: game.played(),
            turns: stats.visits.min(u64::from(u32::MAX)) as u32,
            forfeits: game.eliminated().to_vec(),
            faults: Vec::new(),
            scores: Some(counts.iter().map(|&c| i64::from(c)).collect()),
        };
        let mut usage = executor.usage;
        usage.resize(players, SeatUsage::default());
        Ok(Report {
            played: Played {
                record,
                summary,
                usage: usage.into_iter().map(Some).collect(),
                detail: Box::new(()),
            },
            stats,
        })
    })
}

/// The players' modules of `table`, checked (the settings, the number of players and names, each
/// module's size and hash), and the table's limits as the setup line's object.
fn seats_of(
    snippets: &Snippets<VisitState>,
    table: &Table,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
) -> anyhow::Result<(Vec<Snippet>, Map<String, Value>)> {
    settings.validate().context("code war settings")?;
    if *snippets.limits() != settings.snippet_limits() {
        bail!("the snippets' limits are not the settings'");
    }
    let players = modules.len();
    if !(1..=MAX_PLAYERS).contains(&players) {
        bail!("{players} players: a code war has 1 to {MAX_PLAYERS}");
    }
    if table.meta.names.len() != players {
        bail!("{} names for {players} players", table.meta.names.len());
    }
    let limits = match &*table.meta.limits {
        Value::Null => Map::new(),
        Value::Object(m) => m.clone(),
        other => bail!("limits must be a JSON object, not {other}"),
    };
    let seats: Vec<Snippet> = modules.iter().map(|m| Snippet::new(m.clone())).collect();
    for (seat, code) in seats.iter().enumerate() {
        let name = &table.meta.names[seat];
        if code.bytes().len() > MAX_AGENT_BYTES as usize {
            bail!(
                "seat {seat} ({name}): the module is {} bytes; a code war agent has at most \
                 {MAX_AGENT_BYTES}",
                code.bytes().len()
            );
        }
        if let Some(Some(hash)) = table.meta.agent_hashes.get(seat) {
            if *hash != code.hash() {
                bail!(
                    "seat {seat} ({name}): the table names the agent {hash}, its module is {}",
                    code.hash()
                );
            }
        }
    }
    Ok((seats, limits))
}
