//! A watched league cut short (`arena match`'s sequential test decided early): the folder is left
//! as the smaller league of the first cycles of every group would leave it, so that it verifies
//! and reports as that league.

use std::path::Path;

use anyhow::{anyhow, Context};

use super::config::LeagueConfig;
use super::contestant::Contestant;
use super::journal::Journal;
use super::result::GameResult;
use super::runner::{hashes, settings_json, RECORDS_DIR};
use super::schedule::Schedule;

/// Cuts the league `cfg` (played in `out` by `schedule`) to its first `cycles` cycles per group:
/// drops the records of later games, gives the kept ones the ids of the smaller league (renaming
/// their records) and rewrites the journal as that league's. Returns the smaller league.
pub(super) fn cut_league(
    cfg: &LeagueConfig,
    schedule: &Schedule,
    cycles: usize,
    results: &mut Vec<GameResult>,
    out: &Path,
    limits_json: &serde_json::Value,
    modules: &[&dyn Contestant],
) -> anyhow::Result<LeagueConfig> {
    let mut cut = cfg.clone();
    cut.games_per_group = u32::try_from(cycles * cfg.players_per_game)
        .ok()
        .filter(|&g| g > 0 && g <= cfg.games_per_group)
        .ok_or_else(|| {
            anyhow!(
                "cannot cut a league of {} games per group to {cycles} cycles",
                cfg.games_per_group
            )
        })?;
    let mut kept = Vec::with_capacity(results.len());
    for r in results.drain(..) {
        if let Some(id) = schedule.id_when_cut(r.id, cycles) {
            kept.push((id, r));
        }
    }
    // A kept game's new id is at most its old one, and the file under its new id is a dropped
    // game's (swept below) or a kept game's with a smaller new id (renamed before it).
    kept.sort_by_key(|(id, _)| *id);
    for (id, r) in &mut kept {
        if *id != r.id {
            let suffix = if r.record.ends_with(".gz") { ".gz" } else { "" };
            let record = format!("{RECORDS_DIR}/game-{id:06}.jsonl{suffix}");
            std::fs::rename(out.join(&r.record), out.join(&record))
                .with_context(|| format!("cannot rename {} to {record}", r.record))?;
            r.id = *id;
            r.record = record;
        }
    }
    // Every other record goes: the dropped games', including those that ended after the cut
    // (their results were never journaled, but their workers wrote their records).
    let keep: std::collections::HashSet<std::path::PathBuf> =
        kept.iter().map(|(_, r)| out.join(&r.record)).collect();
    let records = out.join(RECORDS_DIR);
    let read = || format!("cannot read {}", records.display());
    for entry in std::fs::read_dir(&records).with_context(read)? {
        let path = entry.with_context(read)?.path();
        if !keep.contains(&path) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
    }
    results.extend(kept.into_iter().map(|(_, r)| r));
    anyhow::ensure!(
        results.len()
            == schedule.len() / (cfg.games_per_group as usize) * cut.games_per_group as usize,
        "the league was cut to {cycles} cycles before all of their games had ended"
    );
    // The journal becomes the smaller league's: its header, settings and the games it kept.
    let settings = settings_json(&cut, limits_json, &hashes(modules));
    let fingerprint = crate::records::sha256_hex(settings.to_string().as_bytes());
    let games = results.len();
    Journal::write(
        out,
        &fingerprint,
        &cut.name,
        games,
        Some(&settings),
        results,
    )?;
    Ok(cut)
}
