//! Game pairs: NEW and OLD play two games on one seed with the seats swapped, and the pair is
//! scored as a whole. A pair gives NEW 0, ½, 1, 1½ or 2 points; the pentanomial counts are the
//! number of pairs of each score (fishtest's `results["pentanomial"]`: LL, LD+DL, LW+DD+WL,
//! DW+WD, WW).
//!
//! The estimate from pairs is fishtest's (`stat_util.get_elo` on the five counts): the score a game
//! is the mean of the pair scores / 2, and its standard error is the spread of the pair scores
//! over √pairs. When the seed decides much of a game (the same dice in both games of a pair), the
//! two games of a pair are negatively correlated and the spread of the pair scores is smaller than
//! two independent games' would be, so the interval is narrower than the one from the same games
//! counted singly ([`Wdl::estimate`](super::Wdl::estimate)): that is the saving the pairing brings.
//!
//! fishtest first replaces empty counts by 10⁻³ (`LLRcalc.regularize`); the estimates here do not
//! (it would turn "all pairs won" into a finite Elo of about 1200). The two agree whenever no count
//! is empty. The likelihood ratio ([`super::gsprt`]) does regularize, as fishtest does.

use serde::Serialize;

use super::elo::{EloEstimate, Outcome};
use super::normal::{phi, Z_95};

/// 800/ln 10: normalized Elo per unit of t-value per game (fishtest's `nelo_divided_by_nt`). A
/// normalized Elo is (score − ½)/σ·800/ln 10, σ the standard deviation of a game's score.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The number of pairs of each score: `counts[k]` pairs in which NEW scored k half-points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

/// A normalized Elo difference with its 95 % margin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NormalizedElo {
    pub nelo: f64,
    pub margin: f64,
}

impl Pentanomial {
    pub fn new(counts: [u64; 5]) -> Self {
        Pentanomial { counts }
    }

