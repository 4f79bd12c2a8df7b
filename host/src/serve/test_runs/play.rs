//! One test run, on a thread of its own: the sources built and checked as an upload is, then the
//! seat-swapped games against each opponent, played in the sandbox; its report, and the records
//! with the tested agent's logs only.

use std::collections::BTreeMap;

use super::{FaultCount, Opponent, Report, TestGame};
use crate::league::result::GameResult;
use crate::referee::Agent;
use crate::sandbox::run_with_big_stack;
use crate::serve::build::Failure;
use crate::serve::engine;
use crate::serve::sources::Sources;
use crate::serve::App;

/// Builds and checks the sources, then plays the seat-swapped games against each opponent; the
/// report, and the records as the contestant may read them (the opponents' logs left out).
pub(super) fn run_blocking(
    app: &App,
    name: &str,
    sources: &Sources,
    opponents: &[Opponent],
) -> anyhow::Result<(Report, Vec<String>)> {
    let test = crate::jobs::new_token()?;
    let mut report = Report {
        test: test.clone(),
        accepted: false,
        reason: None,
        report: String::new(),
        games: Vec::new(),
        faults: Vec::new(),
        kept_until_ms: 0,
    };
    let me = format!("{name} (test)");
    let Some(component) = build_and_check(app, name, &me, sources, &mut report)? else {
        return Ok((report, Vec::new()));
    };
    let mine = app.engine.load(&me, &component)?;
    let players = app.challenge.players_per_game;
    let groups = opponent_groups(app, opponents)?;
    let mut records = Vec::new();
    let mut faults: BTreeMap<(String, String), usize> = BTreeMap::new();
    for group in &groups {
        for pair in 0..app.challenge.uploads.test_pairs {
            // Every game of a pair has the same seed: the same dice, the seats rotated.
            let seed = u64::from(pair) + 1;
            for seat in 0..players {
                let (agents, names) = seating(group.as_ref(), seat, players, &mine, &me);
                let n = records.len() + 1;
                let (text, game, own) = play_test_game(app, &test, &agents, names, seat, seed, n)?;
                for f in own {
                    *faults.entry(f).or_default() += 1;
                }
                records.push(text);
                report.games.push(game);
            }
        }
    }
    report.faults = faults
        .into_iter()
        .map(|((kind, detail), count)| FaultCount {
            kind,
            detail,
            count,
        })
        .collect();
    Ok((report, records))
}

/// Builds the sources and checks the component as an upload is checked, writing both into
/// `report`; the component when the check accepts it, `None` when the report is final (a build
/// error, a refusing check).
fn build_and_check(
    app: &App,
    name: &str,
    me: &str,
    sources: &Sources,
    report: &mut Report,
) -> anyhow::Result<Option<Vec<u8>>> {
    let started = std::time::Instant::now();
    let component = match app.builds.build(sources) {
        Ok(c) => c,
        Err(Failure::Build(message)) => {
            let reason = format!("the {} build failed", sources.lang.name());
            report.report = format!(
                "building {name} ({})\n{message}\n\nFAIL:\n  {reason}\n",
                sources.entry
            );
            report.reason = Some(reason);
            return Ok(None);
        }
        Err(Failure::Server(e)) => return Err(e),
    };
    let took = started.elapsed().as_secs_f64();
    let verdict = app
        .engine
        .check(me, &component, app.challenge.uploads.check_games)?;
    report.report = format!(
        "built {} ({}) in {took:.1} s\n{}",
        sources.entry,
        sources.lang.name(),
        verdict.report
    );
    report.accepted = verdict.accepted;
    report.reason = verdict.reason;
    Ok(verdict.accepted.then_some(component))
}

/// The opponents, loaded: one group per opponent, who fills the seats the tested agent does
/// not; a solo game has one group, the tested agent alone (`None`).
fn opponent_groups<'o>(
    app: &App,
    opponents: &'o [Opponent],
) -> anyhow::Result<Vec<Option<(&'o Opponent, Agent)>>> {
    if app.challenge.players_per_game == 1 {
        return Ok(vec![None]);
    }
    opponents
        .iter()
        .map(|o| {
            let agent = app.engine.load(&o.label, &o.bytes).map_err(|e| {
                anyhow::anyhow!("the opponent {:?} cannot be loaded: {e:#}", o.picked)
            })?;
            Ok(Some((o, agent)))
        })
        .collect()
}

/// The agents and names of a game of `group` with the tested agent (`mine`, named `me`) in
/// `seat` and the opponent in every other seat.
fn seating<'a>(
    group: Option<&'a (&Opponent, Agent)>,
    seat: usize,
    players: usize,
    mine: &'a Agent,
    me: &str,
) -> (Vec<&'a Agent>, Vec<String>) {
    let mut agents: Vec<&Agent> = Vec::with_capacity(players);
    let mut names = Vec::with_capacity(players);
    for s in 0..players {
        match group {
            Some((o, a)) if s != seat => {
                agents.push(a);
                names.push(o.label.clone());
            }
            _ => {
                agents.push(mine);
                names.push(me.to_owned());
            }
        }
    }
    (agents, names)
}

/// The tested agent's faults in a game: kind and detail.
type OwnFaults = Vec<(String, String)>;

/// Plays test game `n` of test `test`: its record with only the tested agent's (`seat`) logs,
/// its line of the report, and the tested agent's faults (kind and detail).
fn play_test_game(
    app: &App,
    test: &str,
    agents: &[&Agent],
    names: Vec<String>,
    seat: usize,
    seed: u64,
    n: usize,
) -> anyhow::Result<(String, TestGame, OwnFaults)> {
    let url = format!("/replays/tests/{test}/games/game-{n:06}.jsonl");
    let played = run_with_big_stack(|| {
        app.engine
            .play(agents, &names, seed, n, &format!("test {n}"), &url)
    })?;
    let text = String::from_utf8(played.record)
        .map_err(|_| anyhow::anyhow!("a record that is not UTF-8"))?;
    let text = engine::redact_logs(&text, &|s| s == seat)?;
    let r: &GameResult = &played.result;
    let own: OwnFaults = r
        .faults
        .iter()
        .filter(|f| f.seat == seat)
        .map(|f| (f.kind.clone(), f.detail.clone()))
        .collect();
    let game = TestGame {
        game: n,
        seats: names,
        seat,
        outcome: r.outcome,
        result: match r.outcome.winner() {
            Some(w) if w == seat => "won",
            Some(_) => "lost",
            None => "draw",
        },
        scores: r.scores.clone(),
        faults: own.len(),
        replay: format!("/replays/tests/{test}/game.html?game={n}"),
        record: url,
    };
    Ok((text, game, own))
}
