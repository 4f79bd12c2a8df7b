//! `arena match NEW OLD`: is the new version of an agent better than the old one?
//!
//! A match is a league of two agents, NEW and OLD, played by the league's own runner (sandbox,
//! fair schedule, journal, records), so its output folder verifies and reports as a league's:
//!
//! - head to head (every two-player game; the default for games without a solo benchmark): each
//!   cycle of the schedule is a pair of games on one seed with the seats swapped; the pairs give
//!   the pentanomial counts, the Elo difference with its interval and the SPRT ([`crate::stats`]);
//! - solo (the default for games with a solo benchmark): NEW and OLD each play alone on the same
//!   seeds, the schedule's cycle `c` of each being one pair; the pairs give the difference in
//!   turns to the target with its paired interval and a sequential test on the turns saved. A
//!   game that does not reach the target counts as one turn more than the round cap.
//!
//! The games are started cycle by cycle and the pairs are counted in schedule order
//! ([`tally`]), so the figures and the pair at which a sequential test stops depend on the seed
//! alone. When the test decides, the league is cut to the pairs counted: the games still running
//! are dropped, and the folder is the league of that many games.

pub mod report;
pub mod tally;
mod watch;

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use crate::game::{FaultPolicy, Game};
use crate::league::config::{AgentEntry, Budgets, LeagueConfig};
use crate::league::journal::JOURNAL_FILE;
use crate::league::{run_league_watched, RunOptions};
use crate::stats::{SettingsError, SprtSettings, TurnsSprtSettings};
pub use report::MatchReport;
use tally::Test;
use watch::MatchWatcher;

/// Games of a match without `--games` and without a sequential test.
pub const DEFAULT_GAMES: u64 = 1000;
/// The game limit of a sequential test without `--games`: far more than a test between versions
/// a few Elo apart needs, so that the limit is a safety net rather than the usual ending.
pub const DEFAULT_SPRT_GAMES: u64 = 100_000;

/// How the two agents meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Two-player games in seat-swapped pairs on one seed.
    HeadToHead,
    /// Each alone on the same seeds (a game's solo benchmark).
    Solo,
}

impl Mode {
    /// Solo for a game with a solo benchmark (one seat), unless head to head is asked for.
    pub fn for_game(game: &dyn Game, head_to_head: bool) -> anyhow::Result<Mode> {
        let seats = game.seats();
        if seats.contains(&1) && !head_to_head {
            Ok(Mode::Solo)
        } else if seats.contains(&2) {
            Ok(Mode::HeadToHead)
        } else {
            anyhow::bail!(
                "{} has no two-player games to match agents in",
                game.title()
            )
        }
    }

    fn players(self) -> usize {
        match self {
            Mode::HeadToHead => 2,
            Mode::Solo => 1,
        }
    }

    /// The league's `games_per_group` for `games` games: head to head, one group (NEW and OLD)
    /// plays them all; solo, each agent is a group and plays half of them.
    fn games_per_group(self, games: u64) -> u64 {
        match self {
            Mode::HeadToHead => games,
            Mode::Solo => games / 2,
        }
    }
}

/// One side of a match: its display name and the wasm file played.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    pub name: String,
    pub path: PathBuf,
    pub sha256: String,
}

/// Everything a match needs; the agents are already resolved to wasm files (and checked to play
/// `game`).
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub new: Side,
    pub old: Side,
    pub game: &'static dyn Game,
    pub mode: Mode,
    /// The most games to play (pairs × 2).
    pub games: u64,
    pub test: Test,
    pub seed: u64,
    pub threads: Option<usize>,
    pub round_cap: u32,
    pub fault_policy: FaultPolicy,
    pub budgets: Budgets,
    /// Where the league folder goes; `None`: a temporary folder, removed at the end.
    pub output: Option<PathBuf>,
    /// Discard a league or match already in `output`.
    pub fresh: bool,
    /// Show the live line on the terminal.
    pub live: bool,
}

/// The test of `mode` with the `--sprt` text, if any.
pub fn parse_test(mode: Mode, sprt: Option<&str>) -> Result<Test, SettingsError> {
    Ok(match mode {
        Mode::HeadToHead => Test::Elo(sprt.map(str::parse::<SprtSettings>).transpose()?),
        Mode::Solo => Test::Turns(sprt.map(str::parse::<TurnsSprtSettings>).transpose()?),
    })
}

/// Checks a game count: a positive number of whole pairs.
pub fn check_games(games: u64) -> anyhow::Result<u64> {
    anyhow::ensure!(
        games >= 2 && games.is_multiple_of(2),
        "--games {games}: the games of a match come in pairs (the same seed played both ways), so \
         --games must be an even number of at least 2"
    );
    Ok(games)
}

