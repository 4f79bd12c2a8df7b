//! `arena serve`: a challenge on the web. Contestants upload agents (web page, `arena submit`, or
//! plain HTTP); each upload is checked at once as `arena check` does; accepted versions play a
//! live ladder on worker threads in this process; at the deadline a final round-robin is played
//! with the league engine. docs/SERVER.md describes the API, the pages, the data folder and the
//! deployment.
//!
//! The parts: [`config`] (the challenge file), [`db`] (SQLite or PostgreSQL, versioned
//! migrations), [`auth`] (tokens, sessions, CSRF), [`engine`] (the only door into games, checks
//! and leagues), [`uploads`] (taking and keeping an upload) and [`checks`] (checking it, fairly),
//! [`ladder`] (what to play next, the ratings), [`workers`] (threads that play games, and the
//! results of workers on other machines: `crate::distributed`), [`final_round`] (the deadline and
//! the final), [`events`] (server-sent events), [`http`] (connections and their limits), [`api`]
//! and [`pages`] (HTTP), [`cache`] (pages rendered once per change), [`admin`] (the host's
//! commands), [`submit`] (the client) and [`test_runs`] (the editor's Test: games against chosen
//! opponents, no version made). Agents by content hash and records are kept by
//! [`crate::jobs::storage`].

pub mod admin;
pub mod api;
pub mod auth;
pub mod build;
pub mod cache;
pub mod checks;
pub mod config;
pub mod db;
pub mod download;
pub mod engine;
pub mod events;
pub mod final_round;
pub mod html;
pub mod http;
pub mod ladder;
pub mod pages;
pub mod sources;
pub mod submit;
pub mod test_runs;
pub mod uploads;
pub mod workers;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use tokio::sync::{Notify, Semaphore};

use crate::jobs::db::Db;
use crate::jobs::now_ms;
use crate::jobs::storage::Storage;
use crate::referee::{Engine, Rules};
use config::Challenge;
use events::Events;
use ladder::Board;

/// Everything the server's tasks and threads share.
pub struct App {
    pub challenge: Challenge,
    pub db: Db,
    pub storage: Storage,
    pub engine: Engine,
    pub secret: Vec<u8>,
    pub events: Events,
    pub board: Board,
    /// Upload checks: a fair queue, at most `uploads.checks_at_once` at once.
    pub checks: checks::Checks,
    /// Room for upload bodies being received, in KiB (`server.upload_buffer_mib`).
    pub upload_buffer: Arc<Semaphore>,
    /// Public pages, rendered once per change.
    pub pages: cache::Rendered,
    /// The agents the ladder's workers have loaded.
    pub agents: std::sync::Mutex<workers::AgentCache>,
    /// Failed guesses of the invite code.
    pub invite_guesses: auth::Throttle,
    /// Wakes the scheduler (a version was accepted, games were counted).
    pub schedule: Notify,
    /// Wakes idle workers (games were scheduled).
    pub work: Notify,
    /// Set when the final starts: workers stop taking ladder games.
    pub final_started: AtomicBool,
    /// Set when the server stops.
    pub stopping: AtomicBool,
    /// The server's own executable, offered at `/download/arena` (`None`: it could not be read).
    pub executable: Option<download::Executable>,
    /// The toolchains that build Python and JavaScript uploads, found at the start.
    pub builds: build::Builds,
    /// Test runs: their hourly limit and their games' records.
    pub tests: test_runs::Tests,
}

impl App {
    /// Opens the data folder and the database (SQLite in the data folder, or the challenge's
    /// PostgreSQL database) and loads the ladder.
    pub async fn open(challenge: Challenge) -> anyhow::Result<Arc<App>> {
        let storage = Storage::open(&challenge.data)?;
        let db = match &challenge.database {
            Some(url) => Db::open_shared(url).await?,
            None => Db::open_sqlite(storage.root()).await?,
        };
        App::with_db(challenge, storage, db).await
    }

