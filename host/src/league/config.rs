//! The league file (`arena.toml`): parsing and validation. Every key is documented in README.md.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Deserialize;

use crate::game::{FaultPolicy, Game, GameSettings};

/// A league file as written by the organizer. Unknown keys are refused so that a typo never
/// silently falls back to a default.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    name: Option<String>,
    game: Option<String>,
    players_per_game: Option<usize>,
    games_per_group: Option<u32>,
    seed: Option<u64>,
    round_cap: Option<u32>,
    fault_policy: Option<FaultPolicy>,
    output: Option<PathBuf>,
    threads: Option<usize>,
    compress_records_over: Option<u64>,
    double_play: Option<f64>,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    budgets: Budgets,
    #[serde(default)]
    agent: Vec<RawAgent>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    name: Option<String>,
    path: PathBuf,
}

/// Budgets given in the league file; unset keys keep the sandbox defaults.
#[derive(Clone, Debug, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Budgets {
    pub fuel_per_decision: Option<u64>,
    pub fuel_per_game: Option<u64>,
    pub memory_mib: Option<u64>,
    pub table_elements: Option<u32>,
    pub module_mib: Option<u64>,
    pub decision_wall_ms: Option<u64>,
    pub log_kib: Option<usize>,
}

/// The league file's `double_play` when it has none: one game in fifty is played twice.
pub const DEFAULT_DOUBLE_PLAY: f64 = 0.02;

/// One agent of the league: a display name and where its code is (`.wasm`, `.wat` or a crate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentEntry {
    pub name: String,
    pub path: PathBuf,
}

/// A validated league.
#[derive(Clone, Debug)]
pub struct LeagueConfig {
    pub name: String,
    pub game: &'static dyn Game,
    /// The game's own settings (the table named after the game), as the game completed them.
    pub settings: GameSettings,
    pub players_per_game: usize,
    pub games_per_group: u32,
    pub seed: u64,
    pub round_cap: u32,
    pub fault_policy: FaultPolicy,
    pub output: PathBuf,
    /// 0 means one per core.
    pub threads: usize,
    /// Records larger than this many bytes are stored gzip-compressed.
    pub compress_records_over: u64,
    /// With `--database`: the fraction of games played twice, by workers of two names, and the
    /// records compared (`crate::distributed::double_play`).
    pub double_play: f64,
    pub budgets: Budgets,
    pub agents: Vec<AgentEntry>,
}

impl LeagueConfig {
    /// Reads and validates a league file. Relative paths are relative to the file's folder.
    pub fn load(path: &Path) -> anyhow::Result<LeagueConfig> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read league file {}", path.display()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        Self::parse(&text, base).with_context(|| format!("league file {}", path.display()))
    }

    pub fn parse(text: &str, base: &Path) -> anyhow::Result<LeagueConfig> {
        let (raw, game_keys): (RawConfig, _) = parse_with_game_table(text)?;
        let game = match &raw.game {
            Some(name) => crate::games::registry()
                .by_name(name)
                .map_err(|e| anyhow::anyhow!("key `game`: {e}"))?,
            None => crate::games::registry().first(),
        };
        let settings = game.settings(game_keys.as_ref())?;
        let players_per_game = raw.players_per_game.unwrap_or(2);
        let seats = game.seats();
        if !seats.contains(&players_per_game) {
            bail!(
                "key `players_per_game`: {players_per_game} is not between {} and {} (for {})",
                seats.start(),
                seats.end(),
                game.name()
            );
        }
        let games_per_group = raw.games_per_group.unwrap_or(2 * players_per_game as u32);
        if games_per_group == 0 || !games_per_group.is_multiple_of(players_per_game as u32) {
            bail!(
                "key `games_per_group`: {games_per_group} must be a positive multiple of players_per_game ({players_per_game}) so that every seat order is played equally often"
            );
        }
        let round_cap = raw.round_cap.unwrap_or(300);
        if round_cap == 0 {
            bail!("key `round_cap`: must be at least 1");
        }
        check_budgets(&raw.budgets)?;
        let double_play = raw.double_play.unwrap_or(DEFAULT_DOUBLE_PLAY);
        if !(0.0..=1.0).contains(&double_play) {
            bail!("key `double_play`: {double_play} is not a fraction between 0 and 1");
        }

        let mut agents = listed_agents(&raw.agent, base)?;
        agents.extend(included_agents(&raw.include, base)?);
        check_names(&agents)?;
        if agents.len() < players_per_game {
            bail!(
                "the league has {} agent(s) but players_per_game is {players_per_game}; add agents with [[agent]] or `include`",
                agents.len()
            );
        }
        super::schedule::check_size(agents.len(), players_per_game, games_per_group)?;
        Ok(LeagueConfig {
            name: raw.name.unwrap_or_else(|| "league".into()),
            game,
            settings,
            players_per_game,
            games_per_group,
            seed: raw.seed.unwrap_or(1),
            round_cap,
            fault_policy: raw.fault_policy.unwrap_or_default(),
            output: normalize(&base.join(raw.output.unwrap_or_else(|| PathBuf::from("results")))),
            threads: raw.threads.unwrap_or(0),
            compress_records_over: raw.compress_records_over.unwrap_or(256 * 1024),
            double_play,
            budgets: raw.budgets,
            agents,
        })
    }

    /// Worker threads to use.
    pub fn worker_threads(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }
}

