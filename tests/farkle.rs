//! Farkle end to end: the example bots built for wasm play exactly like their native builds, the
//! solo benchmark ranks them (the best beating the seed harness's best bot, 28.6 turns), a race
//! league runs, and every record verifies.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use arena::game::{play_seeded, Native, Outcome, Player};
use arena::games::farkle::{native, Farkle, GameRecord, Setup};
use common::{example_wasm, run, temp_dir, text, workspace, FARKLE_EXAMPLES};

fn native_bot(name: &str) -> Native {
    match name {
        "farkle-one-and-done" => native::<farkle_one_and_done::OneAndDone>(),
        "farkle-banker" => native::<farkle_banker::Banker>(),
        "farkle-threshold" => native::<farkle_threshold::Threshold>(),
        _ => native::<farkle_planner::Planner>(),
    }
}

fn play_game(setup: &Setup, players: &mut [&mut dyn Player<Farkle>]) -> GameRecord {
    play_seeded(&Farkle, setup, players).unwrap()
}

#[test]
fn wasm_bots_play_exactly_like_their_native_builds() {
    let sandbox =
        arena::sandbox::Sandbox::new(arena::games::registry().agents(), Default::default())
            .unwrap();
    for name in FARKLE_EXAMPLES {
        let module = sandbox.load(&example_wasm(name)).unwrap();
        assert_eq!(module.games().len(), 1, "{name}");
        assert_eq!(
            arena::games::registry().of_agent(module.games()[0]).name(),
            "farkle",
            "{name}"
        );
        for seed in 0..8 {
            let setup = Setup::new(2, seed, 300);
            let (same, rival) = (native_bot(name), native_bot("farkle-threshold"));
            let mut wasm = module.player_with_round_cap(300);
            let mut rival_player = rival.player::<Farkle>().unwrap();
            let from_wasm = play_game(&setup, &mut [&mut wasm, &mut *rival_player]);
            let mut same = same.player::<Farkle>().unwrap();
            let mut rival = rival.player::<Farkle>().unwrap();
            let from_native = play_game(&setup, &mut [&mut *same, &mut *rival]);
            assert!(from_wasm.end.forfeits.is_empty(), "{name} faulted");
            assert_eq!(from_wasm.turns, from_native.turns, "{name}, seed {seed}");
            assert_eq!(from_wasm.end.outcome, from_native.end.outcome);
        }
    }
}

fn league(dir: &Path, players: usize, games: u32, round_cap: u32) -> std::path::PathBuf {
    let mut text = format!(
        "name = \"farkle\"\ngame = \"farkle\"\nplayers_per_game = {players}\n\
         games_per_group = {games}\nseed = 2026\nround_cap = {round_cap}\nthreads = 2\n\
         output = \"out\"\n"
    );
    for name in FARKLE_EXAMPLES {
        text.push_str(&format!(
            "[[agent]]\nname = \"{name}\"\npath = \"{}\"\n",
            example_wasm(name).display()
        ));
    }
    text.push_str(&format!(
        "[[agent]]\nname = \"wat-banker\"\npath = \"{}\"\n",
        workspace()
            .join("example-agents/wat/farkle-banker.wat")
            .display()
    ));
    let path = dir.join("league.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// The journal's results: (seat names, outcome, turns, scores) per game.
fn journal(out: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("journal.jsonl"))
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v.get("seats").is_some())
        .collect()
}

