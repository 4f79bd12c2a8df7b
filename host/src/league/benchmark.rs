//! The solo benchmark (a game with a solo form, `players_per_game = 1`): how many turns each agent
//! needs to reach the game's target alone, over its games.
//!
//! A solo game that ended in a win reached the target; its `turns` are the turns it took. A game
//! that hit the round cap, or whose player forfeited, did not reach it: it counts in `games` but
//! not in the turn statistics, which are over the games that reached the target only.
//!
//! Ranking: agents that reach the target more often rank first (reached / games, descending), then
//! fewer mean turns, then a lower median; agents equal in all three share a rank (listed by name).
//! An agent that sometimes does not reach the
//! target has, in effect, an unbounded mean, so it ranks after every agent that always reached it,
//! however fast its successful games were. Agents with no game reaching the target rank last.
//!
//! Everything is computed from the sorted turn counts with integer sums, so the numbers do not
//! depend on the order of the results.

use std::collections::BTreeMap;

use serde::Serialize;

use super::result::GameResult;

/// One bar of an agent's distribution: `games` games took exactly `turns` turns.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Bin {
    pub turns: u32,
    pub games: u32,
}

/// An agent's turns to the target. The turn statistics are `None` when no game reached the target
/// (and `sd`, `mean_error` also when only one did).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BenchmarkAgent {
    pub rank: usize,
    pub name: String,
    pub games: u32,
    /// Games that reached the target.
    pub reached: u32,
    /// reached / games.
    pub reached_rate: f64,
    /// Mean turns to the target over the games that reached it.
    pub mean: Option<f64>,
    /// Sample standard deviation (n − 1) of the turns.
    pub sd: Option<f64>,
    /// Half-width of the 95% confidence interval of the mean (1.96 · sd / √n).
    pub mean_error: Option<f64>,
    pub median: Option<f64>,
    /// Lower and upper quartiles (linear interpolation between order statistics, as the median).
    pub q1: Option<f64>,
    pub q3: Option<f64>,
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// Games by number of turns, ascending, only the turn counts that occurred.
    pub histogram: Vec<Bin>,
}

/// The benchmark of a solo league, agents in rank order.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Benchmark {
    pub agents: Vec<BenchmarkAgent>,
}

/// True when `results` are a solo league's: at least one game, and one seat in every game.
pub fn is_solo(results: &[GameResult]) -> bool {
    !results.is_empty() && results.iter().all(|r| r.seats.len() == 1)
}

/// The benchmark of `names` over the solo games in `results` (games with more seats, or of agents
/// not in `names`, are ignored). Any order of `results` gives the same benchmark.
pub fn compute(names: &[String], results: &[GameResult]) -> Benchmark {
    let mut turns: BTreeMap<&str, Vec<u32>> = names.iter().map(|n| (n.as_str(), vec![])).collect();
    let mut games: BTreeMap<&str, u32> = names.iter().map(|n| (n.as_str(), 0)).collect();
    for r in results {
        let [name] = r.seats.as_slice() else { continue };
        let Some(count) = games.get_mut(name.as_str()) else {
            continue;
        };
        *count += 1;
        if r.outcome.winner() == Some(0) {
            turns
                .get_mut(name.as_str())
                .expect("same keys")
                .push(r.turns);
        }
    }
    let mut agents: Vec<BenchmarkAgent> = names
        .iter()
        .map(|name| {
            let mut t = turns.remove(name.as_str()).unwrap_or_default();
            t.sort_unstable();
            agent(name, games[name.as_str()], &t)
        })
        .collect();
    agents.sort_by(|a, b| {
        b.reached_rate
            .total_cmp(&a.reached_rate)
            .then(cmp_missing_last(a.mean, b.mean))
            .then(cmp_missing_last(a.median, b.median))
            .then(a.name.cmp(&b.name))
    });
    // Equal records share a rank (1, 1, 3): the same share of games reaching the target, and
    // the same mean and median turns.
    for i in 0..agents.len() {
        agents[i].rank = match i.checked_sub(1) {
            Some(p)
                if agents[p].reached_rate == agents[i].reached_rate
                    && agents[p].mean == agents[i].mean
                    && agents[p].median == agents[i].median =>
            {
                agents[p].rank
            }
            _ => i + 1,
        };
    }
    Benchmark { agents }
}