    pub async fn with_db(
        challenge: Challenge,
        storage: Storage,
        db: Db,
    ) -> anyhow::Result<Arc<App>> {
        let engine = Engine::with_compile_deadline(
            Rules {
                game: challenge.game,
                settings: challenge.settings.clone(),
                players: challenge.players_per_game,
                round_cap: challenge.round_cap,
                policy: challenge.fault_policy,
                budgets: challenge.budgets.clone(),
            },
            challenge.uploads.compile_cpu_ms,
        )?;
        let secret = storage.secret()?;
        let past_deadline = challenge.deadline_ms.is_some_and(|d| now_ms() >= d);
        let executable = match download::Executable::current() {
            Ok(exe) => Some(exe),
            Err(e) => {
                eprintln!("warning: /download/arena is not offered: {e:#}");
                None
            }
        };
        let builds = {
            let (limits, game) = (challenge.uploads.build.clone(), challenge.game);
            let root = storage.root().to_path_buf();
            tokio::task::spawn_blocking(move || build::Builds::find(&limits, game, &root))
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?
        };
        let app = Arc::new(App {
            checks: checks::Checks::new(challenge.uploads.checks_at_once),
            upload_buffer: Arc::new(Semaphore::new(
                usize::try_from(challenge.server.upload_buffer_bytes >> 10)
                    .unwrap_or(Semaphore::MAX_PERMITS)
                    .min(Semaphore::MAX_PERMITS),
            )),
            pages: cache::Rendered::default(),
            agents: std::sync::Mutex::new(workers::AgentCache::new(workers::AGENT_CACHE)),
            invite_guesses: auth::Throttle::new(auth::INVITE_GUESSES_PER_MINUTE),
            board: Board::new(engine::measure(challenge.players_per_game)),
            challenge,
            db,
            storage,
            engine,
            secret,
            events: Events::default(),
            schedule: Notify::new(),
            work: Notify::new(),
            final_started: AtomicBool::new(past_deadline),
            stopping: AtomicBool::new(false),
            executable,
            builds,
            tests: test_runs::Tests::default(),
        });
        app.board.reload(&app.db).await?;
        if app.db.shared() {
            app.share().await?;
        }
        Ok(app)
    }

    /// What workers on other machines need from a shared database: this arena's version (they
    /// play for no other), the ladder's rules, and the bytes of every accepted upload (those
    /// accepted before the database was shared are copied from the data folder).
    async fn share(&self) -> anyhow::Result<()> {
        crate::distributed::version::stamp(&self.db).await?;
        let rules = serde_json::to_string(self.engine.rules())?;
        self.db
            .set_state(crate::distributed::worker::LADDER_RULES_KEY, &rules)
            .await?;
        for sha in self.db.uploads_without_code().await? {
            let bytes = self.storage.agent(&sha)?;
            self.db.put_code(&sha, &bytes).await?;
        }
        Ok(())
    }

    /// A finished ladder game's stored record: from the database when it keeps records (a
    /// shared one), else from the data folder.
    pub async fn record_bytes(&self, id: i64, name: &str) -> anyhow::Result<Vec<u8>> {
        if self.db.shared() {
            if let Some(bytes) = self.db.game_record(id).await? {
                return Ok(bytes);
            }
        }
        let storage = self.storage.clone();
        let name = name.to_owned();
        tokio::task::spawn_blocking(move || storage.record(&name))
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?
    }

    /// Whether uploads are taken now, and if not why.
    pub async fn submissions_closed(&self) -> anyhow::Result<Option<&'static str>> {
        if self.challenge.deadline_ms.is_some_and(|d| now_ms() >= d) {
            return Ok(Some("the deadline has passed: submissions are closed"));
        }
        if self.db.state(admin::FROZEN).await?.as_deref() == Some("1") {
            return Ok(Some("submissions are frozen by the host"));
        }
        Ok(None)
    }
}

