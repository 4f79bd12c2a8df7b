//! The running count of a match: game results arrive in the order games end, pairs are counted
//! in schedule order (cycle 0 first), and the sequential test is checked after every pair. So the
//! figures, and the pair at which the test decides, depend on the seed alone, not on the thread
//! count or on which game happened to end first.

use std::collections::BTreeMap;

use crate::stats::{
    Decision, Outcome, Pentanomial, SprtSettings, SprtStatus, TurnDifferences, TurnsSprtSettings,
    Wdl,
};

/// One game of a pair, as the match counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// A head-to-head game, from NEW's side.
    Game(Outcome),
    /// A solo game: the turns the agent took to reach the target.
    Turns(u32),
}

/// What the match measures and, with a sequential test, when it stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Test {
    /// Head-to-head pairs: Elo, optionally with an SPRT on it.
    Elo(Option<SprtSettings>),
    /// Solo pairs on one seed: turns saved, optionally with a sequential test on them.
    Turns(Option<TurnsSprtSettings>),
}

impl Test {
    pub fn sequential(&self) -> bool {
        matches!(self, Test::Elo(Some(_)) | Test::Turns(Some(_)))
    }
}

/// The counts of a match so far.
#[derive(Clone, Debug)]
pub struct Tally {
    test: Test,
    /// Halves of pairs not yet counted, by cycle: [NEW in seat 0 or NEW alone, the other].
    waiting: BTreeMap<usize, [Option<Half>; 2]>,
    /// Pairs counted (the cycles before this one).
    pairs: usize,
    pub wdl: Wdl,
    pub pentanomial: Pentanomial,
    pub turns: TurnDifferences,
    /// Sums of NEW's and OLD's turns, for their means.
    turn_sums: [u64; 2],
    /// The test's state after the last pair counted.
    pub status: Option<SprtStatus>,
}

impl Tally {
    pub fn new(test: Test) -> Tally {
        Tally {
            test,
            waiting: BTreeMap::new(),
            pairs: 0,
            wdl: Wdl::default(),
            pentanomial: Pentanomial::default(),
            turns: TurnDifferences::default(),
            turn_sums: [0; 2],
            status: None,
        }
    }

    pub fn test(&self) -> Test {
        self.test
    }

    /// Pairs counted so far.
    pub fn pairs(&self) -> usize {
        self.pairs
    }

    /// The test's decision so far (`Continue` without a sequential test).
    pub fn decision(&self) -> Decision {
        self.status.map_or(Decision::Continue, |s| s.decision)
    }

    /// Mean turns of NEW and of OLD over the pairs counted.
    pub fn mean_turns(&self) -> Option<(f64, f64)> {
        let n = self.pairs as f64;
        (self.pairs > 0).then(|| (self.turn_sums[0] as f64 / n, self.turn_sums[1] as f64 / n))
    }

    /// Adds game `slot` (0: NEW in the first seat, or NEW's solo game; 1: the other) of pair
    /// `cycle`, then counts every pair now complete in order, stopping at a decision. Returns the
    /// number of pairs counted once the test has decided (the match ends there), else `None`.
    pub fn add(&mut self, cycle: usize, slot: usize, half: Half) -> Option<usize> {
        if self.decision() != Decision::Continue {
            return Some(self.pairs);
        }
        self.waiting.entry(cycle).or_default()[slot] = Some(half);
        while let Some([Some(first), Some(second)]) = self.waiting.get(&self.pairs).copied() {
            self.waiting.remove(&self.pairs);
            self.count(first, second);
            if self.decision() != Decision::Continue {
                return Some(self.pairs);
            }
        }
        None
    }

