//! The committer and the renewer: results written a quarter of a second at a time, each with its
//! lease check, and leases extended while the games are played (the register told the worker is
//! alive, the database's version checked).

use super::*;

/// Results gathered into one transaction: those that arrive within this time of the first, up to
/// [`COMMIT_BATCH`]. A transaction costs the database far more than a row (its commit is flushed
/// to disk): games of a few milliseconds would otherwise cost a commit each.
pub(super) const COMMIT_EVERY: Duration = Duration::from_millis(250);
pub(super) const COMMIT_BATCH: usize = 256;

/// Writes results as they arrive, those of a quarter of a second in one transaction per table,
/// until every player thread has stopped.
pub(super) async fn commit_loop(shared: Arc<Shared>, mut rx: UnboundedReceiver<Outcome>) {
    let mut batch = Vec::new();
    while rx.recv_many(&mut batch, COMMIT_BATCH).await > 0 {
        let deadline = tokio::time::Instant::now() + COMMIT_EVERY;
        while batch.len() < COMMIT_BATCH {
            let room = COMMIT_BATCH - batch.len();
            match tokio::time::timeout_at(deadline, rx.recv_many(&mut batch, room)).await {
                // The players have stopped: write what is there at once.
                Ok(0) => break,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let mut ladder = Vec::new();
        let mut league = Vec::new();
        for o in batch.drain(..) {
            match o {
                Outcome::Ladder(f) => ladder.push(f),
                Outcome::League(f) => league.push(f),
            }
        }
        let mut counted = 0;
        if !ladder.is_empty() {
            counted +=
                write_with_retries(&shared, "ladder results", || shared.db.finish(&ladder)).await;
        }
        if !league.is_empty() {
            counted += write_with_retries(&shared, "league results", || {
                shared.db.finish_league_games(&league)
            })
            .await;
        }
        shared
            .counters
            .counted
            .fetch_add(counted, Ordering::Relaxed);
        shared
            .counters
            .unreported
            .fetch_add(counted, Ordering::Relaxed);
        // Written (or given up): out of the worker's hands.
        let n = ladder.len() + league.len();
        shared.unwritten.fetch_sub(n, Ordering::SeqCst);
        shared.in_hand.fetch_sub(n, Ordering::SeqCst);
        shared.hungry.notify_one();
    }
}

/// How long a stopping worker keeps trying to write its last results.
pub(super) const LAST_WRITE: Duration = Duration::from_secs(30);

/// Runs `write` until it succeeds; returns the results it counted. A stopping worker gives up
/// after [`LAST_WRITE`]: those games are played again elsewhere once their leases run out.
pub(super) async fn write_with_retries<F, Fut>(shared: &Shared, what: &str, write: F) -> u64
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<Vec<bool>>>,
{
    let mut pause = Duration::from_millis(100);
    let mut stopping_since: Option<Instant> = None;
    let mut warned = false;
    loop {
        let t0 = Instant::now();
        let r = write().await;
        shared
            .counters
            .commit_ns
            .fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
        shared.counters.commits.fetch_add(1, Ordering::Relaxed);
        match r {
            Ok(counted) => {
                if warned {
                    eprintln!("note: {}: the database is back", shared.name);
                }
                return counted.iter().filter(|&&c| c).count() as u64;
            }
            Err(e) => {
                if !warned {
                    let e = shared.db.explain(e).await;
                    eprintln!(
                        "warning: {}: {what} cannot be written, trying again: {e:#}",
                        shared.name
                    );
                    warned = true;
                }
                if shared.stop.load(Ordering::SeqCst) {
                    let since = *stopping_since.get_or_insert_with(Instant::now);
                    if since.elapsed() > LAST_WRITE {
                        eprintln!(
                            "warning: {}: gave up writing {what}: those games are played again \
                             when their leases run out",
                            shared.name
                        );
                        return 0;
                    }
                }
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

/// Every quarter of a lease: extends the worker's leases, tells the register it is alive, and
/// checks that the database is still set up by this arena's version (a server upgraded while
/// workers run stops them, with the reason).
pub(super) async fn renew_loop(shared: Arc<Shared>, lease: Duration) {
    let mut tick = tokio::time::interval(lease / 4);
    let mut warned = false;
    loop {
        tick.tick().await;
        let expires = now_ms() + lease.as_millis() as i64;
        let r = async {
            shared.db.renew(&shared.lease, expires).await?;
            shared.db.renew_league_games(&shared.lease, expires).await?;
            let games = shared.counters.unreported.swap(0, Ordering::Relaxed);
            if let Err(e) = shared
                .db
                .worker_seen(&shared.name, now_ms(), games as i64)
                .await
            {
                shared
                    .counters
                    .unreported
                    .fetch_add(games, Ordering::Relaxed);
                return Err(e);
            }
            shared.db.state(VERSION_KEY).await
        }
        .await;
        match r {
            Ok(theirs) => {
                if warned {
                    eprintln!("note: {}: the database is back", shared.name);
                    warned = false;
                }
                if let Some(why) = version::mismatch(theirs.as_deref()) {
                    *lock(&shared.fatal) = Some(anyhow!("{why}"));
                    shared.stop.store(true, Ordering::SeqCst);
                    shared.ready.notify_all();
                    return;
                }
            }
            Err(e) => {
                if !warned {
                    let e = shared.db.explain(e).await;
                    eprintln!(
                        "warning: {}: cannot renew leases, trying again: {e:#}",
                        shared.name
                    );
                    warned = true;
                }
            }
        }
    }
}