/// Runs the server until Ctrl-C or SIGTERM: the HTTP listener, the scheduler, the workers, the
/// result writer and the deadline watch. `ready` is called with the address once it listens.
pub async fn serve(challenge: Challenge, ready: impl FnOnce(SocketAddr)) -> anyhow::Result<()> {
    let listen = challenge.listen;
    let app = App::open(challenge).await?;
    let requeued = app.db.requeue(true, now_ms()).await?;
    if requeued > 0 {
        eprintln!("{requeued} game(s) left unfinished by the last run are scheduled again");
    }
    clean_up(&app).await?;
    for line in app.builds.describe() {
        eprintln!("{line}");
    }
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen on {listen}"))?;
    let addr = listener.local_addr()?;

    let (results_tx, results_rx) = tokio::sync::mpsc::unbounded_channel();
    let threads = workers::start(&app, tokio::runtime::Handle::current(), results_tx)?;
    tokio::spawn(workers::write_results(Arc::clone(&app), results_rx));
    if app.db.shared() {
        tokio::spawn(workers::count_remote_results(Arc::clone(&app)));
    }
    tokio::spawn(ladder::schedule_loop(Arc::clone(&app)));
    tokio::spawn(ladder::ratings_loop(Arc::clone(&app)));
    tokio::spawn(final_round::watch(Arc::clone(&app)));
    tokio::spawn(watch_admin(Arc::clone(&app)));
    let resumed = checks::resume(&app).await?;
    if resumed > 0 {
        eprintln!("{resumed} upload(s) left unchecked by the last run are checked again");
    }

    let router = api::router(Arc::clone(&app)).merge(pages::router(Arc::clone(&app)));
    let router = api::layers(router);
    ready(addr);
    let stopping = Arc::clone(&app);
    http::serve(listener, router, &app.challenge.server, async move {
        shutdown_signal().await;
        stopping.stopping.store(true, Ordering::SeqCst);
        stopping.events.stop();
    })
    .await;
    app.work.notify_waiters();
    for t in threads {
        let _ = tokio::task::spawn_blocking(move || t.join()).await;
    }
    app.db.close().await;
    Ok(())
}

/// What a run killed at any moment leaves behind, removed before serving: temporary files of
/// writes it did not finish, and the records of games cancelled while they were being played
/// (their versions were replaced: the records would never be served).
async fn clean_up(app: &App) -> anyhow::Result<()> {
    let cancelled = app.db.cancelled_games().await?;
    let storage = app.storage.clone();
    let (temporary, records) = tokio::task::spawn_blocking(move || {
        let temporary = storage.remove_temporary_files()?;
        let mut records = 0;
        for id in cancelled {
            records += storage.remove_record(id)?;
        }
        anyhow::Ok((temporary, records))
    })
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))??;
    if temporary + records > 0 {
        eprintln!(
            "removed {temporary} unfinished temporary file(s) and {records} record(s) of \
             cancelled games"
        );
    }
    Ok(())
}

/// Notices the host's commands (`arena serve admin ...`, run in another process): every two
/// seconds, whether [`admin::CHANGED`] changed; if so the leaderboard is read again (a contestant
/// renamed, taken out or back), the workers drop their loaded agents, and pages are rendered
/// again (a freeze).
async fn watch_admin(app: Arc<App>) {
    let mut seen = app.db.state(admin::CHANGED).await.ok().flatten();
    loop {
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        if app.stopping.load(Ordering::SeqCst) {
            return;
        }
        let now = match app.db.state(admin::CHANGED).await {
            Ok(v) => v,
            Err(_) => continue,
        };
        if now == seen {
            continue;
        }
        seen = now;
        app.agents.lock().unwrap_or_else(|p| p.into_inner()).clear();
        if let Err(e) = app.board.reload(&app.db).await {
            eprintln!("warning: cannot reload the leaderboard: {e:#}");
        }
        let board = Arc::clone(&app);
        if let Ok(Some(json)) = tokio::task::spawn_blocking(move || board.board.refresh()).await {
            app.events.send("leaderboard", json);
        }
        app.pages.changed();
        app.schedule.notify_one();
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
