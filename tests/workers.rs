//! Workers on a real PostgreSQL (`arena worker`, `arena league --database`): a league played by
//! three workers, one killed with SIGKILL mid-game, one stopped and started again, and every
//! connection to the database cut once, gives the output folder of the same league played
//! locally, byte for byte, with every game counted once. Games longer than the lease stay with
//! the worker that renews their leases. A worker refuses a database set up by another arena
//! version, and stops when the database is upgraded under it.

mod pg_support;
mod serve_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serve_support::{arena, passer, temp_dir, text, thinker, write};
use sqlx::Row;

struct Db {
    rt: tokio::runtime::Runtime,
    pool: sqlx::AnyPool,
}

impl Db {
    fn connect(url: &str) -> Db {
        sqlx::any::install_default_drivers();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let pool = rt
            .block_on(
                sqlx::any::AnyPoolOptions::new()
                    .max_connections(2)
                    .connect(url),
            )
            .expect("connect to the test database");
        Db { rt, pool }
    }

    /// The first column of the first row of `sql` (an integer), `binds` bound in order; a lost
    /// connection (the test cuts them) is tried again.
    fn int(&self, sql: &str, binds: &[&str]) -> i64 {
        for _ in 0..20 {
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()));
            for b in binds {
                q = q.bind(*b);
            }
            match self.rt.block_on(q.fetch_one(&self.pool)) {
                Ok(row) => return row.try_get::<i64, _>(0).unwrap(),
                Err(sqlx::Error::RowNotFound) => return 0,
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        }
        panic!("the test database does not answer: {sql}");
    }

    fn exec(&self, sql: &str) {
        self.rt
            .block_on(sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).execute(&self.pool))
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

/// An `arena worker` process.
struct Worker {
    child: Option<Child>,
    log: PathBuf,
}

