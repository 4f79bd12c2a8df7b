//! `arena match NEW OLD`: plays a new version of an agent against an old one in pairs of games on
//! shared seeds and says whether it is better (docs/MATCH.md).
//!
//! Exit status: 0 H1 accepted (NEW is better) or a fixed-length match played; 1 H0 accepted (NEW
//! is not better); 3 the game limit reached without a verdict; 2 a usage error, or an agent or a
//! folder the match cannot use.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;

use super::play::{choose_game, LimitArgs, PolicyArg};
use crate::game::Game;
use crate::matchup::{self, MatchSettings, Mode, Side};
use crate::resolve::resolve_agent;
use crate::sandbox::Sandbox;
use crate::terminal;

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Head to head (two-player games; races of a game with a solo benchmark with --race), every seed \
is played twice with the seats swapped, and the pair of games is the unit of the statistics: the \
pentanomial counts (pairs by NEW's points: 0, 1/2, 1, 1 1/2, 2), the Elo difference from the \
pairs with its 95 % interval and the likelihood of superiority. A game with a solo benchmark (one \
player a game, measured in turns to its target) is matched solo by default: both agents play \
alone on the same seeds, and the match reports the mean difference in turns to the target with \
its paired interval.

--sprt runs a sequential probability ratio test after every pair (fishtest's pentanomial GSPRT) \
and stops as soon as it decides. Its keys, each optional:
  head to head  elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic  (model: logistic|normalized)
  solo          turns0=0,turns1=0.5,alpha=0.05,beta=0.05  (turns NEW saves a game)

Exit status: 0 H1 accepted (NEW is better by elo1) or a fixed-length match played; 1 H0 accepted \
(NEW is not better than elo0); 3 the game limit was reached without a verdict; 2 a usage error, \
or an agent or folder the match cannot use. The same seed gives the same games and the same \
verdict whatever --threads. docs/MATCH.md explains the figures and where they come from.")]
pub struct MatchArgs {
    /// The new version: a .wasm or .wat file, an agent crate directory (built for wasm), a
    /// folder made by `arena new`, or a built-in agent (`builtin:shepherd`)
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// The version to beat, in the same forms
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    #[arg(long, value_name = "GAME", value_parser = crate::games::parse, help = super::play::game_help())]
    pub game: Option<&'static dyn Game>,
    /// For a game with a solo benchmark: play two-player races in seat-swapped pairs instead
    #[arg(long, visible_alias = "head-to-head")]
    pub race: bool,
    /// Games to play, an even number (pairs); with --sprt, the most to play [default: 1000;
    /// with --sprt: 100000]
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Stop as soon as a sequential test decides; KEY=VALUE settings separated by commas, any
    /// left out take their defaults (`--sprt` alone: every default)
    #[arg(long, value_name = "SETTINGS", num_args = 0..=1, default_missing_value = "")]
    pub sprt: Option<String>,
    /// League seed: every pair's seed derives from it
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once [default: one per core]
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Print the result as JSON on stdout (no text)
    #[arg(long)]
    pub json: bool,
    /// Keep the match's league folder here (journal, records, standings, report): it verifies
    /// with `arena verify --league DIR` and opens with `arena report DIR`
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// With --output: discard a league or match the folder already holds
    #[arg(long, requires = "output")]
    pub fresh: bool,
    /// Rounds before a game ends: a draw (a solo game: the target not reached)
    #[arg(long = "rounds", value_name = "CAP", default_value_t = 300)]
    pub round_cap: u32,
    /// What a fault costs an agent
    #[arg(long, value_enum, default_value_t = PolicyArg::Forfeit)]
    pub fault_policy: PolicyArg,
    /// No live line on the terminal
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<i32> {
    anyhow::ensure!(args.round_cap > 0, "--rounds must be at least 1");
    anyhow::ensure!(args.threads != Some(0), "--threads must be at least 1");
    if let Some(games) = args.games {
        matchup::check_games(games)?;
    }
    // Both named before anything is built, each by its role (`OLD: agent …`).
    for (role, path) in [("NEW", &args.new), ("OLD", &args.old)] {
        crate::resolve::check_agents_exist([path], |_| false).context(role)?;
    }
    let limits = args.limits.limits();
    let sandbox = Sandbox::new(crate::games::registry().agents(), limits)?;
    let mut sides = Vec::new();
    let mut modules = Vec::new();
    for (role, path) in [("NEW", &args.new), ("OLD", &args.old)] {
        let wasm = resolve_agent(path).context(role)?;
        let module = crate::activity::load(&sandbox, &wasm)
            .with_context(|| format!("{role} ({}) cannot be loaded", wasm.display()))?;
        sides.push((
            matchup::default_name(path),
            wasm,
            module.sha256().to_owned(),
        ));
        modules.push(module);
    }
    let game = choose_game(args.game, &modules)?;
    drop(modules);
    let mode = Mode::for_game(game, args.race)?;
    let test = matchup::parse_test(mode, args.sprt.as_deref())
        .map_err(|e| anyhow::anyhow!("--sprt: {e}"))?;
    let games = args.games.unwrap_or(if test.sequential() {
        matchup::DEFAULT_SPRT_GAMES
    } else {
        matchup::DEFAULT_GAMES
    });
    let (new_name, old_name) = matchup::names(&sides[0].0, &sides[1].0);
    let [(_, new_path, new_hash), (_, old_path, old_hash)]: [_; 2] =
        sides.try_into().expect("two sides");
    let settings = MatchSettings {
        new: Side {
            name: new_name,
            path: new_path,
            sha256: new_hash,
        },
        old: Side {
            name: old_name,
            path: old_path,
            sha256: old_hash,
        },
        game,
        mode,
        games,
        test,
        seed: args.seed,
        threads: args.threads,
        round_cap: args.round_cap,
        fault_policy: args.fault_policy.into(),
        budgets: args.limits.budgets(),
        output: args.output.clone(),
        fresh: args.fresh,
        live: !args.quiet && std::io::stderr().is_terminal(),
    };
    let run = matchup::run_match(&settings)?;
    let report = &run.report;
    if args.json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        print!("{}", terminal::block(&report.text()));
    }
    match &run.html {
        Some(Ok(index)) if !args.json => {
            println!("report: {}", terminal::line(&index.display().to_string()))
        }
        Some(Err(e)) => eprintln!(
            "warning: the HTML report could not be written: {}",
            terminal::block(&format!("{e:#}"))
        ),
        _ => {}
    }
    Ok(report.exit_code)
}