fn verify_all(out: &Path) {
    let mut args = vec!["verify".to_string(), "--quiet".to_string()];
    for e in std::fs::read_dir(out.join("records")).unwrap() {
        args.push(e.unwrap().path().display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args);
    assert!(o.status.success(), "arena verify: {}", text(&o));
}

#[test]
fn the_solo_benchmark_ranks_the_bots_and_the_planner_beats_the_seed_harness() {
    let dir = temp_dir("farkle-benchmark");
    let file = league(&dir, 1, 400, 300);
    let o = run(&["league", "-c", file.to_str().unwrap(), "--fresh"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = dir.join("out");
    let results = journal(&out);
    assert_eq!(results.len(), 5 * 400);

    let mut turns: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut seeds: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for r in &results {
        let name = r["seats"][0].as_str().unwrap().to_owned();
        let outcome: Outcome = serde_json::from_value(r["outcome"].clone()).unwrap();
        assert_eq!(outcome.winner(), Some(0), "{name} reached 10,000: {r}");
        assert!(r["faults"].as_array().unwrap().is_empty(), "{r}");
        turns
            .entry(name.clone())
            .or_default()
            .push(r["turns"].as_u64().unwrap());
        seeds
            .entry(name)
            .or_default()
            .push(r["seed"].as_u64().unwrap());
    }
    let mean = |name: &str| {
        let t = &turns[name];
        t.iter().sum::<u64>() as f64 / t.len() as f64
    };
    let means: Vec<f64> = FARKLE_EXAMPLES.iter().map(|n| mean(n)).collect();
    eprintln!("mean turns to 10,000: {FARKLE_EXAMPLES:?} = {means:?}");
    assert!(
        means.windows(2).all(|w| w[0] > w[1]),
        "weakest first: {means:?}"
    );
    assert!(
        mean("farkle-planner") < 28.6,
        "the planner needs {} turns",
        mean("farkle-planner")
    );
    // Every bot met the same dice: game n has one seed for everyone.
    let mut sorted: Vec<Vec<u64>> = seeds.values().cloned().collect();
    for s in &mut sorted {
        s.sort_unstable();
    }
    assert!(sorted.windows(2).all(|w| w[0] == w[1]));
    // The hand-written WAT banker and the Rust banker play the same strategy, so on the same
    // seeds they take the same turns.
    let mut by_seed: BTreeMap<(String, u64), u64> = BTreeMap::new();
    for r in &results {
        by_seed.insert(
            (
                r["seats"][0].as_str().unwrap().to_owned(),
                r["seed"].as_u64().unwrap(),
            ),
            r["turns"].as_u64().unwrap(),
        );
    }
    for (&(ref name, seed), &t) in &by_seed {
        if name == "wat-banker" {
            assert_eq!(
                by_seed[&("farkle-banker".to_owned(), seed)],
                t,
                "seed {seed}"
            );
        }
    }
    verify_all(&out);
}

#[test]
fn a_race_league_finishes_rounds_ranks_by_score_and_verifies() {
    let dir = temp_dir("farkle-race");
    let file = league(&dir, 3, 6, 100);
    let o = run(&["league", "-c", file.to_str().unwrap(), "--fresh"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = dir.join("out");
    let results = journal(&out);
    assert_eq!(results.len(), 10 * 6, "5 choose 3 groups, 6 games each");
    let mut wins: BTreeMap<String, u32> = BTreeMap::new();
    for r in &results {
        let scores: Vec<u64> = serde_json::from_value(r["scores"].clone()).unwrap();
        let outcome: Outcome = serde_json::from_value(r["outcome"].clone()).unwrap();
        let best = *scores.iter().max().unwrap();
        assert!(best >= 10_000, "{r}");
        match outcome {
            Outcome::Win { seat, .. } => {
                assert_eq!(scores[seat], best);
                *wins
                    .entry(r["seats"][seat].as_str().unwrap().to_owned())
                    .or_default() += 1;
            }
            other => assert_eq!(other, Outcome::Draw { round_cap: false }, "{r}"),
        }
        assert_eq!(r["turns"].as_u64().unwrap() % 3, 0, "full rounds: {r}");
    }
    assert!(
        wins.get("farkle-planner").copied().unwrap_or(0)
            > wins.get("farkle-one-and-done").copied().unwrap_or(0),
        "{wins:?}"
    );
    verify_all(&out);
}

#[test]
fn a_farm_league_refuses_a_farkle_bot_naming_the_missing_exports() {
    let dir = temp_dir("farkle-in-farm");
    let text_ = format!(
        "game = \"little-animal-farm\"\noutput = \"out\"\n[[agent]]\npath = \"{}\"\n[[agent]]\npath = \"{}\"\n",
        example_wasm("farkle-planner").display(),
        example_wasm("greedy").display()
    );
    std::fs::write(dir.join("league.toml"), text_).unwrap();
    let o = run(&["league", "-c", dir.join("league.toml").to_str().unwrap()]);
    assert!(!o.status.success());
    let printed = text(&o);
    assert!(
        printed.contains("does not play Little Animal Farm") && printed.contains("`farm_trade`"),
        "{printed}"
    );
}