/// The `[[agent]]` tables' agents: a built-in agent, or a file relative to `base` that exists.
fn listed_agents(listed: &[RawAgent], base: &Path) -> anyhow::Result<Vec<AgentEntry>> {
    let mut agents = Vec::new();
    for (i, a) in listed.iter().enumerate() {
        let which = || match &a.name {
            Some(name) => format!("agent {name:?}, [[agent]] number {}", i + 1),
            None => format!("[[agent]] number {}", i + 1),
        };
        // `builtin:NAME` is a built-in agent, not a path under the league file's folder.
        let path = match crate::builtin::name_of(&a.path) {
            Some(builtin) => {
                crate::builtin::find(builtin).with_context(which)?;
                a.path.clone()
            }
            None => normalize(&base.join(&a.path)),
        };
        if !path.exists() && crate::builtin::name_of(&path).is_none() {
            bail!("agent file not found: {} ({})", path.display(), which());
        }
        let name = match &a.name {
            Some(n) => n.clone(),
            None => default_name(&path),
        };
        agents.push(AgentEntry { name, path });
    }
    Ok(agents)
}

/// The module files the `include` patterns (relative to `base`) match, each pattern at least one.
fn included_agents(patterns: &[String], base: &Path) -> anyhow::Result<Vec<AgentEntry>> {
    let mut agents = Vec::new();
    for pattern in patterns {
        let full = base.join(pattern);
        let full = full.to_string_lossy();
        let paths =
            glob::glob(&full).with_context(|| format!("key `include`: bad pattern {pattern:?}"))?;
        let mut matched = 0;
        for p in paths {
            let p =
                p.with_context(|| format!("key `include`: cannot read a match of {pattern:?}"))?;
            // A glob gathers submissions, and a crate folder is built natively (its build.rs
            // and proc macros run outside the sandbox): only module files are taken.
            if p.is_dir() {
                bail!(
                    "key `include`: pattern {pattern:?} matches the folder {}; `include` takes \
                     .wasm and .wat files only (a crate folder is built outside the sandbox: \
                     name a folder of your own code with [[agent]])",
                    p.display()
                );
            }
            matched += 1;
            agents.push(AgentEntry {
                name: default_name(&p),
                path: normalize(&p),
            });
        }
        if matched == 0 {
            bail!("key `include`: pattern {pattern:?} matches no file");
        }
    }
    Ok(agents)
}

/// Refuses an empty or unprintable agent name, and a name given twice.
fn check_names(agents: &[AgentEntry]) -> anyhow::Result<()> {
    for (i, a) in agents.iter().enumerate() {
        if a.name.is_empty() || a.name.contains(|c: char| c.is_control()) {
            bail!(
                "agent at {}: a name must be non-empty printable text",
                a.path.display()
            );
        }
        if let Some(prev) = agents[..i].iter().find(|b| b.name == a.name) {
            bail!(
                "duplicate agent name {:?} ({} and {}); give one of them another `name`",
                a.name,
                prev.path.display(),
                a.path.display()
            );
        }
    }
    Ok(())
}

