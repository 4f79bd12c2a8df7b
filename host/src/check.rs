//! What a check tells of an agent once it is loaded: its description (size, digest, the games it
//! plays, its imports), its smoke games in each game it plays, and the verdict. `arena check` and
//! the server's upload checks both give this report, so that a contestant sees the same words at
//! the terminal and on the challenge's page.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use crate::game::{Game, Host, SmokeOptions};
use crate::sandbox::{AgentModule, Origin};
use crate::terminal;

/// `writeln!` whose error is ignored: a closed standard output must not change the verdict (the
/// exit status says it), and a `Vec<u8>` never fails.
macro_rules! say {
    ($out:expr) => {
        let _ = writeln!($out);
    };
    ($out:expr, $($arg:tt)*) => {
        let _ = writeln!($out, $($arg)*);
    };
}

/// What `arena check` does once the agent is loaded (in `compile`): describes it, plays the smoke
/// games of each of `games`, and gives the verdict, all written to `out`. Returns the errors; none
/// means the agent passes; an error is the host's own failure (no verdict on the agent). `arena
/// serve` checks uploads with it.
pub fn check_loaded(
    module: &AgentModule,
    compile: Duration,
    games: &[&'static dyn Game],
    opts: &SmokeOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Vec<String>> {
    check_module(module, compile, games, opts, out).map(|(errors, _)| errors)
}

/// [`check_loaded`], returning the warnings too (each with its count).
pub fn check_module(
    module: &AgentModule,
    compile: Duration,
    games: &[&'static dyn Game],
    opts: &SmokeOptions,
    out: &mut dyn Write,
) -> anyhow::Result<(Vec<String>, BTreeMap<String, u32>)> {
    describe(module, compile, out);
    let mut errors = Vec::new();
    let mut warnings = BTreeMap::<String, u32>::new();
    let host = Host {
        sandbox: Some(module.sandbox()),
    };
    for game in games {
        let smoke = game.smoke(&host, module, opts, out)?;
        for (warning, n) in &smoke.warnings {
            *warnings.entry(warning.clone()).or_default() += n;
        }
        errors.extend(smoke.counted_errors());
    }
    if !warnings.is_empty() {
        say!(out, "\nwarnings:");
        for (w, n) in &warnings {
            say!(out, "  {w}: {n}");
        }
    }
    if errors.is_empty() {
        say!(
            out,
            "\nOK: {} is a valid arena agent",
            terminal::line(module.name())
        );
    } else {
        fail(&errors, out);
    }
    Ok((errors, warnings))
}

pub fn fail(errors: &[String], out: &mut dyn Write) -> i32 {
    say!(out, "\nFAIL:");
    for e in errors {
        say!(out, "  {}", terminal::block(e));
    }
    1
}

/// A duration in milliseconds, as the check's report shows it.
fn ms(d: Duration) -> String {
    terminal::millis(d)
}

pub(crate) fn describe(m: &AgentModule, compile: Duration, out: &mut dyn Write) {
    say!(out, "  name:        {}", terminal::line(m.name()));
    if let Some(p) = m.path() {
        say!(
            out,
            "  file:        {}",
            terminal::line(&p.display().to_string())
        );
    }
    say!(out, "  size:        {} bytes", m.size());
    say!(out, "  sha256:      {}", m.sha256());
    describe_kind(m, out);
    say!(out, "  load time:   {} ({})", ms(compile), load_steps(m));
    describe_entries(m, out);
}

/// What kind of agent `m` is, and what it speaks: a component's world, a snippet agent's game, a
/// core module's ABI version, WASI and `arena_init`.
fn describe_kind(m: &AgentModule, out: &mut dyn Write) {
    if let Some(world) = m.world() {
        say!(out, "  kind:        WebAssembly component");
        say!(out, "  world:       {world}");
        say!(
            out,
            "  WASI:        0.2 (no files, no network, seeded random, fake clocks)"
        );
    } else if m.snippet().is_some() {
        // A snippet agent has no ABI version, buffer, WASI or `arena_init`: its game runs it
        // with its own imports (docs/ABI.md says which).
        let game = m.games().first().map_or("snippet", |g| g.title);
        say!(
            out,
            "  kind:        WebAssembly core module, a {} agent (run by its game, with no ABI version)",
            game.to_lowercase()
        );
    } else {
        say!(out, "  kind:        WebAssembly core module");
        say!(out, "  ABI version: {}", m.abi_version());
        say!(
            out,
            "  WASI:        {}",
            if m.uses_wasi() {
                "yes (preview 1: no files, no network, seeded random, fake clocks)"
            } else {
                "no"
            }
        );
        say!(
            out,
            "  arena_init:  {}",
            if m.has_init() { "yes" } else { "no" }
        );
    }
}

/// What loading `m` did, and where its compiled code came from.
fn load_steps(m: &AgentModule) -> String {
    if m.snippet().is_some() {
        "validate; compiled when its game runs it".to_owned()
    } else {
        match m.compile_origin() {
            Origin::ModuleCache => {
                "validate, compiled code read from the module cache, probe".to_owned()
            }
            Origin::Compiled { functions: Some(f) } => format!(
                "validate, compile ({} of {} functions read from the compiled-function \
                 cache{}), probe",
                f.hits,
                f.hits + f.compiled,
                if f.stored {
                    ", the others stored there"
                } else {
                    ""
                }
            ),
            Origin::Compiled { functions: None } => "validate, compile, probe".to_owned(),
        }
    }
}

/// `m`'s exports and imports, one a line.
fn describe_entries(m: &AgentModule, out: &mut dyn Write) {
    say!(out, "  exports:");
    for e in m.exports() {
        say!(out, "    {}", terminal::line(&e.to_string()));
    }
    say!(
        out,
        "  imports:{}",
        if m.imports().is_empty() { " none" } else { "" }
    );
    if m.world().is_some() {
        // A component imports WASI 0.2 interface by interface: one line per package.
        for (package, interfaces) in by_package(m.imports().iter().map(|i| i.name.as_str())) {
            let interfaces = interfaces.join(", ");
            if interfaces.is_empty() {
                say!(out, "    {}", terminal::line(&package));
            } else {
                say!(
                    out,
                    "    {}: {}",
                    terminal::line(&package),
                    terminal::line(&interfaces)
                );
            }
        }
    } else {
        for i in m.imports() {
            say!(out, "    {}", terminal::line(&i.to_string()));
        }
    }
}

/// Component imports (`wasi:io/poll@0.2.9`) grouped by package and version (`wasi:io@0.2.9`:
/// `poll`, ...), in the order they first come; a name of another form is a group of its own.
pub(crate) fn by_package<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(String, Vec<&'a str>)> {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for name in names {
        let (path, version) = name.split_once('@').unwrap_or((name, ""));
        let (package, interface) = match path.split_once('/') {
            Some((p, i)) if !version.is_empty() => (format!("{p}@{version}"), i),
            _ => (name.to_owned(), ""),
        };
        match groups.iter_mut().find(|(p, _)| *p == package) {
            Some((_, interfaces)) => interfaces.push(interface),
            None => groups.push((package, vec![interface])),
        }
    }
    groups
}
