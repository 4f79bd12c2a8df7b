//! The logistic Elo scale, and the Elo difference of NEW over OLD from single games (wins, draws
//! and losses) with cutechess-cli's formulas (`projects/lib/src/elo.cpp`, class `Elo`).
//!
//! With n games, w = wins/n, d = draws/n, l = losses/n:
//! - score μ = w + d/2 (points a game, a draw half a point);
//! - Elo difference = −400·log₁₀(1/μ − 1), the logistic model's inverse (μ = 1/(1 + 10^(−Elo/400)));
//! - standard error of μ: √(w(1−μ)² + d(½−μ)² + l(0−μ)²)/√n (the per-game spread of the points,
//!   over √n);
//! - 95 % interval: the Elo of μ ∓ z·se, z = Φ⁻¹(0.975); cutechess prints "Elo ± margin" with margin
//!   half the interval's width (the interval itself is not symmetric in Elo);
//! - likelihood of superiority: LOS = ½ + ½·erf((W − L)/√(2(W + L))) with W, L the counts (the
//!   normal approximation of the chance that NEW is the stronger, from the decisive games only;
//!   cutechess prints it in percent, here it is a probability).

use serde::Serialize;

use super::normal::{erf, Z_95};

/// The expected score of a player `elo` points stronger: 1/(1 + 10^(−elo/400)).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference whose expected score is `score`: −400·log₁₀(1/score − 1). `None` when the
/// score is not strictly between 0 and 1 (all lost or all won: the difference is infinite).
pub fn score_to_elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// NEW's result in one game against OLD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// NEW's points in half-points: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        }
    }
}

/// An Elo difference of NEW over OLD with its 95 % interval. Every figure is finite: what would be
/// infinite is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Games behind the estimate (twice the pairs for an estimate from pairs).
    pub games: u64,
    /// NEW's mean points a game, in [0, 1].
    pub score: f64,
    /// The standard error of `score`.
    pub score_error: f64,
    /// The 95 % interval of the score, μ ∓ z·se clipped to [0, 1].
    pub score_lower: f64,
    pub score_upper: f64,
    /// The Elo difference NEW − OLD; `None` when the score is 0 or 1.
    pub elo: Option<f64>,
    /// The interval's ends in Elo; an end is `None` when its score is 0 or 1 (that end is
    /// unbounded: −∞ at score 0, +∞ at score 1).
    pub elo_lower: Option<f64>,
    pub elo_upper: Option<f64>,
    /// The likelihood of superiority: the probability that NEW is the stronger, in [0, 1]. `None`
    /// when the data say nothing either way (no decisive game, or no spread with an even score).
    pub los: Option<f64>,
}

impl EloEstimate {
    /// The estimate of a mean score `score` with standard error `score_error` over `games` games.
    pub(crate) fn new(games: u64, score: f64, score_error: f64, los: Option<f64>) -> Self {
        let score_lower = (score - Z_95 * score_error).max(0.0);
        let score_upper = (score + Z_95 * score_error).min(1.0);
        EloEstimate {
            games,
            score,
            score_error,
            score_lower,
            score_upper,
            elo: score_to_elo(score),
            elo_lower: score_to_elo(score_lower),
            elo_upper: score_to_elo(score_upper),
            los,
        }
    }

    /// cutechess's "±": half the width of the interval in Elo; `None` when an end is unbounded.
    pub fn margin(&self) -> Option<f64> {
        Some((self.elo_upper? - self.elo_lower?) / 2.0)
    }
}

