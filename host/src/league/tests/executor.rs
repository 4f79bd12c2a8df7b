//! The executor seam: a league whose games are played elsewhere and arrive out of order, in
//! batches, leaves the same folder as one played on this machine's threads, and a resumed one is
//! asked only for the games its journal lacks.

use std::path::{Path, PathBuf};

use super::super::contestant::Contestant;
use super::super::executor::{Executor, Flow, Plan, Sink};
use super::super::local::LocalExecutor;
use super::super::result::GameResult;
use super::super::runner::{play_league_on, League, RunOptions, RECORDS_DIR};
use super::{config, entrants, files, habits, run, temp};
use crate::game::{Host, Hosted};
use crate::games::farm::Farm;

/// Plays the games "on another machine" (this machine's threads, into a folder of its own), then
/// hands them over in reverse schedule order, two at a time, their records copied into the
/// league's folder; after `stop_after` batches it fails, as a lost connection would.
struct Elsewhere {
    scratch: PathBuf,
    stop_after: Option<usize>,
    /// How many games each call was asked to play.
    asked: Vec<usize>,
}

/// Keeps what arrives, for [`Elsewhere`] to hand over later.
struct Keep(Vec<GameResult>);

impl Sink for Keep {
    fn arrived(&mut self, batch: Vec<GameResult>) -> anyhow::Result<Flow> {
        self.0.extend(batch);
        Ok(Flow::Go)
    }
    fn held(&self) -> usize {
        self.0.len()
    }
    fn closed(&mut self) {}
}

impl Executor for Elsewhere {
    fn plays_here(&self) -> bool {
        false
    }

    fn play(&mut self, plan: &Plan<'_>, sink: &mut dyn Sink) -> anyhow::Result<()> {
        self.asked.push(plan.done.iter().filter(|d| !**d).count());
        std::fs::create_dir_all(self.scratch.join(RECORDS_DIR))?;
        let there = Plan {
            out: &self.scratch,
            ..*plan
        };
        let mut kept = Keep(Vec::new());
        LocalExecutor.play(&there, &mut kept)?;
        kept.0.sort_by_key(|r| std::cmp::Reverse(r.id));
        for (n, batch) in kept.0.chunks(2).enumerate() {
            if self.stop_after == Some(n) {
                anyhow::bail!("the other machine is gone");
            }
            for r in batch {
                std::fs::copy(self.scratch.join(&r.record), plan.out.join(&r.record))?;
            }
            sink.arrived(batch.to_vec())?;
        }
        Ok(())
    }
}

fn play_elsewhere(
    cfg_dir: &Path,
    out: &Path,
    ex: &mut Elsewhere,
    resume: bool,
) -> anyhow::Result<()> {
    let mut cfg = config(cfg_dir, 2);
    cfg.output = out.to_path_buf();
    let entrants = entrants(&habits());
    let contestants: Vec<&dyn Contestant> = entrants.iter().map(|c| c as &dyn Contestant).collect();
    let league = League {
        game: &Hosted(Farm),
        host: &Host::default(),
        cfg: &cfg,
        contestants: &contestants,
        limits: &serde_json::json!({"test": true}),
    };
    let opts = RunOptions {
        resume,
        fresh: !resume,
        threads: Some(2),
        quiet: true,
        extend: false,
    };
    let lock = super::super::folder::lock(out)?;
    play_league_on(&league, &opts, lock, None, ex).map(|_| ())
}

fn journal_lines(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join(super::super::journal::JOURNAL_FILE)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.sort();
    lines
}

#[test]
fn games_played_elsewhere_leave_the_folder_a_local_league_leaves() {
    let dir = temp("executor");
    let cfg = config(&dir, 2);
    run(&cfg, &dir.join("local"), 2, false);
    let mut elsewhere = Elsewhere {
        scratch: dir.join("scratch"),
        stop_after: None,
        asked: Vec::new(),
    };
    play_elsewhere(&dir, &dir.join("elsewhere"), &mut elsewhere, false).unwrap();
    assert_eq!(elsewhere.asked, [24]);
    assert_eq!(files(&dir.join("local")), files(&dir.join("elsewhere")));
    assert_eq!(
        journal_lines(&dir.join("local")),
        journal_lines(&dir.join("elsewhere"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_league_resumed_elsewhere_is_asked_only_for_the_games_it_lacks() {
    let dir = temp("executor-resume");
    let cfg = config(&dir, 2);
    run(&cfg, &dir.join("local"), 2, false);
    let out = dir.join("elsewhere");
    let mut elsewhere = Elsewhere {
        scratch: dir.join("scratch"),
        stop_after: Some(3),
        asked: Vec::new(),
    };
    let stopped = play_elsewhere(&dir, &out, &mut elsewhere, false).unwrap_err();
    assert!(format!("{stopped:#}").contains("the other machine is gone"));
    // Three batches of two were journaled before the executor failed.
    assert_eq!(journal_lines(&out).len(), 1 + 6);
    elsewhere.stop_after = None;
    std::fs::remove_dir_all(&elsewhere.scratch).unwrap();
    play_elsewhere(&dir, &out, &mut elsewhere, true).unwrap();
    assert_eq!(elsewhere.asked, [24, 18]);
    assert_eq!(files(&dir.join("local")), files(&out));
    assert_eq!(journal_lines(&dir.join("local")), journal_lines(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
