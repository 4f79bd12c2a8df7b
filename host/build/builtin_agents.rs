//! Builds the example agents of every game for `wasm32-unknown-unknown` and embeds them into the
//! `arena` binary: `builtin:greedy` (`arena play`, league and challenge files) then works outside
//! the arena's checkout, with the same sandboxed modules a league of the example crates plays.
//!
//! The agents are built by a cargo of their own, with the workspace's `wasm-agent` profile, into
//! `TARGET/builtin-agents/` (beside the outer build's folders, never in them: the outer cargo
//! holds the lock of its own build folder while this script runs). That cargo takes its jobs
//! from the outer one's jobserver, is offline (the agents have path dependencies only) and gets
//! no RUSTFLAGS of the outer build (flags for the host, not for wasm) but the remapping of the
//! checkout's and cargo's folders, so a module's bytes do not depend on where the sources lie.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The built-in agents: crate folder under `example-agents/` (its package name, and the name
/// after `builtin:`), the game it plays, and one line on what it does.
const AGENTS: [(&str, &str, &str); 20] = [
    (
        "passer",
        "little-animal-farm",
        "never trades, so it can never win: the floor",
    ),
    (
        "greedy",
        "little-animal-farm",
        "climbs the stock by a fixed priority",
    ),
    (
        "insurance",
        "little-animal-farm",
        "dogs first, then the cheapest missing kind",
    ),
    (
        "trader",
        "little-animal-farm",
        "also trades with other players and accepts offers that help it",
    ),
    (
        "shepherd",
        "little-animal-farm",
        "looks one roll ahead: the trade whose expected herd is worth most (the strongest)",
    ),
    (
        "farkle-one-and-done",
        "farkle",
        "drafts one scoring thing and banks",
    ),
    (
        "farkle-banker",
        "farkle",
        "drafts every scoring die and banks",
    ),
    (
        "farkle-threshold",
        "farkle",
        "best draft, rolls on below 300 points with enough dice left",
    ),
    (
        "farkle-planner",
        "farkle",
        "the turn policy that maximizes the expected points (dynamic programming)",
    ),
    (
        "jungle-random",
        "jungle",
        "a uniformly random legal move, from its seed",
    ),
    (
        "jungle-greedy",
        "jungle",
        "wins at once if it can, else captures the most valuable piece, else walks to the den",
    ),
    (
        "jungle-search",
        "jungle",
        "alpha-beta with iterative deepening under the fuel clock",
    ),
    (
        "lightcycles-random",
        "lightcycles",
        "a random turn among those that do not crash at once, from its seed",
    ),
    (
        "lightcycles-filler",
        "lightcycles",
        "fills space: the turn with the most room, then hugging walls and trails",
    ),
    (
        "lightcycles-search",
        "lightcycles",
        "alpha-beta over Voronoi territory with iterative deepening under the fuel clock",
    ),
    (
        "codewar-crawler",
        "codewar",
        "copies itself one cell ahead every iteration",
    ),
    (
        "codewar-berserker",
        "codewar",
        "nukes a random cell every iteration",
    ),
    (
        "codewar-borg",
        "codewar",
        "claims cells further and further away by rewriting its own bytes",
    ),
    (
        "codewar-poisoner",
        "codewar",
        "rewrites an enemy neighbour into an agent that empties its own cell",
    ),
    (
        "codewar-spy",
        "codewar",
        "shows another player's facade and crawls",
    ),
];

const TARGET: &str = "wasm32-unknown-unknown";
const PROFILE: &str = "wasm-agent";

/// Builds the agents and writes `builtin_agents.rs` into `out_dir`: `BUILTIN_AGENTS`, each
/// agent's name, game, summary and bytes (`include_bytes!` of the built module). `sdk_crates`
/// are the crates they depend on (folder under `root`, package name): a change there rebuilds them.
pub fn build(root: &Path, sdk_crates: &[(String, String)], out_dir: &Path) {
    rerun_if_changed(root, sdk_crates);
    let target_dir = agents_target_dir(out_dir);
    run(cargo_build(root, &target_dir));
    write_list(&target_dir.join(TARGET).join(PROFILE), out_dir);
}

