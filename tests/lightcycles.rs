//! Light cycles end to end, through the `arena` command: a league of the three built-in example
//! agents whose records verify (and a tampered one that does not), the report's grid viewer, a
//! game of four narrated with the grid, a person steering through standard input, `arena new`'s
//! WAT template checked against the smoke games, and a Python component (`arena new`'s template)
//! playing a built-in agent.

mod common;

use common::components::arena_cached;
use common::*;

#[test]
fn a_league_of_the_examples_verifies_and_a_tampered_record_is_refused() {
    let dir = temp_dir("lightcycles-league");
    let mut league = String::from(
        "name = \"light cycles test\"\ngame = \"lightcycles\"\ngames_per_group = 6\nseed = 5\n\
         round_cap = 300\n[lightcycles]\nwidth = 20\nheight = 14\nwalls = 6\n",
    );
    for name in ["random", "filler", "search"] {
        league.push_str(&format!(
            "[[agent]]\nname = \"{name}\"\npath = \"builtin:lightcycles-{name}\"\n"
        ));
    }
    let file = dir.join("league.toml");
    std::fs::write(&file, league).unwrap();
    let out = dir.join("out");
    let o = run(&["league", "-c", s(&file), "--output", s(&out), "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    let standings = standings(&out);
    assert_eq!(standings["settings"]["game_settings"]["walls"], 6);
    verifies_with_its_viewer(&out, "lightcycles");

    // One answer changed: the replay plays another game, and says where.
    let record = out.join("records/game-000001.jsonl");
    let text0 = std::fs::read_to_string(&record).unwrap();
    let line = text0.lines().nth(4).unwrap();
    let (from, to) = [
        ("\"answer\":\"left\"", "\"answer\":\"right\""),
        ("\"answer\":\"right\"", "\"answer\":\"left\""),
        ("\"answer\":\"straight\"", "\"answer\":\"left\""),
    ]
    .into_iter()
    .find(|(from, _)| line.contains(from))
    .unwrap();
    let tampered = dir.join("tampered.jsonl");
    std::fs::write(
        &tampered,
        text0.replacen(line, &line.replacen(from, to, 1), 1),
    )
    .unwrap();
    let o = run(&["verify", s(&tampered)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("tampered.jsonl:5: "), "{}", text(&o));
}

#[test]
fn a_game_of_four_is_narrated_with_the_grid_and_a_person_steers_by_keys() {
    let dir = temp_dir("lightcycles-play");
    let record = dir.join("four.jsonl");
    let o = run(&[
        "play",
        "builtin:lightcycles-search",
        "builtin:lightcycles-filler",
        "builtin:lightcycles-random",
        "builtin:lightcycles-random",
        "--game",
        "lightcycles",
        "--seed",
        "3",
        "--record",
        s(&record),
    ]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("Light cycles, 30 × 20 grid, 4 players"),
        "{out}"
    );
    assert!(out.contains("\ntick 10:\n"), "{out}");
    assert!(out.contains("place 1: "), "{out}");
    let o = run(&["verify", s(&record)]);
    assert!(o.status.success(), "{}", text(&o));

    // A person in seat 0 who always goes straight (Enter, `s`, the up arrow) crashes into the
    // far wall at the latest; an unknown key is asked again.
    let person_plays = |record: &std::path::Path, keys: &str| {
        let filler = "builtin:lightcycles-filler";
        let args = [
            "play",
            "human",
            filler,
            "--game",
            "lightcycles",
            "--record",
            s(record),
        ];
        run_typing(&args, keys)
    };
    let keys = "x\n".to_owned() + &"s\n\n\x1b[A\n".repeat(20);
    let record = dir.join("person.jsonl");
    let o = person_plays(&record, &keys);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("you are A at (7, 9) heading east"), "{out}");
    assert!(
        out.contains("type l (left), s (straight) or r (right)"),
        "{out}"
    );
    assert!(out.contains("Result: "), "{out}");
    let recorded = std::fs::read_to_string(&record).unwrap();
    for line in recorded.lines().filter(|l| l.contains("\"type\":\"turn\"")) {
        let turn: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(turn["moves"][0]["answer"], "straight", "{line}");
    }
    let o = run(&["verify", s(&record)]);
    assert!(o.status.success(), "{}", text(&o));

    // The input ends mid-game: said on a line of its own, in the words of every game's person,
    // and nothing is recorded.
    let unfinished = dir.join("unfinished.jsonl");
    let o = person_plays(&unfinished, "s\n");
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("\nend of input: the game is stopped, unfinished.\nNo record written"),
        "{out}"
    );
    assert!(!unfinished.exists());
}

#[test]
fn templates_pass_the_check_and_a_python_component_plays() {
    let dir = temp_dir("lightcycles-new");
    let wat = dir.join("wat-bot");
    let o = run(&["new", s(&wat), "--lang", "wat", "--game", "lightcycles"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["check", s(&wat.join("wat-bot.wat"))]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("Light cycles smoke games against the built-in random player"),
        "{out}"
    );
    assert!(out.contains("OK: wat-bot is a valid arena agent"), "{out}");

    let py = dir.join("py-bot");
    let o = run(&["new", s(&py), "--lang", "python", "--game", "lightcycles"]);
    assert!(o.status.success(), "{}", text(&o));
    let record = dir.join("py.jsonl");
    let o = arena_cached()
        .args([
            "play",
            s(&py),
            "builtin:lightcycles-random",
            "--game",
            "lightcycles",
            "--seed",
            "4",
            "--record",
            s(&record),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(" wins (") || text(&o).contains("share first place"));
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(!recorded.contains("\"fault\""), "{recorded}");
    let o = run(&["verify", s(&record)]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn the_lightcycles_league_file_names_the_example_agents() {
    let file = workspace().join("leagues/lightcycles.toml");
    let cfg = arena::league::LeagueConfig::load(&file).unwrap();
    assert_eq!(cfg.game.name(), "lightcycles");
    let names: Vec<&str> = cfg.agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["random", "filler", "search"]);
    assert_eq!(
        arena::games::lightcycles::Settings::of_map(&cfg.settings).unwrap(),
        arena::games::lightcycles::Settings::default()
    );
}
