//! Agents that could not play: a game nobody could play counts for nobody, and agents that both
//! failed to load have no result against each other.

use super::super::result::GameResult;
use super::super::standings::{AgentStanding, CrossCell};
use super::*;

/// Plays `players`-seat games among good (`a`, `d`) and unloadable (`b`, `c`) agents.
fn league_with_two_unloadable(dir: &Path, players: usize) -> super::super::runner::LeagueRun {
    let cfg = config(dir, players);
    let h = [
        Habit::picking(0),
        Habit::unloadable(),
        Habit::unloadable(),
        Habit::picking(3),
    ];
    try_run(&cfg, &dir.join("out"), &h, 2, false).unwrap()
}

fn agent<'a>(run: &'a super::super::runner::LeagueRun, name: &str) -> &'a AgentStanding {
    run.standings
        .agents
        .iter()
        .find(|a| a.name == name)
        .unwrap()
}

fn cross(run: &super::super::runner::LeagueRun, row: &str, col: &str) -> CrossCell {
    let i = run
        .standings
        .agents
        .iter()
        .position(|a| a.name == row)
        .unwrap();
    let j = run
        .standings
        .agents
        .iter()
        .position(|a| a.name == col)
        .unwrap();
    run.standings.cross[i][j].clone()
}

#[test]
fn a_game_nobody_could_play_counts_for_nobody() {
    let dir = temp("unplayed-2");
    let run = league_with_two_unloadable(&dir, 2);
    // b and c meet in 4 games, which neither could play: journaled and recorded, counted for
    // nobody. Before, each counted 4 draws.
    assert_eq!(run.results.len(), 24);
    assert_eq!(run.standings.games, 24);
    assert_eq!(run.standings.unplayed_games, 4);
    for name in ["b", "c"] {
        let s = agent(&run, name);
        assert_eq!((s.games, s.wins, s.draws, s.losses), (8, 0, 0, 8), "{s:?}");
        // Their load failures are still theirs: one per game, the unplayed ones included.
        assert_eq!(s.faults.get("load_failed"), Some(&12), "{s:?}");
    }
    assert_eq!(cross(&run, "b", "c").games, 0);
    assert_eq!(cross(&run, "c", "b").points, 0.0);
    assert_eq!(cross(&run, "a", "b").games, 4);
    // Mean length over the games that count.
    let counted: Vec<&GameResult> = run.results.iter().filter(|r| !r.nobody_played()).collect();
    let mean = counted.iter().map(|r| f64::from(r.rounds)).sum::<f64>() / counted.len() as f64;
    assert_eq!(run.standings.mean_rounds, mean);

    let out = dir.join("out");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join(STANDINGS_JSON)).unwrap()).unwrap();
    assert_eq!(json["unplayed_games"], 4);
    let games = std::fs::read_to_string(out.join(GAMES_CSV)).unwrap();
    let not_played: Vec<&str> = games
        .lines()
        .filter(|l| l.contains(",not_played,"))
        .collect();
    assert_eq!(not_played.len(), 4, "{games}");
    for line in &not_played {
        assert!(line.contains(",b,c,") || line.contains(",c,b,"), "{line}");
    }
    for r in run.results.iter().filter(|r| r.nobody_played()) {
        assert!(out.join(&r.record).is_file(), "recorded all the same");
    }
    // `arena verify --league` finds the same from the records alone.
    let audit = crate::audit::audit_league(&out, None).unwrap();
    assert!(audit.problems.is_empty(), "{:?}", audit.problems);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn agents_that_both_failed_to_load_have_no_result_against_each_other() {
    let dir = temp("unplayed-3");
    let run = league_with_two_unloadable(&dir, 3);
    // Every game has a good agent, so every game is played; but b and c, in the games they
    // share, failed to load together: no pairwise result between them (before, whichever failed
    // last ranked above the other).
    assert_eq!(run.standings.unplayed_games, 0);
    assert_eq!(cross(&run, "b", "c").games, 0);
    assert_eq!(cross(&run, "b", "a").games, 12);
    assert_eq!(cross(&run, "b", "a").points, 0.0);
    assert!(
        !std::fs::read_to_string(dir.join("out").join(STANDINGS_JSON))
            .unwrap()
            .contains("unplayed_games")
    );
    let audit = crate::audit::audit_league(&dir.join("out"), None).unwrap();
    assert!(audit.problems.is_empty(), "{:?}", audit.problems);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn standings_count_games_with_a_timeout_as_machine_dependent() {
    let base = GameResult {
        id: 0,
        key: "a,b#0".into(),
        seed: 1,
        seats: vec!["a".into(), "b".into()],
        outcome: crate::game::Outcome::Win {
            seat: 0,
            last_standing: true,
        },
        rounds: 3,
        turns: 5,
        forfeits: vec![1],
        faults: vec![],
        scores: None,
        record: "records/game-000000.jsonl".into(),
    };
    let fault = |kind: &str| crate::game::FaultNote {
        seat: 1,
        decision: "trade".into(),
        kind: kind.into(),
        detail: "x".into(),
    };
    let mut timed_out = base.clone();
    timed_out.id = 1;
    timed_out.faults = vec![fault("timeout")];
    let mut trapped = base.clone();
    trapped.id = 2;
    trapped.faults = vec![fault("trap")];
    let names = vec!["a".to_owned(), "b".to_owned()];
    let s = super::super::standings::compute(&names, &[base.clone(), timed_out, trapped]);
    assert_eq!(s.machine_dependent_games, 1);
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["machine_dependent_games"], 1);
    let none = super::super::standings::compute(&names, &[base]);
    assert!(serde_json::to_value(&none)
        .unwrap()
        .get("machine_dependent_games")
        .is_none());
}