/// Game results of NEW against OLD.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// The same games seen from OLD's side.
    pub fn swapped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Score, Elo difference with its 95 % interval and LOS, by cutechess-cli's formulas (module
    /// docs). `None` without games.
    pub fn estimate(&self) -> Option<EloEstimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let (w, d, l) = (
            self.wins as f64 / nf,
            self.draws as f64 / nf,
            self.losses as f64 / nf,
        );
        let mu = w + d / 2.0;
        let spread = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
        Some(EloEstimate::new(
            n,
            mu,
            spread.sqrt() / nf.sqrt(),
            self.los(),
        ))
    }

    /// cutechess's LOS, ½ + ½·erf((W − L)/√(2(W + L))); `None` without a decisive game.
    pub fn los(&self) -> Option<f64> {
        let decisive = self.wins + self.losses;
        if decisive == 0 {
            return None;
        }
        let lead = self.wins as f64 - self.losses as f64;
        Some(0.5 + 0.5 * erf(lead / (2.0 * decisive as f64).sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::assert_close;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn the_logistic_scale_matches_its_definition() {
        // 1/(1 + 10^(−100/400)), and 400 Elo is odds of 10 to 1.
        assert_close(
            "L(100)",
            elo_to_score(100.0),
            0.640_064_999_802_885_1,
            1e-15,
        );
        assert_close("L(-400)", elo_to_score(-400.0), 1.0 / 11.0, 1e-15);
        assert_close(
            "Linv(1/11)",
            score_to_elo(1.0 / 11.0).unwrap(),
            -400.0,
            1e-9,
        );
        assert_eq!(score_to_elo(0.5), Some(0.0));
        for score in [0.0, 1.0, -0.1, 1.1, f64::NAN] {
            assert_eq!(score_to_elo(score), None, "score {score}");
        }
    }

    /// `e` has cutechess's figures: score, its standard error, Elo, the interval's lower and upper
    /// ends, the margin and the LOS.
    fn assert_cutechess_figures(
        e: &EloEstimate,
        [score, se, elo, lower, upper, margin, los]: [f64; 7],
    ) {
        assert_close("score", e.score, score, 1e-12);
        assert_close("se", e.score_error, se, 1e-12);
        assert_close("elo", e.elo.unwrap(), elo, 1e-9);
        assert_close("lower", e.elo_lower.unwrap(), lower, 1e-9);
        assert_close("upper", e.elo_upper.unwrap(), upper, 1e-9);
        assert_close("margin", e.margin().unwrap(), margin, 1e-9);
        assert_close("los", e.los.unwrap(), los, 1e-12);
    }

    /// Expected figures: elo.cpp's formulas (Elo::Elo, diff, errorMargin, LOS) followed in a
    /// Python transcription with z = scipy.stats.norm.ppf(0.975). cutechess-cli itself, with its
    /// approximate z of 1.95716, prints the margin as 66.588 here and 15.354 below.
    #[test]
    fn cutechess_figures_for_55_wins_10_draws_35_losses() {
        let e = wdl(55, 10, 35).estimate().unwrap();
        assert_eq!(e.games, 100);
        assert_cutechess_figures(
            &e,
            [
                0.6,
                0.046_368_092_477_478_515,
                70.436_503_622_272_54,
                6.338_073_089_889_344_5,
                139.710_036_596_857_07,
                66.685_981_753_483_86,
                0.982_492_509_490_168_8,
            ],
        );
    }

    #[test]
    fn cutechess_figures_for_324_wins_491_draws_185_losses() {
        let e = wdl(324, 491, 185).estimate().unwrap();
        assert_cutechess_figures(
            &e,
            [
                0.5695,
                0.011_064_345_891_194_835,
                48.608_229_050_178_27,
                33.326_602_654_741_13,
                64.079_150_721_225_05,
                15.376_274_033_241_959,
                0.999_999_999_638_717_2,
            ],
        );
    }

    /// 9 wins, 1 loss: the interval's upper score, 0.9 + 1.96·0.0949, passes 1, where cutechess
    /// prints nan; here the upper end is unbounded and the lower one still given.
    #[test]
    fn an_interval_reaching_a_score_of_one_is_unbounded_above() {
        let e = wdl(9, 0, 1).estimate().unwrap();
        assert_close("elo", e.elo.unwrap(), 381.697_003_775_729_85, 1e-9);
        assert_close("lower", e.elo_lower.unwrap(), 158.985_185_072_510_32, 1e-9);
        assert_eq!((e.score_upper, e.elo_upper, e.margin()), (1.0, None, None));
        assert_close("los", e.los.unwrap(), 0.994_293_981_806_999_1, 1e-12);
    }

    #[test]
    fn all_wins_all_losses_all_draws_and_no_games_give_no_infinities() {
        let wins = wdl(10, 0, 0).estimate().unwrap();
        assert_eq!(
            (wins.score, wins.elo, wins.elo_lower, wins.elo_upper),
            (1.0, None, None, None)
        );
        assert_eq!((wins.score_lower, wins.score_upper), (1.0, 1.0));
        // ½ + ½·erf(10/√20)
        assert_close("los", wins.los.unwrap(), 0.999_217_298_870_998_7, 1e-12);

        let losses = wdl(0, 0, 10).estimate().unwrap();
        assert_eq!(
            (losses.score, losses.elo, losses.margin()),
            (0.0, None, None)
        );
        assert_close(
            "los",
            losses.los.unwrap(),
            0.000_782_701_129_001_250_9,
            1e-12,
        );

        // No spread: a zero-width interval at 0, and no LOS (no decisive game).
        let draws = wdl(0, 10, 0).estimate().unwrap();
        assert_eq!(
            (draws.elo, draws.elo_lower, draws.elo_upper),
            (Some(0.0), Some(0.0), Some(0.0))
        );
        assert_eq!((draws.margin(), draws.los), (Some(0.0), None));

        assert_eq!(Wdl::default().estimate(), None);
    }

    #[test]
    fn outcomes_are_counted_from_new_s_side() {
        let mut counts = Wdl::default();
        for outcome in [Outcome::Win, Outcome::Win, Outcome::Draw, Outcome::Loss] {
            counts.add(outcome);
        }
        assert_eq!(counts, wdl(2, 1, 1));
        assert_eq!(counts.swapped(), wdl(1, 1, 2));
    }
}
