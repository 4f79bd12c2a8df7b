//! Shared helpers of the `arena serve` tests: a real server process on a free loopback port with
//! its own data folder, an HTTP client, and agents written in WebAssembly text.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

#[path = "../scratch/mod.rs"]
mod scratch;
pub use scratch::{workspace, TempDir};

pub fn arena() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arena"));
    // Each test's compiled modules stay in its own folder.
    c.env_remove("ARENA_TOKEN");
    c
}

/// A fresh, empty folder for one test, removed when the test passes (see `scratch`).
pub fn temp_dir(name: &str) -> TempDir {
    TempDir::new(&workspace(), "serve-tmp", name)
}

/// A small, quick ladder: short games, few games per version; `workers` of the server's own (0
/// where an `arena worker` process plays the games instead).
pub fn quick_ladder(workers: u32, max_games_per_version: u32) -> String {
    format!(
        r#"
round_cap = 60
workers = {workers}
[ladder]
placement_games = 2
max_games_per_version = {max_games_per_version}
[uploads]
check_games = 2
"#
    )
}

/// A ladder for the tests of uploads: one worker of the server's own, short games, one check
/// game per upload; `top` adds lines to the challenge file's top level, `uploads` to its
/// `[uploads]` section.
pub fn upload_ladder(top: &str, uploads: &str) -> String {
    format!("workers = 1\nround_cap = 30\n{top}[uploads]\n{uploads}check_games = 1\n")
}

/// The hand-written climber (buys animals, logs what it buys) with its log text replaced by
/// `tag` (exactly 11 bytes), so that each contestant's log is recognisable.
pub fn climber(tag: &str) -> String {
    assert_eq!(tag.len(), 11, "the log text keeps its length");
    std::fs::read_to_string(workspace().join("example-agents/wat/climber.wat"))
        .expect("climber.wat")
        .replace(
            "\"climber.wat: buying kind ?",
            &format!("\"{tag}: buying kind ?"),
        )
}

/// The hand-written climber logging `tag` (see [`climber`]), made to think before each trade: a
/// loop of `spin` iterations, a few instructions each.
pub fn thinker(tag: &str, spin: u64) -> String {
    let climber = climber(tag);
    let trade = "(func (export \"farm_trade\") (param $len i32) (result i32)\n    (local $k i32) (local $r i32)";
    assert!(climber.contains(trade), "climber.wat's farm_trade changed");
    climber.replace(
        trade,
        &format!(
            "{trade} (local $spin i32)\n    (loop $think (local.set $spin (i32.add (local.get $spin) (i32.const 1))) \
             (br_if $think (i32.lt_u (local.get $spin) (i32.const {spin}))))"
        ),
    )
}

/// A passer that writes `tag` to its debug log at every trade decision.
pub fn chatty(tag: &str) -> String {
    format!(
        r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 9000) "{tag}")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param i32) (result i32)
    (call $log (i32.const 9000) (i32.const {len})) (i32.const 0))
  (func (export "farm_accept") (param i32) (result i32) (i32.const 0)))"#,
        len = tag.len()
    )
}

/// The hand-written passer: never trades, declines every offer.
pub fn passer() -> String {
    std::fs::read_to_string(workspace().join("example-agents/wat/passer.wat")).expect("passer.wat")
}

pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write file");
    p
}

/// A running `arena serve`.
pub struct Server {
    pub dir: PathBuf,
    pub config: PathBuf,
    pub url: String,
    child: Option<Child>,
    starts: u32,
    /// The open-files limit the server runs under (`RLIMIT_NOFILE`), if not the test's own.
    pub open_files: Option<u64>,
}

impl Server {
    /// Writes `DIR/challenge.toml` (`data = "data"`, a free port, and `extra`) and starts the
    /// server on it.
    pub fn start(dir: &Path, extra: &str) -> Server {
        Server::start_limited(dir, extra, None)
    }

    /// [`Server::start`] under an open-files limit (`RLIMIT_NOFILE`) of `open_files`.
    pub fn start_with_open_files(dir: &Path, extra: &str, open_files: u64) -> Server {
        Server::start_limited(dir, extra, Some(open_files))
    }

