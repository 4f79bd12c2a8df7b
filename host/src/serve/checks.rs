//! The upload checks: a fair queue that runs them apart from the requests that brought them.
//! Test runs (the editor's Test, [`super::test_runs`]) build and check sources too, and wait
//! in the same queue: a contestant's test and upload take turns with everyone else's.
//!
//! At most `uploads.checks_at_once` checks run at a time, and at most one per contestant; when a
//! checker is free, the contestant served longest ago goes next, so that one contestant's many
//! or slow uploads delay only their own. A check holds its place until it ends, whatever its
//! client does: a client that goes away leaves the check running, and its verdict is written
//! all the same. A check that a stop cut short is run again at the next start ([`resume`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use super::build::Failure;
use super::db::{PendingUpload, UploadVerdict};
use super::uploads::Checked;
use super::App;
use crate::referee::Verdict;

/// An upload to check, and who waits for its verdict (nobody for a check run again at a start).
pub struct Job {
    pub upload: PendingUpload,
    pub reply: Option<oneshot::Sender<anyhow::Result<Checked>>>,
}

/// What waits in the queue: an upload's check, or a test run.
enum Task {
    Check(Job),
    Test(super::test_runs::Job),
}

impl Task {
    fn contestant(&self) -> i64 {
        match self {
            Task::Check(j) => j.upload.contestant_id,
            Task::Test(t) => t.contestant_id,
        }
    }
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Task>,
    /// Contestants whose upload is being checked.
    running: HashSet<i64>,
    /// When each contestant's last check began (a count of checks begun).
    served: HashMap<i64, u64>,
    begun: u64,
}

impl Queue {
    /// The next job to start, if a checker is free: the first waiting job of the contestant
    /// served longest ago (never served first) among those with no check running.
    fn next(&mut self, at_once: usize) -> Option<Task> {
        if self.running.len() >= at_once {
            return None;
        }
        let (i, _) = self
            .waiting
            .iter()
            .enumerate()
            .filter(|(_, j)| !self.running.contains(&j.contestant()))
            .min_by_key(|(i, j)| (self.served.get(&j.contestant()).copied(), *i))?;
        let task = self.waiting.remove(i)?;
        self.begun += 1;
        self.running.insert(task.contestant());
        self.served.insert(task.contestant(), self.begun);
        Some(task)
    }
}

pub struct Checks {
    at_once: usize,
    queue: Mutex<Queue>,
}

