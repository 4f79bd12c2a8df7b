//! The report's data from a small league of native example strategies, plus a faulty one.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use arena_agent_sdk::FarmAgent;
use farm_rules::Offer;
use serde_json::{json, Value};

use super::data::{read_record_lines, replay_data};
use super::*;
use crate::farm::FarmGame;
use crate::farm::{AcceptView, FarmPlayer, Fault, FaultKind, Observation};
use crate::league::{play_league, Contestant, LeagueConfig, RunOptions};
use crate::native::NativePlayer;

struct Native<A>(PhantomData<fn() -> A>);

impl<A: FarmAgent + Default + 'static> Contestant<FarmGame> for Native<A> {
    fn new_player(&self) -> Box<dyn FarmPlayer> {
        Box::new(NativePlayer::<A>::new().round_cap(60))
    }
    fn code_hash(&self) -> Option<String> {
        None
    }
}

/// Passes, and traps on its third trade decision of every game.
struct Crasher;
struct CrasherPlayer(u32);

impl FarmPlayer for CrasherPlayer {
    fn trade(&mut self, _obs: &Observation) -> Result<Offer, Fault> {
        self.0 += 1;
        if self.0 == 3 {
            return Err(Fault::new(FaultKind::Trap, "unreachable executed"));
        }
        Ok(Offer::PASS)
    }
    fn accept(&mut self, _obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        Ok(false)
    }
}

