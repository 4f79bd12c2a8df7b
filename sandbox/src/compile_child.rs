//! The compiler child process, both sides of its protocol. The parent ([`compile_in_child`])
//! starts the `arena` binary with [`COMPILE_SUBCOMMAND`] and a JSON request, writes the cache's
//! secret (when the compiled-function cache is used) and the module on its stdin, reads the
//! artifact on its stdout, and kills it at the wall-clock deadline. The child ([`child_main`])
//! limits itself (address space, CPU time, no core dumps, death with its parent), compiles, and
//! reports on its last stderr line what the compiled-function cache gave.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};

use super::cache::{self, ModuleCache};
use super::compile::CompileLimits;
use super::config::{self, Limits};
use super::faults::one_line;
use super::function_cache::{FunctionCache, FunctionCacheUse};
use super::host_failure::HostFailure;
use super::shape::check_shape;

/// The hidden subcommand that makes `arena` a compiler child: `arena __compile JSON` reads a
/// module on stdin and writes the serialized artifact on stdout.
pub const COMPILE_SUBCOMMAND: &str = "__compile";

/// Compiles `wasm` (a `what`: "module" or "component", for messages) in a child process run from
/// `exe`, within `compile`'s limits, with the compiled-function cache of `functions` if given;
/// and what the child did with that cache.
pub(crate) fn compile_in_child(
    exe: &Path,
    compile: &CompileLimits,
    limits: &Limits,
    wasm: &[u8],
    what: &str,
    functions: Option<&ModuleCache>,
) -> anyhow::Result<(Vec<u8>, Option<FunctionCacheUse>)> {
    let request = ChildRequest {
        limits: limits.clone(),
        compile: compile.clone(),
        parent: Some(std::process::id()),
        functions: functions.map(|c| c.dir().to_path_buf()),
    };
    let child = spawn(exe, &request)?;
    let secret = functions.map(|c| *c.secret());
    let cap = compile.artifact_bytes;
    let deadline = Instant::now() + Duration::from_millis(compile.time_ms);
    let (status, artifact, errors) = run_to_deadline(child, secret, wasm, cap, deadline);
    let Some(status) = status else {
        bail!(
            "compiling the {what} took longer than {} s, the arena's limit; the {what} is \
             refused",
            compile.time_ms as f64 / 1000.0
        );
    };
    let errors = String::from_utf8_lossy(&errors);
    let errors = errors.trim();
    check_status(status, errors, what, compile)?;
    if artifact.len() as u64 > cap {
        bail!("the compiled {what} is larger than the arena's limit of {cap} bytes");
    }
    let used = functions.and_then(|_| functions_used(errors));
    Ok((artifact, used))
}

/// Starts the compiler child for `request`, its three standard streams piped.
fn spawn(exe: &Path, request: &ChildRequest) -> anyhow::Result<Child> {
    let child = Command::new(exe)
        // glibc gives each compiler thread that allocates concurrently its own malloc arena,
        // reserving 64 MiB of address space each: under the child's RLIMIT_AS whether an
        // ordinary module compiles would then depend on thread timing. One arena makes the
        // address space the compile uses the same from run to run.
        .env("MALLOC_ARENA_MAX", "1")
        .arg(COMPILE_SUBCOMMAND)
        .arg(serde_json::to_string(request)?)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            HostFailure(format!(
                "cannot start the compiler process {}: {e}",
                exe.display()
            ))
        })?;
    Ok(child)
}

/// Feeds the child the secret and the module, reads its stdout (at most `cap` + 1 bytes) and
/// stderr (64 KiB) while waiting for it to end; kills it at `deadline`. Returns its exit status
/// (`None`: killed at the deadline, or it could not be waited for), stdout and stderr.
fn run_to_deadline(
    mut child: Child,
    secret: Option<[u8; 32]>,
    wasm: &[u8],
    cap: u64,
    deadline: Instant,
) -> (Option<ExitStatus>, Vec<u8>, Vec<u8>) {
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    std::thread::scope(|s| {
        s.spawn(move || feed(stdin, secret, wasm));
        let out = s.spawn(move || read_capped(stdout, cap + 1));
        let err = s.spawn(move || read_capped(stderr, 64 << 10));
        let status = wait_until(&mut child, deadline);
        (
            status,
            out.join().unwrap_or_default(),
            err.join().unwrap_or_default(),
        )
    })
}

