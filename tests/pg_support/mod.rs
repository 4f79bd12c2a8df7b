//! A real PostgreSQL server for the tests: Debian's server binaries (the `postgresql` package,
//! which scripts/install-test-tools.sh installs; Debian keeps them in
//! /usr/lib/postgresql/VERSION/bin, off the PATH), a cluster made by `initdb` in a temporary
//! folder and started by `pg_ctl` on a free loopback port, with TLS (a certificate of a test
//! authority, made by `openssl`). As root (CI), both run as the unprivileged user `nobody`,
//! owner of the folder: initdb refuses to run as root. The cluster is
//! stopped and its folder removed when the last test holding it is done, also when a test fails
//! (a `Drop` guard). No mock: the arena's SQL runs on the real server.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// A running PostgreSQL cluster.
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    /// The user the server runs as (`nobody` when the tests run as root).
    user: Option<String>,
    pub port: u16,
}

/// The cluster shared by the tests of one test binary: started by the first that asks, stopped
/// when the last one that holds it is done.
pub fn shared() -> Arc<Cluster> {
    static SHARED: Mutex<Weak<Cluster>> = Mutex::new(Weak::new());
    let mut slot = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = slot.upgrade() {
        return c;
    }
    let c = Arc::new(Cluster::start(false));
    *slot = Arc::downgrade(&c);
    c
}

