//! What a match says: its figures and verdict as a value (`--json`), as text for people, and the
//! live line while it runs.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use super::tally::{Tally, Test};
use super::{MatchSettings, Mode, Side};
use crate::game::Game;
use crate::stats::{Decision, DifferenceSummary, EloEstimate, Pentanomial, SprtStatus, Wdl};

/// How a match ended, and its exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The sequential test accepted H1: NEW is better. Exit status 0.
    H1Accepted,
    /// The sequential test accepted H0: NEW is not better. Exit status 1.
    H0Accepted,
    /// The game limit came before the sequential test decided. Exit status 3.
    LimitReached,
    /// No sequential test: the games asked for were played. Exit status 0.
    FixedLength,
}

impl Verdict {
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::H1Accepted | Verdict::FixedLength => 0,
            Verdict::H0Accepted => 1,
            Verdict::LimitReached => 3,
        }
    }
}

/// The sequential test: its settings as `--sprt` reads them, and where its LLR ended.
#[derive(Clone, Debug, Serialize)]
pub struct TestReport {
    pub settings: String,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
}

/// Head to head: the games, the pairs and the Elo difference.
#[derive(Clone, Debug, Serialize)]
pub struct EloReport {
    /// NEW's wins, draws and losses.
    pub games: Wdl,
    /// Pairs by NEW's points in them (0, ½, 1, 1½, 2).
    pub pentanomial: Pentanomial,
    /// The estimate from the pairs (what the match reports).
    pub elo: Option<EloEstimate>,
    /// The estimate from the games as if they were not paired (cutechess-cli's): its wider
    /// interval is what the pairing saves.
    pub elo_unpaired: Option<EloEstimate>,
}

/// Solo: the turns to the target.
#[derive(Clone, Debug, Serialize)]
pub struct TurnsReport {
    pub new_mean: Option<f64>,
    pub old_mean: Option<f64>,
    /// NEW's turns − OLD's, seed by seed (negative: NEW is faster).
    pub difference: Option<DifferenceSummary>,
}

/// Everything `arena match --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    #[serde(with = "crate::games::serde_name")]
    pub game: &'static dyn Game,
    pub mode: Mode,
    pub new: Side,
    pub old: Side,
    pub seed: u64,
    pub games_limit: u64,
    pub games: u64,
    pub pairs: u64,
    pub verdict: Verdict,
    pub exit_code: i32,
    pub sprt: Option<TestReport>,
    pub elo: Option<EloReport>,
    pub turns: Option<TurnsReport>,
    /// The league folder of the match, when kept (`--output`).
    pub output: Option<PathBuf>,
}

impl MatchReport {
    pub fn new(settings: &MatchSettings, tally: &Tally, output: Option<PathBuf>) -> MatchReport {
        let verdict = match (tally.test().sequential(), tally.decision()) {
            (false, _) => Verdict::FixedLength,
            (true, Decision::AcceptH1) => Verdict::H1Accepted,
            (true, Decision::AcceptH0) => Verdict::H0Accepted,
            (true, Decision::Continue) => Verdict::LimitReached,
        };
        let sprt_text = match tally.test() {
            Test::Elo(Some(s)) => Some(s.to_string()),
            Test::Turns(Some(s)) => Some(s.to_string()),
            Test::Elo(None) | Test::Turns(None) => None,
        };
        let sprt = sprt_text.map(|settings| {
            let status = tally.status.unwrap_or_else(|| no_evidence(tally));
            TestReport {
                settings,
                llr: status.llr,
                lower: status.lower,
                upper: status.upper,
            }
        });
        let (elo, turns) = match settings.mode {
            Mode::HeadToHead => (
                Some(EloReport {
                    games: tally.wdl,
                    pentanomial: tally.pentanomial,
                    elo: tally.pentanomial.estimate(),
                    elo_unpaired: tally.wdl.estimate(),
                }),
                None,
            ),
            Mode::Solo => {
                let means = tally.mean_turns();
                (
                    None,
                    Some(TurnsReport {
                        new_mean: means.map(|m| m.0),
                        old_mean: means.map(|m| m.1),
                        difference: tally.turns.summary(),
                    }),
                )
            }
        };
        let pairs = tally.pairs() as u64;
        MatchReport {
            game: settings.game,
            mode: settings.mode,
            new: settings.new.clone(),
            old: settings.old.clone(),
            seed: settings.seed,
            games_limit: settings.games,
            games: 2 * pairs,
            pairs,
            verdict,
            exit_code: verdict.exit_code(),
            sprt,
            elo,
            turns,
            output,
        }
    }

