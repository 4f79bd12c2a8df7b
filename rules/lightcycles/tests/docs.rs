//! docs/LIGHTCYCLES.md says what the crate does: the start pictures, the causes of death with
//! their codes, the names of the ways a game ends, the settings' defaults and bounds, and the
//! values of the seed's stream.

use arena_doc_support::doc;
use lightcycles_rules::{
    Cause, End, Settings, State, Stream, MAX_SIDE, MAX_TICK_CAP, MAX_WALLS, MIN_SIDE, WALL_SALT,
};

#[test]
fn the_start_pictures_are_the_starts() {
    let text = doc("LIGHTCYCLES.md");
    for players in [2, 6] {
        let start = State::start(&Settings::default(), players, 0).unwrap();
        let picture = format!("```\n{start}```\n");
        assert!(text.contains(&picture), "{players} players:\n{picture}");
    }
}

#[test]
fn causes_ends_and_settings() {
    let text = doc("LIGHTCYCLES.md");
    for cause in Cause::ALL {
        let row = format!("| {} | `{}` |", cause.code(), cause.name());
        assert!(text.contains(&row), "{row}");
    }
    for end in [End::LastAlive, End::AllDead, End::TickCap] {
        assert!(text.contains(&format!("(`{}`)", end.name())), "{end:?}");
    }
    let d = Settings::default();
    for row in [
        format!("| `width` | {} | {MIN_SIDE} to {MAX_SIDE} |", d.width),
        format!("| `height` | {} | {MIN_SIDE} to {MAX_SIDE} |", d.height),
        format!("| `walls` | {} | 0 to {MAX_WALLS} |", d.walls),
    ] {
        assert!(text.contains(&row), "{row}");
    }
    assert!(text.contains(&format!(
        "(default {}, at most {},{:03};",
        d.tick_cap,
        MAX_TICK_CAP / 1000,
        MAX_TICK_CAP % 1000
    )));
}

#[test]
fn the_stream_as_documented() {
    let text = doc("LIGHTCYCLES.md");
    assert!(text.contains(&format!("`seed XOR 0x{WALL_SALT:016X}`")));
    let mut s = Stream::walls(1);
    let (a, b) = (s.next_u64(), s.next_u64());
    assert!(text.contains(&format!("`0x{a:016X}` and `0x{b:016X}`")));
    let mut s = Stream::walls(1);
    let draws: Vec<String> = (0..5).map(|_| s.below(100).to_string()).collect();
    assert!(text.contains(&draws.join(", ")));
}