impl Checks {
    pub fn new(at_once: usize) -> Checks {
        Checks {
            at_once: at_once.max(1),
            queue: Mutex::new(Queue::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues a check; it starts when its turn comes.
    pub fn submit(&self, app: &Arc<App>, job: Job) {
        self.lock().waiting.push_back(Task::Check(job));
        self.dispatch(app);
    }

    /// Queues a test run; it starts when its turn comes.
    pub fn submit_test(&self, app: &Arc<App>, job: super::test_runs::Job) {
        self.lock().waiting.push_back(Task::Test(job));
        self.dispatch(app);
    }

    /// Checks waiting and running.
    pub fn len(&self) -> (usize, usize) {
        let q = self.lock();
        (q.waiting.len(), q.running.len())
    }

    /// Starts every check whose turn has come.
    fn dispatch(&self, app: &Arc<App>) {
        while let Some(task) = self.lock().next(self.at_once) {
            let app = Arc::clone(app);
            tokio::spawn(async move {
                // Frees the contestant's place even if the check panics.
                let done = Done {
                    app: Arc::clone(&app),
                    contestant: task.contestant(),
                };
                let job = match task {
                    Task::Check(job) => job,
                    Task::Test(test) => {
                        super::test_runs::run(&app, test).await;
                        drop(done);
                        return;
                    }
                };
                let result = run(&app, &job.upload).await;
                if let Some(reply) = job.reply {
                    // Nobody listening (the client went away) is fine: the verdict is written.
                    let _ = reply.send(result);
                } else if let Err(e) = result {
                    eprintln!(
                        "error: version {} of {:?} could not be checked: {e:#}",
                        job.upload.number, job.upload.name
                    );
                }
                drop(done);
            });
        }
    }
}

/// Ends a check's turn: its contestant may have the next one, and the next check starts.
struct Done {
    app: Arc<App>,
    contestant: i64,
}

impl Drop for Done {
    fn drop(&mut self) {
        self.app.checks.lock().running.remove(&self.contestant);
        if tokio::runtime::Handle::try_current().is_ok() {
            self.app.checks.dispatch(&self.app);
        }
    }
}

/// Queues again the checks of uploads recorded but not checked (a stop cut them short).
pub async fn resume(app: &Arc<App>) -> anyhow::Result<usize> {
    let pending = app.db.pending_uploads().await?;
    let n = pending.len();
    for upload in pending {
        app.checks.submit(
            app,
            Job {
                upload,
                reply: None,
            },
        );
    }
    Ok(n)
}

/// Checks one upload and writes its verdict; an accepted upload becomes its contestant's
/// playing version. An error is the server's own failure: the upload is then forgotten (no
/// verdict, not counted), never refused for it.
async fn run(app: &Arc<App>, u: &PendingUpload) -> anyhow::Result<Checked> {
    let checked = check(app, u).await;
    if checked.is_err() {
        if let Err(e) = app.db.drop_upload(u.version_id).await {
            eprintln!("warning: version {} of {:?}: {e:#}", u.number, u.name);
        }
    }
    checked
}

async fn check(app: &Arc<App>, u: &PendingUpload) -> anyhow::Result<Checked> {
    let (a, sha, name, source) = (Arc::clone(app), u.sha256.clone(), u.name.clone(), u.source);
    let number = u.number;
    let games = app.challenge.uploads.check_games;
    let (verdict, bytes, built) = tokio::task::spawn_blocking(move || {
        let stored = a.storage.agent(&sha)?;
        if !source {
            let verdict = a.engine.check(&name, &stored, games)?;
            return anyhow::Ok((verdict, stored, None));
        }
        // Sources: built first; a build that fails is the verdict, with the toolchain's message.
        let sources = super::sources::Sources::from_bytes(&stored)?;
        let started = std::time::Instant::now();
        match a.builds.build(&sources) {
            Ok(component) => {
                let built = a.storage.put_agent(&component)?;
                let took = started.elapsed().as_secs_f64();
                let mut verdict = a.engine.check(&name, &component, games)?;
                verdict.report = format!(
                    "built {} ({}) in {took:.1} s\n{}",
                    sources.entry,
                    sources.lang.name(),
                    verdict.report
                );
                eprintln!(
                    "built version {} of {name:?} ({}) in {took:.1} s, checked in {:.1} s",
                    number,
                    sources.lang.name(),
                    started.elapsed().as_secs_f64() - took
                );
                Ok((verdict, component, Some(built)))
            }
            Err(Failure::Build(message)) => {
                let reason = format!("the {} build failed", sources.lang.name());
                let verdict = Verdict {
                    accepted: false,
                    report: format!(
                        "building {name} ({})\n{message}\n\nFAIL:\n  {reason}\n",
                        sources.entry
                    ),
                    reason: Some(reason),
                    module_sha256: None,
                };
                Ok((verdict, stored, None))
            }
            Err(Failure::Server(e)) => Err(e),
        }
    })
    .await
    .map_err(|e| anyhow::anyhow!("the check failed: {e}"))??;
    let sha256 = built.clone().unwrap_or_else(|| u.sha256.clone());
    if verdict.accepted && app.db.shared() {
        // Workers on other machines fetch the bytes from the database.
        app.db.put_code(&sha256, &bytes).await?;
    }
    let plays = app
        .db
        .finish_upload(
            u.version_id,
            &UploadVerdict {
                module_sha256: verdict.module_sha256.as_deref(),
                built: built.as_deref().map(|sha| (sha, bytes.len() as i64)),
                accepted: verdict.accepted,
                reason: verdict.reason.as_deref(),
                report: &verdict.report,
            },
        )
        .await?;
    if plays {
        // The leaderboard shows the new version as soon as its author is told it was accepted.
        app.board.reload(&app.db).await?;
        let board = Arc::clone(app);
        if let Ok(Some(json)) = tokio::task::spawn_blocking(move || board.board.refresh()).await {
            app.events.send("leaderboard", json);
        }
        app.pages.changed();
        app.schedule.notify_one();
    }
    Ok(Checked {
        version: u.number,
        accepted: verdict.accepted,
        reason: verdict.reason,
        report: verdict.report,
        sha256,
        size: bytes.len(),
        source_url: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(contestant: i64, number: i64) -> Job {
        Job {
            upload: PendingUpload {
                version_id: contestant * 100 + number,
                contestant_id: contestant,
                name: format!("c{contestant}"),
                number,
                sha256: String::new(),
                source: false,
            },
            reply: None,
        }
    }

    fn started(q: &mut Queue, at_once: usize) -> Vec<(i64, i64)> {
        std::iter::from_fn(|| q.next(at_once))
            .map(|t| match t {
                Task::Check(j) => (j.upload.contestant_id, j.upload.number),
                Task::Test(t) => (t.contestant_id, 0),
            })
            .collect()
    }

    /// One contestant's three uploads queued before another's: the other's check comes second,
    /// not fourth, and a contestant never has two checks at once.
    #[test]
    fn contestants_are_served_in_turn_one_check_each_at_a_time() {
        let mut q = Queue::default();
        for n in 1..=3 {
            q.waiting.push_back(Task::Check(job(1, n)));
        }
        q.waiting.push_back(Task::Check(job(2, 1)));
        assert_eq!(started(&mut q, 1), [(1, 1)]);
        assert_eq!(started(&mut q, 1), [], "one checker, busy");
        q.running.remove(&1);
        assert_eq!(started(&mut q, 1), [(2, 1)], "the other contestant's turn");
        q.running.remove(&2);
        assert_eq!(started(&mut q, 1), [(1, 2)]);
        q.running.remove(&1);
        q.waiting.push_back(Task::Check(job(3, 1)));
        assert_eq!(started(&mut q, 1), [(3, 1)], "never served goes first");
        // Two checkers: still one check per contestant.
        q.running.clear();
        assert_eq!(started(&mut q, 2), [(1, 3)]);
        assert!(q.waiting.is_empty());
    }

    fn test_run(contestant: i64) -> Task {
        Task::Test(crate::serve::test_runs::Job {
            contestant_id: contestant,
            name: format!("c{contestant}"),
            sources: crate::serve::sources::Sources::single("agent.py", "x = 1\n").unwrap(),
            opponents: Vec::new(),
            reply: oneshot::channel().0,
        })
    }

    /// A test run waits in the same queue as uploads: a contestant's test and upload never run
    /// at once, and another contestant's upload goes between them.
    #[test]
    fn test_runs_take_turns_with_uploads() {
        let mut q = Queue::default();
        q.waiting.push_back(test_run(1));
        q.waiting.push_back(Task::Check(job(1, 1)));
        q.waiting.push_back(Task::Check(job(2, 1)));
        assert_eq!(
            started(&mut q, 2),
            [(1, 0), (2, 1)],
            "one task per contestant"
        );
        q.running.remove(&2);
        assert_eq!(started(&mut q, 2), [], "contestant 1's test still runs");
        q.running.remove(&1);
        q.waiting.push_back(test_run(2));
        assert_eq!(started(&mut q, 1), [(1, 1)], "served longest ago");
    }
}