    /// The match for people: what was played, the figures, the verdict.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let how = match self.mode {
            Mode::HeadToHead => "head to head, seat-swapped pairs on shared seeds",
            Mode::Solo => "solo, both on the same seeds",
        };
        let _ = writeln!(
            out,
            "{} (NEW) vs {} (OLD): {}, {how}, seed {}",
            self.new.name,
            self.old.name,
            self.game.title(),
            self.seed
        );
        let _ = writeln!(
            out,
            "{} games ({} pairs) of at most {}",
            self.games, self.pairs, self.games_limit
        );
        if let Some(e) = &self.elo {
            let g = e.games;
            let _ = writeln!(
                out,
                "NEW: {} wins, {} draws, {} losses",
                g.wins, g.draws, g.losses
            );
            let p = e.pentanomial.counts;
            let _ = writeln!(
                out,
                "pairs by NEW's points (0, ½, 1, 1½, 2): {} {} {} {} {}",
                p[0], p[1], p[2], p[3], p[4]
            );
            if let Some(est) = &e.elo {
                let margin = est
                    .margin()
                    .map_or_else(String::new, |m| format!(" ± {m:.1}"));
                let _ = writeln!(
                    out,
                    "score {:.1} %, Elo {}{margin} (95 %: {} to {}), LOS {}",
                    100.0 * est.score,
                    elo_text(est.elo, est.score),
                    elo_text(est.elo_lower, est.score_lower),
                    elo_text(est.elo_upper, est.score_upper),
                    percent(est.los)
                );
            }
            if let Some(m) = e.elo_unpaired.as_ref().and_then(EloEstimate::margin) {
                let _ = writeln!(
                    out,
                    "  (the same games counted one by one, unpaired: Elo ± {m:.1})"
                );
            }
        }
        if let Some(t) = &self.turns {
            if let (Some(new), Some(old)) = (t.new_mean, t.old_mean) {
                let _ = writeln!(out, "mean turns to the target: NEW {new:.2}, OLD {old:.2}");
            }
            if let Some(d) = &t.difference {
                let interval = match (d.lower, d.upper) {
                    (Some(lo), Some(hi)) => format!(" (95 %: {lo:+.2} to {hi:+.2})"),
                    _ => String::new(),
                };
                let _ = writeln!(out, "NEW − OLD: {:+.2} turns a game{interval}", d.mean);
            }
        }
        if let Some(s) = &self.sprt {
            let _ = writeln!(
                out,
                "SPRT {}: LLR {:.2} (bounds {:.2}, {:.2})",
                s.settings, s.llr, s.lower, s.upper
            );
        }
        let verdict = match self.verdict {
            Verdict::H1Accepted => "H1 accepted: NEW is better",
            Verdict::H0Accepted => "H0 accepted: NEW is not better",
            Verdict::LimitReached => "no verdict: the game limit came first (--games)",
            Verdict::FixedLength => "fixed length: no sequential test (--sprt)",
        };
        let _ = writeln!(out, "verdict: {verdict} (exit status {})", self.exit_code);
        if let Some(dir) = &self.output {
            let _ = writeln!(out, "records: {}", dir.display());
        }
        out
    }
}

/// The test's state without any pair: an LLR of 0 between its bounds.
fn no_evidence(tally: &Tally) -> SprtStatus {
    let (alpha, beta) = match tally.test() {
        Test::Elo(Some(s)) => (s.alpha, s.beta),
        Test::Turns(Some(s)) => (s.alpha, s.beta),
        Test::Elo(None) | Test::Turns(None) => (0.05, 0.05),
    };
    SprtStatus::new(0.0, alpha, beta)
}

/// An Elo difference, or the infinity its score (all lost, all won) stands for.
fn elo_text(elo: Option<f64>, score: f64) -> String {
    match elo {
        // + 0.0: no "-0.0" for a score of exactly ½.
        Some(v) => format!("{:+.1}", v + 0.0),
        None if score >= 0.5 => "+∞".to_owned(),
        None => "-∞".to_owned(),
    }
}

fn percent(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_owned(), |v| format!("{:.1} %", 100.0 * v))
}

/// The live line: games so far, the estimate, and the test's LLR against its bounds. Short enough
/// for an 80-column terminal.
pub fn live_line(tally: &Tally, games_limit: u64) -> String {
    let mut line = format!("games {}/{games_limit}", 2 * tally.pairs());
    match tally.test() {
        Test::Elo(_) => {
            if let Some(e) = tally.pentanomial.estimate() {
                let margin = e
                    .margin()
                    .map_or_else(|| "∞".to_owned(), |m| format!("{m:.1}"));
                let _ = write!(
                    line,
                    "  score {:.1}%  Elo {} ±{margin}",
                    100.0 * e.score,
                    elo_text(e.elo, e.score)
                );
            }
        }
        Test::Turns(_) => {
            if let Some(d) = tally.turns.summary() {
                let _ = write!(line, "  NEW−OLD {:+.2} turns", d.mean);
                if let (Some(lo), Some(hi)) = (d.lower, d.upper) {
                    let _ = write!(line, " ±{:.2}", (hi - lo) / 2.0);
                }
            }
        }
    }
    if let Some(s) = tally.status {
        let _ = write!(line, "  LLR {:.2} ({:.2}, {:.2})", s.llr, s.lower, s.upper);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchup::tally::Half;
    use crate::stats::{Outcome, SprtSettings};

    #[test]
    fn exit_statuses_follow_the_verdict() {
        assert_eq!(Verdict::H1Accepted.exit_code(), 0);
        assert_eq!(Verdict::H0Accepted.exit_code(), 1);
        assert_eq!(Verdict::LimitReached.exit_code(), 3);
        assert_eq!(Verdict::FixedLength.exit_code(), 0);
    }

    #[test]
    fn the_live_line_shows_the_games_the_estimate_and_the_llr() {
        let mut t = Tally::new(Test::Elo(Some(SprtSettings::default())));
        assert_eq!(live_line(&t, 100), "games 0/100");
        t.add(0, 0, Half::Game(Outcome::Win));
        t.add(0, 1, Half::Game(Outcome::Draw));
        t.add(1, 0, Half::Game(Outcome::Loss));
        t.add(1, 1, Half::Game(Outcome::Draw));
        let line = live_line(&t, 100);
        assert!(
            line.starts_with("games 4/100  score 50.0%  Elo +0.0 ±"),
            "{line}"
        );
        assert!(
            line.contains("LLR ") && line.ends_with("(-2.94, 2.94)"),
            "{line}"
        );
        assert!(line.chars().count() < 80, "{line}");
    }
}