/// Tells cargo to build again when the agents, the crates they depend on or the lock file change.
fn rerun_if_changed(root: &Path, sdk_crates: &[(String, String)]) {
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.lock").display()
    );
    for (krate, _, _) in AGENTS {
        let dir = root.join("example-agents").join(krate);
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
        println!(
            "cargo:rerun-if-changed={}",
            dir.join("Cargo.toml").display()
        );
        if dir.join("build.rs").is_file() {
            println!("cargo:rerun-if-changed={}", dir.join("build.rs").display());
        }
    }
    // The crates the agents build on (the SDK, the ABI and every game's rules): the same list
    // `arena new` vendors.
    for (dep, _) in sdk_crates {
        println!(
            "cargo:rerun-if-changed={}",
            root.join(dep).join("src").display()
        );
        println!(
            "cargo:rerun-if-changed={}",
            root.join(dep).join("Cargo.toml").display()
        );
    }
}

/// The cargo command that builds the agents for [`TARGET`] into `target_dir`, with none of the
/// host build's flags.
fn cargo_build(root: &Path, target_dir: &Path) -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args([
            "build",
            "--offline",
            "--quiet",
            "--target",
            TARGET,
            "--profile",
            PROFILE,
        ])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir);
    for (krate, _, _) in AGENTS {
        command.args(["-p", krate]);
    }
    // Flags meant for the host build; and what would send this cargo's output elsewhere.
    for var in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_PROFILE_WASM_AGENT_INCREMENTAL",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        command.env_remove(var);
    }
    // The same bytes wherever the checkout and cargo's registry lie.
    let mut remap = vec![format!("--remap-path-prefix={}=arena", root.display())];
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        remap.push(format!(
            "--remap-path-prefix={}=cargo",
            Path::new(&home).display()
        ));
    }
    command.env("CARGO_ENCODED_RUSTFLAGS", remap.join("\x1f"));
    command
}

/// Runs `command`; panics with cargo's message (and a hint when the target is missing) if it fails.
fn run(mut command: Command) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the built-in agents: {e}"));
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("target may not be installed")
            || stderr.contains("can't find crate for `core`")
        {
            format!("\n\nThe Rust target {TARGET} is missing: run `rustup target add {TARGET}`.")
        } else {
            String::new()
        };
        panic!(
            "building the built-in agents (the example agents, for {TARGET}) failed:\n{}{hint}",
            stderr.trim_end()
        );
    }
}

/// Writes `builtin_agents.rs` into `out_dir`, from the modules built in `modules`.
fn write_list(modules: &Path, out_dir: &Path) {
    let mut out = String::from(
        "/// The built-in agents: name, game, summary and the module's bytes.\n\
         pub const BUILTIN_AGENTS: &[(&str, &str, &str, &[u8])] = &[\n",
    );
    for (krate, game, summary) in AGENTS {
        let wasm = modules.join(format!("{}.wasm", krate.replace('-', "_")));
        assert!(wasm.is_file(), "cargo built no {}", wasm.display());
        writeln!(
            out,
            "    ({krate:?}, {game:?}, {summary:?}, include_bytes!({:?})),",
            wasm.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    std::fs::write(out_dir.join("builtin_agents.rs"), out).expect("write builtin_agents.rs");
}

/// `TARGET/builtin-agents`, TARGET the outer build's target folder (the one holding
/// `CACHEDIR.TAG`, above `OUT_DIR`); `OUT_DIR/builtin-agents` when there is none.
fn agents_target_dir(out_dir: &Path) -> PathBuf {
    out_dir
        .ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map_or_else(
            || out_dir.join("builtin-agents"),
            |t| t.join("builtin-agents"),
        )
}
