//! Fixtures shared by the host's unit tests.

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