    fn start_limited(dir: &Path, extra: &str, open_files: Option<u64>) -> Server {
        let config = dir.join("challenge.toml");
        std::fs::write(
            &config,
            format!("data = \"data\"\nlisten = \"127.0.0.1:0\"\n{extra}\n"),
        )
        .expect("write challenge.toml");
        let mut s = Server {
            dir: dir.to_path_buf(),
            config,
            url: String::new(),
            child: None,
            starts: 0,
            open_files,
        };
        s.launch();
        s
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a running server").id()
    }

    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn launch(&mut self) {
        self.starts += 1;
        let log = std::fs::File::create(self.dir.join(format!("server-{}.log", self.starts)))
            .expect("log file");
        let mut cmd = arena();
        cmd.arg("serve")
            .arg("--config")
            .arg(&self.config)
            .env("ARENA_CACHE_DIR", self.dir.join("module-cache"))
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log));
        if let Some(n) = self.open_files {
            use std::os::unix::process::CommandExt;
            // SAFETY: setrlimit is async-signal-safe; it only lowers the child's own limit.
            unsafe {
                cmd.pre_exec(move || {
                    let lim = libc::rlimit {
                        rlim_cur: n as libc::rlim_t,
                        rlim_max: n as libc::rlim_t,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn().expect("start arena serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if !sent {
                    if let Some(i) = line.find("listening on http://") {
                        let rest = &line[i + "listening on ".len()..];
                        let url = rest.split_whitespace().next().unwrap_or("").to_string();
                        let _ = tx.send(url);
                        sent = true;
                    }
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("the server did not start; see {}", self.dir.display()));
        self.url = url;
        self.child = Some(child);
    }

    /// SIGKILL, as a crash would.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub fn restart(&mut self) {
        self.kill();
        self.launch();
    }

    /// Stops the server with SIGTERM and waits for it; returns whether it exited cleanly.
    pub fn stop(&mut self) -> bool {
        let Some(mut c) = self.child.take() else {
            return true;
        };
        // SAFETY: sends a signal to our own child process.
        unsafe {
            libc::kill(c.id() as i32, libc::SIGTERM);
        }
        let started = Instant::now();
        loop {
            if let Ok(Some(status)) = c.try_wait() {
                return status.success();
            }
            if started.elapsed() > Duration::from_secs(20) {
                let _ = c.kill();
                let _ = c.wait();
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server and removes the test's folder (kept when a test fails, for its logs).
    pub fn finish(mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    pub fn admin(&self, args: &[&str]) -> Output {
        arena()
            .arg("serve")
            .arg("admin")
            .args(args)
            .arg("--config")
            .arg(&self.config)
            .output()
            .expect("run arena serve admin")
    }

    /// Adds a contestant and returns their token.
    pub fn add_contestant(&self, name: &str) -> String {
        let out = self.admin(&["add-contestant", name]);
        assert!(out.status.success(), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .expect("a token line")
            .trim()
            .to_string()
    }

    /// `arena submit` of `file` with `token`.
    pub fn submit(&self, token: &str, file: &Path) -> Output {
        arena()
            .args(["submit", "--server", &self.url, "--token", token])
            .arg(file)
            .output()
            .expect("run arena submit")
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        request(&format!("{}{path}", self.url), None, None, &[])
    }

    pub fn get_as(&self, token: &str, path: &str) -> (u16, String) {
        request(&format!("{}{path}", self.url), Some(token), None, &[])
    }

    pub fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// `GET path` as the contestant with `token`, as JSON.
    pub fn json_as(&self, token: &str, path: &str) -> Value {
        let (status, body) = self.get_as(token, path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// Polls `GET path` until `done` holds of its JSON, for at most `secs` seconds.
    pub fn wait_for(&self, path: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let v = self.json(path);
            if done(&v) {
                return v;
            }
            assert!(
                started.elapsed() < Duration::from_secs(secs),
                "GET {path} did not reach the expected state in {secs} s: {v}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One HTTP request; `(status, body)`. A body makes it a POST.
pub fn request(
    url: &str,
    token: Option<&str>,
    body: Option<(&str, &[u8])>,
    headers: &[(&str, &str)],
) -> (u16, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into();
    let result = match body {
        Some((content_type, bytes)) => {
            let mut r = agent.post(url).header("Content-Type", content_type);
            if let Some(t) = token {
                r = r.header("Authorization", &format!("Bearer {t}"));
            }
            for (k, v) in headers {
                r = r.header(*k, *v);
            }
            r.send(bytes)
        }
        None => {
            let mut r = agent.get(url);
            if let Some(t) = token {
                r = r.header("Authorization", &format!("Bearer {t}"));
            }
            for (k, v) in headers {
                r = r.header(*k, *v);
            }
            r.call()
        }
    };
    let mut resp = result.unwrap_or_else(|e| panic!("{url}: {e}"));
    let status = resp.status().as_u16();
    let body = resp
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .unwrap_or_default();
    (status, body)
}

pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The leaderboard entry of contestant `name`.
pub fn entry<'a>(board: &'a Value, name: &str) -> Option<&'a Value> {
    board["agents"]
        .as_array()?
        .iter()
        .find(|a| a["name"] == name)
}

/// An agent that passes the shape limits and is slow to compile: `funcs` decision functions of
/// 1,999 live i64 locals (one fewer than the shape limits allow) updated 16 times around a loop
/// (the compile bomb of the attack on the server: 16 such functions took 68.7 s to compile).
pub fn slow_to_compile(funcs: usize, tag: &str) -> String {
    let n = 1_999;
    let mut body = String::new();
    for i in (0..16).flat_map(|_| 0..n) {
        body.push_str(&format!(
            "(local.set {} (i64.add (local.get {}) (local.get {})))\n",
            i + 1,
            i + 1,
            (i + 1) % n + 1
        ));
    }
    let func = format!(
        "(param $len i32) (result i32) (local {})\n(loop $l {body} (br_if $l (i64.eqz (local.get 1))))\n(i32.wrap_i64 (local.get 2))",
        "i64 ".repeat(n)
    );
    let mut extra = String::new();
    for i in 1..funcs {
        extra.push_str(&format!("(func (export \"slow_{i}\") {func})\n"));
    }
    format!(
        r#"(module
  (memory (export "memory") 1)
  (data (i32.const 0) "{tag}")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_accept") (param i32) (result i32) (i32.const 0))
  (func (export "farm_trade") {func})
  {extra})"#
    )
}

/// The pids of the `arena __compile` children of process `parent`.
pub fn compile_children(parent: u32) -> Vec<u32> {
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if ppid == Some(parent) && String::from_utf8_lossy(&cmdline).contains("__compile") {
            pids.push(pid);
        }
    }
    pids
}

/// Whether process `pid` is gone (or a zombie nobody waits for).
pub fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// One raw HTTP/1.1 exchange on a fresh connection: sends `head` (and `body`), reads what comes
/// back within `wait`. For requests a client library would not send.
pub fn raw(url: &str, head: &str, body: &[u8], wait: Duration) -> String {
    use std::io::{Read, Write};
    let addr = url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(wait)).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}