/// Reads a league or challenge file whose keys are `T`'s, besides an optional table named after
/// its game (`game = "NAME"` and `[NAME]`; without `game`, the first game's), which is returned
/// apart for the game to read. Unknown keys and wrong types are refused, naming the key.
pub fn parse_with_game_table<T: serde::de::DeserializeOwned>(
    text: &str,
) -> anyhow::Result<(T, Option<toml::Table>)> {
    let trimmed = |e: &dyn std::fmt::Display| anyhow::anyhow!("{}", e.to_string().trim_end());
    let mut table: toml::Table = toml::from_str(text).map_err(|e| trimmed(&e))?;
    let name = match table.get("game") {
        Some(toml::Value::String(name)) => name.clone(),
        _ => crate::games::registry().first().name().to_owned(),
    };
    match table.remove(&name) {
        // The usual file, without a table of its game's: read from the text, so that an error
        // shows the line.
        None => Ok((toml::from_str(text).map_err(|e| trimmed(&e))?, None)),
        Some(toml::Value::Table(keys)) => {
            let raw = serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner();
                if path == "." {
                    anyhow::anyhow!("{inner}")
                } else {
                    anyhow::anyhow!("key `{path}`: {inner}")
                }
            })?;
            Ok((raw, Some(keys)))
        }
        Some(other) => anyhow::bail!(
            "key `{name}`: expected a table of the game's settings, found {}",
            other.type_str()
        ),
    }
}

/// Refuses budgets that cannot work (zero, a decision budget above the game's, a memory past 4 GiB),
/// naming the key.
pub fn check_budgets(b: &Budgets) -> anyhow::Result<()> {
    let positive = [
        ("budgets.fuel_per_decision", b.fuel_per_decision),
        ("budgets.fuel_per_game", b.fuel_per_game),
        ("budgets.memory_mib", b.memory_mib),
        ("budgets.table_elements", b.table_elements.map(u64::from)),
        ("budgets.module_mib", b.module_mib),
        ("budgets.decision_wall_ms", b.decision_wall_ms),
    ];
    for (key, v) in positive {
        if v == Some(0) {
            bail!("key `{key}`: must be greater than 0");
        }
    }
    if let (Some(d), Some(g)) = (b.fuel_per_decision, b.fuel_per_game) {
        if d > g {
            bail!("key `budgets.fuel_per_decision` ({d}) is larger than `budgets.fuel_per_game` ({g})");
        }
    }
    if b.memory_mib.is_some_and(|m| m > 4096) {
        bail!("key `budgets.memory_mib`: at most 4096 (a 32-bit memory cannot be larger)");
    }
    Ok(())
}

/// `path` without its `.` parts, and without the `..` parts that follow a folder name (the folder
/// and the `..` cancel out): `leagues/../results` is `results`, as a person would write it. Done
/// on the text, as the league file's paths are written relative to its folder.
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            // `..` at the root is the root.
            Component::ParentDir if matches!(out.last(), Some(Component::RootDir)) => {}
            c => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// A name from a path: the file stem, or the folder name of a crate; a built-in agent
