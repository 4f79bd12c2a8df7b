//! Games per second with one and with two `arena worker` processes on this machine, playing from a
//! real PostgreSQL with its default durability (every commit flushed): the second worker must add
//! at least 80 % of the first, or, where the machine itself gives a second process less (a second
//! local `arena league` beside the first, no database), come within 10 points of what it gives,
//! less the share of a core the PostgreSQL server itself takes while two workers play: the
//! server runs on the same cores here, and the local processes have no server to feed.
//! Also measured and printed: the queue's own cost per game, as the
//! workers see it (their time in claim and in commit transactions) and as the database pays it
//! (the server's CPU time), from which docs/PERFORMANCE.md estimates how many workers one
//! PostgreSQL serves.
//!
//! Each measurement drains a league enqueued by `arena league --database` (stopped once its games
//! are in the queue, so that no collecting runs meanwhile). Other work on the machine disturbs a
//! measurement: up to `ARENA_THROUGHPUT_TRIES` (5) rounds of one and two workers are run, until
//! one shows the gain.
//!
//! ```text
//! cargo test --release -p arena --test worker_throughput -- --nocapture
//! ARENA_THROUGHPUT_SPIN=0 ...   # the lightest games (hand-written climbers and a passer)
//! ```

mod pg_support;
mod serve_support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use serve_support::{arena, passer, temp_dir, text, thinker, write};
use sqlx::Row;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Bench {
    dir: std::path::PathBuf,
    url: String,
    rt: tokio::runtime::Runtime,
    pool: sqlx::AnyPool,
    games_per_group: u64,
}

impl Bench {
    /// Games waiting in the queue (none before the first `arena league` made the schema).
    fn scheduled(&self) -> i64 {
        self.rt
            .block_on(
                sqlx::query("SELECT COUNT(*) FROM league_games WHERE status = 'scheduled'")
                    .fetch_one(&self.pool),
            )
            .map_or(0, |row| row.try_get(0).unwrap())
    }

    /// The league file with seed `seed` (its output folder `out-SEED`).
    fn league(&self, seed: u64) -> std::path::PathBuf {
        write(
            &self.dir,
            &format!("league-{seed}.toml"),
            &format!(
                "name = \"throughput {seed}\"\nseed = {seed}\ngames_per_group = {}\n\
                 round_cap = 120\noutput = \"out-{seed}\"\n[budgets]\n\
                 fuel_per_decision = 40_000_000\nfuel_per_game = 8_000_000_000\n\
                 [[agent]]\npath = \"a.wat\"\n[[agent]]\npath = \"b.wat\"\n\
                 [[agent]]\npath = \"c.wat\"\n[[agent]]\npath = \"passer.wat\"\n",
                self.games_per_group
            ),
        )
    }