fn feed(mut stdin: ChildStdin, secret: Option<[u8; 32]>, wasm: &[u8]) {
    if let Some(secret) = secret {
        let _ = stdin.write_all(&secret);
    }
    let _ = stdin.write_all(wasm);
}

fn read_capped(stream: impl Read, cap: u64) -> Vec<u8> {
    let mut buf = Vec::new();
    let _ = stream.take(cap).read_to_end(&mut buf);
    buf
}

/// The child's exit status, or `None` once it was killed at `deadline` (or cannot be waited for).
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Fails, saying why, unless the child succeeded: the CPU deadline (the module's refusal), a
/// kill from outside (the host's failure), another signal or its own error message.
fn check_status(
    status: ExitStatus,
    errors: &str,
    what: &str,
    compile: &CompileLimits,
) -> anyhow::Result<()> {
    #[cfg(unix)]
    if std::os::unix::process::ExitStatusExt::signal(&status) == Some(libc::SIGXCPU) {
        bail!(
            "compiling the {what} took more than {} s of CPU time, the arena's limit; the \
             {what} is refused",
            cpu_seconds(compile)
        );
    }
    if !status.success() {
        #[cfg(unix)]
        if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
            // The arena kills the child only at the deadline (above), and its own limits
            // end it with other signals (SIGXCPU, SIGABRT, SIGSEGV): SIGKILL came from
            // outside, most likely the out-of-memory killer. Not the module's doing.
            if signal == libc::SIGKILL {
                return Err(HostFailure(format!(
                    "the compiler process was killed (signal {signal}) from outside the \
                     arena, most likely by the out-of-memory killer; give the arena more \
                     memory and try again{}{}",
                    if errors.is_empty() { "" } else { ": " },
                    errors
                ))
                .into());
            }
            bail!(
                "the compiler process was stopped by signal {signal} (limits: {} MiB of \
                 address space, {} s of CPU time){}{}",
                compile.memory_bytes >> 20,
                cpu_seconds(compile),
                if errors.is_empty() { "" } else { ": " },
                errors
            );
        }
        if errors.is_empty() {
            bail!("the compiler process failed ({status})");
        }
        bail!("{errors}");
    }
    Ok(())
}

/// What the compiled-function cache gave, from the child's last line on stderr (on success).
fn functions_used(errors: &str) -> Option<FunctionCacheUse> {
    errors
        .lines()
        .last()
        .and_then(|l| l.strip_prefix(FUNCTIONS_LINE))
        .and_then(|l| serde_json::from_str::<ChildFunctions>(l).ok())
        .map(|f| FunctionCacheUse {
            hits: f.hits,
            compiled: f.compiled,
            stored: f.stored,
        })
}

#[derive(Serialize, Deserialize)]
struct ChildRequest {
    limits: Limits,
    compile: CompileLimits,
    /// The parent's process id: the child ends at once if it is no longer its parent (the
    /// parent died before the child asked to die with it).
    #[serde(default)]
    parent: Option<u32>,
    /// The module cache's folder, whose compiled-function cache the child uses; its secret comes
    /// first on stdin.
    #[serde(default)]
    functions: Option<PathBuf>,
}

/// The CPU time of the compile deadline in whole seconds (the rlimit's unit), at least 1.
fn cpu_seconds(c: &CompileLimits) -> u64 {
    c.cpu_ms.div_ceil(1000).max(1)
}

/// The start of the child's last line on stderr when it used the compiled-function cache.
const FUNCTIONS_LINE: &str = "compiled-function cache: ";