/// (`builtin:greedy`) is named after itself (`greedy`).
pub fn default_name(path: &Path) -> String {
    if let Some(builtin) = crate::builtin::name_of(path) {
        return builtin.to_owned();
    }
    let stem = if path.is_dir() {
        path.file_name()
    } else {
        path.file_stem()
    };
    stem.map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir_with(files: &[&str]) -> tempdir::Dir {
        let d = tempdir::Dir::new();
        for f in files {
            std::fs::write(d.path().join(f), b"\0asm\x01\0\0\0").unwrap();
        }
        d
    }

    mod tempdir {
        pub struct Dir(std::path::PathBuf);
        impl Dir {
            pub fn new() -> Dir {
                static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
                let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let p = std::env::temp_dir()
                    .join(format!("arena-config-test-{}-{n}", std::process::id()));
                let _ = std::fs::remove_dir_all(&p);
                std::fs::create_dir_all(&p).unwrap();
                Dir(p)
            }
            pub fn path(&self) -> &std::path::Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    fn err(text: &str, d: &tempdir::Dir) -> String {
        format!("{:#}", LeagueConfig::parse(text, d.path()).unwrap_err())
    }

    #[test]
    fn a_complete_file_parses() {
        let d = dir_with(&["a.wasm", "b.wasm", "c.wasm"]);
        let c = LeagueConfig::parse(
            r#"
name = "spring"
players_per_game = 3
games_per_group = 6
seed = 9
round_cap = 50
fault_policy = "lose_move"
threads = 2
include = ["*.wasm"]
[budgets]
fuel_per_decision = 1000
"#,
            d.path(),
        )
        .unwrap();
        assert_eq!(c.players_per_game, 3);
        assert_eq!(c.fault_policy, FaultPolicy::LoseMove);
        let mut names: Vec<_> = c.agents.iter().map(|a| a.name.as_str()).collect();
        names.sort();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(c.budgets.fuel_per_decision, Some(1000));
    }

    #[test]
    fn include_never_takes_a_folder_that_would_be_built() {
        let d = dir_with(&["a.wasm", "b.wasm"]);
        std::fs::create_dir(d.path().join("evil")).unwrap();
        std::fs::write(d.path().join("evil/Cargo.toml"), "[package]\nname='evil'").unwrap();
        let e = err("include=['*']", &d);
        assert!(
            e.contains("matches the folder") && e.contains("evil") && e.contains("[[agent]]"),
            "{e}"
        );
        // The same folder named on purpose with [[agent]] is accepted (it is the host's own code).
        let c = LeagueConfig::parse("[[agent]]\npath='evil'\n[[agent]]\npath='a.wasm'", d.path())
            .unwrap();
        assert_eq!(c.agents.len(), 2);
    }

    #[test]
    fn paths_are_normalized_as_written() {
        for (given, clean) in [
            ("leagues/../results/farkle", "results/farkle"),
            ("./a/./b", "a/b"),
            ("../x/../y", "../y"),
            ("a/..", "."),
            ("/../etc", "/etc"),
            ("../../a", "../../a"),
        ] {
            assert_eq!(normalize(Path::new(given)), Path::new(clean), "{given}");
        }
        let d = dir_with(&["a.wasm", "b.wasm"]);
        let sub = d.path().join("leagues");
        std::fs::create_dir(&sub).unwrap();
        let c =
            LeagueConfig::parse("include = ['../*.wasm']\noutput = '../results/x'", &sub).unwrap();
        assert_eq!(c.output, d.path().join("results/x"));
        assert_eq!(c.agents[0].path, d.path().join("a.wasm"));
    }

    #[test]
    fn broken_files_name_the_key_or_file() {
        let d = dir_with(&["a.wasm", "b.wasm"]);
        assert!(err("rounds = 3\ninclude=['*.wasm']", &d).contains("rounds"));
        assert!(err("seed = 'x'\ninclude=['*.wasm']", &d).contains("seed"));
        assert!(err("players_per_game = 7\ninclude=['*.wasm']", &d).contains("players_per_game"));
        assert!(err("games_per_group = 3\ninclude=['*.wasm']", &d).contains("games_per_group"));
        let missing = err(
            "[[agent]]\npath='missing.wasm'\n[[agent]]\npath='a.wasm'",
            &d,
        );
        assert!(
            missing.contains(&format!(
                "agent file not found: {} ([[agent]] number 1)",
                d.path().join("missing.wasm").display()
            )),
            "{missing}"
        );
        let named = err("[[agent]]\nname='x'\npath='./sub/../gone.wasm'", &d);
        assert!(
            named.contains(&format!(
                "agent file not found: {} (agent \"x\", [[agent]] number 1)",
                d.path().join("gone.wasm").display()
            )),
            "{named}"
        );
        assert!(err("include=['*.wasm']\n[[agent]]\npath='a.wasm'", &d)
            .contains("duplicate agent name \"a\""));
        assert!(err("include=['*.nothing']", &d).contains("matches no file"));
        assert!(err("[[agent]]\npath='a.wasm'", &d).contains("1 agent(s)"));
        assert!(err("include=['*.wasm']\n[budgets]\nfuel_per_game = 0", &d)
            .contains("budgets.fuel_per_game"));
        assert!(err("include=['*.wasm']\n[budgets]\nfuel = 1", &d).contains("fuel"));
        assert!(err("game = 'chess'\ninclude=['*.wasm']", &d).contains("game"));
        assert!(err("games_per_group = 4294967294\ninclude=['*.wasm']", &d)
            .contains("would schedule 4294967294 games"));
    }
}
