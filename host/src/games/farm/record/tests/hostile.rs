//! Hostile record files: verification reads them as a stream and refuses them early, in bounded
//! memory. A bound on memory is checked through what the verifier pulls from its source: a
//! verifier that stops after a few lines of a 4 GiB gzip bomb cannot have read (or held) it.

use std::io::{Read, Write};

use flate2::write::GzEncoder;
use flate2::Compression;

use super::strategy::{random_game, Style};
use crate::games::farm::record::record_to_string;
use crate::games::farm::FaultPolicy;
use crate::records::{RecordMeta, VerifyError, MAX_LINE_BYTES, MAX_LINE_VALUES};

/// A reader that counts the bytes taken from it.
struct Counting<R> {
    inner: R,
    taken: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.taken.set(self.taken.get() + n as u64);
        Ok(n)
    }
}

/// Verifies what `source` gives; returns the verdict and how many bytes were read.
fn verify_counting(source: impl Read) -> (Result<crate::records::VerifySummary, VerifyError>, u64) {
    let taken = std::rc::Rc::new(std::cell::Cell::new(0));
    let verdict = crate::games::registry().verify_reader(Counting {
        inner: source,
        taken: taken.clone(),
    });
    (verdict, taken.get())
}

fn good(round_cap: u32) -> String {
    let style = Style {
        fault_rate: 0,
        load_fault_rate: 0,
    };
    let record = random_game(7, 2, round_cap, FaultPolicy::Forfeit, style);
    record_to_string(&record, &RecordMeta::anonymous(2)).unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A gzip file of `head` then `body` repeated until `total` bytes of text: one member holding
/// `head` and 1 MiB of `body`, then copies of a member holding 1 MiB of `body` (gzip files may be
/// concatenated; this is how a small file decompresses to gigabytes).
fn bomb(head: &str, body: &str, total: u64) -> Vec<u8> {
    let mib: String = body.repeat((1 << 20) / body.len());
    let mut out = gzip(format!("{head}{mib}").as_bytes());
    let member = gzip(mib.as_bytes());
    let mut size = (head.len() + mib.len()) as u64;
    while size < total {
        out.extend_from_slice(&member);
        size += mib.len() as u64;
    }
    out
}

#[test]
fn a_gzip_bomb_of_repeated_turn_lines_is_refused_at_its_second_turn() {
    let text = good(40);
    let lines: Vec<&str> = text.lines().collect();
    let head = format!("{}\n{}\n", lines[0], lines[1]);
    let turn = format!("{}\n", lines[2]);
    // 1 GiB of text in about 5 MB (a turn line repeated compresses about 200 to 1).
    let file = bomb(&head, &turn, 1 << 30);
    assert!(file.len() < 8 << 20, "{} bytes", file.len());
    let (verdict, taken) = verify_counting(&file[..]);
    let e = verdict.unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    assert_eq!(e.message, "turn: expected 2, found 1");
    assert!(
        taken <= 256 << 10,
        "read {taken} bytes of a {}-byte bomb to refuse it at line 4",
        file.len()
    );
}

#[test]
fn a_line_of_100_mib_is_refused_once_the_limit_is_read() {
    let text = good(40);
    let setup = text.lines().next().unwrap();
    // An uncompressed record whose second line never ends.
    let source = std::io::Cursor::new(format!(
        "{setup}\n{{\"type\":\"start\",\"events\":[],\"x\":\""
    ))
    .chain(std::io::repeat(b'x').take(100 << 20));
    let (verdict, taken) = verify_counting(source);
    let e = verdict.unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("longer than 4 MiB"), "{e}");
    assert!(
        taken <= (MAX_LINE_BYTES + (256 << 10)) as u64,
        "read {taken} bytes to refuse a line longer than {MAX_LINE_BYTES}"
    );

    // The same line in a gzip bomb: refused as soon, whatever the compression.
    let file = bomb("{\"type\":\"setup\",\"x\":\"", "x", 1 << 30);
    let (verdict, taken) = verify_counting(&file[..]);
    let e = verdict.unwrap_err();
    assert_eq!(e.line, 1, "{e}");
    assert!(e.message.contains("longer than 4 MiB"), "{e}");
    assert!(
        taken < file.len() as u64 / 10,
        "read {taken} of {}",
        file.len()
    );
}

#[test]
fn a_line_with_more_values_than_a_record_line_holds_is_refused() {
    let many = vec!["0"; MAX_LINE_VALUES].join(",");
    let text = format!("{{\"type\":\"setup\",\"x\":[{many}]}}\n");
    let e = crate::games::registry().verify_record(&text).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(
        e.message.starts_with(&format!(
            "more than {MAX_LINE_VALUES} JSON values in one line"
        )),
        "{e}"
    );
}

