//! The arena's output does not change when its code is reorganised: leagues of every game (with
//! faults of every policy, trades between players, logs, solo and race Farkle, Jungle's fuel
//! clock and illegal moves, a code war with agents that fault), single games and their
//! verification give the very bytes listed in `host/tests/fixtures/identity.txt`. The farm's and
//! Farkle's were computed with the code before games became plug-ins; Jungle's and the code war's
//! with the code before games became rules played by the host.
//!
//! Only WebAssembly text agents play (the example WAT agents, hostile agents of `tests/hostile/`
//! and two written here): a module's SHA-256, which every record holds, is then the same on
//! every machine and with every compiler. The leagues run on one thread, so that the journal
//! lists the games in one order.
//!
//! When an output changes on purpose, the failure lists every line of the new expected file.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{temp_dir, text, workspace};
use sha2::{Digest, Sha256};

/// A Farkle agent: drafts the first die of each roll (rejected when it scores nothing), rolls on
/// twice and banks on the third roll, logs every decision, and answers a bad length at every 13th
/// decision (a `bad_answer` fault).
const PUSHER: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "roll")
  (global $calls (mut i32) (i32.const 0))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 1024))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farkle_draft") (param $len i32) (result i32)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.eqz (i32.rem_u (global.get $calls) (i32.const 13))) (then (return (i32.const -1))))
    (call $log (i32.const 16) (i32.const 4))
    (i32.store (i32.const 1024) (i32.ge_u (i32.load (i32.const 1064)) (i32.const 3)))
    (i32.store (i32.const 1028) (i32.const 1))
    (i32.store (i32.const 1032) (i32.const 0))
    (i32.const 12)))"#;

/// A Little Animal Farm agent that passes, accepts every offer, logs at load, and traps in its
/// 40th trade decision.
const LATE_TRAP: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "hello")
  (global $calls (mut i32) (i32.const 0))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 1024))
  (func (export "arena_buffer_size") (result i32) (i32.const 16384))
  (func (export "arena_init") (param $len i32) (result i32)
    (call $log (i32.const 16) (i32.const 5))
    (i32.const 0))
  (func (export "farm_trade") (param $len i32) (result i32)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.eq (global.get $calls) (i32.const 40)) (then unreachable))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 1)))"#;

/// A Jungle agent: of the legal moves the host lists, a move into the enemy den first, else the
/// capture of the highest-ranked piece, else the move that goes furthest (the first in the host's
/// order).
const JUNGLE_GREEDY: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "jungle_move") (param $len i32) (result i32)
    (local $side i32) (local $n i32) (local $i i32) (local $to i32) (local $target i32)
    (local $score i32) (local $best i32) (local $best_score i32) (local $den i32)
    (local.set $side (i32.load (i32.const 32)))
    (local.set $n (i32.load (i32.const 156)))
    (local.set $den (select (i32.const 59) (i32.const 3) (i32.eqz (local.get $side))))
    (local.set $best_score (i32.const -1))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $to (i32.load8_u (i32.add (i32.const 161) (i32.shl (local.get $i) (i32.const 1)))))
        (local.set $score (i32.div_u (local.get $to) (i32.const 7)))
        (if (local.get $side)
          (then (local.set $score (i32.sub (i32.const 8) (local.get $score)))))
        (local.set $target (i32.load8_u (i32.add (i32.const 88) (local.get $to))))
        (if (local.get $target)
          (then
            (local.set $score
              (i32.add (local.get $score)
                (i32.mul (i32.const 100)
                  (i32.add (i32.and (i32.sub (local.get $target) (i32.const 1)) (i32.const 7))
                    (i32.const 1)))))))
        (if (i32.eq (local.get $to) (local.get $den))
          (then (local.set $score (i32.add (local.get $score) (i32.const 10000)))))
        (if (i32.gt_s (local.get $score) (local.get $best_score))
          (then
            (local.set $best_score (local.get $score))
            (local.set $best (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (i32.store8 (i32.const 0)
      (i32.load8_u (i32.add (i32.const 160) (i32.shl (local.get $best) (i32.const 1)))))
    (i32.store8 (i32.const 1)
      (i32.load8_u (i32.add (i32.const 161) (i32.shl (local.get $best) (i32.const 1)))))
    (i32.const 2)))"#;

/// A Jungle agent that logs every decision and plays the legal move `7 × calls mod n`, but
/// answers an illegal move (a1 to a1) at every 9th decision and an unreadable answer at every
/// 23rd.
const JUNGLE_WANDERER: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 9000) "step")
  (global $calls (mut i32) (i32.const 0))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "jungle_move") (param $len i32) (result i32)
    (local $i i32)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (call $log (i32.const 9000) (i32.const 4))
    (if (i32.eqz (i32.rem_u (global.get $calls) (i32.const 23))) (then (return (i32.const -1))))
    (if (i32.eqz (i32.rem_u (global.get $calls) (i32.const 9)))
      (then
        (i32.store8 (i32.const 0) (i32.const 0))
        (i32.store8 (i32.const 1) (i32.const 0))
        (return (i32.const 2))))
    (local.set $i
      (i32.rem_u (i32.mul (global.get $calls) (i32.const 7)) (i32.load (i32.const 156))))
    (i32.store8 (i32.const 0)
      (i32.load8_u (i32.add (i32.const 160) (i32.shl (local.get $i) (i32.const 1)))))
    (i32.store8 (i32.const 1)
      (i32.load8_u (i32.add (i32.const 161) (i32.shl (local.get $i) (i32.const 1)))))
    (i32.const 2)))"#;