    fn count(&mut self, first: Half, second: Half) {
        self.pairs += 1;
        match (first, second) {
            (Half::Game(a), Half::Game(b)) => {
                self.wdl.add(a);
                self.wdl.add(b);
                self.pentanomial.add_pair(a, b);
            }
            (Half::Turns(new), Half::Turns(old)) => {
                self.turns.push(new, old);
                self.turn_sums[0] += u64::from(new);
                self.turn_sums[1] += u64::from(old);
            }
            // The match's mode decides the halves; mixed ones cannot be made.
            _ => unreachable!("a pair of a head-to-head game and a solo game"),
        }
        self.status = match self.test {
            Test::Elo(Some(s)) => Some(s.status(&self.pentanomial)),
            Test::Turns(Some(s)) => Some(s.status(&self.turns)),
            Test::Elo(None) | Test::Turns(None) => None,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    fn elo_test(text: &str) -> Test {
        Test::Elo(Some(text.parse().unwrap()))
    }

    /// Pairs whose halves arrive out of order are counted in cycle order, each once.
    #[test]
    fn pairs_are_counted_in_schedule_order() {
        let mut t = Tally::new(Test::Elo(None));
        assert_eq!(t.add(1, 0, Half::Game(Win)), None);
        assert_eq!(t.add(1, 1, Half::Game(Win)), None);
        assert_eq!(t.pairs(), 0, "pair 1 waits for pair 0");
        assert_eq!(t.add(0, 1, Half::Game(Loss)), None);
        assert_eq!(t.add(0, 0, Half::Game(Draw)), None);
        assert_eq!(t.pairs(), 2);
        assert_eq!(t.pentanomial.counts, [0, 1, 0, 0, 1]);
        assert_eq!(
            t.wdl,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(t.decision(), Decision::Continue);
        assert_eq!(t.status, None);
    }

    /// The decision falls on the same pair whatever order the games end in: the pairs after it
    /// are not counted even when they ended first.
    #[test]
    fn the_test_decides_at_the_same_pair_whatever_the_arrival_order() {
        let games: Vec<(usize, usize, Half)> = (0..200)
            .flat_map(|c| {
                let second = if c % 4 == 3 { Loss } else { Win };
                [(c, 0, Half::Game(Win)), (c, 1, Half::Game(second))]
            })
            .collect();
        let decide = |order: &[(usize, usize, Half)]| {
            let mut t = Tally::new(elo_test("elo0=0,elo1=10"));
            let cut = order.iter().find_map(|&(c, s, h)| t.add(c, s, h));
            (cut, t.pairs(), t.pentanomial, t.decision())
        };
        let in_order = decide(&games);
        assert_eq!(in_order.3, Decision::AcceptH1);
        let pairs = in_order.0.unwrap();
        assert!(pairs > 0 && pairs < 200, "{pairs}");
        let mut reversed_within = games.clone();
        for chunk in reversed_within.chunks_mut(8) {
            chunk.reverse();
        }
        assert_eq!(decide(&reversed_within), in_order);
    }

    /// Pairs worth 2, 1, 2, 3, 1 half-points over and over: a score of 45 %.
    #[test]
    fn an_agent_that_scores_less_is_not_better() {
        let pairs = [
            (Loss, Win),
            (Loss, Draw),
            (Win, Loss),
            (Win, Draw),
            (Draw, Loss),
        ];
        let mut t = Tally::new(elo_test(""));
        let cut = (0..1000).find_map(|c| {
            let (a, b) = pairs[c % 5];
            t.add(c, 0, Half::Game(a));
            t.add(c, 1, Half::Game(b))
        });
        assert_eq!(t.decision(), Decision::AcceptH0);
        assert_eq!(cut, Some(t.pairs()));
        let status = t.status.unwrap();
        assert!(status.llr < status.lower, "{status:?}");
        assert_eq!(t.pentanomial.pairs(), t.pairs() as u64);
        // Once decided, later results change nothing.
        let counts = t.pentanomial;
        assert_eq!(t.add(5000, 0, Half::Game(Win)), cut);
        assert_eq!(t.pentanomial, counts);
    }

    #[test]
    fn solo_pairs_count_turn_differences() {
        let mut t = Tally::new(Test::Turns(Some(TurnsSprtSettings::default())));
        let mut cut = None;
        for c in 0..100 {
            t.add(c, 1, Half::Turns(24));
            cut = t.add(c, 0, Half::Turns(20 + (c % 3) as u32));
            if cut.is_some() {
                break;
            }
        }
        // No decision before the sequential test's 30 seeds; then NEW's 3 turns saved win.
        assert_eq!((cut, t.decision()), (Some(30), Decision::AcceptH1));
        let (new, old) = t.mean_turns().unwrap();
        assert_eq!((new, old), (21.0, 24.0));
        assert_eq!(t.turns.summary().unwrap().mean, -3.0);
    }
}
