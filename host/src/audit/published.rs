//! What a league's output folder says about the league: `standings.json`'s name and settings.

use std::path::Path;

use anyhow::Context;
use serde::Deserialize;
use serde_json::Value;

use crate::game::{FaultPolicy, Game};
use crate::league::output::STANDINGS_JSON;

/// The league as its output folder publishes it.
#[derive(Debug)]
pub struct Published {
    pub league: String,
    pub settings: Settings,
    /// The settings as written, handed back to the league's writer unchanged.
    pub settings_value: Value,
}

/// `standings.json`'s `settings`: everything the schedule and the records derive from.
#[derive(Debug, Deserialize)]
pub struct Settings {
    #[serde(with = "crate::games::serde_name")]
    pub game: &'static dyn Game,
    pub players_per_game: usize,
    pub games_per_group: u32,
    pub seed: u64,
    pub round_cap: u32,
    pub fault_policy: FaultPolicy,
    pub limits: Value,
    /// The game's own settings, for a game that has any.
    #[serde(default)]
    pub game_settings: Option<Value>,
    /// In the league's order, which the schedule's game numbers follow.
    pub agents: Vec<PublishedAgent>,
}

#[derive(Debug, Deserialize)]
pub struct PublishedAgent {
    pub name: String,
    pub sha256: Option<String>,
}

/// What the audit reads of `standings.json`. The standings themselves are skipped as they are read
/// (a large league's cross-table is not held); the whole file is then compared byte for byte with
/// what the league writes from the records, which also catches a key given twice.
#[derive(Deserialize)]
struct StandingsFile {
    league: String,
    settings: Value,
}

impl Settings {
    /// The settings a league publishes (`standings.json`'s `settings`, as
    /// `crate::league::runner::settings_json` makes them), checked to make a league.
    pub fn from_value(value: &Value) -> anyhow::Result<Settings> {
        let settings = Settings::deserialize(value).map_err(|e| anyhow::anyhow!("{e}"))?;
        let seats = settings.game.seats();
        anyhow::ensure!(
            seats.contains(&settings.players_per_game)
                && settings.agents.len() >= settings.players_per_game
                && settings.games_per_group > 0,
            "{} agents, {} players per game and {} games per group do not make a league of {}",
            settings.agents.len(),
            settings.players_per_game,
            settings.games_per_group,
            settings.game
        );
        for (i, a) in settings.agents.iter().enumerate() {
            anyhow::ensure!(
                !settings.agents[..i].iter().any(|b| b.name == a.name),
                "agent {:?} is listed twice",
                a.name
            );
        }
        Ok(settings)
    }

    /// The agents' names, in league order (the schedule's).
    pub fn names(&self) -> Vec<String> {
        self.agents.iter().map(|a| a.name.clone()).collect()
    }
}

impl Published {
    /// Reads the league's name and settings from `dir/standings.json`.
    pub fn read(dir: &Path) -> anyhow::Result<Published> {
        let path = dir.join(STANDINGS_JSON);
        let opened = std::fs::File::open(&path).with_context(|| {
            format!(
                "cannot read {} (is {} a league's output folder?)",
                path.display(),
                dir.display()
            )
        })?;
        let file: StandingsFile = serde_json::from_reader(std::io::BufReader::new(opened))
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let settings = Settings::from_value(&file.settings)
            .map_err(|e| anyhow::anyhow!("{}: settings: {e}", path.display()))?;
        Ok(Published {
            league: file.league,
            settings,
            settings_value: file.settings,
        })
    }
}
