//! Progress while a league runs: a bar with games/s and ETA on a terminal, plain lines otherwise
//! (CI logs, files), at most one every few seconds.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

pub enum Progress {
    Bar(ProgressBar),
    Lines {
        total: u64,
        done: u64,
        started: Instant,
        last: Instant,
        base: u64,
    },
    Quiet,
}

impl Progress {
    /// `already` games were finished by an earlier run of the same league.
    pub fn new(total: u64, already: u64, quiet: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_position(already);
            bar.reset_eta();
            Progress::Bar(bar)
        } else {
            let now = Instant::now();
            eprintln!(
                "league: {already}/{total} games already played, {} to play",
                total - already
            );
            Progress::Lines {
                total,
                done: already,
                started: now,
                last: now,
                base: already,
            }
        }
    }

    pub fn game_done(&mut self) {
        match self {
            Progress::Bar(bar) => bar.inc(1),
            Progress::Lines {
                total,
                done,
                started,
                last,
                base,
            } => {
                *done += 1;
                if last.elapsed() >= Duration::from_secs(5) || *done == *total {
                    *last = Instant::now();
                    let secs = started.elapsed().as_secs_f64().max(1e-9);
                    let rate = (*done - *base) as f64 / secs;
                    let eta = if rate > 0.0 {
                        (*total - *done) as f64 / rate
                    } else {
                        0.0
                    };
                    eprintln!("league: {done}/{total} games, {rate:.1} games/s, ETA {eta:.0} s");
                }
            }
            Progress::Quiet => {}
        }
    }

    pub fn finish(&mut self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}