impl Worker {
    fn start(dir: &Path, url: &str, name: &str, lease: u64) -> Worker {
        let n = std::fs::read_dir(dir).map_or(0, |d| d.count());
        let log = dir.join(format!("worker-{name}-{n}.log"));
        let child = arena()
            .args([
                "worker",
                "--database",
                url,
                "--threads",
                "1",
                "--name",
                name,
            ])
            .args(["--lease", &lease.to_string()])
            .env("ARENA_CACHE_DIR", dir.join("module-cache"))
            .stdout(Stdio::from(
                std::fs::File::create(log.with_extension("out")).unwrap(),
            ))
            .stderr(Stdio::from(std::fs::File::create(&log).unwrap()))
            .spawn()
            .expect("start arena worker");
        Worker {
            child: Some(child),
            log,
        }
    }

    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// SIGTERM, and the exit status.
    fn stop(&mut self) -> std::process::ExitStatus {
        let mut c = self.child.take().expect("a running worker");
        // SAFETY: a signal to our own child.
        unsafe {
            libc::kill(c.id() as i32, libc::SIGTERM);
        }
        wait(&mut c, 60)
            .unwrap_or_else(|| panic!("worker did not stop; see {}", self.log.display()))
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(self.log.with_extension("out")).unwrap_or_default()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

fn wait(c: &mut Child, secs: u64) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(secs) {
        if let Ok(Some(s)) = c.try_wait() {
            return Some(s);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

fn wait_until(what: &str, secs: u64, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < Duration::from_secs(secs),
            "{what}: not after {secs} s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Every file under `dir`, by path relative to it.
/// The ids of the games in the journal of the league folder `out` (none when it has no journal).
fn journaled_games(out: &Path) -> Vec<i64> {
    let text = std::fs::read_to_string(out.join("journal.jsonl")).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "game")
        .filter_map(|v| v["id"].as_i64())
        .collect()
}

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// 96 games of about 0.3 s each (on the 2-core machines of docs/PERFORMANCE.md), a quarter of
/// them played twice by workers of two names.
const LEAGUE: &str = r#"
name = "workers"
players_per_game = 2
games_per_group = 16
seed = 11
round_cap = 120
double_play = 0.25
[budgets]
fuel_per_decision = 100_000_000
fuel_per_game = 8_000_000_000
[[agent]]
path = "slow.wat"
[[agent]]
path = "slower.wat"
[[agent]]
path = "steady.wat"
[[agent]]
path = "passer.wat"
"#;

const GAMES: i64 = 96;

/// PostgreSQL's count of deadlocks it broke in the current database.
fn deadlocks(db: &Db) -> i64 {
    db.int(
        "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()",
        &[],
    )
}

/// [`driver`] of `league` into `dir/out` (its output in `dir/league.err`), and a connection to
/// the database once the league's `games` games are enqueued.
fn enqueue(url: &str, dir: &Path, league: &Path, games: i64) -> (Child, Db) {
    let child = driver(url, league, &dir.join("out"), &dir.join("league.err"), &[]);
    let db = Db::connect(url);
    wait_until("the league's games are enqueued", 120, || {
        db.int("SELECT COUNT(*) FROM league_games", &[]) == games
    });
    (child, db)
}

/// An `arena league --database` process driving `league` into `out`, its output in `log`.
fn driver(url: &str, league: &Path, out: &Path, log: &Path, extra: &[&str]) -> Child {
    arena()
        .args(["league", "-q", "--database", url, "--config"])
        .arg(league)
        .arg("--output")
        .arg(out)
        .args(extra)
        .env(
            "ARENA_CACHE_DIR",
            log.parent().unwrap().join("module-cache"),
        )
        .stdout(Stdio::from(
            std::fs::File::create(log.with_extension("out")).unwrap(),
        ))
        .stderr(Stdio::from(std::fs::File::create(log).unwrap()))
        .spawn()
        .unwrap()
}

/// The workers' attacks on a league, each of which once broke it: a worker killed and started
/// again at once under its name (its dead process's games must not stay leased), the collector
/// killed and resumed at once, rows written with a record path out of the folder, a result
/// contradicting its record, a record with a wrong digest, and the first play of a game played
/// twice replaced by another game's record; a worker stopped and started again; every connection
/// cut. The output folder is still the local league's, byte for byte, each game counted once,
/// and renewals and commits never deadlock.
#[test]
fn a_league_on_workers_killed_restarted_forged_and_cut_off_is_the_local_league_byte_for_byte() {
    let (pg, url, dir) = database_and_folder("league_kill", "workers-league");
    write(&dir, "slow.wat", &thinker("slow-thinks", 3_600_000));
    write(&dir, "slower.wat", &thinker("slowerthink", 5_400_000));
    write(&dir, "steady.wat", &thinker("steady-buys", 2_400_000));
    write(&dir, "passer.wat", &passer());
    let league = write(&dir, "league.toml", LEAGUE);
    let cache = dir.join("module-cache");

    // The league played here.
    let local = arena()
        .args(["league", "-q", "--threads", "2", "--config"])
        .arg(&league)
        .arg("--output")
        .arg(dir.join("local"))
        .env("ARENA_CACHE_DIR", &cache)
        .output()
        .unwrap();
    assert_eq!(local.status.code(), Some(0), "{}", text(&local));

    // The same league through the database: this command enqueues it and waits.
    let out = dir.join("distributed");
    let mut first_driver = driver(&url, &league, &out, &dir.join("league-1.err"), &[]);
    let db = Db::connect(&url);
    wait_until("the league's games are enqueued", 120, || {
        db.int("SELECT COUNT(*) FROM league_games", &[]) == GAMES
    });
    let deadlocks_before = deadlocks(&db);
    let done_by = |owner: &str| {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE played_by = $1 \
             AND status IN ('done', 'collected')",
            &[owner],
        )
    };
    let done = || {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE status IN ('done', 'collected')",
            &[],
        )
    };
    let leases_of = |owner: &str| {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE lease_owner = $1 AND status = 'running'",
            &[owner],
        )
    };
    let mut w1 = Worker::start(&dir, &url, "w1", 2);
    let mut w2 = Worker::start(&dir, &url, "w2", 2);
    // As a worker on another machine would: over TLS, the server's certificate verified.
    let mut w3 = Worker::start(&dir, &pg.tls_url("league_kill"), "w3", 2);

    // w1 is killed while it holds leases, having written results, and started again at once
    // under its name, as systemd's `Restart=always` does.
    let text_of = |sql: &str| -> Vec<String> {
        db.rt
            .block_on(sqlx::query(sqlx::AssertSqlSafe(sql.to_owned())).fetch_all(&db.pool))
            .unwrap()
            .iter()
            .map(|r| r.try_get::<String, _>(0).unwrap())
            .collect()
    };
    let mut dead_owner = String::new();
    wait_until("w1 plays", 120, || {
        let owners = text_of(
            "SELECT DISTINCT lease_owner FROM league_games WHERE status = 'running' \
             AND lease_owner LIKE 'w1%'",
        );
        dead_owner = owners.first().cloned().unwrap_or_default();
        !dead_owner.is_empty() && done_by(&dead_owner) >= 2 && leases_of(&dead_owner) >= 1
    });
    w1.kill();
    let restarted = Instant::now();
    let w1_done = done_by(&dead_owner);
    let stranded = leases_of(&dead_owner);
    assert!(stranded >= 1);
    let mut w1 = Worker::start(&dir, &url, "w1", 2);

    // The collector is killed, once it has sent a game to be played twice; the workers go on,
    // and rows pile up for it. Some are forged meanwhile.
    wait_until("a game is sent to be played twice", 120, || {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE check_of IS NOT NULL",
            &[],
        ) >= 1
    });
    first_driver.kill().unwrap();
    first_driver.wait().unwrap();
    // Rows the killed collector journaled but had not yet marked collected hold results it
    // checked already: the resumed one only marks them, so forging them would test nothing.
    let not_journaled = format!(
        "game NOT IN ({})",
        journaled_games(&out)
            .iter()
            .map(|g| g.to_string())
            .chain(["-1".to_owned()])
            .collect::<Vec<_>>()
            .join(",")
    );
    wait_until("rows wait for the collector", 120, || {
        db.int(
            &format!(
                "SELECT COUNT(*) FROM league_games WHERE status = 'done' AND check_of IS NULL \
                 AND {not_journaled}"
            ),
            &[],
        ) >= 3
    });
    let forged: Vec<i64> = db
        .rt
        .block_on(
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT game FROM league_games WHERE status = 'done' AND check_of IS NULL \
                 AND {not_journaled} ORDER BY game LIMIT 3"
            )))
            .fetch_all(&db.pool),
        )
        .unwrap()
        .iter()
        .map(|r| r.try_get(0).unwrap())
        .collect();
    let played_by = |game: i64| {
        text_of(&format!(
            "SELECT played_by FROM league_games WHERE game = {game}"
        ))
        .remove(0)
    };
    let forgers: Vec<String> = forged.iter().map(|&g| played_by(g)).collect();
    // A record written out of the records folder...
    db.exec(&format!(
        "UPDATE league_games SET result = replace(result, '\"records/game-', \
         '\"records/../game-') WHERE game = {}",
        forged[0]
    ));
    // ... a result that is not what its record says (one round more)...
    db.exec(&format!(
        "UPDATE league_games SET result = regexp_replace(result, '\"rounds\":([0-9]+)', \
         '\"rounds\":1\\1') WHERE game = {}",
        forged[1]
    ));
    // ... a record whose digest is wrong...
    db.exec(&format!(
        "UPDATE league_games SET record = overlay(record placing '\\x2a'::bytea \
         from position('\"digest\":\"'::bytea in record) + 10 for 1) WHERE game = {}",
        forged[2]
    ));
    // ... and the first play of a game sent to be played twice, replaced by another game's
    // record (as a worker forging its games would write one).
    let checked: i64 = db.int(
        &format!(
            "SELECT game FROM league_games WHERE check_of IS NOT NULL AND status <> 'collected' \
             AND {not_journaled} ORDER BY game LIMIT 1"
        ),
        &[],
    );
    let first_player = text_of(&format!(
        "SELECT check_of FROM league_games WHERE game = {checked}"
    ))
    .remove(0);
    db.exec(&format!(
        "UPDATE league_games SET check_record = (SELECT record FROM league_games \
         WHERE record IS NOT NULL AND game <> {checked} LIMIT 1) WHERE game = {checked}"
    ));

    // Resumed at once: its output folder's lock proves the killed collector dead.
    let resumed_at = Instant::now();
    let mut second_driver = driver(
        &url,
        &league,
        &out,
        &dir.join("league-2.err"),
        &["--resume"],
    );
    let pid = second_driver.id();
    wait_until("the resumed collector takes the league over", 120, || {
        if let Ok(Some(status)) = second_driver.try_wait() {
            panic!(
                "the resumed league stopped ({status}) after {:?}: {}",
                resumed_at.elapsed(),
                std::fs::read_to_string(dir.join("league-2.err")).unwrap_or_default()
            );
        }
        db.int(
            "SELECT COUNT(*) FROM leagues WHERE driver LIKE $1",
            &[&format!("league:{pid}:%")],
        ) == 1
    });

    // w2 is stopped and started again: the games it held go back at once.
    wait_until("w2 plays", 120, || {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE played_by LIKE 'w2%'",
            &[],
        ) >= 2
    });
    let status = w2.stop();
    assert!(status.success(), "w2 stopped badly: {status}");
    assert!(
        w2.stdout().contains("worker w2: ") && w2.stdout().contains("counted"),
        "w2's summary: {}",
        w2.stdout()
    );
    assert_eq!(
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE lease_owner LIKE 'w2%'",
            &[]
        ),
        0,
        "a stopped worker gives its games back"
    );
    let mut w2 = Worker::start(&dir, &url, "w2", 2);

    // The killed process's games were not kept leased by the process started under its name:
    // once their leases ran out, other processes took them.
    let lease = Duration::from_secs(2);
    std::thread::sleep((lease + Duration::from_secs(3)).saturating_sub(restarted.elapsed()));
    assert_eq!(
        leases_of(&dead_owner),
        0,
        "the games of the killed w1 ({dead_owner}) are still leased to it"
    );

    // Every connection to the database is cut: workers and the league reconnect and go on.
    let before_cut = done();
    assert!(
        before_cut < GAMES - 10,
        "the league ran ahead of the test: {before_cut} games done"
    );
    let w3_before_cut = db.int(
        "SELECT COUNT(*) FROM league_games WHERE played_by LIKE 'w3%'",
        &[],
    );
    let cut = pg.cut_connections("league_kill");
    assert!(cut >= 3, "only {cut} connections were cut");

    let status = wait(&mut second_driver, 300).expect("the league did not finish");
    let log = std::fs::read_to_string(dir.join("league-2.err")).unwrap_or_default();
    assert!(status.success(), "{log}");
    assert!(
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE played_by LIKE 'w3%'",
            &[]
        ) > w3_before_cut,
        "w3 played nothing after its connection was cut"
    );
    // (Fewer when one of its games was refused, or played again as a check by another.)
    assert!(
        done_by(&dead_owner) <= w1_done,
        "a killed worker wrote results"
    );
    for w in [&mut w1, &mut w2, &mut w3] {
        let status = w.stop();
        assert!(status.success(), "{status}: see {}", w.log.display());
    }

    // Each forged row was refused, naming the worker that wrote it, and its game played again.
    for ((game, by), why) in forged.iter().zip(&forgers).zip([
        "names the record",
        "contradicts its record: its length is",
        "digest",
    ]) {
        let line = log
            .lines()
            .find(|l| {
                l.contains(&format!(
                    "game {game}: the result written by worker {by} is refused"
                ))
            })
            .unwrap_or_else(|| panic!("game {game} was not refused: {log}"));
        assert!(
            line.contains(why) && line.contains("goes back to the queue"),
            "{line}"
        );
    }
    // The forged first play lost to the second and to the collector's own play.
    assert!(
        log.contains(&format!(
            "game {checked}: worker {first_player} wrote a record its agents do not play"
        )),
        "{log}"
    );
    assert!(
        log.contains("double play: ") && log.contains("1 different"),
        "{log}"
    );

    // Renewals and commits lock rows in one order: PostgreSQL broke no deadlock.
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(
        deadlocks(&db),
        deadlocks_before,
        "deadlocks between workers"
    );

    // The killed worker's games were leased again and played by the others; each game of the
    // league was counted once.
    assert!(
        db.int("SELECT COUNT(*) FROM league_games WHERE claims > 1", &[]) >= 1,
        "no game was leased twice: the kill caught no lease"
    );
    assert_eq!(
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE status = 'collected'",
            &[]
        ),
        GAMES
    );
    assert_eq!(
        db.int("SELECT COUNT(*) FROM leagues WHERE status = 'done'", &[]),
        1
    );

    // The output folders are the same, byte for byte; only the journal's order of games may
    // differ (it is the order games ended, as between two local runs with several threads).
    let a = files(&dir.join("local"));
    let b = files(&out);
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    assert!(a.keys().any(|p| p.starts_with("records")));
    assert!(a.contains_key(Path::new("report/index.html")));
    for (path, bytes) in &a {
        if path == Path::new("journal.jsonl") {
            continue;
        }
        assert!(&b[path] == bytes, "{} differs", path.display());
    }
    let lines = |bytes: &[u8]| {
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let header = lines.remove(0);
        lines.sort();
        (header, lines)
    };
    let (ha, la) = lines(&a[Path::new("journal.jsonl")]);
    let (hb, lb) = lines(&b[Path::new("journal.jsonl")]);
    assert_eq!(ha, hb, "the journal's header");
    assert_eq!(la.len() as i64, GAMES, "one journal line per game");
    assert_eq!(la, lb, "the same games in the journal");

    let verify = arena()
        .args(["verify", "--league"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));

    // Run again from the start in the same database: the league is enqueued anew.
    let again = arena()
        .args([
            "league",
            "-q",
            "--fresh",
            "--threads",
            "2",
            "--database",
            &url,
            "--config",
        ])
        .arg(&league)
        .arg("--output")
        .arg(&out)
        .env("ARENA_CACHE_DIR", &cache)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    let c = files(&out);
    assert!(
        c[Path::new("standings.json")] == a[Path::new("standings.json")],
        "the league played by this command's own workers"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_worker_plays_only_for_the_arena_version_that_set_the_database_up() {
    let pg = pg_support::shared();
    let dir = temp_dir("workers-version");
    let worker = |url: &str| {
        arena()
            .args(["worker", "--threads", "1", "--drain", "--database", url])
            .output()
            .unwrap()
    };

    // A database no arena has set up.
    let url = pg.create_database("version_empty");
    let out = worker(&url);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("holds no arena schema"),
        "{}",
        text(&out)
    );

    // Set up by `arena serve --database` (here its admin command, which brings the schema up to
    // date without stamping a version), then by another version.
    let url = pg.create_database("version_other");
    let config = write(
        &dir,
        "challenge.toml",
        &format!("database = \"{url}\"\ndata = \"data\"\n"),
    );
    let admin = arena()
        .args(["serve", "admin", "contestants", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert_eq!(admin.status.code(), Some(0), "{}", text(&admin));
    let out = worker(&url);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("holds no arena version"),
        "{}",
        text(&out)
    );
    let db = Db::connect(&url);
    db.exec("INSERT INTO state (key, value) VALUES ('arena_version', '0.0.1-elsewhere')");
    let out = worker(&url);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let version = arena::distributed::version::arena_version();
    assert!(
        text(&out).contains("set up by arena 0.0.1-elsewhere")
            && text(&out).contains(&format!("this worker is arena {version}")),
        "{}",
        text(&out)
    );
    // The version names the sources the arena was built from, not only the crate's version.
    assert!(
        version.starts_with(&format!("{} (sources ", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    // It is the build's: the environment of a worker does not change it.
    let out = arena()
        .args(["worker", "--threads", "1", "--drain", "--database", &url])
        .env("ARENA_BUILD_ID", "0.0.1-elsewhere")
        .env("ARENA_SOURCE_HASH", "0.0.1-elsewhere")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("set up by arena 0.0.1-elsewhere"),
        "{}",
        text(&out)
    );

    // A worker of the right version plays; when the database is upgraded under it (a newer
    // server started), it stops with the reason.
    db.exec(&format!(
        "UPDATE state SET value = '{version}' WHERE key = 'arena_version'"
    ));
    let mut w = Worker::start(&dir, &url, "v1", 2);
    wait_until("the worker registers", 60, || {
        db.int("SELECT COUNT(*) FROM workers WHERE owner = 'v1'", &[]) == 1
    });
    db.exec("UPDATE state SET value = '9.9.9' WHERE key = 'arena_version'");
    let mut child = w.child.take().unwrap();
    let status = wait(&mut child, 30).expect("the worker went on");
    assert_eq!(status.code(), Some(2));
    let log = std::fs::read_to_string(&w.log).unwrap();
    assert!(log.contains("set up by arena 9.9.9"), "{log}");
    assert_eq!(
        db.int("SELECT COUNT(*) FROM workers WHERE owner = 'v1'", &[]),
        0,
        "a stopped worker leaves the register"
    );

    // A server whose certificate is not of an authority the worker trusts: refused.
    let out = worker(&pg.tls_url_wrong_authority("version_other"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("cannot open the database") && text(&out).contains("certificate"),
        "{}",
        text(&out)
    );

    // A server that refuses the worker's connections: its reason, not the pool's "timed out".
    db.exec("DROP ROLE IF EXISTS limited");
    db.exec("CREATE ROLE limited LOGIN CONNECTION LIMIT 0");
    let limited = url.replace("postgres://arena@", "postgres://limited@");
    let out = worker(&limited);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("the database refuses connections")
            && text(&out).contains("too many connections for role"),
        "{}",
        text(&out)
    );

    // Not a PostgreSQL URL: refused before anything.
    let out = worker("sqlite://elsewhere.sqlite3");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("takes a PostgreSQL URL"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two games of about 2 to 3.5 s of one core each (on the 2-core machines of docs/PERFORMANCE.md;
/// longer on a busy one), about the workers' 2 s lease or longer; the second, waiting in the
/// worker's queue while the first is played, is leased for both games' time. Decisions take a good
/// part of a second on a busy machine: their wall-clock limit is raised.
const LONG_GAMES: &str = r#"
name = "long games"
players_per_game = 2
games_per_group = 2
seed = 5
round_cap = 120
double_play = 0
[budgets]
fuel_per_decision = 2_000_000_000
fuel_per_game = 200_000_000_000
decision_wall_ms = 20_000
[[agent]]
path = "deep.wat"
[[agent]]
path = "deeper.wat"
"#;

#[test]
fn a_game_longer_than_its_lease_stays_with_the_worker_that_renews_it() {
    let (_pg, url, dir) = database_and_folder("lease_renewal", "workers-lease");
    write(&dir, "deep.wat", &thinker("deep-thinks", 60_000_000));
    write(&dir, "deeper.wat", &thinker("deeperthink", 80_000_000));
    let league = write(&dir, "league.toml", LONG_GAMES);
    let (mut driver, db) = enqueue(&url, &dir, &league, 2);
    // Two workers with 2 s leases, renewed every half second. The first takes both games (its
    // first batch holds two): it plays one while the other waits in its queue, leased for both
    // games' time. The second, started then, has nothing to play and looks for games every half
    // second, leases that ran out first: a lease that lapsed would be taken.
    let w1 = Worker::start(&dir, &url, "w1", 2);
    wait_until("w1 leases both games", 120, || {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE status = 'running' \
             AND lease_owner LIKE 'w1#%'",
            &[],
        ) == 2
    });
    let mut workers = [w1, Worker::start(&dir, &url, "w2", 2)];

    // While the games are played: a game seen still leased to the same worker after the lease it
    // was first seen with ran out was kept by a renewal (the premise: games outlive a lease).
    let now_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
    };
    let mut first_seen: BTreeMap<(i64, String), i64> = BTreeMap::new();
    let mut outlived = std::collections::BTreeSet::new();
    let started = Instant::now();
    let status = loop {
        if let Ok(Some(s)) = driver.try_wait() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the league did not finish; see {}",
            dir.display()
        );
        let rows = db.rt.block_on(
            sqlx::query(
                "SELECT game, lease_owner, lease_expires_ms FROM league_games \
                 WHERE status = 'running'",
            )
            .fetch_all(&db.pool),
        );
        let now = now_ms();
        for r in rows.iter().flatten() {
            let game: i64 = r.try_get("game").unwrap();
            let owner: String = r.try_get("lease_owner").unwrap();
            let expires: i64 = r.try_get("lease_expires_ms").unwrap();
            let first = *first_seen.entry((game, owner)).or_insert(expires);
            if now > first + 250 && expires > now {
                outlived.insert(game);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        status.success(),
        "{}{}",
        std::fs::read_to_string(dir.join("league.out")).unwrap_or_default(),
        std::fs::read_to_string(dir.join("league.err")).unwrap_or_default()
    );
    assert!(
        !outlived.is_empty(),
        "no game was seen to outlive its first lease (games too short for the test?): {first_seen:?}"
    );

    // Each game was leased once, by one worker, and counted once: no lease ran out.
    assert_eq!(
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE status = 'collected' AND claims = 1 \
             AND played_by LIKE 'w1#%'",
            &[]
        ),
        2,
        "a game was taken from the worker that was playing it: {:?}",
        db.rt
            .block_on(
                sqlx::query("SELECT game, status, claims, played_by FROM league_games")
                    .fetch_all(&db.pool)
            )
            .unwrap()
            .iter()
            .map(|r| format!(
                "game {} {} claims {} by {:?}",
                r.try_get::<i64, _>("game").unwrap(),
                r.try_get::<String, _>("status").unwrap(),
                r.try_get::<i64, _>("claims").unwrap(),
                r.try_get::<Option<String>, _>("played_by").unwrap()
            ))
            .collect::<Vec<_>>()
    );
    // Every game a worker played was counted: none was played twice.
    let mut counted = 0;
    for w in &mut workers {
        let status = w.stop();
        assert!(status.success(), "{status}: see {}", w.log.display());
        let line = w.stdout();
        let number = |after: &str| -> u64 {
            line.split(after)
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.trim_start_matches('(').parse().ok())
                .unwrap_or_else(|| panic!("no {after:?} in {line:?}"))
        };
        let (played, counted_here) = (number(": "), number("played "));
        assert_eq!(played, counted_here, "{line}");
        counted += counted_here;
    }
    assert_eq!(counted, 2);
    let verify = arena()
        .args(["verify", "--league"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert_eq!(verify.status.code(), Some(0), "{}", text(&verify));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shared cluster (held for as long as the test uses its database: the cluster stops when
/// no test holds it), a new database `name` in it (its URL), and a fresh folder `folder`.
fn database_and_folder(
    name: &str,
    folder: &str,
) -> (
    std::sync::Arc<pg_support::Cluster>,
    String,
    serve_support::TempDir,
) {
    let pg = pg_support::shared();
    let url = pg.create_database(name);
    (pg, url, temp_dir(folder))
}

/// A runtime of two threads and, on it, the arena's database layer over `url`.
fn arena_db(url: &str) -> (tokio::runtime::Runtime, arena::jobs::db::Db) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let db = rt.block_on(arena::jobs::db::Db::open_shared(url)).unwrap();
    (rt, db)
}

/// A pool of one connection to `url`, on the runtime `rt` that drives its connection: another
/// session, which holds locks the test chooses.
fn other_session(rt: &tokio::runtime::Runtime, url: &str) -> sqlx::AnyPool {
    rt.block_on(
        sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect(url),
    )
    .unwrap()
}

/// Two writers that lock the same games in opposite orders deadlock, and PostgreSQL aborts one of
/// them. When that one is a worker's commit of results, the results are written again: counted
/// once, not lost, and no error for the worker. Another session holds one game and then asks
/// for the other while the results are being written; it waits far longer before it looks for a
/// deadlock, so the results' transaction is the one aborted. Both orders are tried: whichever
/// order the plan locks rows in, one of them deadlocks.
#[test]
fn results_aborted_to_break_a_deadlock_are_written_again() {
    let pg = pg_support::shared();
    let url = pg.create_database("deadlock_retry");
    let (rt, db) = arena_db(&url);
    let test = Db::connect(&url);
    // The other session's pool lives on the runtime that drives its connections.
    let sessions = other_session(&rt, &url);
    test.exec(
        "INSERT INTO games (id, stage, group_key, cycle, rotation, seed, status, scheduled_ms) \
         VALUES (1, 'ladder', 'g', 0, 0, 1, 'scheduled', 0), \
         (2, 'ladder', 'g', 0, 1, 2, 'scheduled', 0)",
    );
    let deadlocks = || {
        test.int(
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()",
            &[],
        )
    };
    let before = deadlocks();
    for (first, second) in [(1, 2), (2, 1)] {
        test.exec(
            "UPDATE games SET status = 'running', lease_owner = 'w', lease_expires_ms = 1, \
             result = NULL, record = NULL",
        );
        test.exec("DELETE FROM game_records");
        let mut other = rt.block_on(sessions.begin()).unwrap();
        rt.block_on(async {
            sqlx::query("SET LOCAL deadlock_timeout = '60s'")
                .execute(&mut *other)
                .await
                .unwrap();
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT id FROM games WHERE id = {first} FOR UPDATE"
            )))
            .fetch_all(&mut *other)
            .await
            .unwrap();
        });
        let results: Vec<arena::jobs::ladder_queue::Finished> = [1, 2]
            .into_iter()
            .map(|id| arena::jobs::ladder_queue::Finished {
                id,
                owner: "w".into(),
                result: format!("{{\"id\":{id}}}"),
                record: format!("records/{id}.jsonl"),
                record_bytes: Some(vec![id as u8]),
                remote: false,
                now_ms: 2,
            })
            .collect();
        let writer = {
            let db = db.clone();
            rt.spawn(async move { db.finish(&results).await })
        };
        wait_until("the results wait for the other session's lock", 30, || {
            test.int(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
                 AND wait_event_type = 'Lock'",
                &[],
            ) > 0
        });
        rt.block_on(async {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT id FROM games WHERE id = {second} FOR UPDATE"
            )))
            .fetch_all(&mut *other)
            .await
            .unwrap();
            other.commit().await.unwrap();
        });
        let counted = rt
            .block_on(writer)
            .unwrap()
            .unwrap_or_else(|e| panic!("the results were lost: {e:#}"));
        assert_eq!(counted, vec![true, true], "locked {first} then {second}");
        assert_eq!(
            test.int(
                "SELECT COUNT(*) FROM games WHERE status = 'done' AND lease_owner IS NULL",
                &[]
            ),
            2
        );
        assert_eq!(test.int("SELECT COUNT(*) FROM game_records", &[]), 2);
    }
    // The deadlock did happen (the statistics reach the view within a second or so).
    wait_until("PostgreSQL counts the deadlock", 30, || {
        deadlocks() > before
    });
}

