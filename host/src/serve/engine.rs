//! The server's one door into the arena's games, checks, leagues and records.
//!
//! Everything else under `serve/` knows games only through this file: the upload check
//! ([`Engine::check`], what `arena check` does), playing one game in the sandbox
//! ([`Engine::play`]), the league's seat-rotated pairings and seeds ([`pairings`]), the league's
//! Bradley–Terry fit or, for a solo game, its benchmark table ([`fit`]), the final round-robin
//! ([`run_final`]), and the records and replays shown to contestants ([`redact_logs`],
//! [`replay_script`]). Checking and playing are `crate::referee`'s (shared with the workers on
//! other machines): the server uses them from there.

use std::ops::Range;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::league::{self, LeagueConfig, RunOptions};
use crate::records::sha256_hex;

use crate::game::Game;
use crate::league::result::GameResult;
use crate::referee::{Rules, COMPRESS_RECORDS_OVER};

/// The page of the viewer of `game`'s replays (`/replays/PAGE?game=N`).
pub fn replay_page(game: &dyn Game) -> &'static str {
    crate::report::viewer_page(game)
}

/// One game of a group: who sits where (indices into the group), its seed, and which cycle and
/// rotation of the group's games it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub seats: Vec<usize>,
    pub seed: u64,
    pub cycle: u32,
    pub rotation: u32,
}

/// The games of cycles `cycles` of the group `names` (one agent per seat of a table), as a league
/// with seed `seed` would play them: each cycle seats the group once in every rotation, all on
/// one seed that depends on the names (in any order), the league seed and the cycle.
pub fn pairings(names: &[String], cycles: Range<u32>, seed: u64) -> Vec<Pairing> {
    let p = names.len();
    let schedule = league::schedule::Schedule::new(names, p, cycles.end * p as u32, seed)
        .expect("a group plays far fewer games than a schedule may hold");
    (0..schedule.len())
        .map(|id| schedule.game(id))
        .map(|g| Pairing {
            cycle: (g.id / p) as u32,
            rotation: (g.id % p) as u32,
            seats: g.seats,
            seed: g.seed,
        })
        .filter(|g| cycles.contains(&g.cycle))
        .collect()
}

/// One agent's line of a ladder or final standings.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Standing {
    pub rank: usize,
    pub name: String,
    pub games: u32,
    /// Games won (for a solo game: games that reached the target).
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Bradley–Terry rating on the Elo scale; for a solo game, the mean turns to the target
    /// (fewer is better), `None` while no game reached it.
    pub rating: Option<f64>,
    /// Half-width of the rating's (or mean's) 95% interval.
    pub interval: Option<f64>,
    pub faults: u32,
}

/// What the ratings measure: `rating` (Bradley–Terry, Elo scale) or `turns` (the solo benchmark).
pub fn measure(players: usize) -> &'static str {
    if players == 1 {
        "turns"
    } else {
        "rating"
    }
}

/// The league's standings of `names` over `results`: the Bradley–Terry fit with intervals, or for
/// solo games the benchmark table. Best first.
pub fn fit(names: &[String], results: &[GameResult]) -> Vec<Standing> {
    let s = league::standings::compute(names, results);
    if let Some(bench) = &s.benchmark {
        return bench
            .agents
            .iter()
            .map(|b| {
                let faults = s
                    .agents
                    .iter()
                    .find(|a| a.name == b.name)
                    .map_or(0, |a| a.faults.values().sum());
                Standing {
                    rank: b.rank,
                    name: b.name.clone(),
                    games: b.games,
                    wins: b.reached,
                    draws: 0,
                    losses: b.games - b.reached,
                    rating: b.mean,
                    interval: b.mean_error,
                    faults,
                }
            })
            .collect();
    }
    s.agents
        .iter()
        .map(|a| Standing {
            rank: a.rank,
            name: a.name.clone(),
            games: a.games,
            wins: a.wins,
            draws: a.draws,
            losses: a.losses,
            rating: Some(a.rating),
            interval: Some(a.rating_error),
            faults: a.faults.values().sum(),
        })
        .collect()
}

/// One contestant of the final: a name and the file of its last accepted version.
#[derive(Clone, Debug)]
pub struct FinalEntrant {
    pub name: String,
    pub path: PathBuf,
}