#[derive(Serialize, Deserialize)]
struct ChildFunctions {
    hits: usize,
    compiled: usize,
    stored: bool,
}

/// The compiler child: `arena __compile JSON`. Limits itself, reads the module on stdin, writes
/// the artifact on stdout. Returns the exit status.
pub fn child_main(args: &[String]) -> i32 {
    match child(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e:#}");
            1
        }
    }
}

fn child(args: &[String]) -> anyhow::Result<()> {
    let [json] = args else {
        bail!("usage: arena {COMPILE_SUBCOMMAND} REQUEST_JSON < module.wasm > artifact");
    };
    let req: ChildRequest = serde_json::from_str(json).context("bad compile request")?;
    die_with_parent(req.parent);
    limit_self(&req.compile);
    let mut stdin = std::io::stdin().lock();
    let mut secret = [0u8; 32];
    if req.functions.is_some() {
        stdin
            .read_exact(&mut secret)
            .context("cannot read the cache's secret")?;
    }
    let mut wasm = Vec::new();
    stdin
        .take(req.limits.module_bytes + 1)
        .read_to_end(&mut wasm)
        .context("cannot read the module")?;
    if wasm.len() as u64 > req.limits.module_bytes {
        bail!("the module is larger than the limit");
    }
    check_shape(&wasm, &req.compile.shape)?;
    let mut engine = config::on_demand_engine(&req.limits)?;
    let store = req.functions.as_deref().and_then(|dir| {
        match FunctionCache::open(
            dir,
            secret,
            &cache::engine_key(&engine),
            &req.compile.functions,
        ) {
            Ok(s) => Some(std::sync::Arc::new(s)),
            Err(e) => {
                eprintln!("warning: compiled-function cache not used: {e:#}");
                None
            }
        }
    });
    if let Some(store) = &store {
        engine = config::caching_engine(&req.limits, store.clone())?;
    }
    let artifact = if super::component::is_component(&wasm) {
        engine.precompile_component(&wasm)
    } else {
        engine.precompile_module(&wasm)
    }
    .map_err(|e| anyhow!("cannot compile the module: {}", one_line(&e)))?;
    let mut out = std::io::stdout().lock();
    out.write_all(&artifact)?;
    out.flush()?;
    drop(out);
    if let Some(store) = store {
        let used = store.finish();
        let line = serde_json::to_string(&ChildFunctions {
            hits: used.hits,
            compiled: used.compiled,
            stored: used.stored,
        })?;
        eprintln!("{FUNCTIONS_LINE}{line}");
    }
    Ok(())
}

/// Asks the kernel to kill this child when the thread that started it ends (the parent waits for
/// it on that thread: so when the parent process dies, however it is stopped), and ends at once
/// if the parent is already gone.
#[cfg(target_os = "linux")]
fn die_with_parent(parent: Option<u32>) {
    use rustix::process::{set_parent_process_death_signal, Signal};
    if set_parent_process_death_signal(Some(Signal::KILL)).is_err() {
        return;
    }
    if parent.is_some_and(|p| p != std::os::unix::process::parent_id()) {
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_parent: Option<u32>) {}

/// Address space, CPU time and core dumps of the compiler child.
#[cfg(unix)]
fn limit_self(c: &CompileLimits) {
    let set = |resource, soft: u64, hard: u64| {
        let lim = libc::rlimit {
            rlim_cur: soft as libc::rlim_t,
            rlim_max: hard as libc::rlim_t,
        };
        // SAFETY: setrlimit reads a valid rlimit struct; failure leaves the old limit.
        unsafe { libc::setrlimit(resource, &lim) };
    };
    set(libc::RLIMIT_AS, c.memory_bytes, c.memory_bytes);
    // CPU time is summed over the compiler's threads. SIGXCPU at the soft limit ends the child
    // (the parent names it the compile deadline); SIGKILL a second later, should it not.
    let cpu = cpu_seconds(c);
    set(libc::RLIMIT_CPU, cpu, cpu + 1);
    set(libc::RLIMIT_CORE, 0, 0);
}
