//! The report's data from a small league of native example strategies, plus a faulty one.

use std::path::{Path, PathBuf};

use arena_agent_sdk::FarmAgent;
use farm_rules::Offer;
use serde_json::{json, Value};

mod reference;
mod same_bytes;

use super::*;
use crate::game::{Hosted, Native, Player, Question, Reply};
use crate::games::farkle::{Answer, Farkle, Observation as FarkleObservation};
use crate::games::farm::tests::support::FarmPlayer;
use crate::games::farm::{AcceptView, Farm, Fault, FaultKind, Observation};
use crate::league::tests::play_fresh;
use crate::league::{Contestant, LeagueConfig, NativeEntrant};
use crate::sandbox::Init;
use reference::read_record_lines;

/// A native example strategy in a league of Little Animal Farm.
fn native<A: FarmAgent + Default + Send + 'static>() -> NativeEntrant {
    NativeEntrant(crate::games::farm::native::<A>())
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

impl Crasher {
    fn entrant() -> NativeEntrant {
        NativeEntrant(crate::games::farm::tests::support::native(|| {
            CrasherPlayer(0)
        }))
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
    let greedy = native::<greedy::Greedy>();
    let trader = native::<trader::Trader>();
    let crasher = Crasher::entrant();
    let contestants: [&dyn Contestant; 3] = [&greedy, &trader, &crasher];
    play_fresh(&Hosted(Farm), &cfg, &contestants, &json!({"test": true}), 1);
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

/// The rows of the list of games in data.js, decoded as the page decodes them.
fn game_rows(data: &Value) -> Vec<Value> {
    rows::decode_rows(&data["games"])
}

/// The replay data of game `id` from its replay pack in the report of `out`, if the pack holds it.
fn packed_text(out: &Path, id: usize) -> Option<String> {
    let path = out.join(REPORT_DIR).join(GAMES_DIR).join(pack_name(id));
    if !path.is_file() {
        return None;
    }
    packs::unpack(&script_value(&path, "ARENA_PACK"), id)
}

fn packed_game(out: &Path, id: usize) -> Value {
    let text = packed_text(out, id).unwrap_or_else(|| panic!("no replay data for game {id}"));
    serde_json::from_str(&text).unwrap()
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
    assert!(
        standings.get("benchmark").is_none() && data["benchmark"].is_null(),
        "a farm league has no benchmark"
    );

    let games = game_rows(&data);
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
    for g in &games {
        assert!(g["error"].is_null(), "{g}");
        let record = g["record"].as_str().unwrap();
        compressed += usize::from(record.ends_with(".gz"));
        let game = packed_game(&out, g["id"].as_u64().unwrap() as usize);
        assert_eq!(game["id"], g["id"]);
        assert_eq!(game["game"], "little-animal-farm");
        assert_eq!(g["game"], "little-animal-farm");
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

    // One pack holds the 12 games: no file per game.
    let packs: Vec<_> = std::fs::read_dir(out.join("report/games"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(packs, ["replays-000000.js"]);

    // Re-writing drops data of games that are gone.
    std::fs::write(out.join("report/games/replays-999900.js"), "stale").unwrap();
    std::fs::write(out.join("report/games/game-000001.js"), "stale").unwrap();
    write_report(&out).unwrap();
    assert!(!out.join("report/games/replays-999900.js").exists());
    assert!(!out.join("report/games/game-000001.js").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn packs_come_back_in_order_and_the_first_failure_is_the_error() {
    let dir = temp("order");
    let out = league(&dir);
    let mut league_files = load_league(&out).unwrap();
    // Ids a pack apart, so that every game has its own pack and the packs are written by several
    // threads.
    for g in &mut league_files.games {
        g.id *= packs::PACK_GAMES;
    }
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let (rows, written) = packs::write_packs(&out, &games, &league_files.games).unwrap();
    let ids: Vec<usize> = rows.iter().map(|r| r.id).collect();
    let expected: Vec<usize> = league_files.games.iter().map(|g| g.id).collect();
    assert_eq!(ids, expected);
    let names: Vec<String> = expected.iter().map(|&id| pack_name(id)).collect();
    assert_eq!(written, names);

    // Folders where the packs of two games go: their files cannot be written.
    let (first, later) = (&league_files.games[3], &league_files.games[7]);
    for g in [later, first] {
        let path = games.join(pack_name(g.id));
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
    }
    let err = packs::write_packs(&out, &games, &league_files.games).unwrap_err();
    let path = games.join(pack_name(first.id));
    assert_eq!(err.to_string(), format!("cannot write {}", path.display()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file under `dir`, by path relative to it (a folder is listed with its files).
fn files(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut found = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = PathBuf::from(path.file_name().unwrap());
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            for (inner, bytes) in files(&path) {
                found.insert(name.join(inner), bytes);
            }
        } else {
            assert!(meta.is_file(), "{} is a regular file", path.display());
            found.insert(name, std::fs::read(&path).unwrap());
        }
    }
    found
}

#[test]
fn a_report_written_again_is_the_one_a_fresh_folder_gets() {
    let dir = temp("again");
    let out = league(&dir);
    write_report(&out).unwrap();
    let fresh = files(&out.join(REPORT_DIR));
    let games = out.join(REPORT_DIR).join(GAMES_DIR);
    // The league's 12 games share one pack.
    let pack = games.join(pack_name(0));
    let linked = dir.join("linked.js");
    let target = dir.join("target.js");
    let damage: [&dyn Fn(); 4] = [
        // A longer file where the pack goes.
        &|| std::fs::write(&pack, vec![b'x'; 1 << 20]).unwrap(),
        // A folder.
        &|| {
            std::fs::remove_file(&pack).unwrap();
            std::fs::create_dir_all(pack.join("inner")).unwrap();
            std::fs::write(pack.join("inner/file"), "x").unwrap();
        },
        // A hard link.
        &|| {
            std::fs::write(&linked, "kept").unwrap();
            std::fs::remove_file(&pack).unwrap();
            std::fs::hard_link(&linked, &pack).unwrap();
        },
        // A symbolic link.
        &|| {
            std::fs::write(&target, "kept").unwrap();
            std::fs::remove_file(&pack).unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink(&target, &pack).unwrap();
        },
    ];
    for (i, damage) in damage.iter().enumerate() {
        damage();
        // And entries of no game.
        std::fs::write(games.join(pack_name(999_999)), "stale").unwrap();
        std::fs::create_dir_all(games.join("stale-folder")).unwrap();
        write_report(&out).unwrap();
        assert!(
            files(&out.join(REPORT_DIR)) == fresh,
            "the same files ({i})"
        );
    }
    assert!(
        std::fs::read(&linked).unwrap() == b"kept",
        "a hard link is left alone"
    );
    assert!(
        std::fs::read(&target).unwrap() == b"kept",
        "a link's target is left alone"
    );

    // A game whose record can no longer be read leaves its pack; a pack with no game left goes.
    let league_files = load_league(&out).unwrap();
    std::fs::write(out.join(&league_files.games[4].record), "damaged").unwrap();
    write_report(&out).unwrap();
    assert!(packed_text(&out, league_files.games[4].id).is_none());
    assert!(packed_text(&out, league_files.games[5].id).is_some());
    for g in &league_files.games {
        std::fs::write(out.join(&g.record), "damaged").unwrap();
    }
    write_report(&out).unwrap();
    assert!(!pack.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn turn_fields_such_as_logs_reach_the_viewer() {
    let lines = [
        json!({"type":"setup","players":[{"seat":0,"name":"a"},{"seat":1,"name":"b"}],"seed":1,"round_cap":5}),
        json!({"type":"start","events":[]}),
        json!({"type":"turn","turn":1,"round":1,"seat":0,"offer":null,"answer":null,
               "roll":{"fox":"rabbit","wolf":"rabbit"},
               "events":[{"type":"rolled","seat":0,"roll":{"fox":"rabbit","wolf":"rabbit"}},
                         {"type":"bred","seat":0,"gained":{"rabbit":1}}],
               "logs":[{"seat":0,"text":"hello </script>\u{2028}"}]}),
        json!({"type":"end","outcome":{"result":"draw","round_cap":true},"rounds":1,"forfeits":[],
               "final":{"herds":[{"rabbit":1},{}],"stock":{"rabbit":59,"sheep":24,"pig":20,"cow":12,"horse":6,"small_dog":4,"big_dog":2}}}),
    ];
    let dir = temp("logs");
    let path = dir.join("game.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let (name, js) = replay::game_script(&path, 3, "../game.jsonl").unwrap();
    assert_eq!(name, "little-animal-farm");
    let js = String::from_utf8(js).unwrap();
    assert!(js.contains("\\u2028") && !js.contains('\u{2028}'));
    std::fs::write(dir.join("game.js"), &js).unwrap();
    let game = script_value(&dir.join("game.js"), "ARENA_GAME");
    let turn = &game["turns"][0];
    assert_eq!(turn["logs"][0]["text"], "hello </script>\u{2028}");
    assert_eq!(
        turn["herds"],
        json!([[1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]])
    );
    assert_eq!(turn["stock"][0], 59);
    assert_eq!(game["tally_matches_final"], true);
    assert_eq!(game["record"], "../game.jsonl");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_without_standings_is_refused_by_name() {
    let dir = temp("not-league");
    let err = write_report(&dir).unwrap_err().to_string();
    assert!(err.contains(&dir.display().to_string()), "{err}");
    assert!(err.contains("not a league output folder"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// --- Farkle: the solo benchmark and a race --------------------------------------------------

/// Best draft (or, when `single`, a single 1 or 5 if there is one); rolls on while fewer than
/// `risk` points are at stake and more than `keep` dice are left.
#[derive(Clone, Copy)]
struct Bot {
    risk: u32,
    keep: usize,
    single: bool,
}

impl Player<Farkle> for Bot {
    fn start(&mut self, _rules: &Farkle, _init: &Init) -> Result<(), Fault> {
        Ok(())
    }

    fn decide(&mut self, _: &Farkle, _: &Question, obs: &FarkleObservation) -> Reply<Answer> {
        Reply {
            answer: Ok(self.draft(obs)),
            fuel: 0,
        }
    }

    fn take_log(&mut self) -> Option<String> {
        self.single.then(|| "one die and bank\n".to_owned())
    }
}

impl Bot {
    fn draft(&mut self, obs: &FarkleObservation) -> Answer {
        let d = farkle_rules::best_draft(obs.dice).expect("the game never asks about a farkle");
        let one = [1, 5]
            .iter()
            .find_map(|f| obs.dice.iter().position(|d| d == f))
            .filter(|_| self.single);
        let (draft, points): (Vec<u32>, u32) = match one {
            Some(i) => (vec![i as u32], if obs.dice[i] == 1 { 100 } else { 50 }),
            None => (d.indices().map(|i| i as u32).collect(), d.score),
        };
        let left = match obs.dice.len() - draft.len() {
            0 => 6,
            n => n,
        };
        let bank = obs.turn_points + points >= self.risk || left <= self.keep;
        Answer {
            action: u32::from(bank),
            draft,
        }
    }

    fn entrant(self) -> NativeEntrant {
        NativeEntrant(Native::typed::<Farkle>(move || Box::new(self)))
    }
}

/// Plays a Farkle league of three threshold bots into `dir/out`.
fn farkle_league(dir: &Path, players: usize, games: u32, round_cap: u32) -> PathBuf {
    let mut text = format!(
        "name = 'farkle test'\ngame = 'farkle'\nplayers_per_game = {players}\ngames_per_group = {games}\nseed = 11\nround_cap = {round_cap}\ncompress_records_over = 16384\n"
    );
    for name in ["careful", "bold", "timid"] {
        std::fs::write(dir.join(format!("{name}.wasm")), b"").unwrap();
        text.push_str(&format!("[[agent]]\npath = '{name}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, dir).unwrap();
    cfg.output = dir.join("out");
    let careful = Bot {
        risk: 300,
        keep: 2,
        single: false,
    };
    let bold = Bot {
        risk: 1000,
        keep: 1,
        single: false,
    };
    // Drafts a single 1 or 5 and banks: far more than 45 turns to 10,000.
    let timid = Bot {
        risk: 0,
        keep: 6,
        single: true,
    };
    let (careful, bold, timid) = (careful.entrant(), bold.entrant(), timid.entrant());
    let contestants: [&dyn Contestant; 3] = [&careful, &bold, &timid];
    let run = play_fresh(
        &Hosted(Farkle),
        &cfg,
        &contestants,
        &json!({"test": true}),
        2,
    );
    let table = crate::league::output::table(&run.standings);
    if players == 1 {
        assert!(
            table.contains("mean ± sd") && !table.contains("cross-table"),
            "{table}"
        );
    } else {
        assert!(
            table.contains("rating") && table.contains("cross-table"),
            "{table}"
        );
    }
    cfg.output
}

#[test]
fn a_solo_farkle_league_reports_turns_to_the_target() {
    let dir = temp("farkle-solo");
    // A cap of 45 turns: the timid bot (one die, then bank) often misses 10,000.
    let out = farkle_league(&dir, 1, 12, 45);
    write_report(&out).unwrap();
    for (name, _) in ASSETS {
        assert!(out.join("report").join(name).is_file(), "{name}");
    }
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    let bench = standings["benchmark"]["agents"].as_array().unwrap();
    assert_eq!(bench.len(), 3);
    let data = script_value(&out.join("report/data.js"), "ARENA_REPORT");
    assert_eq!(data["benchmark"], standings["benchmark"]);
    let games = game_rows(&data);
    assert_eq!(games.len(), 36, "3 agents x 12 solo games");

    // Recompute every agent's turns from the records themselves.
    let mut reached: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    let mut played: std::collections::BTreeMap<String, u64> = Default::default();
    for g in &games {
        assert_eq!(g["game"], "farkle");
        assert!(g["error"].is_null(), "{g}");
        let lines =
            read_record_lines(&out.join("report").join(g["record"].as_str().unwrap())).unwrap();
        let turns = lines.iter().filter(|l| l["type"] == "turn").count() as u64;
        let end = lines.last().unwrap();
        let name = g["seats"][0].as_str().unwrap().to_owned();
        *played.entry(name.clone()).or_default() += 1;
        if end["outcome"]["result"] == "win" {
            assert!(end["scores"][0].as_u64().unwrap() >= 10_000);
            reached.entry(name).or_default().push(turns);
        } else {
            assert!(end["scores"][0].as_u64().unwrap() < 10_000);
            assert_eq!(turns, 45, "an unreached game ran to the cap");
        }
        // The game's viewer data: every turn with its rolls, the scores adding up.
        let game = packed_game(&out, g["id"].as_u64().unwrap() as usize);
        assert_eq!(game["game"], "farkle");
        assert_eq!(game["tally_matches_final"], true);
        assert_eq!(
            game["seed"],
            json!(lines[0]["seed"].to_string()),
            "exact, as text"
        );
        assert_eq!(game["turns"].as_array().unwrap().len() as u64, turns);
        assert_eq!(game["turns"][0]["scores"].as_array().unwrap().len(), 1);
        assert!(game["turns"][0]["rolls"][0]["dice"].is_array());
    }
    for a in bench {
        let name = a["name"].as_str().unwrap();
        let mut t = reached.get(name).cloned().unwrap_or_default();
        t.sort_unstable();
        assert_eq!(a["games"].as_u64(), played.get(name).copied(), "{name}");
        assert_eq!(a["reached"].as_u64().unwrap(), t.len() as u64, "{name}");
        if t.is_empty() {
            assert!(a["mean"].is_null());
            continue;
        }
        let mean = t.iter().sum::<u64>() as f64 / t.len() as f64;
        assert_eq!(a["mean"].as_f64().unwrap(), mean, "{name}");
        assert_eq!(a["min"].as_u64(), t.first().copied());
        assert_eq!(a["max"].as_u64(), t.last().copied());
        // The histogram is the distribution of exactly these turn counts.
        let mut hist: Vec<(u64, u64)> = Vec::new();
        for &x in &t {
            match hist.last_mut() {
                Some((turns, n)) if *turns == x => *n += 1,
                _ => hist.push((x, 1)),
            }
        }
        let got: Vec<(u64, u64)> = a["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["turns"].as_u64().unwrap(), b["games"].as_u64().unwrap()))
            .collect();
        assert_eq!(got, hist, "{name}");
    }
    let by_name = |n: &str| bench.iter().find(|a| a["name"] == n).unwrap();
    assert!(
        by_name("timid")["reached"].as_u64().unwrap() < 12,
        "the cap bites the timid bot"
    );
    assert!(by_name("careful")["reached"].as_u64().unwrap() > 0);
    let rates: Vec<f64> = bench
        .iter()
        .map(|a| a["reached_rate"].as_f64().unwrap())
        .collect();
    assert!(rates.windows(2).all(|w| w[0] >= w[1]), "{rates:?}");
    let ranks: Vec<u64> = bench.iter().map(|a| a["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, [1, 2, 3]);
    let csv = std::fs::read_to_string(out.join("benchmark.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(csv.starts_with("rank,agent,games,reached,"));
    assert!(out.join("benchmark_turns.csv").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_farkle_race_reports_standings_and_scores() {
    let dir = temp("farkle-race");
    let out = farkle_league(&dir, 2, 2, 300);
    write_report(&out).unwrap();
    let data = script_value(&out.join("report/data.js"), "ARENA_REPORT");
    assert!(data["benchmark"].is_null());
    assert!(!out.join("benchmark.csv").exists());
    assert_eq!(data["cross"].as_array().unwrap().len(), 3);
    let games = game_rows(&data);
    assert_eq!(games.len(), 6, "3 pairs x 2 games");
    for g in &games {
        assert_eq!(g["game"], "farkle");
        assert_eq!(g["scores"].as_array().unwrap().len(), 2);
        let game = packed_game(&out, g["id"].as_u64().unwrap() as usize);
        assert_eq!(game["tally_matches_final"], true);
        let last = game["turns"].as_array().unwrap().last().unwrap();
        assert_eq!(last["scores"], game["scores"]);
        assert_eq!(
            json!(g["scores"]),
            game["scores"],
            "the journal's scores are the record's"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `arena serve` serves the report's pages and every game's viewer under a Content-Security-Policy
/// of `script-src 'self'`: a script written inside a page would not run there (game.html's did
/// not, and a game's link on the server stayed at "Opening the game…"). Every script is a file.
#[test]
fn no_page_of_the_report_or_a_viewer_has_a_script_inside() {
    let pages: Vec<_> = assets()
        .iter()
        .filter(|(name, _)| name.ends_with(".html"))
        .collect();
    assert!(pages.iter().any(|(name, _)| *name == "game.html"));
    for (name, text) in pages {
        for (at, _) in text.match_indices("<script") {
            let tag = &text[at..at + text[at..].find('>').unwrap()];
            assert!(
                tag.contains(" src="),
                "{name}: a script inside the page: {tag}>"
            );
        }
    }
}
