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

/// A record of `rules`' game of `setup` (2 players or more) whose setup line names an agent by
/// anything but its SHA-256 is refused at that line, naming the field; the same line with the
/// agents' hashes is not (the verifier goes on to the start line, which this record lacks).
pub fn assert_tampered_agent_refused<R: crate::game::Record>(rules: &R, setup: &R::Setup) {
    use crate::game::record::{sha256_hex, verify_text, Lines};
    let players = rules.players(setup);
    let mut meta = crate::game::RecordMeta::anonymous(players);
    meta.agent_hashes = (0..players).map(|s| Some(sha256_hex(&[s as u8]))).collect();
    let mut good = Vec::new();
    rules
        .setup_line(setup, &meta, &mut Lines::bytes(&mut good))
        .unwrap();
    let good = String::from_utf8(good).unwrap();
    let e = verify_text(rules, &good).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let hash = meta.agent_hashes[1].clone().unwrap();
    let tampered = good.replace(&hash, &hash.to_uppercase());
    assert_eq!(
        verify_text(rules, &tampered).unwrap_err().to_string(),
        format!(
            "line 1: players[1].agent: expected 64 lower-case hex digits or null, found \"{}\"",
            hash.to_uppercase()
        )
    );
}
