//! `arena play` of Jungle: two agents (the game narrated with the board drawn), or a person
//! against an agent (`arena play human AGENT`, or `arena play AGENT human` to play second),
//! from the start or from `--position`, with the fuel clock of `--clock` and `--increment`.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::rc::Rc;

use anyhow::Context;
use jungle_rules::Position;

use super::game::{play_game, play_game_into, GameRecord, GameSink, LoadFault, Ply, Setup};
use super::human::{Human, Screen};
use super::narrate::{board, fuel, narrate, ply_line, result_line, side_words};
use super::player::JunglePlayer;
use super::record::write_record;
use super::settings::Settings;
use super::FuelClock;
use crate::cli::play::PlayArgs;
use crate::farm::AgentLog;
use crate::game::GameKind;
use crate::records::RecordMeta;
use crate::sandbox::{run_with_big_stack, AgentModule, HostFailure, Limits, Sandbox};
use crate::terminal;

/// The seat name `arena play` takes for a person at the terminal.
pub const HUMAN: &str = "human";

/// True when `path` names a person rather than an agent (the word `human` as given).
pub fn is_human(path: &Path) -> bool {
    path == Path::new(HUMAN)
}

/// The Jungle-only options of `arena play`: refused for another game, naming the flag.
pub fn check_options(args: &PlayArgs, game: GameKind) -> anyhow::Result<()> {
    if game == GameKind::Jungle {
        return Ok(());
    }
    for (given, flag) in [
        (args.position.is_some(), "--position"),
        (args.clock.is_some(), "--clock"),
        (args.increment.is_some(), "--increment"),
        (args.boards, "--boards"),
    ] {
        anyhow::ensure!(
            !given,
            "{flag} is an option of Jungle, not of {}",
            game.title()
        );
    }
    Ok(())
}

/// The setup `args` ask for: the seed, the round cap, the policy, the clock (with the cap of
/// `limits`) and the start position.
pub fn setup(args: &PlayArgs, limits: &Limits, seed: u64) -> anyhow::Result<(Setup, Settings)> {
    let settings = Settings {
        clock: args.clock.unwrap_or(super::settings::DEFAULT.clock),
        increment: args.increment.unwrap_or(super::settings::DEFAULT.increment),
    };
    settings.check()?;
    let start = match &args.position {
        Some(text) => Position::parse(text).map_err(|e| {
            anyhow::anyhow!("--position {}: {e}", terminal::line(&format!("{text:?}")))
        })?,
        None => Position::start(),
    };
    let clock = FuelClock {
        start: settings.clock,
        increment: settings.increment,
        decision_cap: limits.fuel_per_decision,
    };
    Ok((
        Setup {
            seed,
            round_cap: args.round_cap,
            policy: args.fault_policy.into(),
            clock,
            start,
        },
        settings,
    ))
}

/// The limits a record keeps: the sandbox's, and the clock.
fn limits_json(limits: &Limits, settings: &Settings) -> anyhow::Result<serde_json::Value> {
    let mut v = serde_json::to_value(limits)?;
    settings.add_to_limits(&mut v);
    Ok(v)
}

/// Each seat's fuel in the game's decisions: total, largest single decision.
fn seat_fuel(record: &GameRecord) -> Vec<(u64, u64)> {
    (0..2)
        .map(|seat| {
            let mine = record.plies.iter().filter(|p| p.seat == seat);
            let max = mine.clone().map(|p| p.fuel).max().unwrap_or(0);
            (record.end.fuel[seat], max)
        })
        .collect()
}

/// Writes the record where `args` ask; prints it with `--json`.
fn keep_record(args: &PlayArgs, bytes: &[u8]) -> anyhow::Result<()> {
    if let Some(path) = &args.record {
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        crate::cli::to_stdout(|| {
            std::io::stdout()
                .lock()
                .write_all(bytes)
                .context("cannot write to stdout")
        })?;
    }
    Ok(())
}