/// The folder of Debian's server binaries (the highest version), or of `initdb` on the PATH.
pub fn server_binaries() -> PathBuf {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            (bin.join("postgres").is_file() && bin.join("initdb").is_file())
                .then_some((version, bin))
        })
        .collect();
    found.sort();
    if let Some((_, bin)) = found.pop() {
        return bin;
    }
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        if dir.join("initdb").is_file() && dir.join("pg_ctl").is_file() {
            return dir;
        }
    }
    panic!(
        "the PostgreSQL server (initdb, pg_ctl, postgres) is not installed: run \
         scripts/install-test-tools.sh (it installs Debian's postgresql package)"
    );
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl Cluster {
    /// Makes and starts a cluster. `durable`: PostgreSQL's defaults (every commit flushed to
    /// disk), as a deployment runs it; otherwise without flushes, which tests of behaviour do not
    /// need.
    pub fn start(durable: bool) -> Cluster {
        let bin = server_binaries();
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let user = root.then(|| "nobody".to_string());
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "arena-pg-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the cluster's folder");
        if let Some(u) = &user {
            let status = Command::new("chown")
                .arg(u)
                .arg(&dir)
                .status()
                .expect("run chown");
            assert!(status.success(), "chown {u} {}", dir.display());
        }
        let mut cluster = Cluster {
            dir,
            bin,
            user,
            port: 0,
        };
        let out = cluster
            .as_server_user(&cluster.bin.join("initdb"))
            .args([
                "-A",
                "trust",
                "-U",
                "arena",
                "-E",
                "UTF8",
                "--no-sync",
                "-D",
            ])
            .arg(cluster.data())
            .output()
            .expect("run initdb");
        assert!(
            out.status.success(),
            "initdb failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        cluster.make_certificates();
        let mut last = String::new();
        // A port found free may be taken before the server binds it: try a few.
        for _ in 0..5 {
            cluster.port = free_port();
            let mut options = format!(
                "-p {} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' \
                 -c max_connections=200 -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                cluster.port,
                cluster.dir.join("server.pem").display(),
                cluster.dir.join("server.key").display(),
            );
            if !durable {
                options.push_str(" -c fsync=off -c synchronous_commit=off -c full_page_writes=off");
            }
            let out = cluster
                .as_server_user(&cluster.bin.join("pg_ctl"))
                .args(["-w", "-t", "60", "-D"])
                .arg(cluster.data())
                .arg("-l")
                .arg(cluster.dir.join("server.log"))
                .args(["-o", &options, "start"])
                .stdin(Stdio::null())
                .output()
                .expect("run pg_ctl start");
            if out.status.success() {
                return cluster;
            }
            last = format!(
                "{}{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
                std::fs::read_to_string(cluster.dir.join("server.log")).unwrap_or_default()
            );
        }
        panic!("PostgreSQL did not start: {last}");
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// A test authority (`ca.pem`) and the server's certificate for 127.0.0.1 signed by it, the
    /// key readable by the server's user only.
    fn make_certificates(&self) {
        let d = &self.dir;
        let openssl = |args: &[&str]| {
            let out = Command::new("openssl")
                .args(args)
                .current_dir(d)
                .output()
                .expect("run openssl (scripts/install-test-tools.sh installs it)");
            assert!(
                out.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        openssl(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=arena test authority",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
        ]);
        openssl(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
        ]);
        std::fs::write(d.join("server.ext"), "subjectAltName=IP:127.0.0.1\n").unwrap();
        openssl(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "server.ext",
            "-out",
            "server.pem",
        ]);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(d.join("server.key"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        if let Some(u) = &self.user {
            for f in ["server.key", "server.pem"] {
                let status = Command::new("chown")
                    .arg(u)
                    .arg(d.join(f))
                    .status()
                    .unwrap();
                assert!(status.success());
            }
        }
    }

    /// The URL of database `name` over TLS, the server's certificate verified against the test
    /// authority (as workers on other machines reach it).
    pub fn tls_url(&self, name: &str) -> String {
        format!(
            "{}?sslmode=verify-full&sslrootcert={}",
            self.url(name),
            self.dir.join("ca.pem").display()
        )
    }

    /// The same with a certificate of no authority the client trusts (its own, self-issued
    /// certificate as a root that did not sign the server's).
    pub fn tls_url_wrong_authority(&self, name: &str) -> String {
        format!(
            "{}?sslmode=verify-full&sslrootcert={}",
            self.url(name),
            self.dir.join("server.pem").display()
        )
    }

    fn as_server_user(&self, program: &Path) -> Command {
        match &self.user {
            Some(u) => {
                let mut c = Command::new("runuser");
                c.args(["-u", u, "--"]).arg(program);
                c
            }
            None => Command::new(program),
        }
    }

    /// The URL of database `name` in this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://arena@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates an empty database `name` (dropping one of that name) and returns its URL.
    pub fn create_database(&self, name: &str) -> String {
        block_on(async {
            let pool = sqlx::AnyPool::connect(&self.url("postgres"))
                .await
                .expect("connect to the cluster");
            let drop = format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)");
            sqlx::query(sqlx::AssertSqlSafe(drop))
                .execute(&pool)
                .await
                .expect("drop database");
            let create = format!("CREATE DATABASE \"{name}\"");
            sqlx::query(sqlx::AssertSqlSafe(create))
                .execute(&pool)
                .await
                .expect("create database");
            pool.close().await;
        });
        self.url(name)
    }

    /// Ends every connection to database `name` but the caller's (a lost connection, as a
    /// network cut or a restarted server makes it). Returns how many were ended.
    pub fn cut_connections(&self, name: &str) -> i64 {
        block_on(async {
            let pool = sqlx::AnyPool::connect(&self.url("postgres")).await.unwrap();
            let rows = sqlx::query(
                "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity \
                 WHERE datname = $1 AND pid <> pg_backend_pid()",
            )
            .bind(name)
            .fetch_all(&pool)
            .await
            .unwrap();
            pool.close().await;
            rows.len() as i64
        })
    }
}

/// Runs `f` to its end on a runtime of its own, with sqlx's drivers installed.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    sqlx::any::install_default_drivers();
    rt.block_on(f)
}

