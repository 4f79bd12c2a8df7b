//! `arena play A [B ...]`: one game between sandboxed agents, narrated turn by turn (or printed
//! as a game record with `--json`). The game is `--game`, or the one game every agent plays (from
//! its exports). Little Animal Farm is narrated here; Farkle in `play_farkle`.
//!
//! Exit status: 0 when the game was played, 1 when an agent cannot be built or loaded, 2 on usage
//! errors and when the host itself fails (it cannot set an agent up: not the agent's fault).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::Context;
use farm_rules::{Herd, Offer, OfferKind, Position, ANIMALS, KINDS, MAX_PLAYERS};

use crate::farm::{
    play_game, AcceptView, Decision, Event, FarmPlayer, Fault, FaultPolicy, GameRecord,
    Observation, Outcome, Party, SeededDice, Setup,
};
use crate::game::GameKind;
use crate::records::{write_record, RecordMeta};
use crate::sandbox::{
    resolve_agent, run_with_big_stack, AgentModule, HostFailure, Limits, Sandbox, WasmPlayer,
};
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
    /// directories (built for wasm), or folders made by `arena new` (built with their toolchain).
    /// Little Animal Farm takes 2 to 6; Farkle 1 (the solo benchmark) to 6 (a race)
    #[arg(required = true, num_args = 1..=6, value_name = "AGENT")]
    pub agents: Vec<PathBuf>,
    /// The game: little-animal-farm or farkle [default: the one game all the agents play]
    #[arg(long, value_name = "GAME")]
    pub game: Option<GameKind>,
    /// Seed of the dice and of the agents' randomness [default: chosen at random and printed]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rounds before the game ends: a draw (Farkle solo: the target not reached)
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
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: PlayArgs) -> anyhow::Result<i32> {
    if let Some(game) = args.game {
        check_seats(game, args.agents.len())?;
    }
    anyhow::ensure!(args.round_cap > 0, "--rounds must be at least 1");
    let limits = args.limits.limits();
    let sandbox = Sandbox::new(limits.clone())?;
    let mut modules = Vec::new();
    for path in &args.agents {
        match load_agent(&sandbox, path) {
            Ok(m) => modules.push(m),
            // The host's own failure is no verdict on the agent: exit status 2.
            Err(e) if HostFailure::find(&e).is_some() => return Err(e),
            Err(e) => {
                eprintln!("error: {}", terminal::block(&format!("{e:#}")));
                return Ok(1);
            }
        }
    }
    let game = choose_game(args.game, &modules)?;
    check_seats(game, modules.len())?;
    sandbox.games_at_once(modules.len(), 1)?;
    let names = unique_names(modules.iter().map(|m| m.name().to_owned()).collect());
    let seed = args.seed.unwrap_or_else(random_seed);
    if game == GameKind::Farkle {
        return super::play_farkle::run(&args, &modules, &names, &limits, seed);
    }
    let mut setup = Setup::standard(modules.len(), seed, args.round_cap);
    setup.policy = args.fault_policy.into();

    let (record, logs, fuel) = play_logged(&setup, &modules)?;

    let meta = RecordMeta {
        names: names.clone(),
        agent_hashes: modules
            .iter()
            .map(|m| Some(m.sha256().to_owned()))
            .collect(),
        limits: std::sync::Arc::new(serde_json::to_value(&limits)?),
    };
    if let Some(path) = &args.record {
        let file = std::fs::File::create(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        let mut out = std::io::BufWriter::new(file);
        write_record(&record, &meta, &mut out)
            .and_then(|_| std::io::Write::flush(&mut out))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        super::to_stdout(|| {
            write_record(&record, &meta, std::io::stdout().lock()).context("cannot write to stdout")
        })?;
    } else {
        let text = Narrator::new(&names, &setup).narrate(&record, args.logs.then_some(&logs));
        out!("{}", terminal::block(&text));
        print_fuel_and_record(&names, &fuel, args.record.as_deref());
    }
    Ok(0)
}

/// The end of a narration, whatever the game: each agent's fuel (total, largest decision) and
/// where the record went.
pub(crate) fn print_fuel_and_record(
    names: &[String],
    fuel: &[(u64, u64)],
    record: Option<&std::path::Path>,
) {
    for (name, (total, max)) in names.iter().zip(fuel) {
        outln!(
            "{}: {total} fuel used, {max} of it per decision at most",
            terminal::line(name)
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
fn check_seats(game: GameKind, agents: usize) -> anyhow::Result<()> {
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
pub fn choose_game(given: Option<GameKind>, modules: &[AgentModule]) -> anyhow::Result<GameKind> {
    if let Some(game) = given {
        for m in modules {
            m.check_plays(game)
                .with_context(|| format!("agent {} cannot play --game {game}", m.name()))?;
        }
        return Ok(game);
    }
    let common: Vec<GameKind> = GameKind::ALL
        .into_iter()
        .filter(|g| modules.iter().all(|m| m.plays(*g)))
        .collect();
    match common.as_slice() {
        [game] => Ok(*game),
        [] => {
            let plays: Vec<String> = modules
                .iter()
                .map(|m| {
                    let games: Vec<&str> = m.games().iter().map(|g| g.name()).collect();
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
    sandbox.load(&wasm)
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

/// What an agent logged, by turn.
pub type Logs = Vec<(u32, usize, String)>;

/// A seat that records its agent's log after each decision.
pub struct Logged<P> {
    pub inner: P,
    pub seat: usize,
    pub logs: Rc<RefCell<Logs>>,
    /// The largest fuel one decision used.
    pub max_decision_fuel: u64,
    /// The last decision's log, handed on to the game loop so the record keeps it too.
    pub pending: Option<String>,
}

impl Logged<WasmPlayer> {
    fn after(&mut self, turn: u32) {
        self.pending = self.inner.take_log();
        if let Some(text) = &self.pending {
            self.logs.borrow_mut().push((turn, self.seat, text.clone()));
        }
    }
}

impl FarmPlayer for Logged<WasmPlayer> {
    fn take_log(&mut self) -> Option<String> {
        self.pending.take()
    }

    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        let r = FarmPlayer::start(&mut self.inner, seat, players, seed);
        self.after(0);
        r
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        let before = self.inner.fuel_used();
        let r = self.inner.trade(obs);
        self.max_decision_fuel = self.max_decision_fuel.max(self.inner.fuel_used() - before);
        self.after(obs.turn);
        r
    }

    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault> {
        let before = self.inner.fuel_used();
        let r = self.inner.accept(obs, offer);
        self.max_decision_fuel = self.max_decision_fuel.max(self.inner.fuel_used() - before);
        self.after(obs.turn);
        r
    }
}

/// Fuel each seat used in a game: total, largest single decision.
pub type SeatFuel = Vec<(u64, u64)>;

/// Plays a game between `modules`, on a big-stack thread, keeping the agents' logs and fuel
/// (total, largest single decision) per seat. Fails with the [`crate::sandbox::HostFailure`] of
/// a seat the host could not set up (exit status 2: not the agent's fault).
pub fn play_logged(
    setup: &Setup,
    modules: &[AgentModule],
) -> anyhow::Result<(GameRecord, Logs, SeatFuel)> {
    run_with_big_stack(|| {
        let logs = Rc::new(RefCell::new(Vec::new()));
        let mut players: Vec<Logged<WasmPlayer>> = modules
            .iter()
            .enumerate()
            .map(|(seat, m)| Logged {
                inner: m.player_with_round_cap(setup.round_cap),
                seat,
                logs: logs.clone(),
                max_decision_fuel: 0,
                pending: None,
            })
            .collect();
        let mut seats: Vec<&mut dyn FarmPlayer> = players
            .iter_mut()
            .map(|p| p as &mut dyn FarmPlayer)
            .collect();
        let seed = setup.seed.unwrap_or(0);
        let record = play_game(setup, &mut seats, &mut SeededDice::new(seed));
        drop(seats);
        if let Some(failure) = players.iter().find_map(|p| p.inner.host_failure()) {
            return Err(anyhow::Error::new(failure.clone()));
        }
        let fuel = players
            .iter()
            .map(|p| (p.inner.fuel_used(), p.max_decision_fuel))
            .collect();
        drop(players);
        let logs = Rc::try_unwrap(logs)
            .map(RefCell::into_inner)
            .unwrap_or_default();
        Ok((record, logs, fuel))
    })
}

/// Plural names for narration.
fn animal_words(kind: usize, n: i64) -> String {
    let (one, many) = match kind {
        0 => ("rabbit", "rabbits"),
        1 => ("sheep", "sheep"),
        2 => ("pig", "pigs"),
        3 => ("cow", "cows"),
        4 => ("horse", "horses"),
        5 => ("small dog", "small dogs"),
        _ => ("big dog", "big dogs"),
    };
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "6 rabbits, 1 sheep" (or "nothing").
pub fn describe_amounts(counts: &[i64; KINDS]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n != 0)
        .map(|(k, &n)| animal_words(k, n))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

pub fn describe_herd(h: &Herd) -> String {
    describe_amounts(&h.0.map(i64::from))
}

/// A herd in a few characters: `3r 1s 1p 1c 1h 1d 1D` (`-` when empty).
pub fn compact_herd(h: &Herd) -> String {
    const LETTERS: [&str; KINDS] = ["r", "s", "p", "c", "h", "d", "D"];
    let parts: Vec<String> = ANIMALS
        .iter()
        .filter(|a| h.get(**a) > 0)
        .map(|a| format!("{}{}", h.get(*a), LETTERS[a.index()]))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

/// Turns a game record into text.
pub struct Narrator<'a> {
    names: &'a [String],
    setup: &'a Setup,
}

impl<'a> Narrator<'a> {
    pub fn new(names: &'a [String], setup: &'a Setup) -> Narrator<'a> {
        Narrator { names, setup }
    }

    /// A seat's name, ready for a terminal.
    fn name(&self, seat: usize) -> String {
        self.names
            .get(seat)
            .map(|n| terminal::line(n).into_owned())
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    fn party(&self, p: Party) -> String {
        match p {
            Party::Stock => "the stock".into(),
            Party::Player(s) => self.name(s),
        }
    }

    fn offer(&self, seat: usize, offer: &Offer) -> String {
        let give = describe_amounts(&offer.give.map(i64::from));
        let get = describe_amounts(&offer.get.map(i64::from));
        match OfferKind::from_code(offer.kind) {
            Some(OfferKind::Pass) => "passes".into(),
            Some(OfferKind::Stock) => format!("offers the stock {give} for {get}"),
            Some(OfferKind::Player) => {
                let partner = if (0..self.names.len() as i32).contains(&offer.partner)
                    && offer.partner as usize != seat
                {
                    self.name(offer.partner as usize)
                } else {
                    format!("seat {}", offer.partner)
                };
                format!("offers {partner} {give} for {get}")
            }
            None => format!(
                "answers something that is not a trade (kind {})",
                offer.kind
            ),
        }
    }

    fn event(&self, e: &Event, out: &mut String) {
        let line = match e {
            Event::Answer { seat, accepted, .. } => format!(
                "{} {}",
                self.name(*seat),
                if *accepted { "accepts" } else { "declines" }
            ),
            Event::TradeFailed { reason, .. } => {
                format!("trade failed: {} ({})", reason.describe(), reason.name())
            }
            Event::Transfer { from, to, animals } => format!(
                "{} gives {} to {}",
                self.party(*from),
                describe_herd(animals),
                self.party(*to)
            ),
            Event::Rolled { roll, .. } => format!(
                "rolls: fox die {}, wolf die {}",
                roll.fox.name(),
                roll.wolf.name()
            ),
            Event::Wolf { lost, .. } => {
                if lost.get(farm_rules::Animal::BigDog) > 0 {
                    "the wolf comes: the big dog chases it away and is lost".into()
                } else if lost.is_empty() {
                    "the wolf comes but finds nothing to eat".into()
                } else {
                    format!("the wolf eats {}", describe_herd(lost))
                }
            }
            Event::Fox { lost, .. } => {
                if lost.get(farm_rules::Animal::SmallDog) > 0 {
                    "the fox comes: the small dog chases it away and is lost".into()
                } else if lost.is_empty() {
                    "the fox comes but finds no rabbit".into()
                } else {
                    format!("the fox takes {}", describe_herd(lost))
                }
            }
            Event::Bred { gained, .. } => format!("breeding brings {}", describe_herd(gained)),
            Event::Fault {
                seat,
                decision,
                fault,
            } => format!(
                "FAULT: {} failed its {} decision: {} ({})",
                self.name(*seat),
                match decision {
                    Decision::Init => "load",
                    Decision::Trade => "trade",
                    Decision::Accept => "accept",
                },
                terminal::line(&fault.detail),
                fault.kind.name()
            ),
            Event::Forfeit { seat } => {
                format!("{} forfeits and is out of the game", self.name(*seat))
            }
            Event::Win {
                seat,
                last_standing,
            } => format!(
                "{} WINS{}",
                self.name(*seat),
                if *last_standing {
                    " as the last player left"
                } else {
                    ""
                }
            ),
            Event::Draw { round_cap } => {
                if *round_cap {
                    "DRAW: the round cap was reached".into()
                } else {
                    "DRAW: every player is out".into()
                }
            }
        };
        let _ = writeln!(out, "  {line}");
    }

    fn herds(&self, pos: &Position, out: &mut String) {
        let parts: Vec<String> = (0..self.setup.players)
            .map(|s| {
                let out_mark = if pos.is_out(s) { " (out)" } else { "" };
                format!("{} {}{out_mark}", self.name(s), compact_herd(&pos.herds[s]))
            })
            .collect();
        let _ = writeln!(out, "  herds: {}", parts.join(" | "));
    }

    /// The whole game as text; `logs` adds what agents logged, under the turn they logged it in.
    pub fn narrate(&self, record: &GameRecord, logs: Option<&Logs>) -> String {
        let mut out = String::new();
        let seats: Vec<String> = (0..self.setup.players)
            .map(|s| format!("seat {s}: {}", self.name(s)))
            .collect();
        let _ = writeln!(
            out,
            "Little Animal Farm, {} players ({}), seed {}, round cap {}, fault policy {}",
            self.setup.players,
            seats.join(", "),
            self.setup.seed.map_or("none".into(), |s| s.to_string()),
            self.setup.round_cap,
            match self.setup.policy {
                FaultPolicy::Forfeit => "forfeit",
                FaultPolicy::LoseMove => "lose_move",
            }
        );
        let _ = writeln!(
            out,
            "herds: r rabbit, s sheep, p pig, c cow, h horse, d small dog, D big dog\n"
        );
        let mut pos = self.setup.initial_position();
        let print_logs = |turn: u32, out: &mut String| {
            if let Some(logs) = logs {
                for (_, seat, text) in logs.iter().filter(|(t, _, _)| *t == turn) {
                    for line in terminal::log_lines(text) {
                        let _ = writeln!(out, "  [{} log] {line}", self.name(*seat));
                    }
                }
            }
        };
        if !record.start_events.is_empty() || logs.is_some_and(|l| l.iter().any(|e| e.0 == 0)) {
            let _ = writeln!(out, "Before the first turn:");
            print_logs(0, &mut out);
            for e in &record.start_events {
                apply(&mut pos, e);
                self.event(e, &mut out);
            }
            out.push('\n');
        }
        for turn in &record.turns {
            let _ = writeln!(
                out,
                "Turn {} (round {}): {}",
                turn.turn,
                turn.round,
                self.name(turn.seat)
            );
            print_logs(turn.turn, &mut out);
            if let Some(offer) = &turn.offer {
                let _ = writeln!(
                    out,
                    "  {} {}",
                    self.name(turn.seat),
                    self.offer(turn.seat, offer)
                );
            }
            for e in &turn.events {
                apply(&mut pos, e);
                self.event(e, &mut out);
            }
            self.herds(&pos, &mut out);
        }
        let _ = writeln!(
            out,
            "\nResult after {} rounds: {}",
            record.rounds(),
            match record.outcome {
                Outcome::Win {
                    seat,
                    last_standing,
                } => format!(
                    "{} wins{}",
                    self.name(seat),
                    if last_standing {
                        " (last player left)"
                    } else {
                        ""
                    }
                ),
                Outcome::Draw { round_cap: true } => "draw (round cap)".into(),
                Outcome::Draw { round_cap: false } => "draw (every player out)".into(),
                Outcome::Unfinished => "unfinished".into(),
            }
        );
        for s in 0..self.setup.players {
            let _ = writeln!(
                out,
                "  {}: {}",
                self.name(s),
                describe_herd(&record.final_position.herds[s])
            );
        }
        out
    }
}

/// Follows a record's events on a position (for the herds shown after each turn).
fn apply(pos: &mut Position, e: &Event) {
    let take = |from: &mut Herd, to: &mut Herd, h: &Herd| {
        *from = from.minus(h);
        *to = to.plus(h);
    };
    match e {
        Event::Transfer { from, to, animals } => {
            let mut a = get(pos, *from);
            let mut b = get(pos, *to);
            take(&mut a, &mut b, animals);
            set(pos, *from, a);
            set(pos, *to, b);
        }
        Event::Wolf { seat, lost } | Event::Fox { seat, lost } if *seat < MAX_PLAYERS => {
            pos.herds[*seat] = pos.herds[*seat].minus(lost);
            pos.stock = pos.stock.plus(lost);
        }
        Event::Bred { seat, gained } if *seat < MAX_PLAYERS => {
            pos.stock = pos.stock.minus(gained);
            pos.herds[*seat] = pos.herds[*seat].plus(gained);
        }
        Event::Forfeit { seat } if *seat < MAX_PLAYERS => pos.out |= 1 << seat,
        _ => {}
    }
}

fn get(pos: &Position, p: Party) -> Herd {
    match p {
        Party::Stock => pos.stock,
        Party::Player(s) => pos.herds.get(s).copied().unwrap_or_default(),
    }
}

fn set(pos: &mut Position, p: Party, h: Herd) {
    match p {
        Party::Stock => pos.stock = h,
        Party::Player(s) => {
            if let Some(slot) = pos.herds.get_mut(s) {
                *slot = h;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PASSER: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "thinking")
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "farm_trade") (param i32) (result i32) (call $log (i32.const 0) (i32.const 8)) i32.const 0)
  (func (export "farm_accept") (param i32) (result i32) i32.const 0))"#;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-play-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn names_logs_and_fault_details_cannot_act_on_the_terminal() {
        struct Evil;
        impl FarmPlayer for Evil {
            fn trade(&mut self, _obs: &Observation) -> Result<Offer, Fault> {
                Err(Fault::new(
                    crate::farm::FaultKind::Trap,
                    "boom\r\u{1b}[2Kok",
                ))
            }
            fn accept(&mut self, _obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
                Ok(false)
            }
        }
        let setup = Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::standard(2, 3, 2)
        };
        let record = play_game(&setup, &mut [&mut Evil, &mut Evil], &mut SeededDice::new(3));
        let names = vec![
            "evil\u{1b}]0;title\u{7}".to_string(),
            "two\u{9b}31m".to_string(),
        ];
        let logs: Logs = vec![(1, 0, "first\n\u{1b}[2Kok  forged\r\n".to_string())];
        let text = Narrator::new(&names, &setup).narrate(&record, Some(&logs));
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.contains("  [evil\\x1b]0;title\\x07 log] first\n  [evil\\x1b]0;title\\x07 log] \\x1b[2Kok  forged\n"),
            "{text}"
        );
        assert!(
            text.contains("failed its trade decision: boom\\r\\x1b[2Kok (trap)"),
            "{text}"
        );
        assert!(text.contains("two\\u{9b}31m"), "{text}");
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
            limits: LimitArgs::default(),
        };
        assert_eq!(run(args).unwrap(), 0);
        let bytes = std::fs::read(&record).unwrap();
        let summary = crate::records::verify_record_bytes(&bytes).unwrap();
        assert!(
            summary.describe().contains("seeded 11"),
            "{}",
            summary.describe()
        );
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("\"quiet#3\""), "names are made unique");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn narration_shows_offers_dice_herds_logs_and_result() {
        let sb = Sandbox::new(Limits::default()).unwrap();
        let m = sb.load_bytes("quiet", PASSER.as_bytes()).unwrap();
        let setup = Setup::standard(2, 5, 20);
        let (record, logs, fuel) = play_logged(&setup, &[m.clone(), m]).unwrap();
        assert!(fuel.iter().all(|f| f.0 > 0 && f.1 > 0));
        let names = vec!["a".to_string(), "b".to_string()];
        let text = Narrator::new(&names, &setup).narrate(&record, Some(&logs));
        assert!(text.contains("Turn 1 (round 1): a"), "{text}");
        assert!(text.contains("a passes"), "{text}");
        assert!(text.contains("rolls: fox die"), "{text}");
        assert!(text.contains("herds: a "), "{text}");
        assert!(text.contains("[a log] thinking"), "{text}");
        assert!(text.contains("Result after 20 rounds"), "{text}");
    }

    #[test]
    fn herds_and_offers_read_well() {
        assert_eq!(compact_herd(&Herd([3, 1, 0, 0, 0, 0, 1])), "3r 1s 1D");
        assert_eq!(compact_herd(&Herd::EMPTY), "-");
        assert_eq!(
            describe_herd(&Herd([6, 2, 1, 0, 0, 0, 0])),
            "6 rabbits, 2 sheep, 1 pig"
        );
        let names = vec!["a".to_string(), "b".to_string()];
        let setup = Setup::standard(2, 1, 10);
        let n = Narrator::new(&names, &setup);
        let offer = Offer::with_player(1, Herd([0, 1, 0, 0, 0, 0, 0]), Herd([6, 0, 0, 0, 0, 0, 0]));
        assert_eq!(n.offer(0, &offer), "offers b 1 sheep for 6 rabbits");
        let mut bad = Offer::PASS;
        bad.kind = 9;
        assert_eq!(
            n.offer(0, &bad),
            "answers something that is not a trade (kind 9)"
        );
        assert_eq!(
            unique_names(vec!["x".into(), "x".into(), "y".into(), "x".into()]),
            ["x", "x#2", "y", "x#3"]
        );
    }
}
