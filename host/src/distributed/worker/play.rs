//! The player threads: each takes games from the local queue, loads the rules and agents they
//! need (cached), plays a ladder or a league game in the sandbox, and hands the outcome to the
//! committer; a host failure is retried, an agent that cannot be loaded gives its game up.

use super::*;

/// A player thread: plays games from the queue until the worker stops.
pub(super) fn play_loop(shared: &Shared, results: &UnboundedSender<Outcome>) {
    loop {
        let job = {
            let mut q = lock(&shared.queue);
            loop {
                if shared.stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(job) = q.pop_front() {
                    break job;
                }
                q = shared
                    .ready
                    .wait_timeout(q, Duration::from_millis(200))
                    .map_or_else(|p| p.into_inner().0, |(q, _)| q);
            }
        };
        shared.hungry.notify_one();
        match play_with_retries(shared, &job) {
            Ok(o) => {
                shared.counters.played.fetch_add(1, Ordering::Relaxed);
                // Still in hand until the committer has written it.
                shared.unwritten.fetch_add(1, Ordering::SeqCst);
                if results.send(o).is_err() {
                    return;
                }
            }
            Err(e) => {
                shared.counters.failed.fetch_add(1, Ordering::Relaxed);
                give_up(shared, &job, &e);
                shared.in_hand.fetch_sub(1, Ordering::SeqCst);
            }
        }
        shared.hungry.notify_one();
    }
}

/// A game the host could not play: a ladder game is cancelled (as the server's own workers do);
/// a league game is marked failed, which stops its league with the error.
pub(super) fn give_up(shared: &Shared, job: &Job, e: &anyhow::Error) {
    let r = match job {
        Job::Ladder { game, .. } => {
            eprintln!("error: game {} cannot be played: {e:#}", game.id);
            shared.rt.block_on(shared.db.cancel(game.id, &shared.lease))
        }
        Job::League(g) => {
            let text = format!("{e:#}");
            eprintln!(
                "error: game {} of league {} cannot be played: {text}",
                g.game, g.league
            );
            shared
                .rt
                .block_on(shared.db.fail_league_game(*g, &shared.lease, &text))
        }
    };
    if let Err(e) = r {
        eprintln!("warning: {}: {e:#}", shared.name);
    }
}

/// Plays `job`, trying again after a failure of the host (an error or a panic) as a local league
/// does.
pub(super) fn play_with_retries(shared: &Shared, job: &Job) -> anyhow::Result<Outcome> {
    let mut tries = 0;
    loop {
        tries += 1;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play(shared, job)))
            .unwrap_or_else(|_| Err(anyhow!("a player thread panicked")));
        match r {
            Ok(o) => return Ok(o),
            Err(_) if tries <= HOST_RETRIES && !shared.stop.load(Ordering::SeqCst) => {
                std::thread::sleep(RETRY_PAUSE);
            }
            Err(e) => {
                return Err(e.context(format!(
                    "the host could not play it in {tries} tries (worker {}); this is a failure \
                     of the machine or of the arena, not of an agent",
                    shared.name
                )))
            }
        }
    }
}

pub(super) fn play(shared: &Shared, job: &Job) -> anyhow::Result<Outcome> {
    match job {
        Job::Ladder { game, rules } => play_ladder(shared, game, rules),
        Job::League(g) => play_league(shared, *g),
    }
}

/// The engine for `rules` (JSON), made on first use.
pub(super) fn engine_for(shared: &Shared, rules_json: &str) -> anyhow::Result<Arc<Engine>> {
    if let Some(e) = lock(&shared.engines).get(rules_json) {
        return Ok(Arc::clone(e));
    }
    let rules: Rules = serde_json::from_str(rules_json)
        .map_err(|e| anyhow!("unreadable rules in the database: {e}"))?;
    let (engine, at_once) = Engine::for_games_at_once(rules, shared.threads)?;
    if at_once < shared.threads {
        bail!(
            "this machine's address space holds only {at_once} game(s) of these rules at once: \
             run the worker with --threads {at_once}"
        );
    }
    let engine = Arc::new(engine);
    lock(&shared.engines).insert(rules_json.to_owned(), Arc::clone(&engine));
    Ok(engine)
}

/// The agent whose bytes have SHA-256 `code`, loaded into the engine of `rules_json`.
pub(super) fn agent_for(
    shared: &Shared,
    rules_json: &str,
    engine: &Engine,
    name: &str,
    code: &str,
) -> anyhow::Result<Agent> {
    let key = (rules_json.to_owned(), code.to_owned());
    if let Some(a) = lock(&shared.agents).get(&key) {
        return Ok(a.clone());
    }
    let bytes = shared
        .rt
        .block_on(shared.db.code(code))?
        .with_context(|| format!("the database keeps no bytes for agent {name} ({code})"))?;
    let agent = engine
        .load(name, &bytes)
        .with_context(|| format!("agent {name} cannot be loaded"))?;
    lock(&shared.agents).insert(key, agent.clone());
    Ok(agent)
}

