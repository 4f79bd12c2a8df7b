//! Fixtures shared by the host's unit tests.

/// A Little Animal Farm agent in WAT that passes every turn, declines every offer and logs
/// `thinking` at each of its turns: the smallest agent with a debug log.
pub const LOGGING_PASSER: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "thinking")
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "farm_trade") (param i32) (result i32) (call $log (i32.const 0) (i32.const 8)) i32.const 0)
  (func (export "farm_accept") (param i32) (result i32) i32.const 0))"#;

/// Runs the unit test `name` (its whole path) again, alone, in a child process of this test
/// binary with the environment variable `child` set, for a test that sends signals: the child
/// catches the first one, prints `caught`, raises a second `signal`, and prints a line with
/// `lived through` only if that one did not end it. Asserts that it did, by `signal`.
#[cfg(unix)]
pub fn assert_second_signal_ends_child(name: &str, child: &str, caught: &str, signal: i32) {
    use std::os::unix::process::ExitStatusExt;
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(child, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(caught) && !stdout.contains("lived through"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.signal(), Some(signal), "{stdout}");
}
