//! Jungle end to end, through the `arena` command: perft, a game narrated with the board drawn,
//! a person playing through standard input, `arena check` of Jungle agents, a league of the
//! example agents (the search agent must beat random in at least 95 % and greedy in at least
//! 75 % of its games), its verification, determinism across thread counts, and the clock's
//! league keys.

mod common;

use std::path::{Path, PathBuf};

use common::*;

#[test]
fn perft_counts_the_start_and_refuses_what_it_cannot_count() {
    let o = run(&["perft", "--game", "jungle", "4"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("perft 4: 260,099 leaf nodes in "), "{out}");
    assert!(out.contains("million nodes/s"), "{out}");
    // From a position, split by the first move: two rats in opposite corners, two steps each.
    let o = run(&[
        "perft",
        "2",
        "--divide",
        "--position",
        "6r/7/7/7/7/7/7/7/R6 w",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.starts_with("a1b1: 2\na1a2: 2\nperft 2: 4 leaf nodes in "),
        "{out}"
    );
    for (args, says) in [
        (
            vec!["perft", "3", "--position", "7/7 w"],
            "the board has 2 ranks",
        ),
        (
            vec!["perft", "--game", "farkle", "3"],
            "Farkle has none to count (games with a move counter: jungle)",
        ),
        (vec!["perft", "--game", "chess", "3"], "unknown game"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    }
}

#[test]
fn a_game_is_narrated_with_the_board_and_its_record_verifies() {
    let dir = temp_dir("jungle-play");
    let search = example_wasm("jungle-search");
    let greedy = example_wasm("jungle-greedy");
    let record = dir.join("game.jsonl");
    let o = run(&[
        "play",
        s(&search),
        s(&greedy),
        "--seed",
        "3",
        "--record",
        s(&record),
        "--logs",
    ]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("Jungle: jungle_search is the first player"),
        "{out}"
    );
    assert!(
        out.contains("     a  b  c  d  e  f  g\n 9   l  .  ^  @  ^  .  t"),
        "{out}"
    );
    assert!(out.contains("Result: "), "{out}");
    assert!(out.contains("[jungle_search log] ply 0 depth"), "{out}");
    assert!(out.contains("fuel used"), "{out}");
    let o = run(&["verify", "-v", s(&record)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("(jungle: "), "{}", text(&o));
    // --json prints the same record.
    let o = run(&["play", s(&search), s(&greedy), "--seed", "3", "--json"]);
    assert_eq!(o.stdout, std::fs::read(&record).unwrap());
    // From a position, with another clock: the setup line keeps both.
    let o = run(&[
        "play",
        s(&greedy),
        s(&search),
        "--position",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4",
        "--set",
        "clock=5000000",
        "--set",
        "increment=200000",
        "--json",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", text(&o));
    let setup: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(
        setup["position"],
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4"
    );
    assert_eq!(setup["clock"]["start"], 5_000_000);
    assert_eq!(setup["clock"]["increment"], 200_000);
    let turn: serde_json::Value = serde_json::from_str(out.lines().nth(2).unwrap()).unwrap();
    assert_eq!(turn["seat"], 1, "the second player moves first here");
    // Bad options are named.
    for (args, says) in [
        (
            vec!["play", s(&greedy), s(&search), "--position", "7/7 w"],
            "position \"7/7 w\": ",
        ),
        (
            vec![
                "play",
                s(&greedy),
                s(&search),
                "--set",
                "clock=0",
                "--set",
                "increment=0",
            ],
            "no fuel",
        ),
        (
            vec!["play", s(&greedy), s(&search), "--set", "clok=5"],
            "unknown key `jungle.clok`",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    }
    let farm = example_wasm("greedy");
    let o = run(&["play", s(&farm), s(&farm), "--position", "7/7 w"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(
            "unknown key `little-animal-farm.position`: Little Animal Farm has no settings of its own"
        ),
        "{}",
        text(&o)
    );
}

#[test]
fn a_person_plays_against_an_agent_typing_moves() {
    let dir = temp_dir("jungle-human");
    let random = example_wasm("jungle-random");
    let record = dir.join("won.jsonl");
    // The person's rat stands next to the enemy den: a diagonal step is refused with the
    // rules' reason, text that is no move too, and then the den is entered.
    let o = run_typing(
        &[
            "play",
            "human",
            s(&random),
            "--position",
            "7/3R3/7/7/7/7/7/7/e6 w",
            "--record",
            s(&record),
        ],
        "d8e9\nhello\nmoves\nd8d9\n",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("you are the first player (upper case)"),
        "{out}"
    );
    assert!(
        out.contains("illegal: d8e9: a piece moves one square up, down, left or right"),
        "{out}"
    );
    assert!(out.contains("(not_a_step)"), "{out}");
    assert!(out.contains("not a move: a move is two squares"), "{out}");
    assert!(
        out.contains("legal moves: d8d7 rat, d8c8 rat, d8e8 rat, d8d9 rat"),
        "{out}"
    );
    assert!(
        out.contains("Result: human (first player) wins by entering the den after 1 plies"),
        "{out}"
    );
    let o = run(&["verify", "-v", s(&record)]);
    assert!(o.status.success(), "{}", text(&o));
    let setup = std::fs::read_to_string(&record).unwrap();
    assert!(
        setup.contains("{\"agent\":null,\"name\":\"human\",\"seat\":0}"),
        "{setup}"
    );

    // Second: the agent moves first (its elephant has two steps), then the person's rat enters
    // the den whatever it did; the board is drawn before the person's move.
    let o = run_typing(
        &[
            "play",
            s(&random),
            "human",
            "--position",
            "7/7/7/7/7/7/7/3r3/6E w",
        ],
        "d2d1\n",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("you are the second player (lower case)"),
        "{out}"
    );
    assert!(out.contains("   1. w jungle_random: g1"), "{out}");
    assert!(out.contains(" 2   .  .  .  r  .  .  ."), "{out}");
    assert!(out.contains("Result: human (second player) wins"), "{out}");

    // The end of the input stops the game: nothing is recorded, and it is no error.
    let o = run_typing(
        &[
            "play",
            "human",
            s(&random),
            "--record",
            s(&dir.join("no.jsonl")),
        ],
        "c3c4\n",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("end of input: the game is stopped, unfinished."),
        "{out}"
    );
    assert!(out.contains("No record written"), "{out}");
    assert!(!dir.join("no.jsonl").exists());

    // A person plays against an agent, of a game the agent plays.
    for (args, says) in [
        (vec!["play", "human", "human"], "name one agent"),
        (
            vec!["play", "human", s(&random), "--game", "farkle"],
            "cannot play --game farkle",
        ),
        (vec!["play", "human", s(&random), "--json"], "--json"),
    ] {
        let o = run_typing(&args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(says), "{args:?}: {}", text(&o));
    }
}

/// A WAT agent whose `jungle_move` answers `from`, `to` whatever the position.
fn fixed_answer(dir: &Path, name: &str, from: u8, to: u8) -> PathBuf {
    let path = dir.join(format!("{name}.wat"));
    std::fs::write(
        &path,
        wat_agent(&format!(
            r#"(func (export "jungle_move") (param $len i32) (result i32)
    (i32.store8 (i32.const 0) (i32.const {from}))
    (i32.store8 (i32.const 1) (i32.const {to}))
    (i32.const 2))"#
        )),
    )
    .unwrap();
    path
}

#[test]
fn check_plays_jungle_smoke_games_and_fails_illegal_moves() {
    let dir = temp_dir("jungle-check");
    let o = run(&["check", s(&example_wasm("jungle-search"))]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("Jungle smoke games against the built-in random player"),
        "{out}"
    );
    assert!(out.contains("arena::fuel_left: func() -> i64"), "{out}");
    assert!(out.contains("fuel per decision: "), "{out}");
    assert!(
        out.contains("OK: jungle_search is a valid arena agent"),
        "{out}"
    );
    // a3 to a5 is never a step.
    let bad = fixed_answer(&dir, "leaper", 14, 28);
    let o = run(&["check", "--games", "2", s(&bad)]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("bad_answer fault: jungle_move answered a3a5, which is illegal"),
        "{out}"
    );
    assert!(out.contains("(not_a_step)"), "{out}");
}

/// A league file of the three example agents (crate folders, built by the arena).
fn league_file(dir: &Path, games_per_group: u32, threads: usize, clock: u64) -> PathBuf {
    let mut text = format!(
        "name = \"jungle test\"\ngame = \"jungle\"\ngames_per_group = {games_per_group}\n\
         seed = 11\nround_cap = 150\nthreads = {threads}\n[jungle]\nclock = {clock}\n\
         increment = 1_000_000\n"
    );
    for name in JUNGLE_EXAMPLES {
        text.push_str(&format!(
            "[[agent]]\nname = \"{}\"\npath = \"{}\"\n",
            name.trim_start_matches("jungle-"),
            example_wasm(name).display()
        ));
    }
    let file = dir.join(format!("league-{threads}-{clock}.toml"));
    std::fs::write(&file, text).unwrap();
    file
}

fn wins(standings: &serde_json::Value, a: &str, b: &str) -> f64 {
    let agents = standings["agents"].as_array().unwrap();
    let index = |n: &str| agents.iter().position(|x| x["name"] == n).unwrap();
    standings["cross"][index(a)][index(b)]["points"]
        .as_f64()
        .unwrap()
}

#[test]
fn the_search_agent_wins_a_seat_swapped_league_which_verifies_and_repeats() {
    let dir = temp_dir("jungle-league");
    let out1 = dir.join("one-thread");
    let o = run(&league_args(
        &league_file(&dir, 40, 1, 60_000_000),
        &out1,
        &["--quiet"],
    ));
    assert!(o.status.success(), "{}", text(&o));
    let standings = standings(&out1);
    let vs_random = wins(&standings, "search", "random");
    let vs_greedy = wins(&standings, "search", "greedy");
    eprintln!("search: {vs_random}/40 against random, {vs_greedy}/40 against greedy");
    assert!(vs_random >= 0.95 * 40.0, "{vs_random}/40 against random");
    assert!(vs_greedy >= 0.75 * 40.0, "{vs_greedy}/40 against greedy");
    assert_eq!(standings["settings"]["game_settings"]["clock"], 60_000_000);
    verifies_with_its_viewer(&out1, "jungle");

    // Two threads play the very same games.
    let out2 = dir.join("two-threads");
    let o = run(&league_args(
        &league_file(&dir, 40, 2, 60_000_000),
        &out2,
        &["--quiet"],
    ));
    assert!(o.status.success(), "{}", text(&o));
    for id in [1, 17, 60, 119] {
        let name = format!("records/game-{id:06}.jsonl");
        assert_eq!(
            std::fs::read(out1.join(&name)).unwrap(),
            std::fs::read(out2.join(&name)).unwrap(),
            "{name}"
        );
    }

    // Another clock is another league: a resume is refused, naming it.
    let o = run(&league_args(
        &league_file(&dir, 40, 1, 30_000_000),
        &out1,
        &["--resume"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("`game_settings` was ") && text(&o).contains("30000000"),
        "{}",
        text(&o)
    );
}

#[test]
fn the_jungle_league_file_names_the_example_agents() {
    let file = workspace().join("leagues/jungle.toml");
    let cfg = arena::league::LeagueConfig::load(&file).unwrap();
    assert_eq!(cfg.game.name(), "jungle");
    let names: Vec<&str> = cfg.agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["random", "greedy", "search"]);
    assert_eq!(cfg.games_per_group, 200);
    assert_eq!(
        arena::games::jungle::Settings::of_map(&cfg.settings).unwrap(),
        arena::games::jungle::Settings::default()
    );
}
