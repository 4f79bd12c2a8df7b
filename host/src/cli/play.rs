//! `arena play A [B ...]`: one game between sandboxed agents, narrated by its game (or printed
//! as a game record with `--json`). The game is `--game`, or the one game every agent plays (from
//! its exports). The word `human` in a seat is a person at the terminal, for a game people can
//! play here ([`Game::play_person`]).
//!
//! Exit status: 0 when the game was played, 1 when an agent cannot be built or loaded, 2 on usage
//! errors and when the host itself fails (it cannot set an agent up: not the agent's fault).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;

use crate::game::info::WithPerson;
use crate::game::{FaultPolicy, Game, Host, Narration, Played, Seat, SeatUsage, Table, Terminal};
use crate::records::RecordMeta;
use crate::resolve::resolve_agent;
use crate::sandbox::{run_with_big_stack, AgentModule, HostFailure, Limits, Sandbox};
use crate::terminal;

/// Budgets shared by `play` and `check` (defaults: `Limits::default()`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Fuel (WebAssembly operators) per decision [default: 10000000]
    #[arg(long, value_name = "FUEL")]
    pub fuel_per_decision: Option<u64>,
    /// Fuel per agent for a whole game [default: 500000000]
    #[arg(long, value_name = "FUEL")]
    pub fuel_per_game: Option<u64>,
    /// Largest linear memory per agent, in MiB [default: 32]
    #[arg(long, value_name = "MIB")]
    pub memory_mib: Option<u64>,
    /// Largest table per agent, in elements [default: 10000]
    #[arg(long, value_name = "N")]
    pub table_elements: Option<u32>,
    /// Largest module file, in MiB [default: 32]
    #[arg(long, value_name = "MIB")]
    pub module_mib: Option<u64>,
    /// Wall-clock backstop per decision, in milliseconds [default: 2000]
    #[arg(long, value_name = "MS")]
    pub decision_wall_ms: Option<u64>,
    /// Debug log kept per agent per game, in KiB [default: 16]
    #[arg(long, value_name = "KIB")]
    pub log_kib: Option<usize>,
}

impl LimitArgs {
    /// The same budgets as a league file's `[budgets]`, turned into limits the same way.
    pub fn limits(&self) -> Limits {
        crate::league::agents::limits(&self.budgets())
    }

    /// The budgets as a league file's `[budgets]` would give them.
    pub fn budgets(&self) -> crate::league::config::Budgets {
        crate::league::config::Budgets {
            fuel_per_decision: self.fuel_per_decision,
            fuel_per_game: self.fuel_per_game,
            memory_mib: self.memory_mib,
            table_elements: self.table_elements,
            module_mib: self.module_mib,
            decision_wall_ms: self.decision_wall_ms,
            log_kib: self.log_kib,
        }
    }
}

/// `--fault-policy` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolicyArg {
    /// A faulty agent is out of the game
    #[default]
    Forfeit,
    /// A faulty agent only loses the move
    #[value(name = "lose_move", alias = "lose-move")]
    LoseMove,
}