/// Smaller first; `None` after every value.
fn cmp_missing_last(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
}

/// Statistics of one agent; `sorted` are the turns of its games that reached the target.
fn agent(name: &str, games: u32, sorted: &[u32]) -> BenchmarkAgent {
    let n = sorted.len();
    let sum: u64 = sorted.iter().map(|&t| u64::from(t)).sum();
    let mean = (n > 0).then(|| sum as f64 / n as f64);
    let sd = match mean {
        Some(m) if n > 1 => {
            let ss: f64 = sorted.iter().map(|&t| (f64::from(t) - m).powi(2)).sum();
            Some((ss / (n - 1) as f64).sqrt())
        }
        _ => None,
    };
    let mut histogram: Vec<Bin> = Vec::new();
    for &t in sorted {
        match histogram.last_mut() {
            Some(b) if b.turns == t => b.games += 1,
            _ => histogram.push(Bin { turns: t, games: 1 }),
        }
    }
    BenchmarkAgent {
        rank: 0,
        name: name.to_owned(),
        games,
        reached: n as u32,
        reached_rate: if games == 0 {
            0.0
        } else {
            n as f64 / f64::from(games)
        },
        mean,
        sd,
        mean_error: sd.map(|s| 1.959_963_984_540_054 * s / (n as f64).sqrt()),
        median: quantile(sorted, 0.5),
        q1: quantile(sorted, 0.25),
        q3: quantile(sorted, 0.75),
        min: sorted.first().copied(),
        max: sorted.last().copied(),
        histogram,
    }
}