/// A Jungle agent that thinks (spins) for `40,000 × (calls mod 4)` loops before it plays its
/// first legal move, so that its fuel clock runs down, and spins without end at its 30th
/// decision.
const JUNGLE_SPINNER: &str = r#"(module
  (memory (export "memory") 1)
  (global $calls (mut i32) (i32.const 0))
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "jungle_move") (param $len i32) (result i32)
    (local $k i32)
    (global.set $calls (i32.add (global.get $calls) (i32.const 1)))
    (if (i32.eq (global.get $calls) (i32.const 30)) (then (loop $forever (br $forever))))
    (local.set $k (i32.mul (i32.rem_u (global.get $calls) (i32.const 4)) (i32.const 40000)))
    (block $done
      (loop $spin
        (br_if $done (i32.eqz (local.get $k)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $spin)))
    (i32.store16 (i32.const 0) (i32.load16_u (i32.const 160)))
    (i32.const 2)))"#;

const FARM_BUDGETS: &str = "[budgets]\nfuel_per_decision = 200000\nfuel_per_game = 50000000\n";

/// The league files, each with its agents (paths relative to the workspace).
fn leagues() -> Vec<(&'static str, String)> {
    let ws = workspace();
    let agent = |name: &str, path: PathBuf| {
        format!(
            "[[agent]]\nname = {name:?}\npath = {:?}\n",
            path.display().to_string()
        )
    };
    let wat = |f: &str| ws.join("example-agents/wat").join(f);
    let hostile = |f: &str| ws.join("tests/hostile").join(f);
    let farm_agents = [
        agent("passer", wat("passer.wat")),
        agent("climber", wat("climber.wat")),
        agent("dealer", hostile("dealer.wat")),
        agent("late-trap", PathBuf::from("late_trap.wat")),
        agent("bad-accept", hostile("bad_accept.wat")),
        agent("looper", hostile("loop_trade.wat")),
    ]
    .concat();
    let farm_three = [
        agent("passer", wat("passer.wat")),
        agent("climber", wat("climber.wat")),
        agent("dealer", hostile("dealer.wat")),
        agent("late-trap", PathBuf::from("late_trap.wat")),
        agent("bad-accept", hostile("bad_accept.wat")),
    ]
    .concat();
    let farkle_agents = [
        agent("banker", wat("farkle-banker.wat")),
        agent("pusher", PathBuf::from("pusher.wat")),
        agent("pusher-2", PathBuf::from("pusher.wat")),
    ]
    .concat();
    let jungle_agents = [
        agent("greedy", PathBuf::from("jungle_greedy.wat")),
        agent("wanderer", PathBuf::from("jungle_wanderer.wat")),
        agent("spinner", PathBuf::from("jungle_spinner.wat")),
    ]
    .concat();
    let codewar_agents = [
        agent("crawler", wat("codewar-crawler.wat")),
        agent("borg", wat("codewar-borg.wat")),
        agent("spy", wat("codewar-spy.wat")),
        agent("trap", hostile("codewar/trap.wat")),
        agent("forever", hostile("codewar/forever.wat")),
    ]
    .concat();
    const JUNGLE_BUDGETS: &str = "[budgets]\nfuel_per_decision = 1000000\n";
    vec![
        (
            "jungle-lose-move",
            format!(
                "name = \"jungle lose move\"\ngame = \"jungle\"\nplayers_per_game = 2\n\
                 games_per_group = 2\nseed = 13\nround_cap = 60\nfault_policy = \"lose_move\"\n\
                 threads = 1\noutput = \"jungle-lose-move\"\n{JUNGLE_BUDGETS}\
                 [jungle]\nclock = 3000000\nincrement = 50000\n{jungle_agents}"
            ),
        ),
        (
            "jungle-forfeit",
            format!(
                "name = \"jungle forfeit\"\ngame = \"jungle\"\nplayers_per_game = 2\n\
                 games_per_group = 2\nseed = 14\nround_cap = 40\nthreads = 1\n\
                 output = \"jungle-forfeit\"\n{JUNGLE_BUDGETS}[jungle]\n\
                 position = \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4\"\n{jungle_agents}"
            ),
        ),
        (
            "codewar",
            format!(
                "name = \"code war\"\ngame = \"codewar\"\nplayers_per_game = 3\n\
                 games_per_group = 3\nseed = 21\nthreads = 1\noutput = \"codewar\"\n\
                 [codewar]\narray_size = 40\niterations = 30\nmambo_step = 10\n\
                 reentry_every = 5\n{codewar_agents}"
            ),
        ),
        (
            "farm-two",
            format!(
                "name = \"farm two\"\nplayers_per_game = 2\ngames_per_group = 4\nseed = 7\n\
                 round_cap = 120\nthreads = 1\noutput = \"farm-two\"\n{FARM_BUDGETS}{farm_agents}"
            ),
        ),
        (
            "farm-three",
            format!(
                "name = \"farm three\"\nplayers_per_game = 3\ngames_per_group = 3\nseed = 11\n\
                 round_cap = 80\nfault_policy = \"lose_move\"\nthreads = 1\n\
                 compress_records_over = 20000\noutput = \"farm-three\"\n{FARM_BUDGETS}{farm_three}"
            ),
        ),
        (
            "farkle-solo",
            format!(
                "name = \"farkle solo\"\ngame = \"farkle\"\nplayers_per_game = 1\n\
                 games_per_group = 12\nseed = 5\nround_cap = 60\nthreads = 1\n\
                 output = \"farkle-solo\"\n{farkle_agents}"
            ),
        ),
        (
            "farkle-race",
            format!(
                "name = \"farkle race\"\ngame = \"farkle\"\nplayers_per_game = 3\n\
                 games_per_group = 6\nseed = 9\nround_cap = 40\nfault_policy = \"lose_move\"\n\
                 threads = 1\noutput = \"farkle-race\"\n{farkle_agents}"
            ),
        ),
    ]
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every file under `dir` (relative path to content), skipping `skip`ped folders.
fn files(dir: &Path, skip: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            if skip.contains(&rel.as_str()) || rel.ends_with(".arena.lock") {
                continue;
            }
            if p.is_dir() {
                todo.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// `arena` with `args` in `dir`; its standard output, or a failure with everything it said.
fn arena_in(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = common::arena()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "arena {args:?}:\n{}", text(&out));
    out.stdout
}

#[test]
fn leagues_games_and_verification_give_the_bytes_of_before() {
    let dir = temp_dir("identity");
    std::fs::write(dir.join("pusher.wat"), PUSHER).unwrap();
    std::fs::write(dir.join("late_trap.wat"), LATE_TRAP).unwrap();
    std::fs::write(dir.join("jungle_greedy.wat"), JUNGLE_GREEDY).unwrap();
    std::fs::write(dir.join("jungle_wanderer.wat"), JUNGLE_WANDERER).unwrap();
    std::fs::write(dir.join("jungle_spinner.wat"), JUNGLE_SPINNER).unwrap();
    let mut found = BTreeMap::new();
    for (name, league) in leagues() {
        let file = format!("{name}.toml");
        std::fs::write(dir.join(&file), league).unwrap();
        arena_in(&dir, &["league", "-q", "-c", &file]);
        // The report's pages and data script say how to show games; its replay packs are the
        // games' data and stay the same.
        let skip = ["report/data.js", "report/index.html"];
        for (rel, bytes) in files(&dir.join(name), &skip) {
            let kept = !rel.starts_with("report/") || rel.starts_with("report/games/");
            if kept {
                found.insert(format!("{name}/{rel}"), sha256(&bytes));
            }
        }
        let verified = arena_in(&dir, &["verify", "-v", name]);
        found.insert(format!("{name} verify -v"), sha256(&verified));
        let audited = arena_in(&dir, &["verify", "--league", name]);
        found.insert(format!("{name} verify --league"), sha256(&audited));
    }
    let ws = workspace();
    let climber = ws.join("example-agents/wat/climber.wat");
    let dealer = ws.join("tests/hostile/dealer.wat");
    let banker = ws.join("example-agents/wat/farkle-banker.wat");
    let late_trap = PathBuf::from("late_trap.wat");
    let pusher = PathBuf::from("pusher.wat");
    let s = |p: &Path| p.display().to_string();
    let owned = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let codewar = |f: &str| s(&ws.join("example-agents/wat").join(f));
    let games: [(&str, Vec<String>); 8] = [
        (
            "play jungle",
            owned(&[
                "jungle_wanderer.wat",
                "jungle_greedy.wat",
                "--seed",
                "5",
                "--boards",
                "--fault-policy",
                "lose_move",
            ]),
        ),
        (
            "play jungle clock",
            owned(&[
                "jungle_spinner.wat",
                "jungle_greedy.wat",
                "--seed",
                "6",
                "--position",
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4",
                "--set",
                "clock=2000000",
                "--set",
                "increment=100000",
                "--fuel-per-decision",
                "900000",
            ]),
        ),
        (
            "play codewar",
            vec![
                codewar("codewar-crawler.wat"),
                codewar("codewar-borg.wat"),
                codewar("codewar-spy.wat"),
                s(&ws.join("tests/hostile/codewar/trap.wat")),
                "--seed".into(),
                "3".into(),
                "--set".into(),
                "array_size=30".into(),
                "--set".into(),
                "iterations=12".into(),
            ],
        ),
        (
            "play codewar poisoner",
            vec![
                codewar("codewar-poisoner.wat"),
                codewar("codewar-berserker.wat"),
                "--seed".into(),
                "4".into(),
            ],
        ),
        (
            "play farm",
            vec![
                s(&climber),
                s(&dealer),
                s(&late_trap),
                "--seed".into(),
                "3".into(),
            ],
        ),
        (
            "play farm lose_move",
            vec![
                s(&late_trap),
                s(&dealer),
                "--seed".into(),
                "4".into(),
                "--fault-policy".into(),
                "lose_move".into(),
                "--rounds".into(),
                "60".into(),
            ],
        ),
        (
            "play farkle solo",
            vec![s(&pusher), "--seed".into(), "8".into()],
        ),
        (
            "play farkle race",
            vec![s(&banker), s(&pusher), "--seed".into(), "9".into()],
        ),
    ];
    for (name, args) in games {
        let mut record_args: Vec<&str> = vec!["play"];
        record_args.extend(args.iter().map(String::as_str));
        let record = format!("{}.jsonl", name.replace(' ', "-"));
        let narration = arena_in(
            &dir,
            &[&record_args[..], &["--logs", "--record", &record]].concat(),
        );
        found.insert(format!("{name} narration"), sha256(&narration));
        found.insert(
            format!("{name} record"),
            sha256(&std::fs::read(dir.join(&record)).unwrap()),
        );
        let json = arena_in(&dir, &[&record_args[..], &["--json"]].concat());
        found.insert(format!("{name} --json"), sha256(&json));
        let verified = arena_in(&dir, &["verify", "-v", &record]);
        found.insert(format!("{name} verify"), sha256(&verified));
    }
    let found: String = found.iter().map(|(k, v)| format!("{v}  {k}\n")).collect();
    let expected_file = ws.join("host/tests/fixtures/identity.txt");
    let expected = std::fs::read_to_string(&expected_file).unwrap_or_default();
    if found != expected {
        let old: std::collections::BTreeSet<&str> = expected.lines().collect();
        let new: std::collections::BTreeSet<&str> = found.lines().collect();
        let changed: Vec<&&str> = new.difference(&old).collect();
        panic!(
            "the output differs from {} in {} line(s): {changed:#?}\nthe whole new list:\n{found}",
            expected_file.display(),
            changed.len()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