#[test]
fn turns_beyond_the_round_cap_are_refused_where_the_cap_ends_the_game() {
    let text = good(40);
    let turns = text.lines().count() - 3;
    assert!(turns > 6, "the game is long enough: {turns} turns");
    // A round cap of 2 ends a two-player game after its 4th turn (line 6).
    let capped = text.replacen("\"round_cap\":40", "\"round_cap\":2", 1);
    let e = crate::games::registry().verify_record(&capped).unwrap_err();
    assert_eq!(e.line, 7, "{e}");
    assert_eq!(
        e.message,
        "type: expected \"end\", found \"turn\": the replayed game ended after turn 4 (draw (round cap))"
    );
}

#[test]
fn a_record_that_ends_early_says_the_game_goes_on() {
    let text = good(40);
    let lines: Vec<&str> = text.lines().collect();
    // The end line moved up after turn 2: the replay plays turn 3 and finds it.
    let cut = format!(
        "{}\n{}\n{}\n{}\n{}\n",
        lines[0],
        lines[1],
        lines[2],
        lines[3],
        lines.last().unwrap()
    );
    let e = crate::games::registry().verify_record(&cut).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    assert!(
        e.message
            .starts_with("type: expected \"turn\", found \"end\": the game goes on with turn 3"),
        "{e}"
    );
}

#[test]
fn an_event_of_another_type_is_named_by_its_type() {
    let text = good(40);
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("{\"type\":\"bred\",\"seat\":"))
        .expect("some turn breeds");
    let edited_line = line
        .replacen("{\"type\":\"bred\",", "{\"type\":\"fox\",", 1)
        .replacen("\"gained\":", "\"lost\":", 1);
    let edited: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == n { edited_line.clone() } else { l.to_string() } + "\n")
        .collect();
    let e = crate::games::registry().verify_record(&edited).unwrap_err();
    assert_eq!(e.line, n + 1);
    assert!(
        e.message
            .contains(".type: expected \"bred\", found \"fox\""),
        "{e}"
    );
}

#[test]
fn a_key_given_twice_is_refused_wherever_it_is() {
    let text = good(40);
    let n = text.lines().count();
    let end = text.lines().last().unwrap();
    // Two outcome keys, the first one a lie.
    let two_outcomes = end.replacen(
        "\"outcome\":",
        "\"outcome\":{\"result\":\"draw\",\"round_cap\":true},\"outcome\":",
        1,
    );
    // A herd naming a kind twice: `Value` keeps the last one, which is the true count.
    let stock_at = end
        .find("\"stock\":{\"rabbit\":")
        .expect("the stock has rabbits")
        + 9;
    let two_rabbits = format!("{}\"rabbit\":0,{}", &end[..stock_at], &end[stock_at..]);
    for (edited, key) in [(two_outcomes, "outcome"), (two_rabbits, "rabbit")] {
        let record = text.replacen(end, &edited, 1);
        assert_ne!(record, text);
        let e = crate::games::registry().verify_record(&record).unwrap_err();
        assert_eq!(e.line, n, "{e}");
        assert!(
            e.message.contains(&format!("key `{key}` given twice")),
            "{e}"
        );
    }
}

#[test]
fn farkle_records_stream_too() {
    use crate::game::seed::SeededDice;
    use crate::game::{play_recorded, Answers, Fault, Question};
    use crate::games::farkle::{Answer, Farkle, Observation, Setup};

    // Drafts the first scoring die and rolls on while more than three dice are left.
    let first_die = |_: &Question, obs: &Observation<'_>| -> Result<Answer, Fault> {
        let d = farkle_rules::best_draft(obs.dice).expect("never asked about a farkle");
        Ok(Answer {
            action: u32::from(obs.dice.len() <= 3),
            draft: d.indices().map(|i| i as u32).collect(),
        })
    };
    let (mut a, mut b) = (Answers(first_die), Answers(first_die));
    let (_, text) = play_recorded(
        &Farkle,
        &Setup::new(2, 5, 30),
        &RecordMeta::anonymous(2),
        &mut [&mut a, &mut b],
        &mut SeededDice::new(5),
    )
    .unwrap();
    let text = String::from_utf8(text).unwrap();
    crate::games::registry().verify_record(&text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 8);

    // A bomb of the first turn line: refused at the second.
    let head = format!("{}\n{}\n", lines[0], lines[1]);
    let file = bomb(&head, &format!("{}\n", lines[2]), 1 << 30);
    let (verdict, taken) = verify_counting(&file[..]);
    let e = verdict.unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    assert!(taken <= 256 << 10, "read {taken} of {}", file.len());

    // A round cap of 1: the record goes on after the replay's last turn.
    let capped = text.replacen("\"round_cap\":30", "\"round_cap\":1", 1);
    let e = crate::games::registry().verify_record(&capped).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    assert!(
        e.message
            .starts_with("type: expected \"end\", found \"turn\""),
        "{e}"
    );
}
