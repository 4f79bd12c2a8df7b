//! The host's own failures are never an agent's fault: a player remembers them (and a game
//! returns them instead of a record: the games' tests).

use super::game_for_tests::{GAMES, TEST_GAME};
use super::*;

const PASSER: &str = include_str!("../../example-agents/wat/passer.wat");

/// A sandbox whose pool holds one instance.
fn one_slot() -> Sandbox {
    Sandbox::allocating_instances(GAMES, Limits::default(), Allocation::Pool, 1).unwrap()
}

#[test]
fn an_exhausted_pool_is_the_hosts_failure_not_the_agents() {
    let m = one_slot().load_bytes("passer", PASSER.as_bytes()).unwrap();
    let (first, second, failure) = run_with_big_stack(move || {
        let mut a = m.player();
        let mut b = m.player();
        let first = a.start(&TEST_GAME, 0, 2, 1);
        let second = b.start(&TEST_GAME, 1, 2, 1).unwrap_err();
        (first, second, b.host_failure().cloned())
    });
    assert_eq!(first, Ok(()));
    // The game sees a load fault (it has to go on), but the player knows it was the host's.
    assert_eq!(second.kind, FaultKind::LoadFailed);
    let failure = failure.expect("a host failure");
    assert!(
        failure.0.contains("maximum concurrent limit of 1"),
        "{failure}"
    );
    assert!(
        second.detail.starts_with("the host failed, not the agent"),
        "{second:?}"
    );
}

#[test]
fn a_sandbox_holds_the_instances_asked_for_and_says_how_many_games_fit() {
    let sb = Sandbox::for_instances(GAMES, Limits::default(), 12).unwrap();
    assert_eq!(sb.instances(), 12);
    assert_eq!(sb.games_at_once(2, 100).unwrap(), 6);
    assert_eq!(sb.games_at_once(6, 100).unwrap(), 2);
    assert_eq!(sb.games_at_once(2, 3).unwrap(), 3);
    let err = format!("{:#}", sb.games_at_once(13, 1).unwrap_err());
    assert!(err.contains("a game of 13 needs 13"), "{err}");
}

/// A sandbox whose compiler process is `executable`.
fn compiling_with(executable: std::path::PathBuf) -> Sandbox {
    Sandbox::with_compiler(
        GAMES,
        Limits::default(),
        Compiler {
            executable: Some(executable),
            cache: None,
            limits: CompileLimits::default(),
        },
    )
    .unwrap()
}

#[test]
fn a_compiler_process_killed_from_outside_or_not_started_is_the_hosts_failure() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("arena-host-failure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // What the out-of-memory killer does to a compiler process.
    let killed = dir.join("killed-compiler");
    std::fs::write(&killed, "#!/bin/sh\nkill -9 $$\n").unwrap();
    std::fs::set_permissions(&killed, std::fs::Permissions::from_mode(0o755)).unwrap();
    let err = compiling_with(killed)
        .load_bytes("passer", PASSER.as_bytes())
        .unwrap_err();
    let failure = HostFailure::find(&err).unwrap_or_else(|| panic!("{err:#}"));
    assert!(failure.0.contains("killed (signal 9)"), "{failure}");

    let err = compiling_with(dir.join("no-such-compiler"))
        .load_bytes("passer", PASSER.as_bytes())
        .unwrap_err();
    let failure = HostFailure::find(&err).unwrap_or_else(|| panic!("{err:#}"));
    assert!(
        failure.0.contains("cannot start the compiler process"),
        "{failure}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