impl From<PolicyArg> for FaultPolicy {
    fn from(p: PolicyArg) -> FaultPolicy {
        match p {
            PolicyArg::Forfeit => FaultPolicy::Forfeit,
            PolicyArg::LoseMove => FaultPolicy::LoseMove,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Agents, seat 0 first: .wasm (core modules or components) or .wat files, agent crate
    /// directories (built for wasm), folders made by `arena new` (built with their toolchain), or
    /// built-in agents (`builtin:greedy`: `arena agents` lists them); as many as the game seats
    /// (see --game)
    #[arg(required = true, num_args = 1.., value_name = "AGENT")]
    pub agents: Vec<PathBuf>,
    #[arg(long, value_name = "GAME", value_parser = crate::games::parse, help = game_help())]
    pub game: Option<&'static dyn Game>,
    /// Seed of the dice and of the agents' randomness [default: chosen at random and printed]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rounds before the game ends: a draw (a solo game: the target not reached)
    #[arg(long = "rounds", value_name = "CAP", default_value_t = 300)]
    pub round_cap: u32,
    /// Write the game record (JSON Lines) to this file
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print the game record (JSON Lines) to stdout instead of the narration
    #[arg(long)]
    pub json: bool,
    /// What a fault costs an agent
    #[arg(long, value_enum, default_value_t = PolicyArg::Forfeit)]
    pub fault_policy: PolicyArg,
    /// Show what the agents logged (arena.log, stdout, stderr) in the narration
    #[arg(long)]
    pub logs: bool,
    /// The position to start from, in the game's notation, for a game of positions (its
    /// `position` setting) [default: the game's start]
    #[arg(long, value_name = "NOTATION")]
    pub position: Option<String>,
    /// A setting of the game's own, as the game's table of a league file gives it (see the
    /// game's page in docs/); may be repeated
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_setting)]
    pub settings: Vec<(String, toml::Value)>,
    /// Draw the board after every turn, for a game with a board
    #[arg(long)]
    pub boards: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The seat name `arena play` takes for a person at the terminal.
pub const HUMAN: &str = "human";

/// `--set KEY=VALUE`: the value as TOML reads it (a number, `true`, a quoted string...), or else
/// as the text given.
fn parse_setting(text: &str) -> Result<(String, toml::Value), String> {
    let (key, value) = text
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, found {text:?}"))?;
    let key = key.trim();
    if key.is_empty() {
        return Err(format!("expected KEY=VALUE, found {text:?}"));
    }
    let value = format!("v = {value}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_owned()));
    Ok((key.to_owned(), value))
}

impl PlayArgs {
    /// The game's settings the options give: `--set` and `--position`, checked by the game.
    fn game_settings(&self, game: &dyn Game) -> anyhow::Result<crate::game::GameSettings> {
        let mut keys = toml::Table::new();
        for (key, value) in &self.settings {
            keys.insert(key.clone(), value.clone());
        }
        if let Some(position) = &self.position {
            keys.insert("position".into(), toml::Value::String(position.clone()));
        }
        game.settings((!keys.is_empty()).then_some(&keys))
    }
}

/// `--game`'s help: the games, with the players each seats.
pub fn game_help() -> String {
    let games: Vec<String> = crate::games::registry()
        .all()
        .iter()
        .map(|g| {
            let seats = g.seats();
            format!(
                "{} ({} to {} players)",
                g.name(),
                seats.start(),
                seats.end()
            )
        })
        .collect();
    format!(
        "The game: {} [default: the one game all the agents play]",
        games.join(", ")
    )
}

pub fn run(args: PlayArgs) -> anyhow::Result<i32> {
    // A mistyped name is a usage error at once, before any other agent is built.
    crate::resolve::check_agents_exist(&args.agents, is_human)?;
    if let Some(game) = args.game {
        check_seats(game, args.agents.len())?;
        args.game_settings(game)?;
    }
    if args.agents.iter().any(|p| is_human(p)) {
        return run_person(&args);
    }
    anyhow::ensure!(args.round_cap > 0, "--rounds must be at least 1");
    let limits = args.limits.limits();
    let sandbox = Sandbox::new(crate::games::registry().agents(), limits.clone())?;
    let Some(modules) = load_agents(&sandbox, args.agents.iter())? else {
        return Ok(1);
    };
    let game = choose_game(args.game, &modules)?;
    check_seats(game, modules.len())?;
    sandbox.games_at_once(modules.len(), 1)?;
    let names = unique_names(modules.iter().map(|m| m.name().to_owned()).collect());
    let seed = args.seed.unwrap_or_else(random_seed);
    let table = Table {
        seed,
        round_cap: args.round_cap,
        policy: args.fault_policy.into(),
        settings: Arc::new(args.game_settings(game)?),
        meta: RecordMeta {
            names: names.clone(),
            agent_hashes: modules
                .iter()
                .map(|m| Some(m.sha256().to_owned()))
                .collect(),
            limits: Arc::new(serde_json::to_value(&limits)?),
        },
    };
    let seats: Vec<Seat> = modules.iter().map(Seat::Agent).collect();
    let host = Host {
        sandbox: Some(&sandbox),
    };
    let played = run_with_big_stack(|| game.play(&host, &table, &seats))?;
    if let Some(path) = &args.record {
        std::fs::write(path, &played.record)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        super::to_stdout(|| {
            std::io::stdout()
                .lock()
                .write_all(&played.record)
                .context("cannot write to stdout")
        })?;
    } else {
        let narration = Narration {
            names: &names,
            logs: args.logs,
            boards: args.boards,
        };
        super::to_stdout(|| game.narrate(&played, &narration, &mut std::io::stdout().lock()))?;
        print_fuel_and_record(&names, &played.usage, args.record.as_deref());
    }
    Ok(0)
}

/// True when `path` names a person rather than an agent (the word `human` as given).
pub fn is_human(path: &Path) -> bool {
    path == Path::new(HUMAN)
}

/// `arena play` with people in seats (`human`) against agents: the game is played at the
/// terminal, moves read from standard input. Exit status 0 when the game was played or the
/// person left (nothing is recorded then), 1 when an agent cannot be loaded.
fn run_person(args: &PlayArgs) -> anyhow::Result<i32> {
    anyhow::ensure!(
        !args.agents.iter().all(|p| is_human(p)),
        "a person plays against an agent: name one agent or more besides `{HUMAN}`"
    );
    anyhow::ensure!(
        !args.json,
        "--json prints a game's record instead of its narration; a game with a person is \
         narrated (keep its record with --record)"
    );
    anyhow::ensure!(args.round_cap > 0, "--rounds must be at least 1");
    let limits = args.limits.limits();
    let sandbox = Sandbox::new(crate::games::registry().agents(), limits.clone())?;
    let Some(modules) = load_agents(&sandbox, args.agents.iter().filter(|p| !is_human(p)))? else {
        return Ok(1);
    };
    let game = choose_game(args.game, &modules)?;
    check_seats(game, args.agents.len())?;
    let mut agents = modules.iter();
    let seats: Vec<Option<Seat>> = args
        .agents
        .iter()
        .map(|p| match is_human(p) {
            true => None,
            false => agents.next().map(Seat::Agent),
        })
        .collect();
    let mut agents = modules.iter();
    let names = unique_names(
        args.agents
            .iter()
            .map(|p| match is_human(p) {
                true => HUMAN.to_owned(),
                false => agents.next().map_or("?", |m| m.name()).to_owned(),
            })
            .collect(),
    );
    let mut agents = modules.iter();
    let table = Table {
        seed: args.seed.unwrap_or_else(random_seed),
        round_cap: args.round_cap,
        policy: args.fault_policy.into(),
        settings: Arc::new(args.game_settings(game)?),
        meta: RecordMeta {
            names: names.clone(),
            agent_hashes: args
                .agents
                .iter()
                .map(|p| match is_human(p) {
                    true => None,
                    false => agents.next().map(|m| m.sha256().to_owned()),
                })
                .collect(),
            limits: Arc::new(serde_json::to_value(&limits)?),
        },
    };
    let host = Host {
        sandbox: Some(&sandbox),
    };
    let narration = Narration {
        names: &names,
        logs: args.logs,
        boards: args.boards,
    };
    let played: Option<Played> = run_with_big_stack(|| {
        let io = Terminal {
            input: Box::new(std::io::stdin().lock()),
            screen: Box::new(std::io::stdout()),
        };
        game.play_person(WithPerson {
            host: &host,
            table: &table,
            seats: &seats,
            io,
            opts: &narration,
        })
    })?;
    let Some(played) = played else {
        outln!("No record written: the game was not finished.");
        return Ok(0);
    };
    if let Some(path) = &args.record {
        std::fs::write(path, &played.record)
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!(
            "record written to {}",
            terminal::line(&path.display().to_string())
        );
    }
    Ok(0)
}

/// The end of a narration, whatever the game: each agent's fuel (total, largest decision) and
/// where the record went.
pub(crate) fn print_fuel_and_record(
    names: &[String],
    usage: &[Option<SeatUsage>],
    record: Option<&std::path::Path>,
) {
    for (name, usage) in names.iter().zip(usage) {
        let u = usage.unwrap_or_default();
        outln!(
            "{}: {} fuel used, {} of it per decision at most",
            terminal::line(name),
            u.fuel,
            u.max_decision_fuel
        );
    }
    if let Some(path) = record {
        outln!(
            "record written to {}",
            terminal::line(&path.display().to_string())
        );
    }
}

/// Refuses a number of agents the game cannot seat.
fn check_seats(game: &dyn Game, agents: usize) -> anyhow::Result<()> {
    let seats = game.seats();
    anyhow::ensure!(
        seats.contains(&agents),
        "{} has {} to {} players, {agents} agent{} given",
        game.title(),
        seats.start(),
        seats.end(),
        if agents == 1 { "" } else { "s" }
    );
    Ok(())
}

/// The game to play: `given` when every agent plays it, otherwise the one game all agents play
/// (from their exports). No game in common, or more than one, is an error that says what to do.
pub fn choose_game(
    given: Option<&'static dyn Game>,
    modules: &[AgentModule],
) -> anyhow::Result<&'static dyn Game> {
    if let Some(game) = given {
        for m in modules {
            m.check_plays(&game.info().agent)
                .with_context(|| format!("agent {} cannot play --game {game}", m.name()))?;
        }
        return Ok(game);
    }
    let common: Vec<&'static dyn Game> = crate::games::registry()
        .all()
        .iter()
        .copied()
        .filter(|g| modules.iter().all(|m| m.plays(&g.info().agent)))
        .collect();
    match common.as_slice() {
        [game] => Ok(*game),
        [] => {
            let plays: Vec<String> = modules
                .iter()
                .map(|m| {
                    let games: Vec<&str> = m
                        .games()
                        .iter()
                        .map(|g| crate::games::registry().of_agent(g).name())
                        .collect();
                    format!("{} plays {}", m.name(), games.join(" and "))
                })
                .collect();
            anyhow::bail!("the agents have no game in common ({})", plays.join("; "))
        }
        several => {
            let names: Vec<&str> = several.iter().map(|g| g.name()).collect();
            anyhow::bail!(
                "the agents play several games ({}): choose one with --game",
                names.join(", ")
            )
        }
    }
}

/// Builds (for a crate directory) and loads one agent.
pub fn load_agent(sandbox: &Sandbox, path: &Path) -> anyhow::Result<AgentModule> {
    let wasm = resolve_agent(path)?;
    crate::activity::load(sandbox, &wasm)
}

/// Loads the agents at `paths`; `None` when one does not load, its error printed (the caller
/// exits with status 1). The host's own failure is no verdict on the agent: an error (exit
/// status 2).
fn load_agents<'a>(
    sandbox: &Sandbox,
    paths: impl Iterator<Item = &'a PathBuf>,
) -> anyhow::Result<Option<Vec<AgentModule>>> {
    let mut modules = Vec::new();
    for path in paths {
        match load_agent(sandbox, path) {
            Ok(m) => modules.push(m),
            Err(e) if HostFailure::find(&e).is_some() => return Err(e),
            Err(e) => {
                eprintln!("error: {}", terminal::block(&format!("{e:#}")));
                return Ok(None);
            }
        }
    }
    Ok(Some(modules))
}

