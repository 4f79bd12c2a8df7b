//! Double play: a sample of a league's games played twice, by workers of two names, and the two
//! records compared byte for byte.
//!
//! A worker holds the database's password. For a game it was given it could write a record of
//! other answers than its agents give, with their hashes and the digests put right: such a record
//! verifies, and the collector's checks (`crate::audit::check_record`) accept it. Games are
//! deterministic, so the same game played by another machine gives the same bytes. The collector
//! chooses a fraction `double_play` of the games at random *after* their result is in (the
//! worker that played one cannot know it will be checked) and sends each back to the queue with
//! its first play kept aside; a worker of another name plays it again (or any worker, when no
//! worker of another name is heard of, or after `queue::CHECK_WAIT_MS` without one), and the two
//! records must be the same bytes.
//! When they differ, the collector plays the game itself with the league's agents (the arbiter),
//! journals its own play, and names the worker whose record is not it.

use std::sync::Arc;

use anyhow::Context;
use rand_core::{RngCore, SeedableRng};

use super::worker::{play_scheduled, LeagueJob};
use crate::jobs::league_queue::{Collected, FirstPlay};
use crate::jobs::lease::LeaseOwner;
use crate::league::result::GameResult;
use crate::league::schedule::Schedule;
use crate::referee::{self as engine, Agent, Engine};

/// The collector's side of double play.
pub struct DoublePlay<'a> {
    fraction: f64,
    rng: rand_chacha::ChaCha20Rng,
    job: &'a LeagueJob,
    /// The agents' bytes, by SHA-256.
    code: &'a [(String, Vec<u8>)],
    schedule: &'a Schedule,
    /// Made the first time two plays differ.
    arbiter: Option<Arc<(Engine, Vec<Agent>)>>,
    pub counts: Counts,
}

/// What double play did in a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games sent to be played again.
    pub sent: usize,
    /// Games played twice with the same record, by workers of two names.
    pub same: usize,
    /// Of those, by the same name (no other worker came in time).
    pub same_name: usize,
    /// Games whose two plays differed (the arbiter decided).
    pub differed: usize,
}

/// How a game played twice is settled.
pub enum Settled {
    /// The same record twice: the second play is journaled.
    Same,
    /// The records differ; the arbiter's play (result and record file) is journaled, and the
    /// workers whose record is not it are named.
    Decided {
        result: Box<GameResult>,
        record: Vec<u8>,
        wrong: Vec<String>,
    },
    /// The records differ and the arbiter could not play the game: why.
    Undecided(String),
}

impl<'a> DoublePlay<'a> {
    pub fn new(
        fraction: f64,
        job: &'a LeagueJob,
        code: &'a [(String, Vec<u8>)],
        schedule: &'a Schedule,
    ) -> anyhow::Result<DoublePlay<'a>> {
        use sha2::Digest;
        let token = crate::jobs::new_token()?;
        let seed: [u8; 32] = sha2::Sha256::digest(token.as_bytes()).into();
        Ok(DoublePlay {
            fraction,
            rng: rand_chacha::ChaCha20Rng::from_seed(seed),
            job,
            code,
            schedule,
            arbiter: None,
            counts: Counts::default(),
        })
    }

    /// Whether a game whose result just came in (and passed the checks) is to be played again.
    pub fn choose(&mut self) -> bool {
        let draw = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let chosen = draw < self.fraction;
        self.counts.sent += usize::from(chosen);
        chosen
    }

    /// Settles the second play `item` of a game whose first play was `first`.
    pub fn settle(&mut self, item: &Collected, first: &FirstPlay) -> Settled {
        let second = LeaseOwner::name_of(&item.played_by);
        if item.result == first.result && item.record == first.record {
            self.counts.same += 1;
            self.counts.same_name += usize::from(second == first.by);
            return Settled::Same;
        }
        self.counts.differed += 1;
        let Ok(id) = usize::try_from(item.game) else {
            return Settled::Undecided(format!("the league has no game {}", item.game));
        };
        let (result, record) = match self.arbitrate(id) {
            Ok(played) => played,
            Err(e) => return Settled::Undecided(format!("{e:#}")),
        };
        let json = match serde_json::to_string(&result) {
            Ok(j) => j,
            Err(e) => return Settled::Undecided(e.to_string()),
        };
        let mut wrong = Vec::new();
        if first.result != json || first.record != record {
            wrong.push(first.by.clone());
        }
        if item.result != json || item.record != record {
            wrong.push(item.played_by.clone());
        }
        Settled::Decided {
            result: Box::new(result),
            record,
            wrong,
        }
    }

    /// Plays game `id` here with the league's agents, as a worker does.
    fn arbitrate(&mut self, id: usize) -> anyhow::Result<(GameResult, Vec<u8>)> {
        anyhow::ensure!(id < self.schedule.len(), "the league has no game {id}");
        let arbiter = match &self.arbiter {
            Some(a) => Arc::clone(a),
            None => {
                let engine = Engine::new(self.job.rules.clone())?;
                anyhow::ensure!(
                    engine.limits_json() == &self.job.limits,
                    "this arena's sandbox limits are not the league's"
                );
                let agents = self
                    .job
                    .agents
                    .iter()
                    .map(|a| {
                        let bytes = self
                            .code
                            .iter()
                            .find(|(sha, _)| *sha == a.code)
                            .map(|(_, b)| b)
                            .with_context(|| format!("no bytes for agent {}", a.name))?;
                        engine.load(&a.name, bytes)
                    })
                    .collect::<anyhow::Result<Vec<Agent>>>()?;
                let a = Arc::new((engine, agents));
                self.arbiter = Some(Arc::clone(&a));
                a
            }
        };
        let spec = self.schedule.game(id);
        let names: Vec<String> = spec
            .seats
            .iter()
            .map(|&a| self.job.agents[a].name.clone())
            .collect();
        let compress_over = self.job.compress_records_over;
        std::thread::Builder::new()
            .name("arena-arbiter".into())
            .stack_size(engine::WORKER_STACK_BYTES)
            .spawn(move || {
                let (engine, agents) = &*arbiter;
                let seated: Vec<&Agent> = spec.seats.iter().map(|&a| &agents[a]).collect();
                play_scheduled(engine, &seated, &names, &spec, compress_over)
            })
            .context("cannot start a thread")?
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("playing the game panicked")))
    }
}

impl Counts {
    /// One line for the end of the league, if anything was played twice.
    pub fn line(&self) -> Option<String> {
        if self.sent == 0 && self.same == 0 && self.differed == 0 {
            return None;
        }
        let mut s = format!(
            "double play: {} game{} played twice and compared, {} the same record",
            self.same + self.differed,
            if self.same + self.differed == 1 {
                ""
            } else {
                "s"
            },
            self.same
        );
        if self.same_name > 0 {
            s.push_str(&format!(
                " ({} by one worker name twice: no worker of another name was there to take them)",
                self.same_name
            ));
        }
        if self.differed > 0 {
            s.push_str(&format!(
                ", {} different (decided by playing them here; see the warnings)",
                self.differed
            ));
        }
        Some(s)
    }
}