/// Who plays the final's games: `threads` of the server, and with a shared `database` (a
/// PostgreSQL URL) the workers on other machines too, through the database as
/// `arena league --database` does.
#[derive(Clone, Debug)]
pub struct FinalPlayers {
    pub threads: usize,
    pub database: Option<String>,
    /// With `database`: the fraction of games played twice by workers of two names.
    pub double_play: f64,
}

/// Plays the final round-robin into `output` with the league engine (resuming it when its
/// journal is there), writes the league's report, and returns the standings. The folder is an
/// `arena league` output folder: `arena verify` and `arena report` work on it.
pub fn run_final(
    challenge: &str,
    rules: &Rules,
    entrants: &[FinalEntrant],
    games_per_group: u32,
    seed: u64,
    output: PathBuf,
    players: &FinalPlayers,
) -> anyhow::Result<Vec<Standing>> {
    let threads = players.threads;
    if entrants.len() < rules.players {
        bail!(
            "the final needs at least {} contestants with an accepted version; it has {}",
            rules.players,
            entrants.len()
        );
    }
    let resume = output.join(league::journal::JOURNAL_FILE).is_file();
    let cfg = LeagueConfig {
        name: format!("{challenge} (final)"),
        game: rules.game,
        settings: rules.settings.clone(),
        players_per_game: rules.players,
        games_per_group,
        seed,
        round_cap: rules.round_cap,
        fault_policy: rules.policy,
        output,
        threads,
        compress_records_over: COMPRESS_RECORDS_OVER as u64,
        double_play: players.double_play,
        budgets: rules.budgets.clone(),
        agents: entrants
            .iter()
            .map(|e| league::config::AgentEntry {
                name: e.name.clone(),
                path: e.path.clone(),
            })
            .collect(),
    };
    let opts = RunOptions {
        resume,
        fresh: !resume,
        threads: Some(threads.max(1)),
        quiet: true,
        extend: false,
    };
    let run = match &players.database {
        None => league::run_league(&cfg, &opts)?,
        Some(url) => {
            let dist = crate::distributed::league::Distributed {
                url: url.clone(),
                local_threads: threads,
                lease: crate::distributed::worker::DEFAULT_LEASE,
            };
            // A thread of its own: the league drives the database from a runtime of its own,
            // which cannot run on a thread of the server's.
            std::thread::scope(|s| {
                s.spawn(|| crate::distributed::league::run_league_distributed(&cfg, &opts, &dist))
                    .join()
                    .unwrap_or_else(|_| Err(anyhow!("the final's league panicked")))
            })?
        }
    };
    crate::report::write_report(&run.output).context("cannot write the final's report")?;
    Ok(fit(
        &entrants.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        &run.results,
    ))
}

/// The record with the debug logs of every seat but those `keep` accepts taken out, and its
/// digest computed again over the lines as they now are. `arena verify` accepts it as it accepts
/// the full record (logs are handed back to the replay as the agents' output, so a record without
/// some of them is consistent); a contestant is shown the logs of their own agents only.
pub fn redact_logs(text: &str, keep: &dyn Fn(usize) -> bool) -> anyhow::Result<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some((end, body)) = lines.split_last() else {
        bail!("empty record");
    };
    let mut out = String::with_capacity(text.len());
    for line in body {
        if !line.contains("\"logs\"") {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let mut value: Value = serde_json::from_str(line).context("unreadable record line")?;
        if let Some(obj) = value.as_object_mut() {
            if let Some(Value::Array(logs)) = obj.get_mut("logs") {
                let before = logs.len();
                logs.retain(|l| {
                    l.get("seat")
                        .and_then(Value::as_u64)
                        .is_some_and(|s| keep(s as usize))
                });
                if logs.len() == before {
                    out.push_str(line);
                    out.push('\n');
                    continue;
                }
                if logs.is_empty() {
                    obj.remove("logs");
                }
            }
        }
        out.push_str(&serde_json::to_string(&value)?);
        out.push('\n');
    }
    let end_value: Value = serde_json::from_str(end).context("unreadable end line")?;
    let old = end_value
        .get("digest")
        .and_then(Value::as_str)
        .context("the end line has no digest")?;
    out.push_str(&end.replace(old, &sha256_hex(out.as_bytes())));
    out.push('\n');
    Ok(out)
}