    /// Plays the league with seed `seed + i` in each of `n` local `arena league` processes of one
    /// thread at once, without a database. Returns their games per second together: what the
    /// machine gives `n` processes playing these games.
    fn local(&self, n: u64, seed: u64) -> f64 {
        let started = Instant::now();
        let runs: Vec<_> = (0..n)
            .map(|i| {
                arena()
                    .args(["league", "-q", "--fresh", "--threads", "1", "--config"])
                    .arg(self.league(seed + i))
                    .env("ARENA_CACHE_DIR", self.dir.join("cache"))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for r in runs {
            let out = r.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        }
        (n * 6 * self.games_per_group) as f64 / started.elapsed().as_secs_f64()
    }

    /// Enqueues the league with seed `seed` and stops `arena league` once its games are in the
    /// queue. Returns how many games it has.
    fn enqueue(&self, seed: u64) -> i64 {
        let league = self.league(seed);
        let games = 6 * self.games_per_group as i64;
        let before = self.scheduled();
        let mut driver = arena()
            .args([
                "league",
                "-q",
                "--fresh",
                "--database",
                &self.url,
                "--config",
            ])
            .arg(&league)
            .env("ARENA_CACHE_DIR", self.dir.join("cache"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while self.scheduled() < before + games {
            assert!(started.elapsed() < Duration::from_secs(120), "not enqueued");
            std::thread::sleep(Duration::from_millis(50));
        }
        // SAFETY: a signal to our own child.
        unsafe {
            libc::kill(driver.id() as i32, libc::SIGINT);
        }
        let status = driver.wait().unwrap();
        assert_eq!(status.code(), Some(130), "arena league stopped by Ctrl-C");
        games
    }

    /// League games not yet done (scheduled or leased).
    fn remaining(&self) -> i64 {
        self.rt
            .block_on(
                sqlx::query(
                    "SELECT COUNT(*) FROM league_games WHERE status IN ('scheduled', 'running')",
                )
                .fetch_one(&self.pool),
            )
            .map_or(0, |row| row.try_get(0).unwrap())
    }

    /// Runs `n` workers (one thread each) until the queue is empty. Returns the games per second
    /// while they all play (from the moment a tenth of the games are done to the moment
    /// nine tenths are: a worker's start, which loads the agents, and the end, where one worker
    /// finishes its last batch while the others have none left, are no measure of the queue) and
    /// their summary lines.
    fn drain(&self, n: usize, round: u64) -> (f64, Vec<String>) {
        let total = self.remaining();
        let workers: Vec<_> = (0..n)
            .map(|i| {
                arena()
                    .args([
                        "worker",
                        "--drain",
                        "--threads",
                        "1",
                        "--database",
                        &self.url,
                    ])
                    .args(["--name", &format!("r{round}-{n}-{i}")])
                    .env("ARENA_CACHE_DIR", self.dir.join("cache"))
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let (low, high) = (total - total / 10, total / 10);
        let mut window: Option<(Instant, i64)> = None;
        let rate = loop {
            let left = self.remaining();
            match window {
                None if left <= low => window = Some((Instant::now(), left)),
                Some((t0, left0)) if left <= high => {
                    break (left0 - left) as f64 / t0.elapsed().as_secs_f64();
                }
                _ => {}
            }
            assert!(
                left > 0 || window.is_some(),
                "the games went before they were timed"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut lines = Vec::new();
        for w in workers {
            let out = w.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{}", text(&out));
            lines.push(String::from_utf8_lossy(&out.stdout).trim().to_owned());
        }
        (rate, lines)
    }
}

/// `claim X ms` and `commit Y ms` of a worker's summary line.
fn per_game(line: &str, what: &str) -> f64 {
    line.split(&format!("{what} "))
        .nth(1)
        .and_then(|r| r.split(" ms").next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {what} time in {line:?}"))
}

/// The gain the second worker must show: 80 % of the first's games per second, or, on a machine
/// where a second process playing the same games without any database gains less (two
/// virtual cores that share a cache and memory: this test's 2-core VM gives 55-70 %), within 10
/// points of that: the queue then costs at most a tenth of a core's worth.
/// A round where a second local process adds less than this shows nothing of the queue: the
/// machine is busy with other work.
const MEASURABLE: f64 = 0.25;

/// The gain wanted of the second worker, from a second local process's gain and the cores the
/// database server used while two workers played.
fn wanted_gain(local: f64, server_cores: f64) -> f64 {
    0.8f64.min(local - 0.1 - server_cores)
}

#[test]
fn a_second_worker_adds_at_least_80_percent_of_the_first() {
    let cluster = pg_support::Cluster::start(true);
    let url = cluster.create_database("throughput");
    let dir = temp_dir("worker-throughput");
    let spin = env("ARENA_THROUGHPUT_SPIN", 150_000);
    write(&dir, "a.wat", &thinker("a-thinks-ab", spin));
    write(&dir, "b.wat", &thinker("b-thinks-ab", spin * 3 / 2));
    write(&dir, "c.wat", &thinker("c-thinks-ab", spin / 2));
    write(&dir, "passer.wat", &passer());
    sqlx::any::install_default_drivers();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let pool = rt.block_on(sqlx::AnyPool::connect(&url)).unwrap();
    let bench = Bench {
        dir: dir.to_path_buf(),
        url,
        rt,
        pool,
        games_per_group: env("ARENA_THROUGHPUT_GAMES", 100),
    };

    // A first small league compiles the agents into the workers' cache.
    let warm = Bench {
        games_per_group: 2,
        ..bench
    };
    warm.enqueue(1);
    warm.drain(1, 0);
    let bench = Bench {
        games_per_group: env("ARENA_THROUGHPUT_GAMES", 100),
        ..warm
    };

    // A round measures one worker and two back to back (in turn first and second, so that a
    // machine slowly getting busier favours neither); the ratio of a round is the second worker's
    // gain. Other work on the machine disturbs a round in either direction, so the test passes on
    // the first round that shows the gain, after at most `ARENA_THROUGHPUT_TRIES` rounds.
    let tries = env("ARENA_THROUGHPUT_TRIES", 5);
    let mut gains = Vec::new();
    let mut seed = 10;
    for round in 1..=tries {
        let mut rates = [0.0f64; 2];
        let mut server_cores = [0.0f64; 2];
        let order = if round % 2 == 1 { [1, 2] } else { [2, 1] };
        for n in order {
            seed += 1;
            let games = bench.enqueue(seed);
            let cpu0 = cluster.cpu_seconds();
            let (rate, lines) = bench.drain(n, round);
            let db_cpu = cluster.cpu_seconds() - cpu0;
            rates[n - 1] = rate;
            server_cores[n - 1] = db_cpu / games as f64 * rate;
            let claim: f64 = lines.iter().map(|l| per_game(l, "claim")).sum::<f64>() / n as f64;
            let commit: f64 = lines.iter().map(|l| per_game(l, "commit")).sum::<f64>() / n as f64;
            eprintln!(
                "round {round}, {n} worker(s): {games} games, {rate:.1} games/s while all play; \
                 per game: claim {claim:.3} ms, commit {commit:.3} ms (workers' time in \
                 transactions), PostgreSQL CPU {:.3} ms",
                db_cpu * 1000.0 / games as f64
            );
            for l in &lines {
                eprintln!("  {l}");
            }
        }
        let gain = rates[1] / rates[0] - 1.0;
        // What a second process adds on this machine to the same games without a database: the
        // bound the second worker can reach here.
        seed += 10;
        let one = bench.local(1, seed);
        let two = bench.local(2, seed + 1);
        let bound = two / one - 1.0;
        let wanted = wanted_gain(bound, server_cores[1]);
        eprintln!(
            "round {round}: the second worker adds {:.0} %; a second local process adds {:.0} % \
             ({one:.1} and {two:.1} games/s); PostgreSQL took {:.2} of a core while two workers \
             played; wanted {:.0} %",
            gain * 100.0,
            bound * 100.0,
            server_cores[1],
            wanted * 100.0
        );
        gains.push((gain, bound, server_cores[1]));
        if bound >= MEASURABLE && gain >= wanted {
            break;
        }
    }
    assert!(
        gains
            .iter()
            .any(|&(g, bound, cores)| bound >= MEASURABLE && g >= wanted_gain(bound, cores)),
        "in no round did the second worker add 80 % of the first's games per second, or come \
         within 10 points of what a second local process adds less PostgreSQL's share of a core \
         (at least 25 %: a machine busy with other work shows nothing) (worker, local, \
         PostgreSQL's cores) %: {:?}",
        gains
            .iter()
            .map(|(g, b, c)| {
                (
                    (g * 100.0).round(),
                    (b * 100.0).round(),
                    (c * 100.0).round(),
                )
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(bench.scheduled(), 0);
    drop(bench);
    let _ = std::fs::remove_dir_all(&dir);
}