/// `arena play` of a Jungle game between two agents, `modules` and `names` seat by seat.
pub fn run(
    args: &PlayArgs,
    modules: &[AgentModule],
    names: &[String],
    limits: &Limits,
    seed: u64,
) -> anyhow::Result<i32> {
    let (setup, settings) = setup(args, limits, seed)?;
    let record = run_with_big_stack(|| {
        let mut players: Vec<_> = modules
            .iter()
            .map(|m| m.player_with_round_cap(setup.round_cap))
            .collect();
        let [a, b] = &mut players[..] else {
            anyhow::bail!("Jungle has 2 players, {} agents given", modules.len());
        };
        let record = play_game(&setup, [a, b]).context("a player left the game")?;
        if let Some(failure) = players.iter().find_map(|p| p.host_failure()) {
            return Err(anyhow::Error::new(failure.clone()));
        }
        Ok(record)
    })?;
    let meta = RecordMeta {
        names: names.to_vec(),
        agent_hashes: modules
            .iter()
            .map(|m| Some(m.sha256().to_owned()))
            .collect(),
        limits: std::sync::Arc::new(limits_json(limits, &settings)?),
    };
    let bytes = write_record(&record, &meta)?;
    keep_record(args, &bytes)?;
    if !args.json {
        out(&terminal::block(&narrate(
            names,
            &record,
            args.logs,
            args.boards,
        )));
        crate::cli::play::print_fuel_and_record(names, &seat_fuel(&record), args.record.as_deref());
    }
    Ok(0)
}