/// Fast games (two passers, 30 rounds: a few milliseconds each), many of them.
const FAST_LEAGUE: &str = r#"
name = "backlog"
players_per_game = 2
games_per_group = 3000
seed = 3
round_cap = 30
double_play = 0
[[agent]]
name = "p1"
path = "passer.wat"
[[agent]]
name = "p2"
path = "passer.wat"
"#;

/// The resident memory of process `pid`, in MiB (Linux `/proc`).
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// A worker whose results the database writes far slower than it plays them stops taking games:
/// the games it holds stay bounded, however long the database is slow. The records in its memory
/// are those of games it holds (played, not yet written), bounded alike; its VmRSS is printed.
/// Then the database is fast again and the league ends as any other.
#[test]
fn a_worker_whose_results_are_written_slowly_holds_a_bounded_number_of_games() {
    let (_pg, url, dir) = database_and_folder("backlog", "workers-backlog");
    write(&dir, "passer.wat", &passer());
    let league = write(&dir, "league.toml", FAST_LEAGUE);
    let (mut league_run, db) = enqueue(&url, &dir, &league, 3000);
    // Every result takes the database 40 ms to write: 25 games a second at most.
    db.exec(
        "CREATE FUNCTION slow_result() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN PERFORM pg_sleep(0.04); RETURN NEW; END $$",
    );
    db.exec(
        "CREATE TRIGGER slow_result BEFORE UPDATE ON league_games FOR EACH ROW \
         WHEN (NEW.status = 'done' AND OLD.status = 'running') EXECUTE FUNCTION slow_result()",
    );
    let deadlocks_before = deadlocks(&db);
    let mut w = Worker::start(&dir, &url, "fast", 10);
    let pid = w.child.as_ref().unwrap().id();
    let held = || {
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE status = 'running' \
             AND lease_owner LIKE 'fast#%'",
            &[],
        )
    };
    let (mut most, mut rss) = (0, 0.0f64);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        most = most.max(held());
        rss = rss.max(rss_mib(pid));
        std::thread::sleep(Duration::from_millis(100));
    }
    let bound = arena::distributed::worker::most_in_hand(1) as i64;
    let written = db.int(
        "SELECT COUNT(*) FROM league_games WHERE status IN ('done', 'collected')",
        &[],
    );
    eprintln!(
        "a worker of 1 thread, its results written at 25 a second for 20 s: at most {most} \
         games held (bound {bound}), {written} written, VmRSS at most {rss:.0} MiB"
    );
    assert!(
        most >= 2,
        "the worker took no games: see {}",
        w.log.display()
    );
    assert!(
        most <= bound,
        "the worker held {most} games while its results waited (at most {bound})"
    );

    // The database writes fast again: the league ends, every game counted once.
    db.exec("DROP TRIGGER slow_result ON league_games");
    let status = wait(&mut league_run, 600).expect("the league did not finish");
    assert!(
        status.success(),
        "{}",
        std::fs::read_to_string(dir.join("league.err")).unwrap_or_default()
    );
    let status = w.stop();
    assert!(status.success(), "{status}: see {}", w.log.display());
    assert_eq!(
        db.int(
            "SELECT COUNT(*) FROM league_games WHERE status = 'collected'",
            &[]
        ),
        3000
    );
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(
        deadlocks(&db),
        deadlocks_before,
        "deadlocks between renewals and commits"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker renews its leases while its committer writes results, on two connections. Were they
/// to lock the same rows in two orders (a renewal in the table's physical order, a commit in key
/// order), they would deadlock, and PostgreSQL would break it after a second. Here a renewal that
/// scans the table and a commit that follows the key are made to meet on a row another session
/// holds: the renewal skips the rows others hold, the commit waits in key order, and nothing
/// deadlocks.
#[test]
fn a_worker_s_renewal_and_its_commit_never_deadlock() {
    let pg = pg_support::shared();
    let url = pg.create_database("lock_order");
    let (rt, db) = arena_db(&url);
    // The renewals' connections scan tables in their physical order, as the plan of a renewal of
    // many rows does.
    let scanning = rt
        .block_on(arena::jobs::db::Db::open_shared(&format!(
            "{url}?options[enable_indexscan]=off&options[enable_bitmapscan]=off"
        )))
        .unwrap();
    let test = Db::connect(&url);
    let sessions = other_session(&rt, &url);
    test.exec(
        "INSERT INTO leagues (id, fingerprint, name, settings, arena_version, status, created_ms) \
         VALUES (1, 'a', 'a', '{}', 'v', 'playing', 0), (2, 'b', 'b', '{}', 'v', 'done', 0)",
    );
    // The worker's 8 games, stored in the reverse of their key order, then many others.
    test.exec(
        "INSERT INTO league_games (league_id, game, status, lease_owner, lease_expires_ms) \
         SELECT 1, g, 'running', 'w#1-00000000', 1 FROM generate_series(7, 0, -1) AS g",
    );
    test.exec(
        "INSERT INTO league_games (league_id, game, status) \
         SELECT 2, g, 'collected' FROM generate_series(0, 19999) AS g",
    );
    test.exec("ANALYZE league_games");
    let before = deadlocks(&test);
    let waiting = || {
        test.int(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
             AND wait_event_type = 'Lock'",
            &[],
        )
    };

    // Another session holds game 4.
    let mut other = rt.block_on(sessions.begin()).unwrap();
    rt.block_on(
        sqlx::query("SELECT game FROM league_games WHERE league_id = 1 AND game = 4 FOR UPDATE")
            .fetch_all(&mut *other),
    )
    .unwrap();
    let renewal = {
        let scanning = scanning.clone();
        rt.spawn(async move { scanning.renew_league_games("w#1-00000000", 99).await })
    };
    std::thread::sleep(Duration::from_millis(500));
    let results: Vec<arena::jobs::league_queue::LeagueFinished> = (0..8)
        .map(|game| arena::jobs::league_queue::LeagueFinished {
            game: arena::jobs::league_queue::LeagueGame { league: 1, game },
            owner: "w#1-00000000".into(),
            result: format!("{{\"id\":{game}}}"),
            record: vec![game as u8],
        })
        .collect();
    let commit = {
        let db = db.clone();
        rt.spawn(async move { db.finish_league_games(&results).await })
    };
    wait_until("the commit waits for game 4", 30, || {
        waiting() >= 1 && (renewal.is_finished() || waiting() >= 2)
    });
    std::thread::sleep(Duration::from_millis(200));
    rt.block_on(other.commit()).unwrap();

    let renewed = rt.block_on(renewal).unwrap().unwrap();
    let counted = rt.block_on(commit).unwrap().unwrap();
    assert_eq!(counted, vec![true; 8], "every result counted");
    assert!(renewed <= 8, "{renewed}");
    assert_eq!(
        test.int(
            "SELECT COUNT(*) FROM league_games WHERE league_id = 1 AND status = 'done'",
            &[]
        ),
        8
    );
    // The statistics reach the view within a second or so.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        deadlocks(&test),
        before,
        "the renewal and the commit deadlocked"
    );
}
