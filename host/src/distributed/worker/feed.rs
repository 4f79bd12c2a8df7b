//! The main thread's feeder: claims batches sized to about half a second of play whenever the
//! local queue runs low, and gives back what a stopping worker will not play.

use super::*;

/// The main thread's loop: claims a batch whenever the queue runs low, until stopped.
pub(super) fn feed(shared: &Arc<Shared>, opts: &Options, stop: &AtomicBool) {
    let mut rate = RateEstimate::new();
    let mut idle_since: Option<Instant> = None;
    let mut warned = false;
    loop {
        if stop.load(Ordering::SeqCst)
            || shared.stop.load(Ordering::SeqCst)
            || lock(&shared.fatal).is_some()
        {
            return;
        }
        rate.update(shared.counters.played.load(Ordering::Relaxed));
        // The next batch is claimed while half of this one is still queued: the players never
        // wait for a claim's round trip. Not beyond what the worker may hold: when the committer
        // falls behind, the players wait rather than the leases (and the records in memory) pile
        // up.
        let batch = rate.batch(shared.threads);
        let take = {
            let q = lock(&shared.queue);
            let held = shared.in_hand.load(Ordering::SeqCst);
            let unwritten = shared.unwritten.load(Ordering::SeqCst);
            let room = max_in_hand(batch, shared.threads).saturating_sub(held);
            if room < batch.div_ceil(2) || q.len() > batch / 2 {
                let _ = shared
                    .hungry
                    .wait_timeout(q, Duration::from_millis(100))
                    .map(|_| ());
                continue;
            }
            if q.is_empty()
                && held.saturating_sub(unwritten) < shared.threads
                && idle_since.is_none()
            {
                rate.starved(shared.threads);
            }
            batch.min(room)
        };
        let t0 = Instant::now();
        let claimed = claim(shared, take as i64, opts.lease);
        if claimed.as_ref().is_ok_and(|jobs| !jobs.is_empty()) {
            // The queue's cost per game: claims that found nothing (an idle worker looking for
            // games) are no cost of any game.
            shared
                .counters
                .claim_ns
                .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
            shared.counters.claims.fetch_add(1, Ordering::Relaxed);
        }
        let jobs = match claimed {
            Ok(jobs) => {
                warned = false;
                jobs
            }
            Err(e) => {
                if !warned {
                    let e = shared.rt.block_on(shared.db.explain(e));
                    eprintln!(
                        "warning: {}: cannot take games, trying again: {e:#}",
                        shared.name
                    );
                    warned = true;
                }
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        if jobs.is_empty() {
            let idle = *idle_since.get_or_insert_with(Instant::now);
            if opts.drain
                && shared.in_hand.load(Ordering::SeqCst) == 0
                && idle.elapsed() >= IDLE_POLL
            {
                match shared.rt.block_on(shared.db.games_to_play()) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) => eprintln!("warning: {}: {e:#}", shared.name),
                }
            }
            sleep_unless(stop, &shared.stop, IDLE_POLL);
            continue;
        }
        idle_since = None;
        shared.in_hand.fetch_add(jobs.len(), Ordering::SeqCst);
        lock(&shared.queue).extend(jobs);
        shared.ready.notify_all();
    }
}

/// Games played per second lately, to size the batches.
pub(super) struct RateEstimate {
    at: Instant,
    played: u64,
    rate: f64,
    /// The smallest batch: doubled whenever the players ran out of games before a claim.
    floor: usize,
}

impl RateEstimate {
    fn new() -> RateEstimate {
        RateEstimate {
            at: Instant::now(),
            played: 0,
            rate: 0.0,
            floor: 0,
        }
    }

    /// The players ran out of games: batches were too small for how fast games go.
    fn starved(&mut self, threads: usize) {
        self.floor = (self.floor.max(threads) * 2).min(MAX_BATCH);
    }

    fn update(&mut self, played: u64) {
        let secs = self.at.elapsed().as_secs_f64();
        if secs >= 1.0 {
            let now = (played - self.played) as f64 / secs;
            self.rate = if self.rate == 0.0 {
                now
            } else {
                0.5 * self.rate + 0.5 * now
            };
            self.at = Instant::now();
            self.played = played;
        }
    }

    fn batch(&self, threads: usize) -> usize {
        let wanted = ((self.rate * BATCH_TIME.as_secs_f64()) as usize).max(self.floor);
        wanted.clamp(2 * threads, MAX_BATCH.max(2 * threads))
    }
}

/// Claims up to `n` games: ladder games first (people wait for those), then league games.
pub(super) fn claim(shared: &Shared, n: i64, lease: Duration) -> anyhow::Result<Vec<Job>> {
    let db = &shared.db;
    let (now, expires) = (now_ms(), now_ms() + lease.as_millis() as i64);
    shared.rt.block_on(async {
        let mut jobs = Vec::new();
        let ladder = db.claim(&shared.lease, n, now, expires).await?;
        if !ladder.is_empty() {
            let rules = match db.state(LADDER_RULES_KEY).await? {
                Some(r) => r,
                None => {
                    let ids: Vec<i64> = ladder.iter().map(|g| g.id).collect();
                    db.release(&shared.lease, &ids).await?;
                    bail!("the database has ladder games but no ladder rules");
                }
            };
            jobs.extend(ladder.into_iter().map(|game| Job::Ladder {
                game,
                rules: rules.clone(),
            }));
        }
        let left = n - jobs.len() as i64;
        if left > 0 {
            let league = db
                .claim_league_games(&shared.lease, left, now, expires, &version::arena_version())
                .await?;
            jobs.extend(league.into_iter().map(Job::League));
        }
        Ok(jobs)
    })
}

/// Gives games back to the queue.
pub(super) fn release(shared: &Shared, jobs: &[Job]) {
    let ladder: Vec<i64> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::Ladder { game, .. } => Some(game.id),
            Job::League(_) => None,
        })
        .collect();
    let league: Vec<LeagueGame> = jobs
        .iter()
        .filter_map(|j| match j {
            Job::League(g) => Some(*g),
            Job::Ladder { .. } => None,
        })
        .collect();
    let r = shared.rt.block_on(async {
        shared.db.release(&shared.lease, &ladder).await?;
        shared
            .db
            .release_league_games(&shared.lease, &league)
            .await?;
        anyhow::Ok(())
    });
    if let Err(e) = r {
        eprintln!(
            "warning: {}: {} game(s) could not be given back; they are played again when their \
             leases run out: {e:#}",
            shared.name,
            jobs.len()
        );
    }
}
