//! A watched league cut short by its watcher is the smaller league: the same files as a league
//! of that many games per group played from the start, whatever the thread count and whatever
//! games were still running at the cut.

use super::*;
use crate::league::local::LocalExecutor;
use crate::league::result::GameResult;
use crate::league::runner::{play_league_on, League, Watcher};

/// Cuts the league to `cycles` cycles once every game of them has been journaled.
struct CutAt {
    cycles: usize,
    players: usize,
    groups: usize,
    per_group: usize,
    seen: std::collections::HashSet<usize>,
}

impl Watcher for CutAt {
    fn journaled(&mut self, r: &GameResult) -> Option<usize> {
        if (r.id % self.per_group) / self.players < self.cycles {
            self.seen.insert(r.id);
        }
        (self.seen.len() == self.groups * self.cycles * self.players).then_some(self.cycles)
    }
}

fn watched(cfg: &LeagueConfig, out: &Path, threads: usize, watcher: &mut CutAt) {
    let mut cfg = cfg.clone();
    cfg.output = out.to_path_buf();
    let entrants = entrants(&habits());
    let contestants: Vec<&dyn Contestant> = entrants.iter().map(|c| c as &dyn Contestant).collect();
    let opts = RunOptions {
        fresh: true,
        threads: Some(threads),
        quiet: true,
        ..RunOptions::default()
    };
    let lock = crate::league::folder::lock(out).unwrap();
    let league = League {
        game: &crate::game::Hosted(crate::games::farm::Farm),
        host: &Host::default(),
        cfg: &cfg,
        contestants: &contestants,
        limits: &serde_json::json!({"test": true}),
    };
    play_league_on(&league, &opts, lock, Some(watcher), &mut LocalExecutor).unwrap();
}

#[test]
fn a_league_cut_by_its_watcher_is_the_smaller_league() {
    for players in [2, 3] {
        let dir = temp(&format!("cut-{players}"));
        let mut cfg = config(&dir, players);
        cfg.games_per_group = 6 * players as u32;
        let groups = if players == 2 { 6 } else { 4 };
        for threads in [1, 3] {
            let mut watcher = CutAt {
                cycles: 2,
                players,
                groups,
                per_group: cfg.games_per_group as usize,
                seen: Default::default(),
            };
            watched(
                &cfg,
                &dir.join(format!("cut-{threads}")),
                threads,
                &mut watcher,
            );
        }
        let mut small = cfg.clone();
        small.games_per_group = 2 * players as u32;
        let direct = run(&small, &dir.join("direct"), 1, false);
        assert_eq!(direct.results.len(), groups * 2 * players);
        for threads in [1, 3] {
            let cut = dir.join(format!("cut-{threads}"));
            assert_eq!(
                files(&cut),
                files(&dir.join("direct")),
                "{players} players, {threads} threads"
            );
            // The journal is the smaller league's: it resumes as that league, with nothing to play.
            let resumed = run(&small, &cut, 2, true);
            assert_eq!(resumed.played, 0);
            assert_eq!(resumed.standings, direct.standings);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
