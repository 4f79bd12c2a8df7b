//! The match as a watcher of its league: each journaled game goes to the tally as one half of its
//! pair, and the live line shows the tally on the terminal.

use std::io::Write;
use std::time::{Duration, Instant};

use super::report::live_line;
use super::tally::{Half, Tally};
use super::{MatchSettings, Mode};
use crate::league::result::GameResult;
use crate::league::schedule::Schedule;
use crate::league::Watcher;
use crate::stats::Outcome;

/// How often the live line is redrawn at most.
const REDRAW: Duration = Duration::from_millis(100);

pub struct MatchWatcher {
    schedule: Schedule,
    tally: Tally,
    new: String,
    mode: Mode,
    round_cap: u32,
    games_limit: u64,
    live: Option<Instant>,
    shown: bool,
}

impl MatchWatcher {
    /// The watcher of the match `settings`, whose league plays `schedule`.
    pub fn new(schedule: Schedule, settings: &MatchSettings) -> MatchWatcher {
        MatchWatcher {
            schedule,
            tally: Tally::new(settings.test),
            new: settings.new.name.clone(),
            mode: settings.mode,
            round_cap: settings.round_cap,
            games_limit: settings.games,
            live: settings.live.then(|| Instant::now() - REDRAW),
            shown: false,
        }
    }

    pub fn into_tally(self) -> Tally {
        self.tally
    }

    /// Erases the live line, if one is shown.
    pub fn clear_line(&mut self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.shown = false;
        }
    }

    /// Which half of its pair `r` is (0: NEW in the first seat, or NEW alone) and what it counts.
    fn half(&self, r: &GameResult) -> (usize, Half) {
        let slot = usize::from(r.seats.first() != Some(&self.new));
        let half = match self.mode {
            Mode::HeadToHead => Half::Game(match r.outcome.winner() {
                Some(seat) if r.seats.get(seat) == Some(&self.new) => Outcome::Win,
                Some(_) => Outcome::Loss,
                None => Outcome::Draw,
            }),
            Mode::Solo if r.outcome.winner() == Some(0) => Half::Turns(r.turns),
            // The target not reached (the round cap, a forfeit): longer than any game that did.
            Mode::Solo => Half::Turns(self.round_cap.saturating_add(1)),
        };
        (slot, half)
    }
}

impl Watcher for MatchWatcher {
    fn journaled(&mut self, result: &GameResult) -> Option<usize> {
        let (slot, half) = self.half(result);
        let cut = self.tally.add(self.schedule.cycle(result.id), slot, half);
        if let Some(last) = self.live {
            if cut.is_some() || last.elapsed() >= REDRAW {
                self.live = Some(Instant::now());
                let line = live_line(&self.tally, self.games_limit);
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K{line}");
                let _ = err.flush();
                self.shown = true;
            }
        }
        cut
    }
}
