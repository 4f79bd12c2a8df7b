//! Playing one code war: the rules' game, run by the sandbox, written as a record.

use std::collections::BTreeSet;

use anyhow::{bail, Context};
use codewar_rules::settings::{MAX_AGENT_BYTES, MAX_PLAYERS};
use codewar_rules::visit::Outcome::Ran;
use codewar_rules::Game;
use serde_json::{Map, Value};

use super::code::Snippet;
use super::executor::{snippets_for, SandboxExecutor};
use super::imports::VisitState;
use super::record::lines;
use super::record::modules::ModuleTable;
use super::settings::CodewarSettings;
use crate::game::{Played, SeatUsage, Summary, Table};
use crate::records::jsonl::push_line;
use crate::records::sha256_hex;
use crate::sandbox::{HostFailure, Snippets};

/// What `play` measured besides the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayStats {
    pub iterations: u32,
    pub visits: u64,
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

/// A code war being played, or played again by the verifier: the rules' game, each visit run in
/// the sandbox, and the record's lines of each iteration. Playing and verifying run this one
/// loop, so that a record cannot verify differently from how it was played.
pub(super) struct Playing<'s> {
    pub game: Game<Snippet>,
    executor: SandboxExecutor<'s>,
    /// The modules the record has written and still refers to.
    modules: ModuleTable,
    stats: PlayStats,
}

impl<'s> Playing<'s> {
    /// The game of the players' modules `seats`, and the record's module lines of them (each
    /// distinct module once, in seat order).
    pub fn new(
        snippets: &'s Snippets<VisitState>,
        settings: &CodewarSettings,
        seats: Vec<Snippet>,
        seed: u64,
    ) -> Result<(Playing<'s>, Vec<Value>), String> {
        let mut modules = ModuleTable::default();
        let lines = (seats.iter())
            .filter_map(|p| modules.pin(p).map(|id| lines::module(id, p)))
            .collect();
        let playing = Playing {
            game: Game::new(settings.rules(), seats, seed).map_err(|e| e.to_string())?,
            executor: SandboxExecutor::new(snippets),
            modules,
            stats: PlayStats::default(),
        };
        Ok((playing, lines))
    }

    /// Plays the next iteration (`None`: the game is over) without running the visits of the
    /// cells in `timeouts` (recorded as timeouts: a replay cannot reproduce the wall clock).
    /// Gives the module lines of the modules that entered the Array while no cell held them,
    /// and the iteration's line; then forgets the modules no cell holds. An error is the host's
    /// failure.
    pub fn iteration(
        &mut self,
        timeouts: BTreeSet<usize>,
    ) -> Option<Result<(Vec<Value>, Value), HostFailure>> {
        self.executor.timeouts = timeouts;
        let it = self.game.play_iteration(&mut self.executor)?;
        if let Some(h) = self.executor.host_failure.take() {
            return Some(Err(h));
        }
        self.stats.visits += it.visits.len() as u64;
        let mut new = Vec::new();
        for v in &it.visits {
            if let Ran { entered, .. } = &v.outcome {
                let added = entered
                    .iter()
                    .filter_map(|c| Some((self.modules.add(c)?, c)));
                new.extend(added.map(|(id, code)| lines::module(id, code)));
            }
        }
        let line = lines::iteration(&it, self.game.array(), &self.modules);
        self.modules.prune(self.game.array());
        let held = self.modules.held() + new.len();
        self.stats.modules_held = self.stats.modules_held.max(held);
        Some(Ok((new, line)))
    }

    /// What the league keeps of the game, and its end line with `digest`.
    pub fn end(&self, digest: &str) -> (Summary, Value) {
        let game = &self.game;
        let (outcome, counts) = (lines::outcome(game.outcome()), game.counts());
        let end = lines::end(outcome, game.played(), &counts, game.eliminated(), digest);
        let turns = self.stats.visits.min(u64::from(u32::MAX)) as u32;
        let scores = counts.iter().map(|&c| i64::from(c)).collect();
        let summary = Summary::of(
            outcome,
            turns,
            game.played(),
            game.eliminated(),
            Some(scores),
        );
        (summary, end)
    }
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
    Ok(play_in(&*snippets_for(settings)?, table, settings, modules)?.played)
}

/// [`play`] with the given snippets (whose limits must be `settings`'s: another engine's, to
/// measure it), with the game's figures.
pub fn play_in(
    snippets: &Snippets<VisitState>,
    table: &Table,
    settings: &CodewarSettings,
    modules: &[Vec<u8>],
) -> anyhow::Result<Report> {
    let (seats, limits) = seats_of(snippets, table, settings, modules)?;
    let players = seats.len();
    let setup = lines::setup(
        (table.meta.names.iter())
            .zip(&seats)
            .map(|(name, s)| (name.as_str(), s.hash())),
        table.seed,
        settings,
        &limits,
        (table.round_cap, table.policy),
    );
    crate::sandbox::run_with_big_stack(|| {
        let mut record = Vec::with_capacity(64 << 10);
        push_line(&mut record, &setup)?;
        let (mut playing, modules) =
            Playing::new(snippets, settings, seats, table.seed).map_err(anyhow::Error::msg)?;
        for line in modules {
            push_line(&mut record, &line)?;
        }
        while let Some(lines) = playing.iteration(BTreeSet::new()) {
            let (new, line) = lines.map_err(|h| {
                anyhow::Error::new(HostFailure(format!(
                    "code war with seed {} not recorded: {}",
                    table.seed, h.0
                )))
            })?;
            for m in &new {
                push_line(&mut record, m)?;
            }
            push_line(&mut record, &line)?;
        }
        let (summary, end) = playing.end(&sha256_hex(&record));
        push_line(&mut record, &end)?;
        let stats = PlayStats {
            iterations: summary.rounds,
            fuel_used: playing.executor.fuel_used,
            ..playing.stats
        };
        let mut usage = playing.executor.usage;
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