fn out(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// Tells the game on the screen as it is played, and keeps it.
struct Narrating {
    screen: Screen,
    names: Vec<String>,
    load_faults: Vec<LoadFault>,
    start_logs: Vec<AgentLog>,
    plies: Vec<Ply>,
    logs: bool,
}

impl Narrating {
    fn name(&self, seat: usize) -> String {
        terminal::line(&self.names[seat]).into_owned()
    }

    fn say(&self, text: &str) {
        let mut s = self.screen.borrow_mut();
        let _ = s.write_all(terminal::block(text).as_bytes());
        let _ = s.flush();
    }
}

impl GameSink for Narrating {
    fn start(&mut self, faults: &[LoadFault], logs: &[AgentLog]) -> ControlFlow<()> {
        for f in faults {
            self.say(&format!(
                "{} failed to load: {} fault: {}\n",
                self.name(f.seat),
                f.fault.kind.name(),
                f.fault.detail
            ));
        }
        self.load_faults = faults.to_vec();
        self.start_logs = logs.to_vec();
        ControlFlow::Continue(())
    }

    fn ply(&mut self, ply: Ply) -> ControlFlow<()> {
        let name = |seat: usize| self.name(seat);
        let mut text = format!("{}\n", ply_line(&ply, &name));
        if self.logs {
            for l in &ply.logs {
                for line in terminal::log_lines(&l.text) {
                    text.push_str(&format!("        [{} log] {line}\n", self.name(l.seat)));
                }
            }
        }
        self.say(&text);
        self.plies.push(ply);
        ControlFlow::Continue(())
    }
}

/// `arena play human AGENT` (the person plays the first player) or `arena play AGENT human`
/// (the second): moves typed at the terminal against `agent`, read from standard input. Exit
/// status 0 when the game was played or the person left (nothing is recorded then), 1 when the
/// agent cannot be loaded.
pub fn run_human(args: &PlayArgs) -> anyhow::Result<i32> {
    let human_seat = args
        .agents
        .iter()
        .position(|p| is_human(p))
        .expect("a seat is `human`");
    anyhow::ensure!(
        args.agents.len() == 2,
        "a person plays Jungle against one agent: `arena play human AGENT` (or `arena play AGENT \
         human` to play second), {} seats given",
        args.agents.len()
    );
    anyhow::ensure!(
        !args.agents.iter().all(|p| is_human(p)),
        "a person plays against an agent: name one agent besides `human`"
    );
    if let Some(game) = args.game.filter(|g| *g != GameKind::Jungle) {
        anyhow::bail!(
            "a person at the terminal can play Jungle only, not {}",
            game.title()
        );
    }
    anyhow::ensure!(
        !args.json,
        "--json prints a game's record instead of its narration; a game with a person is \
         narrated (keep its record with --record)"
    );
    let agent_path = &args.agents[1 - human_seat];
    let limits = args.limits.limits();
    let sandbox = Sandbox::new(limits.clone())?;
    let module = match crate::cli::play::load_agent(&sandbox, agent_path)
        .and_then(|m| m.check_plays(GameKind::Jungle).map(|()| m))
    {
        Ok(m) => m,
        Err(e) if HostFailure::find(&e).is_some() => return Err(e),
        Err(e) => {
            eprintln!("error: {}", terminal::block(&format!("{e:#}")));
            return Ok(1);
        }
    };
    let seed = args.seed.unwrap_or_else(crate::cli::play::random_seed);
    let (setup, settings) = setup(args, &limits, seed)?;
    let mut names = vec![String::new(), String::new()];
    names[human_seat] = HUMAN.to_owned();
    names[1 - human_seat] = module.name().to_owned();
    let names = crate::cli::play::unique_names(names);
    let stdin = std::io::stdin();
    let played = run_with_big_stack(|| {
        let screen: Screen = Rc::new(RefCell::new(Box::new(std::io::stdout())));
        let input: Box<dyn BufRead> = Box::new(stdin.lock());
        play_with_person(
            &setup, &module, &names, human_seat, input, screen, args.logs,
        )
    })?;
    let Some(record) = played else {
        out("No record written: the game was not finished.\n");
        return Ok(0);
    };
    if let Some(path) = &args.record {
        let meta = RecordMeta {
            names: names.clone(),
            agent_hashes: (0..2)
                .map(|s| (s != human_seat).then(|| module.sha256().to_owned()))
                .collect(),
            limits: std::sync::Arc::new(limits_json(&limits, &settings)?),
        };
        let bytes = write_record(&record, &meta)?;
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        out(&format!(
            "record written to {}\n",
            terminal::line(&path.display().to_string())
        ));
    }
    Ok(0)
}

/// A game of the person at `screen` and `input` (in `human_seat`) against `module`, told as it is
/// played; `None` when the person left before the end. Must run on a big-stack thread.
pub fn play_with_person(
    setup: &Setup,
    module: &AgentModule,
    names: &[String],
    human_seat: usize,
    input: Box<dyn BufRead>,
    screen: Screen,
    logs: bool,
) -> anyhow::Result<Option<GameRecord>> {
    let mut agent = module.player_with_round_cap(setup.round_cap);
    let mut human = Human::new(input, screen.clone(), &names[1 - human_seat]);
    let mut sink = Narrating {
        screen: screen.clone(),
        names: names.to_vec(),
        load_faults: Vec::new(),
        start_logs: Vec::new(),
        plies: Vec::new(),
        logs,
    };
    let me = jungle_rules::Side::from_index(human_seat).expect("seat 0 or 1");
    sink.say(&format!(
        "Jungle: you are the {}, {} the {}. Seed {}; {}'s clock: {} fuel + {} a move.\n\
         Pieces: r rat, c cat, d dog, w wolf, p leopard, t tiger, l lion, e elephant (upper \
         case: the first player); ~ water, ^ trap, @ den. Move one square (a lion or tiger may \
         jump a lake) by typing its squares, e.g. c3c4.\n\n{}\n",
        side_words(me),
        names[1 - human_seat],
        side_words(me.opponent()),
        setup.seed,
        names[1 - human_seat],
        fuel(setup.clock.start),
        fuel(setup.clock.increment),
        setup.start,
    ));
    if setup.start.side_to_move() != me {
        sink.say(&board(&setup.start, None));
    }
    let players: [&mut dyn JunglePlayer; 2] = if human_seat == 0 {
        [&mut human, &mut agent]
    } else {
        [&mut agent, &mut human]
    };
    let end = play_game_into(setup, players, &mut sink);
    if let Some(failure) = agent.host_failure() {
        return Err(anyhow::Error::new(failure.clone()));
    }
    let Some(end) = end else {
        return Ok(None);
    };
    let last = sink
        .plies
        .last()
        .and_then(|p| p.answer.filter(|_| p.fault.is_none()));
    let name = |seat: usize| sink.name(seat);
    sink.say(&format!(
        "\n{}\nResult: {}\n",
        board(&end.position, last),
        result_line(&end, &name)
    ));
    Ok(Some(GameRecord {
        setup: setup.clone(),
        load_faults: sink.load_faults,
        start_logs: sink.start_logs,
        plies: sink.plies,
        end,
    }))
}