/// A seed for a game nobody gave one for.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish() >> 16
}

/// Names made unique by suffixes: `greedy`, `greedy#2`...
pub fn unique_names(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let mut candidate = name.clone();
        let mut n = 2;
        while out.contains(&candidate) {
            candidate = format!("{name}#{n}");
            n += 1;
        }
        out.push(candidate);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::farm::tests::support::LOGGING_PASSER as PASSER;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-play-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn plays_wat_agents_and_writes_a_record_that_verifies() {
        let dir = temp("record");
        let agent = dir.join("quiet.wat");
        std::fs::write(&agent, PASSER).unwrap();
        let record = dir.join("game.jsonl");
        let args = PlayArgs {
            agents: vec![agent.clone(), agent.clone(), agent],
            game: None,
            seed: Some(11),
            round_cap: 30,
            record: Some(record.clone()),
            json: false,
            fault_policy: PolicyArg::LoseMove,
            logs: true,
            position: None,
            settings: Vec::new(),
            boards: false,
            limits: LimitArgs::default(),
        };
        assert_eq!(run(args).unwrap(), 0);
        let bytes = std::fs::read(&record).unwrap();
        let summary = crate::games::registry()
            .verify_record_bytes(&bytes)
            .unwrap();
        assert!(
            summary.describe().contains("seeded 11"),
            "{}",
            summary.describe()
        );
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("\"quiet#3\""), "names are made unique");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// The WAT Farkle agent of `arena new --game farkle --lang wat`.
    const BANKER: &str = include_str!("../games/farkle/templates/wat/farkle.wat");

    fn args(
        agents: Vec<PathBuf>,
        record: Option<PathBuf>,
        game: Option<&'static dyn Game>,
    ) -> PlayArgs {
        PlayArgs {
            agents,
            game,
            seed: Some(21),
            round_cap: 200,
            record,
            json: false,
            fault_policy: PolicyArg::Forfeit,
            logs: true,
            position: None,
            settings: Vec::new(),
            boards: false,
            limits: LimitArgs::default(),
        }
    }

    #[test]
    fn solo_and_race_games_write_records_that_verify() {
        let dir = temp("farkle-records");
        let agent = dir.join("banker.wat");
        std::fs::write(&agent, BANKER).unwrap();
        for seats in [1, 3] {
            let record = dir.join(format!("game-{seats}.jsonl"));
            let agents = vec![agent.clone(); seats];
            assert_eq!(run(args(agents, Some(record.clone()), None)).unwrap(), 0);
            let bytes = std::fs::read(&record).unwrap();
            let summary = crate::games::registry()
                .verify_record_bytes(&bytes)
                .unwrap();
            assert_eq!(summary.game, "farkle");
            assert_eq!(summary.players, seats);
            assert!(
                summary.describe().contains("seeded 21"),
                "{}",
                summary.describe()
            );
        }
        // One agent for Little Animal Farm is refused before anything is loaded.
        let farm = crate::games::registry()
            .by_name("little-animal-farm")
            .unwrap();
        let err = run(args(vec![agent.clone()], None, Some(farm))).unwrap_err();
        assert!(err.to_string().contains("2 to 6 players"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_game_is_the_one_all_agents_play() {
        let sb = Sandbox::new(
            crate::games::registry().agents(),
            crate::sandbox::Limits::default(),
        )
        .unwrap();
        let farkle = sb.load_bytes("banker", BANKER.as_bytes()).unwrap();
        let both_text = BANKER.replacen(
            "(func (export \"farkle_draft\")",
            "(func (export \"farm_trade\") (param i32) (result i32) (i32.const 0))\n  \
             (func (export \"farm_accept\") (param i32) (result i32) (i32.const 0))\n  \
             (func (export \"farkle_draft\")",
            1,
        );
        let both = sb.load_bytes("both", both_text.as_bytes()).unwrap();
        let games: Vec<&str> = both
            .games()
            .iter()
            .map(|g| crate::games::registry().of_agent(g).name())
            .collect();
        assert_eq!(games, ["little-animal-farm", "farkle"]);
        let farm_only = both_text.replacen("(export \"farkle_draft\")", "", 1);
        let farm = sb.load_bytes("farmer", farm_only.as_bytes()).unwrap();

        let by_name = |n: &str| crate::games::registry().by_name(n).unwrap();
        let pick = |ms: &[&AgentModule], g: Option<&str>| {
            let ms: Vec<AgentModule> = ms.iter().map(|m| (*m).clone()).collect();
            choose_game(g.map(by_name), &ms)
                .map(|g| g.name())
                .map_err(|e| format!("{e:#}"))
        };
        assert_eq!(pick(&[&farkle], None), Ok("farkle"));
        assert_eq!(pick(&[&farkle, &both], None), Ok("farkle"));
        assert_eq!(pick(&[&farm, &both], None), Ok("little-animal-farm"));
        assert_eq!(
            pick(&[&both], Some("little-animal-farm")),
            Ok("little-animal-farm")
        );
        let e = pick(&[&both, &both], None).unwrap_err();
        assert!(
            e.contains("several games (little-animal-farm, farkle): choose one with --game"),
            "{e}"
        );
        let e = pick(&[&farm, &farkle], None).unwrap_err();
        assert!(
            e.contains("no game in common (farmer plays little-animal-farm; banker plays farkle)"),
            "{e}"
        );
        let e = pick(&[&both, &farkle], Some("little-animal-farm")).unwrap_err();
        assert!(
            e.contains("banker cannot play --game little-animal-farm"),
            "{e}"
        );
        assert!(
            e.contains("missing export `farm_trade`, `farm_accept`"),
            "{e}"
        );
    }

    #[test]
    fn names_are_made_unique() {
        assert_eq!(
            unique_names(vec!["x".into(), "x".into(), "y".into(), "x".into()]),
            ["x", "x#2", "y", "x#3"]
        );
    }
}