impl Contestant<FarmGame> for Crasher {
    fn new_player(&self) -> Box<dyn FarmPlayer> {
        Box::new(CrasherPlayer(0))
    }
    fn code_hash(&self) -> Option<String> {
        None
    }
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("arena-report-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// Plays a 2-player league of greedy, trader and a crasher into `dir/out`; records over 4 KiB are
/// compressed so that both kinds of record file are read.
fn league(dir: &Path) -> PathBuf {
    let mut text = String::from(
        "name = 'report test'\nplayers_per_game = 2\ngames_per_group = 4\nseed = 9\nround_cap = 60\ncompress_records_over = 4096\n",
    );
    for name in ["greedy", "trader", "crasher"] {
        std::fs::write(dir.join(format!("{name}.wasm")), b"").unwrap();
        text.push_str(&format!("[[agent]]\npath = '{name}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, dir).unwrap();
    cfg.output = dir.join("out");
    let greedy = Native::<greedy::Greedy>(PhantomData);
    let trader = Native::<trader::Trader>(PhantomData);
    let contestants: [&dyn Contestant<FarmGame>; 3] = [&greedy, &trader, &Crasher];
    let opts = RunOptions {
        fresh: true,
        threads: Some(1),
        quiet: true,
        ..RunOptions::default()
    };
    play_league(&FarmGame, &cfg, &contestants, &json!({"test": true}), &opts).unwrap();
    cfg.output
}

/// The value assigned by a data script `window.NAME = ...;`.
fn script_value(path: &Path, global: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let prefix = format!("window.{global} = ");
    let json = text
        .strip_prefix(&prefix)
        .and_then(|t| t.trim_end().strip_suffix(';'))
        .unwrap();
    serde_json::from_str(json).unwrap()
}

#[test]
fn report_holds_standings_games_faults_and_replays() {
    let dir = temp("data");
    let out = league(&dir);
    let index = write_report(&out).unwrap();
    assert_eq!(index, out.join("report/index.html"));
    for (name, _) in ASSETS {
        assert!(out.join("report").join(name).is_file(), "{name}");
    }
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    let data = script_value(&out.join("report/data.js"), "ARENA_REPORT");
    assert_eq!(data["league"], "report test");
    assert_eq!(data["agents"], standings["agents"]);
    assert_eq!(data["cross"], standings["cross"]);
    assert_eq!(data["settings"], standings["settings"]);

    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), 12, "3 pairs x 4 games");
    let total: u64 = data["lengths"]["bins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["wins"].as_u64().unwrap() + b["draws"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 12, "every game is in the length histogram");

    // The crasher faults in each of its 8 games; its reasons are grouped into one line.
    let faults = data["faults"].as_array().unwrap();
    let crasher = faults.iter().find(|f| f["agent"] == "crasher").unwrap();
    assert_eq!(crasher["total"], 8);
    assert_eq!(crasher["reasons"][0]["kind"], "trap");
    assert_eq!(crasher["reasons"][0]["detail"], "unreachable executed");
    assert_eq!(crasher["reasons"][0]["games"].as_array().unwrap().len(), 8);
    let greedy = faults.iter().find(|f| f["agent"] == "greedy").unwrap();
    assert_eq!(greedy["total"], 0);

    let mut compressed = 0;
    for g in games {
        assert!(g["error"].is_null(), "{g}");
        let record = g["record"].as_str().unwrap();
        compressed += usize::from(record.ends_with(".gz"));
        let game = script_value(
            &out.join("report").join(g["data"].as_str().unwrap()),
            "ARENA_GAME",
        );
        assert_eq!(game["id"], g["id"]);
        assert_eq!(game["tally_matches_final"], true, "game {}", g["id"]);
        assert_eq!(
            game["turns"].as_array().unwrap().len() as u64,
            g["turns"].as_u64().unwrap()
        );
        // The last turn's herds are the record's final herds.
        let last = game["turns"].as_array().unwrap().last().unwrap();
        assert_eq!(last["herds"], game["final"]["herds"]);
        let lines = read_record_lines(&out.join("report").join(record)).unwrap();
        let end = lines.last().unwrap();
        assert_eq!(end["outcome"], game["outcome"]);
    }
    assert!(compressed > 0, "some records are .jsonl.gz");

    // Re-writing drops data of games that are gone.
    std::fs::write(out.join("report/games/game-999999.js"), "stale").unwrap();
    write_report(&out).unwrap();
    assert!(!out.join("report/games/game-999999.js").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn turn_fields_such_as_logs_reach_the_viewer() {
    let lines: Vec<Value> = [
        json!({"type":"setup","players":[{"seat":0,"name":"a"},{"seat":1,"name":"b"}],"seed":1,"round_cap":5}),
        json!({"type":"start","events":[]}),
        json!({"type":"turn","turn":1,"round":1,"seat":0,"offer":null,"answer":null,
               "roll":{"fox":"rabbit","wolf":"rabbit"},
               "events":[{"type":"rolled","seat":0,"roll":{"fox":"rabbit","wolf":"rabbit"}},
                         {"type":"bred","seat":0,"gained":{"rabbit":1}}],
               "logs":[{"seat":0,"text":"hello </script>\u{2028}"}]}),
        json!({"type":"end","outcome":{"result":"draw","round_cap":true},"rounds":1,"forfeits":[],
               "final":{"herds":[{"rabbit":1},{}],"stock":{"rabbit":59,"sheep":24,"pig":20,"cow":12,"horse":6,"small_dog":4,"big_dog":2}}}),
    ]
    .into();
    let game = replay_data(3, &lines).unwrap();
    let turn = &game["turns"][0];
    assert_eq!(turn["logs"][0]["text"], "hello </script>\u{2028}");
    assert_eq!(
        turn["herds"],
        json!([[1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]])
    );
    assert_eq!(turn["stock"][0], 59);
    assert_eq!(game["tally_matches_final"], true);
    let js = script("ARENA_GAME", &game);
    assert!(js.contains("\\u2028") && !js.contains('\u{2028}'));
}

#[test]
fn a_folder_without_standings_is_refused_by_name() {
    let dir = temp("not-league");
    let err = write_report(&dir).unwrap_err().to_string();
    assert!(err.contains(&dir.display().to_string()), "{err}");
    assert!(err.contains("not a league output folder"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
