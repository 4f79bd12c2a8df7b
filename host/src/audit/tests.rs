//! Audits of small leagues played natively, whole and tampered with in every way the audit must
//! notice: a swapped record, a renamed player with a recomputed digest, explicit dice, a missing
//! or extra record, a record that does not verify, edited standings and games.csv, a published
//! agent file that is not the one played.

use std::path::{Path, PathBuf};

use super::{audit_league, AuditReport};
use crate::game::{Hosted, Native as NativeSeat, Seat};
use crate::games::farkle::Farkle;
use crate::games::farm::strategies::native;
use crate::games::farm::Farm;
use crate::league::config::LeagueConfig;
use crate::league::output::{GAMES_CSV, STANDINGS_CSV, STANDINGS_JSON};
use crate::league::tests::play_fresh;
use crate::league::Contestant;
use crate::records::sha256_hex;

/// The bytes of a published "agent file" (the hash is all the audit reads of it).
fn agent_file(name: &str) -> Vec<u8> {
    let mut bytes = b"\0asm\x01\0\0\0".to_vec();
    bytes.extend_from_slice(name.as_bytes());
    bytes
}

/// A native strategy standing in for the agent file named after it.
/// A native strategy standing in for the agent file `name`: its seat, and the file's hash.
struct Native {
    name: &'static str,
    seat: NativeSeat,
}

impl Contestant for Native {
    fn seat(&self) -> Seat<'_> {
        Seat::Native(&self.seat)
    }

    fn code_hash(&self) -> Option<String> {
        Some(sha256_hex(&agent_file(self.name)))
    }
}