/// The `p` quantile of sorted values, interpolating linearly between order statistics (so the
/// median of an even count is the mean of the middle two).
fn quantile(sorted: &[u32], p: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let pos = p * last as f64;
    let lo = pos.floor() as usize;
    let hi = (lo + 1).min(last);
    let (a, b) = (f64::from(sorted[lo]), f64::from(sorted[hi]));
    Some(a + (pos - lo as f64) * (b - a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    fn solo(id: usize, name: &str, turns: Option<u32>) -> GameResult {
        GameResult {
            id,
            key: format!("{name}#{id}"),
            seed: id as u64,
            seats: vec![name.to_owned()],
            outcome: match turns {
                Some(_) => Outcome::Win {
                    seat: 0,
                    last_standing: false,
                },
                None => Outcome::Draw { round_cap: true },
            },
            rounds: turns.unwrap_or(50),
            turns: turns.unwrap_or(50),
            forfeits: vec![],
            faults: vec![],
            scores: Some(vec![10_000]),
            record: String::new(),
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn results() -> Vec<GameResult> {
        let mut r = Vec::new();
        // a: 10, 12, 12, 14 (all reached).
        for t in [12, 10, 14, 12] {
            r.push(solo(r.len(), "a", Some(t)));
        }
        // b: 8, 9, and one game not reached: faster, but ranks after a.
        for t in [Some(9), None, Some(8)] {
            r.push(solo(r.len(), "b", t));
        }
        // c: 20, 30, 40 (all reached, slower than a).
        for t in [40, 20, 30] {
            r.push(solo(r.len(), "c", Some(t)));
        }
        // d: never reached.
        r.push(solo(r.len(), "d", None));
        r
    }

    #[test]
    fn statistics_are_exact() {
        let b = compute(&names(&["d", "c", "b", "a"]), &results());
        let order: Vec<&str> = b.agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(order, ["a", "c", "b", "d"]);
        assert_eq!(
            b.agents.iter().map(|a| a.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );

        let a = &b.agents[0];
        assert_eq!((a.games, a.reached, a.reached_rate), (4, 4, 1.0));
        assert_eq!(a.mean, Some(12.0));
        // Deviations -2, 0, 0, 2: 8 / 3.
        assert_eq!(a.sd, Some((8.0f64 / 3.0).sqrt()));
        assert_eq!(
            a.mean_error,
            Some(1.959_963_984_540_054 * (8.0f64 / 3.0).sqrt() / 2.0)
        );
        assert_eq!(a.median, Some(12.0));
        assert_eq!((a.q1, a.q3), (Some(11.5), Some(12.5)));
        assert_eq!((a.min, a.max), (Some(10), Some(14)));
        assert_eq!(
            a.histogram,
            [
                Bin {
                    turns: 10,
                    games: 1
                },
                Bin {
                    turns: 12,
                    games: 2
                },
                Bin {
                    turns: 14,
                    games: 1
                }
            ]
        );

        let c = &b.agents[1];
        assert_eq!(
            (c.mean, c.sd, c.median),
            (Some(30.0), Some(10.0), Some(30.0))
        );
        assert_eq!((c.q1, c.q3), (Some(25.0), Some(35.0)));

        let bb = &b.agents[2];
        assert_eq!((bb.games, bb.reached), (3, 2));
        assert_eq!(bb.reached_rate, 2.0 / 3.0);
        assert_eq!((bb.mean, bb.median), (Some(8.5), Some(8.5)));
        assert_eq!(bb.sd, Some(0.5f64.sqrt()));
        assert_eq!((bb.min, bb.max), (Some(8), Some(9)));
        assert_eq!(bb.histogram.iter().map(|h| h.games).sum::<u32>(), 2);

        let d = &b.agents[3];
        assert_eq!((d.games, d.reached, d.reached_rate), (1, 0, 0.0));
        assert_eq!((d.mean, d.sd, d.median, d.min), (None, None, None, None));
        assert!(d.histogram.is_empty());
    }

    #[test]
    fn one_game_has_no_deviation() {
        let b = compute(&names(&["x"]), &[solo(0, "x", Some(7))]);
        let x = &b.agents[0];
        assert_eq!(
            (x.mean, x.median, x.sd, x.mean_error),
            (Some(7.0), Some(7.0), None, None)
        );
        assert_eq!((x.q1, x.q3), (Some(7.0), Some(7.0)));
    }

    #[test]
    fn order_of_results_and_names_does_not_matter() {
        let mut r = results();
        let first = compute(&names(&["a", "b", "c", "d"]), &r);
        r.reverse();
        assert_eq!(first, compute(&names(&["d", "b", "c", "a"]), &r));
        r.swap(1, 5);
        assert_eq!(first, compute(&names(&["c", "a", "d", "b"]), &r));
    }

    #[test]
    fn equal_records_rank_by_median_then_name() {
        let r = vec![
            solo(0, "p", Some(10)),
            solo(1, "p", Some(20)),
            solo(2, "p", Some(30)),
            solo(3, "q", Some(5)),
            solo(4, "q", Some(25)),
            solo(5, "q", Some(30)),
            solo(6, "s", Some(20)),
            solo(7, "r", Some(20)),
        ];
        let b = compute(&names(&["p", "q", "r", "s"]), &r);
        let order: Vec<&str> = b.agents.iter().map(|a| a.name.as_str()).collect();
        // All mean 20; p's median 20 < q's 25; p, r and s tie everywhere but the name: they
        // share a rank, listed by name.
        assert_eq!(order, ["p", "r", "s", "q"]);
        let ranks: Vec<usize> = b.agents.iter().map(|a| a.rank).collect();
        assert_eq!(ranks, [1, 1, 1, 4]);
    }

    #[test]
    fn solo_means_one_seat_in_every_game() {
        assert!(!is_solo(&[]));
        assert!(is_solo(&results()));
        let mut r = results();
        r[3].seats.push("b".into());
        assert!(!is_solo(&r));
    }
}
