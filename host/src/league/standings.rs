//! Standings: counts, win rates with confidence intervals, Bradley–Terry ratings with error bars,
//! game lengths, faults, and the pairwise cross-table.
//!
//! Every game is turned into pairwise results from its finishing ranks (see
//! [`GameResult::ranks`]): the better-ranked agent of each pair scores 1, equal ranks score ½ each.
//! Ratings are the Bradley–Terry maximum-likelihood fit over all those results (as OpenSpiel
//! does), on the Elo scale, with a weak prior of one win and one loss against a 0-rated anchor so
//! that an agent that never wins or never loses still gets a finite rating.
//!
//! Agents that could not play a game (a fault while loading) have no result against each other in
//! it; a game nobody could play counts for nobody (see [`GameResult::nobody_played`]), though
//! its faults are counted.

use std::collections::BTreeMap;

use serde::Serialize;

use super::benchmark::{self, Benchmark};
use super::result::GameResult;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct AgentStanding {
    pub rank: usize,
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Wins / games.
    pub win_rate: f64,
    /// 95% Wilson score interval of the win rate.
    pub win_rate_low: f64,
    pub win_rate_high: f64,
    /// Bradley–Terry rating on the Elo scale, centred on 0.
    pub rating: f64,
    /// Half-width of the rating's 95% interval.
    pub rating_error: f64,
    /// Mean length, in rounds, of this agent's games.
    pub mean_rounds: f64,
    /// Faults by kind.
    pub faults: BTreeMap<String, u32>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CrossCell {
    /// Pairwise points of the row agent against the column agent.
    pub points: f64,
    /// Pairwise results between them.
    pub games: u32,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Standings {
    pub agents: Vec<AgentStanding>,
    /// `cross[i][j]`: row `agents[i]` against column `agents[j]` (same order as `agents`).
    pub cross: Vec<Vec<CrossCell>>,
    /// Games played, including those nobody could play.
    pub games: usize,
    /// Mean length of the games that count.
    pub mean_rounds: f64,
    /// Games in which no agent could play: no result for anyone. Absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub unplayed_games: usize,
    /// Games with a `timeout` fault (the wall-clock backstop): their course depends on the
    /// machine, so the league may not reproduce elsewhere. Absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub machine_dependent_games: usize,
    /// Turns to the target of a solo league (every game has one seat), where ratings and the
    /// cross-table say nothing; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub benchmark: Option<Benchmark>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Computes standings for `names` from `results` (any order: the result does not depend on it).
pub fn compute(names: &[String], results: &[GameResult]) -> Standings {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.id);
    let t = Tally::of(names, &sorted);
    let (ratings, errors) = bradley_terry(&t.points, &t.meetings);
    let mut agents: Vec<AgentStanding> = (0..names.len())
        .map(|a| t.standing(a, names, ratings[a], errors[a]))
        .collect();
    let order = rank_order(names, &agents);
    let cross = order
        .iter()
        .map(|&a| {
            order
                .iter()
                .map(|&b| CrossCell {
                    points: t.points[a][b],
                    games: t.meetings[a][b],
                })
                .collect()
        })
        .collect();
    let ranks = shared_ranks(&order, &agents);
    let mut ranked: Vec<AgentStanding> = Vec::with_capacity(names.len());
    for (i, &a) in order.iter().enumerate() {
        let mut s = std::mem::replace(&mut agents[a], placeholder());
        s.rank = ranks[i];
        ranked.push(s);
    }
    Standings {
        agents: ranked,
        cross,
        games: sorted.len(),
        mean_rounds: if t.counted == 0 {
            0.0
        } else {
            t.total_rounds as f64 / t.counted as f64
        },
        unplayed_games: t.unplayed,
        machine_dependent_games: t.machine_dependent,
        benchmark: benchmark::is_solo(results).then(|| benchmark::compute(names, results)),
    }
}

/// What the games of a league add up to, per agent (indices into the league's names) and per
/// pair of agents.
struct Tally {
    games: Vec<u32>,
    wins: Vec<u32>,
    draws: Vec<u32>,
    rounds: Vec<u64>,
    faults: Vec<BTreeMap<String, u32>>,
    /// `points[a][b]`: what `a` scored against `b` (1 a win, 0.5 a draw), over `meetings[a][b]`.
    points: Vec<Vec<f64>>,
    meetings: Vec<Vec<u32>>,
    total_rounds: u64,
    /// Games that count (someone played).
    counted: usize,
    unplayed: usize,
    machine_dependent: usize,
}

impl Tally {
    /// Adds up `sorted` (in game order); a game with an agent not in `names` is left out.
    fn of(names: &[String], sorted: &[&GameResult]) -> Tally {
        let n = names.len();
        let index: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i))
            .collect();
        let mut t = Tally {
            games: vec![0; n],
            wins: vec![0; n],
            draws: vec![0; n],
            rounds: vec![0; n],
            faults: vec![BTreeMap::new(); n],
            points: vec![vec![0f64; n]; n],
            meetings: vec![vec![0u32; n]; n],
            total_rounds: 0,
            counted: 0,
            unplayed: 0,
            machine_dependent: 0,
        };
        for r in sorted {
            let seats: Vec<usize> = r
                .seats
                .iter()
                .filter_map(|s| index.get(s.as_str()).copied())
                .collect();
            if seats.len() == r.seats.len() {
                t.add(r, &seats);
            }
        }
        t
    }

    /// One game, whose seat `i` is agent `seats[i]`.
    fn add(&mut self, r: &GameResult, seats: &[usize]) {
        self.machine_dependent += usize::from(r.machine_dependent());
        for f in &r.faults {
            if let Some(&a) = seats.get(f.seat) {
                *self.faults[a].entry(f.kind.clone()).or_default() += 1;
            }
        }
        if r.nobody_played() {
            self.unplayed += 1;
            return;
        }
        self.counted += 1;
        let ranks = r.ranks();
        self.total_rounds += u64::from(r.rounds);
        let winner = r.outcome.winner();
        for (seat, &a) in seats.iter().enumerate() {
            self.games[a] += 1;
            self.rounds[a] += u64::from(r.rounds);
            match winner {
                Some(w) if w == seat => self.wins[a] += 1,
                None => self.draws[a] += 1,
                _ => {}
            }
            for (other_seat, &b) in seats.iter().enumerate() {
                if other_seat == seat || (r.unloaded(seat) && r.unloaded(other_seat)) {
                    continue;
                }
                self.meetings[a][b] += 1;
                self.points[a][b] += match ranks[seat].cmp(&ranks[other_seat]) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
    }

    /// Agent `a`'s line of the standings (rank 0: ranks are given once all are known).
    fn standing(&self, a: usize, names: &[String], rating: f64, error: f64) -> AgentStanding {
        let (games, wins, draws) = (self.games[a], self.wins[a], self.draws[a]);
        let (low, high) = wilson(wins, games);
        AgentStanding {
            rank: 0,
            name: names[a].clone(),
            games,
            wins,
            draws,
            losses: games - wins - draws,
            win_rate: ratio(wins, games),
            win_rate_low: low,
            win_rate_high: high,
            rating,
            rating_error: error,
            mean_rounds: if games == 0 {
                0.0
            } else {
                self.rounds[a] as f64 / games as f64
            },
            faults: self.faults[a].clone(),
        }
    }
}

/// The agents in standings order: rating, then win rate, then name.
fn rank_order(names: &[String], agents: &[AgentStanding]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..agents.len()).collect();
    order.sort_by(|&a, &b| {
        agents[b]
            .rating
            .total_cmp(&agents[a].rating)
            .then(agents[b].win_rate.total_cmp(&agents[a].win_rate))
            .then(names[a].cmp(&names[b]))
    });
    order
}

/// The rank of each place of `order`. Equal results share a rank (1, 1, 3): the same rating, up
/// to the fit's rounding. Within a tie, agents are listed as before: more wins first, then by
/// name.
fn shared_ranks(order: &[usize], agents: &[AgentStanding]) -> Vec<usize> {
    let mut ranks = vec![0; order.len()];
    for (i, &a) in order.iter().enumerate() {
        ranks[i] = match i.checked_sub(1).map(|p| order[p]) {
            Some(prev) if same_result(&agents[prev], &agents[a]) => ranks[i - 1],
            _ => i + 1,
        };
    }
    ranks
}

/// Ratings closer than this (Elo points) are the same result: agents with identical results get
/// ratings that differ only by the rounding of the fit (which stops when no rating moves by
/// more than 1e-12 on its own scale), far below a millionth of a point.
const SAME_RATING: f64 = 1e-6;

/// Whether two agents' results are equal (the same rating, which the fit computes from all of
/// their results): they share a rank.
fn same_result(a: &AgentStanding, b: &AgentStanding) -> bool {
    (a.rating - b.rating).abs() < SAME_RATING
}

fn placeholder() -> AgentStanding {
    AgentStanding {
        rank: 0,
        name: String::new(),
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        win_rate: 0.0,
        win_rate_low: 0.0,
        win_rate_high: 0.0,
        rating: 0.0,
        rating_error: 0.0,
        mean_rounds: 0.0,
        faults: BTreeMap::new(),
    }
}

fn ratio(a: u32, b: u32) -> f64 {
    if b == 0 {
        0.0
    } else {
        f64::from(a) / f64::from(b)
    }
}

/// 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = f64::from(n);
    let p = f64::from(k) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits Bradley–Terry strengths by minorization–maximization (Hunter 2004), draws counting half a
/// win for each side. Returns Elo-scale ratings centred on 0 and the half-widths of their 95%
/// intervals from the inverse Fisher information.
pub fn bradley_terry(points: &[Vec<f64>], meetings: &[Vec<u32>]) -> (Vec<f64>, Vec<f64>) {
    let n = points.len();
    // Prior: one win and one loss against an anchor of strength 1.
    const PRIOR_GAMES: f64 = 2.0;
    const PRIOR_WINS: f64 = 1.0;
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        let mut change: f64 = 0.0;
        for i in 0..n {
            let won: f64 = PRIOR_WINS + points[i].iter().sum::<f64>();
            let mut denom = PRIOR_GAMES / (gamma[i] + 1.0);
            for j in 0..n {
                if i != j && meetings[i][j] > 0 {
                    denom += f64::from(meetings[i][j]) / (gamma[i] + gamma[j]);
                }
            }
            next[i] = won / denom;
            change = change.max((next[i].ln() - gamma[i].ln()).abs());
        }
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    // Fisher information of theta = ln(gamma).
    let mut info = vec![vec![0f64; n]; n];
    for i in 0..n {
        let pa = 1.0 / (1.0 + (-theta[i]).exp());
        info[i][i] += PRIOR_GAMES * pa * (1.0 - pa);
        for j in 0..n {
            if i != j && meetings[i][j] > 0 {
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let v = f64::from(meetings[i][j]) * p * (1.0 - p);
                info[i][i] += v;
                info[i][j] -= v;
            }
        }
    }
    let cov = invert(info).unwrap_or_else(|| vec![vec![0.0; n]; n]);
    let mean = theta.iter().sum::<f64>() / n.max(1) as f64;
    let ratings = theta.iter().map(|t| (t - mean) * ELO_PER_NAT).collect();
    // Ratings are shown centred, so their error is that of theta_i - mean(theta): the prior pins
    // the absolute level only loosely, and that uncertainty is common to all and cancels.
    let nf = n.max(1) as f64;
    let row_mean: Vec<f64> = cov.iter().map(|row| row.iter().sum::<f64>() / nf).collect();
    let all_mean = row_mean.iter().sum::<f64>() / nf;
    let errors = (0..n)
        .map(|i| {
            let var = cov[i][i] - 2.0 * row_mean[i] + all_mean;
            1.959_963_984_540_054 * var.max(0.0).sqrt() * ELO_PER_NAT
        })
        .collect();
    (ratings, errors)
}

/// Gauss–Jordan inversion with partial pivoting; `None` for a singular matrix.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for j in 0..n {
            a[col][j] /= p;
            inv[col][j] /= p;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..n {
                        a[row][j] -= f * a[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    fn game(id: usize, seats: &[&str], outcome: Outcome, forfeits: Vec<usize>) -> GameResult {
        GameResult {
            id,
            key: format!("g{id}"),
            seed: 0,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            outcome,
            rounds: 10,
            turns: 20,
            forfeits,
            faults: vec![],
            scores: None,
            record: String::new(),
        }
    }

    fn win(seat: usize) -> Outcome {
        Outcome::Win {
            seat,
            last_standing: false,
        }
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3);
    }

    #[test]
    fn stronger_agent_ranks_first_with_a_positive_rating() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let mut results = Vec::new();
        for i in 0..30 {
            // a beats b 3 times in 4, b beats c 3 times in 4, a beats c always.
            results.push(game(
                results.len(),
                &["a", "b"],
                if i % 4 == 0 { win(1) } else { win(0) },
                vec![],
            ));
            results.push(game(
                results.len(),
                &["c", "b"],
                if i % 4 == 0 { win(0) } else { win(1) },
                vec![],
            ));
            results.push(game(results.len(), &["c", "a"], win(1), vec![]));
        }
        let s = compute(&names, &results);
        let order: Vec<&str> = s.agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(order, ["a", "b", "c"]);
        assert!(s.agents[0].rating > s.agents[1].rating && s.agents[1].rating > s.agents[2].rating);
        assert!(
            s.agents.iter().map(|a| a.rating).sum::<f64>().abs() < 1e-6,
            "centred"
        );
        // 3:1 odds are about 191 Elo; the prior shrinks it a little.
        let gap = s.agents[0].rating - s.agents[1].rating;
        assert!(gap > 120.0 && gap < 260.0, "gap {gap}");
        // 60 results per agent: about ±90 Elo at 95%.
        assert!(
            s.agents
                .iter()
                .all(|a| a.rating_error > 40.0 && a.rating_error < 150.0),
            "{:?}",
            s.agents
        );
        assert_eq!(s.agents[0].games, 60);
        assert_eq!(s.cross[0][1].games, 30);
        assert_eq!(s.cross[0][1].points, 22.0);
    }

    #[test]
    fn order_of_results_does_not_matter() {
        let names: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let mut results: Vec<GameResult> = (0..10)
            .map(|i| game(i, &["a", "b"], win(i % 3 % 2), vec![]))
            .collect();
        let first = compute(&names, &results);
        results.reverse();
        assert_eq!(first, compute(&names, &results));
    }

    #[test]
    fn forfeits_rank_last_and_draws_split() {
        let r = game(
            0,
            &["a", "b", "c"],
            Outcome::Draw { round_cap: true },
            vec![2],
        );
        assert_eq!(r.ranks(), vec![1, 1, 2]);
        let r = game(0, &["a", "b", "c", "d"], win(1), vec![3, 0]);
        assert_eq!(r.ranks(), vec![2, 0, 1, 3]);
    }
}