pub(super) fn play_ladder(
    shared: &Shared,
    g: &ClaimedGame,
    rules: &str,
) -> anyhow::Result<Outcome> {
    let engine = engine_for(shared, rules)?;
    let mut agents = Vec::with_capacity(g.seats.len());
    let mut names = Vec::with_capacity(g.seats.len());
    for &v in &g.seats {
        let known = lock(&shared.versions).get(&v).cloned();
        let (label, sha) = match known {
            Some(k) => k,
            None => {
                let k = shared.rt.block_on(shared.db.version_file(v))?;
                lock(&shared.versions).insert(v, k.clone());
                k
            }
        };
        agents.push(agent_for(shared, rules, &engine, &label, &sha)?);
        names.push(label);
    }
    let seated: Vec<&Agent> = agents.iter().collect();
    let played = engine.play(&seated, &names, g.seed, g.id as usize, &g.key, "")?;
    let (bytes, compressed) = engine::stored_record(played.record)?;
    let record = Storage::record_name(g.id, compressed);
    let mut result = played.result;
    result.record = record.clone();
    Ok(Outcome::Ladder(Finished {
        id: g.id,
        owner: shared.lease.clone(),
        result: serde_json::to_string(&result)?,
        record,
        record_bytes: Some(bytes),
        remote: true,
        now_ms: now_ms(),
    }))
}

/// League `id` as this worker plays it, read from the database on first use.
pub(super) fn league_state(shared: &Shared, id: i64) -> anyhow::Result<Arc<LeagueState>> {
    if let Some(l) = lock(&shared.leagues).get(&id) {
        return Ok(Arc::clone(l));
    }
    let settings = shared.rt.block_on(shared.db.league_settings(id))?;
    let job: LeagueJob = serde_json::from_str(&settings)
        .map_err(|e| anyhow!("league {id}: unreadable settings in the database: {e}"))?;
    let rules_json = serde_json::to_string(&job.rules)?;
    let engine = engine_for(shared, &rules_json)?;
    if engine.limits_json() != &job.limits {
        bail!(
            "league {id}: this worker's sandbox limits differ from the league's (another arena \
             version?): its records would not be the league's"
        );
    }
    let names: Vec<String> = job.agents.iter().map(|a| a.name.clone()).collect();
    let schedule = Schedule::new(&names, job.rules.players, job.games_per_group, job.seed)?;
    let state = Arc::new(LeagueState {
        job,
        schedule,
        engine,
        names,
    });
    lock(&shared.leagues).insert(id, Arc::clone(&state));
    Ok(state)
}

pub(super) fn play_league(shared: &Shared, g: LeagueGame) -> anyhow::Result<Outcome> {
    let league = league_state(shared, g.league)?;
    let id = usize::try_from(g.game)
        .ok()
        .filter(|&id| id < league.schedule.len())
        .with_context(|| format!("league {} has no game {}", g.league, g.game))?;
    let spec = league.schedule.game(id);
    let rules_json = serde_json::to_string(&league.job.rules)?;
    let mut agents = Vec::with_capacity(spec.seats.len());
    let mut names = Vec::with_capacity(spec.seats.len());
    for &a in &spec.seats {
        let entry = &league.job.agents[a];
        agents.push(agent_for(
            shared,
            &rules_json,
            &league.engine,
            &entry.name,
            &entry.code,
        )?);
        names.push(league.names[a].clone());
    }
    let seated: Vec<&Agent> = agents.iter().collect();
    let (result, record) = play_scheduled(
        &league.engine,
        &seated,
        &names,
        &spec,
        league.job.compress_records_over,
    )?;
    Ok(Outcome::League(LeagueFinished {
        game: g,
        owner: shared.lease.clone(),
        result: serde_json::to_string(&result)?,
        record,
    }))
}

/// Plays game `spec` of a league with `seated` (named `names`) in its seats: its result, naming
/// the record file where the league keeps it, and the file's bytes (compressed when larger than
/// `compress_over`), as a local league writes them. Must run on a thread with
/// [`engine::WORKER_STACK_BYTES`] of stack.
pub(crate) fn play_scheduled(
    engine: &Engine,
    seated: &[&Agent],
    names: &[String],
    spec: &GameSpec,
    compress_over: u64,
) -> anyhow::Result<(GameResult, Vec<u8>)> {
    let played = engine.play(seated, names, spec.seed, spec.id, &spec.key, "")?;
    let (file, bytes) = record_file(spec.id, played.record, compress_over)?;
    let mut result = played.result;
    result.record = format!("{RECORDS_DIR}/{file}");
    Ok((result, bytes))
}