    /// Counts a pair from NEW's results in its two games.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The same pairs seen from OLD's side.
    pub fn swapped(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// NEW's mean score a game (pair score / 2, so values 0, ¼, ½, ¾, 1) and the variance of that
    /// per-pair mean over the pairs (the population variance, as fishtest's). `None` without pairs.
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let value = |k: usize| k as f64 / 4.0;
        let mu = (0..5)
            .map(|k| self.counts[k] as f64 * value(k))
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|k| self.counts[k] as f64 * (value(k) - mu).powi(2))
            .sum::<f64>()
            / n;
        Some((mu, var))
    }

    /// Score, Elo difference with its 95 % interval and LOS from the pairs (fishtest's
    /// `get_elo`: se = σ_pair/√pairs, LOS = Φ((μ − ½)/se)). `None` without pairs.
    pub fn estimate(&self) -> Option<EloEstimate> {
        let (mu, var) = self.mean_and_variance()?;
        let pairs = self.pairs();
        let se = (var / pairs as f64).sqrt();
        let los = if se > 0.0 {
            Some(phi((mu - 0.5) / se))
        } else if mu > 0.5 {
            Some(1.0)
        } else if mu < 0.5 {
            Some(0.0)
        } else {
            None
        };
        Some(EloEstimate::new(2 * pairs, mu, se, los))
    }

    /// The normalized Elo of the pairs and its 95 % margin, as fishtest shows it for pentanomial
    /// results (`http/template_helpers._nelo_pentanomial_details`): with μ, σ² the mean and
    /// variance of the per-pair mean score, t = (μ − ½)/σ, nElo = t·(800/ln 10)/√2 (σ of one game
    /// is σ·√2), and margin = (800/ln 10)/√2 · z · √(v_t/pairs) with the delta-method variance
    /// v_t = max(1 − t·skewness + ¼t²(excess kurtosis + 2), 0). `None` without pairs or without
    /// spread (every pair scored the same).
    pub fn normalized_elo(&self) -> Option<NormalizedElo> {
        let (mu, var) = self.mean_and_variance()?;
        if var <= 0.0 {
            return None;
        }
        let n = self.pairs() as f64;
        let central_moment = |p: i32| {
            (0..5)
                .map(|k| self.counts[k] as f64 * (k as f64 / 4.0 - mu).powi(p))
                .sum::<f64>()
                / n
        };
        let skewness = central_moment(3) / var.powf(1.5);
        let excess_kurtosis = central_moment(4) / (var * var) - 3.0;
        let t = (mu - 0.5) / var.sqrt();
        let var_t = (1.0 - t * skewness + 0.25 * t * t * (excess_kurtosis + 2.0)).max(0.0);
        let per_t = NELO_PER_T / std::f64::consts::SQRT_2;
        Some(NormalizedElo {
            nelo: per_t * t,
            margin: per_t * Z_95 * (var_t / n).sqrt(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{assert_close, Wdl};

    fn counts(c: [u64; 5]) -> Pentanomial {
        Pentanomial::new(c)
    }

    /// Expected figures: fishtest's `stat_util.get_elo` (returns Elo, the 95 % margin, LOS) run on
    /// these counts, with scipy 1.17. The first two are the pentanomial counts in the self-test of
    /// fishtest's `stat_util.py` (`__main__`); the third is a small match's.
    #[test]
    fn estimates_match_fishtest_get_elo() {
        for (c, elo, margin, los) in [
            (
                [10789, 19328, 33806, 19402, 10543],
                -0.773_577_335_916_542_3,
                1.277_579_895_728_021_8,
                0.117_658_858_032_775_1,
            ),
            (
                [39, 2226, 31451, 2412, 40],
                0.902_981_048_809_024,
                0.662_531_485_981_655_3,
                0.996_222_097_335_420_7,
            ),
            (
                [3, 12, 30, 18, 7],
                34.860_070_287_560_08,
                40.463_205_418_625_96,
                0.956_165_602_435_035_6,
            ),
        ] {
            let e = counts(c).estimate().unwrap();
            assert_eq!(e.games, 2 * counts(c).pairs());
            assert_close("elo", e.elo.unwrap(), elo, 1e-9);
            assert_close("margin", e.margin().unwrap(), margin, 1e-9);
            assert_close("los", e.los.unwrap(), los, 1e-12);
            assert!(e.elo_lower.unwrap() < elo && elo < e.elo_upper.unwrap());
        }
    }

    /// Expected figures: fishtest's `_nelo_pentanomial_details` (http/template_helpers.py) run on
    /// these counts (nelo5, nelo5_delta), with scipy 1.17.
    #[test]
    fn normalized_elo_matches_fishtest() {
        for (c, nelo, margin) in [
            (
                [39, 2226, 31451, 2412, 40],
                3.450_799_606_946_096,
                2.531_239_603_263_877_8,
            ),
            (
                [3, 12, 30, 18, 7],
                50.148_007_206_882_234,
                58.321_818_864_851_18,
            ),
            (
                [10789, 19328, 33806, 19402, 10543],
                -0.951_629_004_472_647_6,
                1.571_622_676_774_360_8,
            ),
        ] {
            let n = counts(c).normalized_elo().unwrap();
            assert_close("nelo", n.nelo, nelo, 1e-9);
            assert_close("margin", n.margin, margin, 1e-9);
        }
    }

    /// 100 pairs without draws: 5 lost both games, 80 split them, 15 won both; that is 110 wins
    /// and 90 losses. Counted as 200 single games the score's standard error is
    /// √(0.55·0.45/200) = 0.03518; from the pairs it is √(0.0475/100) = 0.02179 (pair-mean
    /// variance 0.05·0.55² + 0.8·0.05² + 0.15·0.45²): the split pairs carry little luck.
    #[test]
    fn pairs_that_split_narrow_the_interval() {
        let pairs = counts([5, 0, 80, 0, 15]).estimate().unwrap();
        let games = Wdl {
            wins: 110,
            draws: 0,
            losses: 90,
        }
        .estimate()
        .unwrap();
        assert_close("same score", pairs.score, games.score, 1e-12);
        assert_close(
            "pair se",
            pairs.score_error,
            0.021_794_494_717_703_367,
            1e-12,
        );
        assert_close(
            "game se",
            games.score_error,
            0.035_178_118_198_675_72,
            1e-12,
        );
        assert!(pairs.margin().unwrap() < 0.65 * games.margin().unwrap());
    }

    #[test]
    fn pairs_are_counted_by_new_s_half_points() {
        use Outcome::*;
        let mut p = Pentanomial::default();
        for (first, second) in [
            (Loss, Loss),
            (Loss, Draw),
            (Draw, Loss),
            (Win, Loss),
            (Loss, Win),
            (Draw, Draw),
            (Win, Draw),
            (Win, Win),
        ] {
            p.add_pair(first, second);
        }
        assert_eq!(p.counts, [1, 2, 3, 1, 1]);
        assert_eq!(p.pairs(), 8);
        assert_eq!(p.swapped().counts, [1, 1, 3, 2, 1]);
    }

    #[test]
    fn no_pairs_all_won_and_all_split_give_no_infinities() {
        assert_eq!(Pentanomial::default().estimate(), None);
        assert_eq!(Pentanomial::default().normalized_elo(), None);

        let won = counts([0, 0, 0, 0, 5]).estimate().unwrap();
        assert_eq!(
            (won.score, won.elo, won.elo_lower, won.elo_upper),
            (1.0, None, None, None)
        );
        assert_eq!(won.los, Some(1.0));
        assert_eq!(counts([0, 0, 0, 0, 5]).normalized_elo(), None);
        assert_eq!(counts([5, 0, 0, 0, 0]).estimate().unwrap().los, Some(0.0));

        let split = counts([0, 0, 7, 0, 0]).estimate().unwrap();
        assert_eq!(
            (split.elo, split.margin(), split.los),
            (Some(0.0), Some(0.0), None)
        );
        assert_eq!(counts([0, 0, 7, 0, 0]).normalized_elo(), None);
    }
}