const STRATEGIES: [&str; 3] = ["greedy", "insurance", "shepherd"];

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("arena-audit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// Plays a league of the three strategies (two players, 4 games per pair: 12 games) into
/// `dir/out`, and publishes their agent files in `dir/agents`.
fn farm_league(dir: &Path) -> PathBuf {
    let agents = dir.join("agents");
    std::fs::create_dir_all(&agents).unwrap();
    let mut text =
        "players_per_game = 2\ngames_per_group = 4\nseed = 11\nround_cap = 80\n".to_string();
    for s in STRATEGIES {
        std::fs::write(agents.join(format!("{s}.wasm")), agent_file(s)).unwrap();
        text.push_str(&format!("[[agent]]\npath = 'agents/{s}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, dir).unwrap();
    cfg.output = dir.join("out");
    let natives: Vec<Native> = STRATEGIES
        .iter()
        .map(|&name| Native {
            name,
            seat: NativeSeat::new(move || native(name).expect("a known strategy")),
        })
        .collect();
    let contestants: Vec<&dyn Contestant> = natives.iter().map(|c| c as &dyn Contestant).collect();
    let limits = serde_json::json!({"fuel_per_decision": 1000});
    play_fresh(&Hosted(Farm), &cfg, &contestants, &limits, 2);
    cfg.output
}

/// A copy of the league folder to tamper with.
fn copy(from: &Path, to: &Path) -> PathBuf {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to.join("records")).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
    for entry in std::fs::read_dir(from.join("records")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, to.join("records").join(p.file_name().unwrap())).unwrap();
    }
    to.to_path_buf()
}

fn record(out: &Path, id: usize) -> PathBuf {
    out.join("records").join(format!("game-{id:06}.jsonl"))
}

/// `text` with its end line's digest recomputed, as a careful forger would.
fn with_fresh_digest(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let body: String = lines[..lines.len() - 1]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let end: serde_json::Value = serde_json::from_str(lines[lines.len() - 1]).unwrap();
    let old = end["digest"].as_str().unwrap();
    let end_line = lines[lines.len() - 1].replace(old, &sha256_hex(body.as_bytes()));
    format!("{body}{end_line}\n")
}

fn problems(report: &AuditReport) -> String {
    report.problems.join("\n")
}

#[test]
fn a_league_audits_whole_and_every_tampering_is_named() {
    let dir = temp("farm");
    let out = farm_league(&dir);
    let agents = dir.join("agents");

    let report = audit_league(&out, Some(&agents)).unwrap();
    assert!(report.problems.is_empty(), "{}", problems(&report));
    assert_eq!((report.scheduled, report.verified), (12, 12));
    assert_eq!(
        report.files_compared,
        [STANDINGS_JSON, STANDINGS_CSV, "crosstable.csv", GAMES_CSV]
    );
    assert_eq!(report.checked.len(), 12);
    assert!(report
        .summary()
        .starts_with("league ok: 12 scheduled games, 12 records verified"));

    // A record swapped for another game's: each stands for a game it is not.
    let t = copy(&out, &dir.join("swapped"));
    std::fs::rename(record(&t, 0), dir.join("r0")).unwrap();
    std::fs::rename(record(&t, 5), record(&t, 0)).unwrap();
    std::fs::rename(dir.join("r0"), record(&t, 5)).unwrap();
    let r = audit_league(&t, None).unwrap();
    let p = problems(&r);
    assert!(
        r.problems[0].starts_with("records/game-000000.jsonl: its seats are ")
            && r.problems[0].ends_with(", but it stands for game 0 (greedy,insurance#0)"),
        "{p}"
    );
    assert!(
        p.contains("records/game-000005.jsonl: its seats are "),
        "{p}"
    );
    assert_eq!(r.problems.len(), 2, "{p}");
    assert!(r.not_compared);
    assert_eq!(
        r.summary(),
        "league FAILED: 12 scheduled games, 10 records verified, 2 problems (standings, \
         cross-table and games.csv not compared: the records have problems)"
    );

    // The two games of a cycle share a seed: swapping them is caught by the seats.
    let t = copy(&out, &dir.join("rotated"));
    std::fs::rename(record(&t, 0), dir.join("r0")).unwrap();
    std::fs::rename(record(&t, 1), record(&t, 0)).unwrap();
    std::fs::rename(dir.join("r0"), record(&t, 1)).unwrap();
    let r = audit_league(&t, None).unwrap();
    assert!(
        r.problems[0].contains(
            "its seats are \"insurance\", \"greedy\", the schedule seats \"greedy\", \"insurance\""
        ),
        "{}",
        problems(&r)
    );

    // A renamed player with a recomputed digest: the record verifies alone, not in the league.
    let t = copy(&out, &dir.join("renamed"));
    let text = std::fs::read_to_string(record(&t, 2)).unwrap();
    let forged =
        with_fresh_digest(&text.replacen("\"name\":\"greedy\"", "\"name\":\"mallory\"", 1));
    crate::games::registry()
        .verify_record(&forged)
        .expect("the forgery is consistent alone");
    std::fs::write(record(&t, 2), forged).unwrap();
    let r = audit_league(&t, None).unwrap();
    assert_eq!(r.problems.len(), 1, "{}", problems(&r));
    assert!(
        r.problems[0].starts_with("records/game-000002.jsonl: its seats are \"mallory\""),
        "{}",
        problems(&r)
    );

    // Explicit dice (the same rolls, written out): consistent, but not the league's dice.
    let t = copy(&out, &dir.join("explicit"));
    let text = std::fs::read_to_string(record(&t, 3)).unwrap();
    let seed = crate::league::schedule::Schedule::new(&STRATEGIES.map(String::from), 2, 4, 11)
        .unwrap()
        .game(3)
        .seed;
    let explicit = text.replacen(
        &format!("\"seed\":{seed},\"dice\":\"seeded\""),
        "\"seed\":null,\"dice\":\"explicit\"",
        1,
    );
    assert_ne!(explicit, text);
    let forged = with_fresh_digest(&explicit);
    crate::games::registry()
        .verify_record(&forged)
        .expect("explicit dice that are the seed's verify");
    std::fs::write(record(&t, 3), forged).unwrap();
    let r = audit_league(&t, None).unwrap();
    assert!(
        r.problems[0].starts_with("records/game-000003.jsonl: its dice are explicit"),
        "{}",
        problems(&r)
    );

    // A missing record, a left-over one, and one that does not verify.
    let t = copy(&out, &dir.join("files"));
    std::fs::remove_file(record(&t, 4)).unwrap();
    std::fs::copy(record(&t, 6), record(&t, 12)).unwrap();
    let text = std::fs::read_to_string(record(&t, 7)).unwrap();
    std::fs::write(
        record(&t, 7),
        text.replacen("\"round\":1,", "\"round\":2,", 1),
    )
    .unwrap();
    let r = audit_league(&t, None).unwrap();
    let p = problems(&r);
    assert!(
        r.problems[0].starts_with("game 4 (") && r.problems[0].contains("no record"),
        "{p}"
    );
    assert!(
        r.problems[1].starts_with("records/game-000007.jsonl:3: "),
        "{p}"
    );
    assert!(
        r.problems[2].starts_with("records/game-000012.jsonl: not a game of the schedule"),
        "{p}"
    );

    // Edited standings and games.csv.
    let t = copy(&out, &dir.join("standings"));
    let csv = std::fs::read_to_string(t.join(STANDINGS_CSV)).unwrap();
    let second: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let edited = csv.replacen(
        &second[..4].join(","),
        &format!("{},{},{},{}", second[0], second[1], second[2], 99),
        1,
    );
    assert_ne!(edited, csv);
    std::fs::write(t.join(STANDINGS_CSV), edited).unwrap();
    let games = std::fs::read_to_string(t.join(GAMES_CSV)).unwrap();
    std::fs::write(
        t.join(GAMES_CSV),
        games.replacen(",win,", ",draw_round_cap,", 1),
    )
    .unwrap();
    let r = audit_league(&t, None).unwrap();
    assert!(!r.not_compared);
    assert_eq!(r.problems.len(), 2, "{}", problems(&r));
    assert!(
        r.problems[0].starts_with("standings.csv:2: does not follow from the records: expected `"),
        "{}",
        problems(&r)
    );
    assert!(r.problems[1].starts_with("games.csv:"), "{}", problems(&r));

    // A settings key given twice in standings.json (the last one, the true one, would be read).
    let t = copy(&out, &dir.join("twice"));
    let json = std::fs::read_to_string(t.join(STANDINGS_JSON)).unwrap();
    let doubled = json.replacen("\"seed\": 11", "\"seed\": 12,\n    \"seed\": 11", 1);
    assert_ne!(doubled, json);
    std::fs::write(t.join(STANDINGS_JSON), doubled).unwrap();
    let r = audit_league(&t, None).unwrap();
    assert_eq!(r.problems.len(), 1, "{}", problems(&r));
    assert!(
        r.problems[0].starts_with("standings.json:") && r.problems[0].contains("\"seed\": 12"),
        "{}",
        problems(&r)
    );

    // A published agent file that is not the one played.
    std::fs::write(agents.join("insurance.wasm"), agent_file("insurance v2")).unwrap();
    let r = audit_league(&out, Some(&agents)).unwrap();
    assert_eq!(r.problems.len(), 1, "{}", problems(&r));
    assert!(
        r.problems[0].starts_with("agent \"insurance\": ") && r.problems[0].contains("has hash"),
        "{}",
        problems(&r)
    );
    // Published under another name: found by its hash.
    std::fs::rename(agents.join("insurance.wasm"), agents.join("other.wasm")).unwrap();
    std::fs::write(agents.join("renamed.wasm"), agent_file("insurance")).unwrap();
    assert!(audit_league(&out, Some(&agents))
        .unwrap()
        .problems
        .is_empty());
    std::fs::remove_file(agents.join("renamed.wasm")).unwrap();
    let r = audit_league(&out, Some(&agents)).unwrap();
    assert!(r.problems[0].contains("no file in"), "{}", problems(&r));

    // Not a league folder at all.
    let e = audit_league(&dir.join("agents"), None).unwrap_err();
    assert!(format!("{e:#}").contains("standings.json"), "{e:#}");

    // `arena verify --league`: 0 for a sound league, 1 for a tampered one, 2 for no league.
    let status = |league: &Path| {
        crate::cli::verify::run(crate::cli::verify::VerifyArgs {
            records: vec![],
            verbose: false,
            quiet: false,
            league: Some(league.to_path_buf()),
            agents: None,
            rerun: false,
            sample: 1.0,
        })
        .unwrap()
    };
    assert_eq!(status(&out), 0);
    assert_eq!(status(&dir.join("standings")), 1);
    assert_eq!(status(&dir.join("agents")), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Farkle bot standing in for the agent file `name`.
fn bot<A: arena_agent_sdk::FarkleAgent + Default + Send + 'static>(name: &'static str) -> Native {
    Native {
        name,
        seat: crate::games::farkle::native::<A>(),
    }
}

#[test]
fn a_solo_farkle_league_audits_with_its_benchmark_files() {
    let dir = temp("solo");
    let mut text =
        "game = 'farkle'\nplayers_per_game = 1\ngames_per_group = 3\nseed = 4\nround_cap = 100\n"
            .to_string();
    for name in ["banker", "threshold"] {
        std::fs::write(dir.join(format!("{name}.wasm")), agent_file(name)).unwrap();
        text.push_str(&format!("[[agent]]\npath = '{name}.wasm'\n"));
    }
    let mut cfg = LeagueConfig::parse(&text, &dir).unwrap();
    cfg.output = dir.join("out");
    let banker = bot::<farkle_banker::Banker>("banker");
    let threshold = bot::<farkle_threshold::Threshold>("threshold");
    let contestants: Vec<&dyn Contestant> = vec![&banker, &threshold];
    play_fresh(
        &Hosted(Farkle),
        &cfg,
        &contestants,
        &serde_json::json!({}),
        1,
    );

    let report = audit_league(&cfg.output, Some(&dir)).unwrap();
    assert!(report.problems.is_empty(), "{}", problems(&report));
    assert_eq!(report.verified, 6);
    assert!(report.files_compared.contains(&"benchmark.csv"));
    assert!(report.files_compared.contains(&"benchmark_turns.csv"));

    let turns = cfg.output.join("benchmark_turns.csv");
    let csv = std::fs::read_to_string(&turns).unwrap();
    std::fs::write(&turns, csv.replacen(",1\n", ",2\n", 1)).unwrap();
    let r = audit_league(&cfg.output, None).unwrap();
    assert!(
        r.problems[0].starts_with("benchmark_turns.csv:"),
        "{}",
        problems(&r)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