impl Cluster {
    /// CPU time (user and system, seconds) the server has used so far: the postmaster and its
    /// processes, those that ended included (Linux `/proc`).
    pub fn cpu_seconds(&self) -> f64 {
        let pid_file =
            std::fs::read_to_string(self.data().join("postmaster.pid")).expect("postmaster.pid");
        let postmaster: u32 = pid_file.lines().next().unwrap().trim().parse().unwrap();
        // SAFETY: sysconf has no preconditions.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        let mut total = 0u64;
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // After the command's closing parenthesis: state, ppid, ..., utime (14th field of
            // the whole line), stime, cutime, cstime.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            let pid: u32 = entry.file_name().to_string_lossy().parse().unwrap_or(0);
            let ppid: u32 = f.get(1).and_then(|p| p.parse().ok()).unwrap_or(0);
            if pid != postmaster && ppid != postmaster {
                continue;
            }
            for i in 11..15 {
                total += f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            }
        }
        total as f64 / ticks
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let started = Instant::now();
        let _ = self
            .as_server_user(&self.bin.join("pg_ctl"))
            .args(["-m", "immediate", "-w", "-D"])
            .arg(self.data())
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        while started.elapsed() < Duration::from_secs(10)
            && self.data().join("postmaster.pid").exists()
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `mod NAME { sqlite, postgres }`: the test `NAME(database)` on each database; `short` names its
/// PostgreSQL database. For the test binaries that declare this module with `#[macro_use]`.
#[allow(unused_macros)]
macro_rules! on_both_databases {
    ($name:ident, $short:literal) => {
        mod $name {
            #[test]
            fn sqlite() {
                super::$name($crate::pg_support::Database::sqlite())
            }

            #[test]
            fn postgres() {
                super::$name($crate::pg_support::Database::postgres($short))
            }
        }
    };
}

/// Where a test's server keeps its database: SQLite in its data folder (the default), or a
/// database of the test cluster (`database = "postgres://..."` in the challenge file).
pub enum Database {
    Sqlite,
    Postgres { cluster: Arc<Cluster>, url: String },
}

impl Database {
    pub fn sqlite() -> Database {
        Database::Sqlite
    }

    /// A new database `name` in the shared cluster.
    pub fn postgres(name: &str) -> Database {
        let cluster = shared();
        let url = cluster.create_database(name);
        Database::Postgres { cluster, url }
    }

    /// `sqlite` or `postgres`, for folder names.
    pub fn name(&self) -> &'static str {
        match self {
            Database::Sqlite => "sqlite",
            Database::Postgres { .. } => "postgres",
        }
    }

    pub fn url(&self) -> Option<&str> {
        match self {
            Database::Sqlite => None,
            Database::Postgres { url, .. } => Some(url),
        }
    }

    /// The challenge file's line that chooses this database (to go before any table).
    pub fn challenge_line(&self) -> String {
        match self.url() {
            None => String::new(),
            Some(url) => format!("database = \"{url}\"\n"),
        }
    }

    /// A fresh folder for the test `name` on this database, and a server in it on this database
    /// with the challenge keys `extra`.
    pub fn serve(
        &self,
        name: &str,
        extra: &str,
    ) -> (crate::serve_support::TempDir, crate::serve_support::Server) {
        let dir = crate::serve_support::temp_dir(&format!("{name}-{}", self.name()));
        let config = format!("{}{extra}", self.challenge_line());
        let server = crate::serve_support::Server::start(&dir, &config);
        (dir, server)
    }

    /// An `arena worker` process named `name` on this database (none with SQLite), stopped when
    /// dropped.
    pub fn worker(&self, dir: &Path, name: &str) -> Option<WorkerProcess> {
        let url = self.url()?;
        let log = dir.join(format!("worker-{name}.log"));
        let child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["worker", "--threads", "1", "--lease", "5", "--name", name])
            .args(["--database", url])
            .env("ARENA_CACHE_DIR", dir.join("worker-cache"))
            .stdout(Stdio::null())
            .stderr(Stdio::from(std::fs::File::create(&log).expect("log file")))
            .spawn()
            .expect("start arena worker");
        Some(WorkerProcess { child })
    }

    /// The first column of the first row of `sql` (an integer) in this database.
    pub fn int(&self, sql: &str) -> i64 {
        let url = self.url().expect("a PostgreSQL database");
        block_on(async {
            let pool = sqlx::AnyPool::connect(url).await.unwrap();
            let row = sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
                .fetch_one(&pool)
                .await
                .unwrap_or_else(|e| panic!("{sql}: {e}"));
            pool.close().await;
            sqlx::Row::try_get::<i64, _>(&row, 0).unwrap()
        })
    }
}

/// A running `arena worker`, killed when dropped.
pub struct WorkerProcess {
    child: std::process::Child,
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