/// Display names for NEW and OLD: their file stems (a crate's folder name), told apart when the
/// two are the same (two builds of one agent).
pub fn names(new: &str, old: &str) -> (String, String) {
    if new == old {
        (format!("{new} (new)"), format!("{old} (old)"))
    } else {
        (new.to_owned(), old.to_owned())
    }
}

/// Plays the match and returns its figures and verdict.
pub fn run_match(settings: &MatchSettings) -> anyhow::Result<MatchRun> {
    let players = settings.mode.players();
    let games_per_group = u32::try_from(settings.mode.games_per_group(settings.games))
        .ok()
        .with_context(|| format!("--games {}: too many games", settings.games))?;
    let temp;
    let output = match &settings.output {
        Some(dir) => {
            if dir.join(JOURNAL_FILE).exists() && !settings.fresh {
                anyhow::bail!(
                    "{} already holds a league or a match; give another --output, or --fresh to \
                     discard what it holds",
                    dir.display()
                );
            }
            dir.clone()
        }
        None => {
            temp = TempFolder::new()?;
            temp.0.clone()
        }
    };
    let cfg = LeagueConfig {
        name: format!("match {} vs {}", settings.new.name, settings.old.name),
        game: settings.game,
        settings: settings.game.settings(None)?,
        players_per_game: players,
        games_per_group,
        seed: settings.seed,
        round_cap: settings.round_cap,
        fault_policy: settings.fault_policy,
        output: output.clone(),
        threads: 0,
        compress_records_over: 256 * 1024,
        double_play: 0.0,
        budgets: settings.budgets.clone(),
        agents: [&settings.new, &settings.old]
            .iter()
            .map(|side| AgentEntry {
                name: side.name.clone(),
                path: side.path.clone(),
            })
            .collect(),
    };
    let names = [settings.new.name.clone(), settings.old.name.clone()];
    let schedule =
        crate::league::schedule::Schedule::new(&names, players, games_per_group, cfg.seed)?;
    let mut watcher = MatchWatcher::new(schedule, settings);
    let opts = RunOptions {
        resume: false,
        extend: false,
        fresh: settings.fresh,
        threads: settings.threads,
        quiet: true,
    };
    let run = run_league_watched(&cfg, &opts, Some(&mut watcher));
    watcher.clear_line();
    let run = run?;
    let tally = watcher.into_tally();
    let kept = settings.output.as_ref().map(|_| run.output.clone());
    let report = MatchReport::new(settings, &tally, kept);
    // Written while the folder is still locked, as a league's is.
    let html = settings
        .output
        .as_ref()
        .map(|_| crate::report::write_report(&run.output));
    Ok(MatchRun { report, html })
}

/// A finished match: its report, and for a kept folder the HTML report's index (or why it could
/// not be written: the match's result stands either way).
pub struct MatchRun {
    pub report: MatchReport,
    pub html: Option<anyhow::Result<PathBuf>>,
}

/// The folder of a match nobody asked to keep, removed when dropped.
struct TempFolder(PathBuf);

impl TempFolder {
    fn new() -> anyhow::Result<TempFolder> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "arena-match-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(TempFolder(path))
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The name a match gives an agent at `path`: its file stem, or its crate folder's name.
pub fn default_name(path: &Path) -> String {
    crate::league::config::default_name(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_follows_the_game() {
        for &game in crate::games::registry().all() {
            let solo = game.seats().contains(&1);
            let expected = if solo { Mode::Solo } else { Mode::HeadToHead };
            assert_eq!(Mode::for_game(game, false).unwrap(), expected, "{game}");
            assert_eq!(Mode::for_game(game, true).unwrap(), Mode::HeadToHead);
        }
    }

    #[test]
    fn games_come_in_pairs() {
        assert_eq!(check_games(2).unwrap(), 2);
        for bad in [0, 1, 7] {
            let e = check_games(bad).unwrap_err().to_string();
            assert!(e.contains("even number"), "{e}");
        }
    }

    #[test]
    fn the_sprt_text_is_read_in_the_mode_s_units() {
        assert_eq!(
            parse_test(Mode::HeadToHead, Some("elo1=5")).unwrap(),
            Test::Elo(Some(SprtSettings {
                elo1: 5.0,
                ..SprtSettings::default()
            }))
        );
        assert_eq!(
            parse_test(Mode::Solo, Some("")).unwrap(),
            Test::Turns(Some(TurnsSprtSettings::default()))
        );
        assert_eq!(parse_test(Mode::Solo, None).unwrap(), Test::Turns(None));
        let e = parse_test(Mode::Solo, Some("elo1=5"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown key `elo1`") && e.contains("turns1"),
            "{e}"
        );
    }

    #[test]
    fn two_builds_of_one_agent_get_two_names() {
        assert_eq!(
            names("greedy", "shepherd"),
            ("greedy".into(), "shepherd".into())
        );
        assert_eq!(
            names("greedy", "greedy"),
            ("greedy (new)".into(), "greedy (old)".into())
        );
    }
}