/// The replay viewer's data script of game `id` (`window.ARENA_GAME = ...`) from its record's
/// text, linking to the record at `record_url`.
pub fn replay_script(text: &str, id: usize, record_url: &str) -> anyhow::Result<Vec<u8>> {
    let (_, script) =
        crate::report::game_script_of_text(&format!("game {id}"), text, id, record_url)?;
    Ok(script)
}

/// A file of the report's replay viewers (each game's viewer, `common.js`, ...).
pub fn replay_asset(name: &str) -> Option<&'static str> {
    match name {
        "index.html" => None,
        _ => crate::report::asset(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::FaultPolicy;
    use crate::league::config::Budgets;
    use crate::referee::Engine;
    use crate::sandbox::run_with_big_stack;
    fn verify_record_bytes(
        b: &[u8],
    ) -> Result<crate::records::VerifySummary, crate::records::VerifyError> {
        crate::games::registry().verify_record_bytes(b)
    }

    use crate::games::farm::tests::support::LOGGING_PASSER as PASSER;

    fn engine() -> Engine {
        Engine::new(Rules {
            game: crate::games::registry()
                .by_name("little-animal-farm")
                .unwrap(),
            settings: Default::default(),
            players: 2,
            round_cap: 30,
            policy: FaultPolicy::Forfeit,
            budgets: Budgets::default(),
        })
        .unwrap()
    }

    #[test]
    fn the_check_accepts_an_agent_and_refuses_garbage_with_a_reason() {
        let e = engine();
        let ok = e.check("passer.wat", PASSER.as_bytes(), 2).unwrap();
        assert!(ok.accepted, "{}", ok.report);
        assert!(ok.report.contains("OK: passer.wat is a valid arena agent"));
        assert_eq!(ok.module_sha256.as_ref().map(String::len), Some(64));
        let bad = e.check("x.wasm", b"MZ\x90\0 not wasm", 2).unwrap();
        assert!(!bad.accepted);
        assert!(bad.reason.unwrap().contains("not a WebAssembly module"));
        let farkle = include_str!("../games/farkle/templates/wat/farkle.wat");
        let wrong_game = e.check("f.wat", farkle.as_bytes(), 2).unwrap();
        assert!(!wrong_game.accepted);
        assert!(
            wrong_game.reason.as_deref().unwrap().contains("farm_trade"),
            "{:?}",
            wrong_game.reason
        );
    }

    #[test]
    fn pairings_are_the_leagues_seat_rotations_on_shared_seeds() {
        let names = vec!["b v1".to_string(), "a v2".to_string()];
        let all = pairings(&names, 0..3, 7);
        assert_eq!(all.len(), 6);
        let later = pairings(&names, 1..3, 7);
        assert_eq!(
            later,
            all[2..].to_vec(),
            "cycles can be asked for one at a time"
        );
        for pair in all.chunks(2) {
            assert_eq!(pair[0].seed, pair[1].seed);
            assert_eq!(pair[0].seats, vec![pair[1].seats[1], pair[1].seats[0]]);
        }
        let reversed: Vec<String> = names.iter().rev().cloned().collect();
        let seeds: Vec<u64> = pairings(&reversed, 0..3, 7)
            .iter()
            .map(|p| p.seed)
            .collect();
        assert_eq!(seeds, all.iter().map(|p| p.seed).collect::<Vec<_>>());
    }

    #[test]
    fn a_redacted_record_keeps_only_the_chosen_seats_logs_and_still_verifies() {
        let e = engine();
        let a = e.load("a", PASSER.as_bytes()).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let played = run_with_big_stack(|| {
            e.play(&[&a, &a], &names, 3, 0, "k", "records/0.jsonl")
                .unwrap()
        });
        let text = String::from_utf8(played.record).unwrap();
        assert!(text.contains("\"seat\":1,\"text\":\"thinking\""));
        let mine = redact_logs(&text, &|s| s == 0).unwrap();
        assert!(mine.contains("\"seat\":0,\"text\":\"thinking\""));
        assert!(!mine.contains("\"seat\":1,\"text\""));
        verify_record_bytes(mine.as_bytes()).unwrap();
        let none = redact_logs(&text, &|_| false).unwrap();
        assert!(!none.contains("thinking"));
        verify_record_bytes(none.as_bytes()).unwrap();
        assert_eq!(redact_logs(&text, &|_| true).unwrap(), text);
        let script = replay_script(&mine, 0, "/api/games/0/record").unwrap();
        assert!(script.starts_with(b"window.ARENA_GAME = "));
    }

    #[test]
    fn the_fit_ranks_the_winner_first_with_an_interval() {
        let e = engine();
        let a = e.load("a", PASSER.as_bytes()).unwrap();
        let names = vec!["x".to_string(), "y".to_string()];
        let results: Vec<GameResult> = (0..4)
            .map(|i| {
                run_with_big_stack(|| {
                    e.play(&[&a, &a], &names, i, i as usize, "k", "r")
                        .unwrap()
                        .result
                })
            })
            .collect();
        let s = fit(&names, &results);
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().map(|r| r.games).sum::<u32>(), 8);
        assert!(s.iter().all(|r| r.interval.unwrap() > 0.0));
        assert_eq!(measure(2), "rating");
        assert_eq!(measure(1), "turns");
    }

    /// The ladder of tests/serve_kill.rs: four uploads of the same deterministic climber (only its
    /// log text differs), paired as the ladder pairs them. Both games of a pair have the same dice
    /// with the seats swapped, so they are the same game with the names exchanged: each agent
    /// wins exactly one of the two (or both are draws). Every agent scores exactly half, whatever
    /// its count of wins, and the fit gives every one the rating 0 with an interval; one
    /// agent that wins more than half is rated above 0.
    #[test]
    fn identical_agents_split_every_seat_swapped_pair_so_the_fit_rates_them_all_zero() {
        let e = engine();
        let climber = include_str!("../../../example-agents/wat/climber.wat");
        let a = e.load("climber", climber.as_bytes()).unwrap();
        let names: Vec<String> = ["ann v1", "ben v1", "cat v1", "dan v1"]
            .map(String::from)
            .to_vec();
        let mut results = Vec::new();
        for i in 0..names.len() {
            for j in i + 1..names.len() {
                let group = vec![names[i].clone(), names[j].clone()];
                for p in pairings(&group, 0..3, 1) {
                    let seated: Vec<String> = p.seats.iter().map(|&s| group[s].clone()).collect();
                    let id = results.len();
                    let played = run_with_big_stack(|| {
                        e.play(&[&a, &a], &seated, p.seed, id, "k", "r").unwrap()
                    });
                    results.push(played.result);
                }
            }
        }
        for pair in results.chunks(2) {
            let winner = |r: &GameResult| match r.outcome {
                crate::game::Outcome::Win { seat, .. } => Some(r.seats[seat].clone()),
                _ => None,
            };
            assert_eq!(pair[0].seats[0], pair[1].seats[1]);
            match (winner(&pair[0]), winner(&pair[1])) {
                (Some(x), Some(y)) => assert_ne!(x, y, "one agent won both games of a pair"),
                (None, None) => {}
                _ => panic!("a pair with one draw: {:?} {:?}", pair[0], pair[1]),
            }
        }
        let wins: Vec<u32> = fit(&names, &results).iter().map(|s| s.wins).collect();
        assert!(
            wins.iter().any(|&w| w != wins[0]),
            "the agents' wins differ (as in serve_kill's leaderboard): {wins:?}"
        );
        for s in fit(&names, &results) {
            assert_eq!(s.wins, s.losses, "{s:?}");
            assert_eq!(s.rating, Some(0.0), "{s:?}");
            assert!(s.interval.unwrap() > 0.0, "{s:?}");
            // Equal results share a rank, whatever the count of wins or the names.
            assert_eq!(s.rank, 1, "{s:?}");
        }

        // Give the first agent every game it did not win: it is rated above 0, the others below.
        for r in &mut results {
            if let Some(seat) = r.seats.iter().position(|n| *n == names[0]) {
                r.outcome = crate::game::Outcome::Win {
                    seat,
                    last_standing: false,
                };
            }
        }
        let s = fit(&names, &results);
        assert_eq!(s[0].name, names[0]);
        assert!(s[0].rating.unwrap() > 0.0, "{s:?}");
        assert!(s[1..].iter().all(|o| o.rating.unwrap() < 0.0), "{s:?}");
    }
}
