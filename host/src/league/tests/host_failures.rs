//! A failure of the host is never a result: the game is tried again, and if the host keeps
//! failing the league stops with nothing recorded for that game.

use std::sync::atomic::{AtomicU32, Ordering};

use super::*;
use crate::game::replay::RecordLines;
use crate::game::{
    GameInfo, GameSettings, Narration, Perft, Played, Seat, Smoke, SmokeOptions, Strategies, Table,
    Template, Viewer,
};
use crate::records::lines::{Line, RecordReader};
use crate::records::{VerifyError, VerifySummary};
use crate::sandbox::AgentModule;

/// Little Animal Farm itself.
static FARM: Hosted<Farm> = Hosted(Farm);

/// Little Animal Farm on a host that fails its first `failures` games: with an error (as a pool
/// exhausted or a reservation refused surface from `Game::play`), or by panicking.
struct FlakyHost {
    failures: AtomicU32,
    panics: bool,
    calls: AtomicU32,
}

impl FlakyHost {
    /// A host for one test (leagues take their game for the whole process).
    fn failing(failures: u32) -> &'static FlakyHost {
        Box::leak(Box::new(FlakyHost {
            failures: AtomicU32::new(failures),
            panics: false,
            calls: AtomicU32::new(0),
        }))
    }

    fn panicking(failures: u32) -> &'static FlakyHost {
        Box::leak(Box::new(FlakyHost {
            failures: AtomicU32::new(failures),
            panics: true,
            calls: AtomicU32::new(0),
        }))
    }
}

impl Game for FlakyHost {
    fn info(&self) -> &'static GameInfo {
        FARM.info()
    }

    fn play(&self, host: &Host<'_>, table: &Table, seats: &[Seat<'_>]) -> anyhow::Result<Played> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let fail = self
            .failures
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if fail {
            assert!(!self.panics, "test panic in a worker");
            anyhow::bail!("maximum concurrent limit of 1000 for core instances reached (test)");
        }
        FARM.play(host, table, seats)
    }

    fn verify(&self, reader: RecordReader<'_>, setup: Line) -> Result<VerifySummary, VerifyError> {
        FARM.verify(reader, setup)
    }

    fn narrate(
        &self,
        played: &Played,
        opts: &Narration<'_>,
        out: &mut dyn std::io::Write,
    ) -> anyhow::Result<()> {
        FARM.narrate(played, opts, out)
    }

    fn smoke(
        &self,
        host: &Host<'_>,
        agent: &AgentModule,
        opts: &SmokeOptions,
        out: &mut dyn std::io::Write,
    ) -> anyhow::Result<Smoke> {
        FARM.smoke(host, agent, opts, out)
    }

    fn replay(&self, record: &RecordLines<'_>) -> anyhow::Result<Vec<u8>> {
        FARM.replay(record)
    }

    fn viewer(&self) -> &'static Viewer {
        FARM.viewer()
    }

    fn templates(&self) -> &'static [Template] {
        FARM.templates()
    }

    fn settings(&self, keys: Option<&toml::Table>) -> anyhow::Result<GameSettings> {
        FARM.settings(keys)
    }

    fn strategies(&self) -> Option<&'static Strategies> {
        FARM.strategies()
    }

    fn perft(&self) -> Option<&'static dyn Perft> {
        FARM.perft()
    }
}

fn play_on(
    host: &'static FlakyHost,
    cfg: &LeagueConfig,
    out: &Path,
    threads: usize,
    resume: bool,
) -> anyhow::Result<super::super::runner::LeagueRun> {
    let entrants = entrants(&habits());
    let contestants: Vec<&dyn Contestant> = entrants.iter().map(|c| c as &dyn Contestant).collect();
    play_with(host, cfg, out, &contestants, threads, resume)
}

fn journal_games(out: &Path) -> usize {
    std::fs::read_to_string(out.join(JOURNAL_FILE))
        .unwrap()
        .lines()
        .count()
        - 1
}

#[test]
fn a_game_the_host_failed_is_played_again_and_the_results_are_as_if_it_never_failed() {
    let dir = temp("host-retry");
    let cfg = config(&dir, 2);
    let clean = run(&cfg, &dir.join("clean"), 1, false);
    // Up to two failures of one game are tried again (whichever games the two threads had).
    for (name, host) in [
        (
            "errors",
            FlakyHost::failing(super::super::runner::HOST_RETRIES),
        ),
        ("panics", FlakyHost::panicking(1)),
    ] {
        let out = dir.join(name);
        let run = play_on(host, &cfg, &out, 2, false).unwrap();
        assert_eq!(run.standings, clean.standings, "{name}");
        assert_eq!(files(&out), files(&dir.join("clean")), "{name}");
        assert_eq!(journal_games(&out), 24, "{name}: every game journaled once");
        assert!(
            host.calls.load(Ordering::SeqCst) > 24,
            "{name}: the failures happened"
        );
        // Nobody is blamed for the host's trouble.
        for a in &run.standings.agents {
            assert!(!a.faults.contains_key("load_failed"), "{name}: {a:?}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_host_that_keeps_failing_stops_the_league_without_recording_the_game() {
    let dir = temp("host-stop");
    let cfg = config(&dir, 2);
    let out = dir.join("out");
    // Nine games are journaled (one thread: games 0 to 8), then the host fails every game.
    let full = run(&cfg, &out, 1, false).standings;
    let journal = std::fs::read_to_string(out.join(JOURNAL_FILE)).unwrap();
    let kept: Vec<&str> = journal.lines().take(1 + 9).collect();
    std::fs::write(out.join(JOURNAL_FILE), kept.join("\n") + "\n").unwrap();
    for f in [STANDINGS_JSON, STANDINGS_CSV, CROSSTABLE_CSV, GAMES_CSV] {
        std::fs::remove_file(out.join(f)).unwrap();
    }

    let host = FlakyHost::failing(u32::MAX);
    let e = format!("{:#}", play_on(host, &cfg, &out, 1, true).err().unwrap());
    let tries = 1 + super::super::runner::HOST_RETRIES;
    assert!(
        e.contains("could not play game 9 ") && e.contains(&format!("in {tries} tries")),
        "{e}"
    );
    assert!(e.contains("not of an agent"), "{e}");
    assert!(
        e.contains("the 9 finished games are kept") && e.contains("--resume"),
        "{e}"
    );
    assert!(
        e.contains("maximum concurrent limit"),
        "the host's own error: {e}"
    );
    assert_eq!(
        host.calls.load(Ordering::SeqCst),
        tries,
        "one game, tried {tries} times"
    );
    assert_eq!(
        journal_games(&out),
        9,
        "nothing journaled for the failed game"
    );
    assert!(!out.join(STANDINGS_JSON).exists(), "no standings written");

    // With the host healthy again, the league resumes to the results it would have had.
    let resumed = run(&cfg, &out, 2, true);
    assert_eq!(resumed.played, 24 - 9);
    assert_eq!(resumed.standings, full);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_worker_that_keeps_panicking_stops_the_league_too() {
    let dir = temp("host-panics");
    let cfg = config(&dir, 2);
    let out = dir.join("out");
    let host = FlakyHost::panicking(u32::MAX);
    let e = format!("{:#}", play_on(host, &cfg, &out, 2, false).err().unwrap());
    assert!(
        e.contains("a worker panicked: test panic in a worker"),
        "{e}"
    );
    assert!(e.contains("the 0 finished games are kept"), "{e}");
    assert_eq!(journal_games(&out), 0);
    assert!(!out.join(STANDINGS_JSON).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
