//! Malformed input gives a clear, line-numbered error, never a panic.

use proptest::prelude::*;

use super::strategy::{random_game, Style};
use crate::games::farm::record::record_to_string;
use crate::games::farm::FaultPolicy;
use crate::records::RecordMeta;

fn good() -> String {
    let record = random_game(
        11,
        2,
        4,
        FaultPolicy::Forfeit,
        Style {
            fault_rate: 0,
            load_fault_rate: 0,
        },
    );
    record_to_string(&record, &RecordMeta::anonymous(2)).unwrap()
}

fn replace_line(text: &str, n: usize, f: impl Fn(&str) -> String) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { f(l) } else { l.to_string() } + "\n")
        .collect()
}

fn error_of(text: &str) -> String {
    crate::games::registry()
        .verify_record(text)
        .unwrap_err()
        .to_string()
}

#[test]
fn empty_and_non_json_input() {
    assert!(error_of("").contains("empty file"));
    assert!(error_of("hello\n").starts_with("line 1: not JSON"));
    assert!(error_of("[1,2]\n").contains("not a JSON object"));
    assert!(crate::games::registry()
        .verify_record_bytes(&[0xff, 0xfe, 0x00])
        .unwrap_err()
        .to_string()
        .contains("UTF-8"));
}

#[test]
fn structural_errors_name_their_line_and_field() {
    let text = good();
    let n = text.lines().count();
    let e = error_of(&replace_line(&text, 1, |l| {
        l.replace("\"round_cap\":4,", "")
    }));
    assert_eq!(e, "line 1: setup line: missing field `round_cap`");
    let e = error_of(&replace_line(&text, 1, |l| {
        l.replace("\"round_cap\":4", "\"round_cap\":\"4\"")
    }));
    assert!(
        e.starts_with("line 1: setup line: round_cap: invalid type"),
        "{e}"
    );
    let e = error_of(&replace_line(&text, 1, |l| {
        l.replace("\"round_cap\":4", "\"round_cap\":-4")
    }));
    assert!(
        e.starts_with("line 1: setup line: round_cap: invalid value"),
        "{e}"
    );
    let e = error_of(&replace_line(&text, 1, |l| {
        l.replace("\"rules_version\":1", "\"rules_version\":99")
    }));
    assert!(e.contains("rules_version 99 is not the version"), "{e}");
    let e = error_of(&replace_line(&text, 3, |l| {
        l.replace("\"rabbit\"", "\"goat\"")
    }));
    assert!(e.starts_with("line 3: ") && e.contains("goat"), "{e}");
    let e = error_of(&replace_line(&text, 3, |l| {
        l.replace("\"seat\":0", "\"seat\":7")
    }));
    assert!(e.starts_with("line 3: ") && e.contains("not a seat"), "{e}");
    let e = error_of(&replace_line(&text, 3, |l| {
        l.replace("\"type\":\"turn\"", "\"type\":\"move\"")
    }));
    assert!(e.starts_with("line 3: type"), "{e}");
    let truncated: String = text.lines().take(n - 1).map(|l| format!("{l}\n")).collect();
    assert!(error_of(&truncated).contains("missing end line"));
    let extra = format!("{text}{}\n", text.lines().nth(2).unwrap());
    assert!(error_of(&extra).starts_with(&format!("line {}: extra line", n + 1)));
    let blank = text.replacen('\n', "\n\n", 1);
    assert_eq!(error_of(&blank), "line 2: empty line");
}

#[test]
fn a_wrong_digest_reports_the_right_one() {
    let text = good();
    let n = text.lines().count();
    let forged = replace_line(&text, n, |l| {
        let i = l.find("\"digest\":\"").unwrap() + 10;
        format!(
            "{}{}",
            &l[..i],
            l[i..].replacen(|c: char| c.is_ascii_hexdigit(), "_", 1)
        )
    });
    let e = error_of(&forged);
    let digest = text
        .lines()
        .last()
        .unwrap()
        .split("\"digest\":\"")
        .nth(1)
        .unwrap();
    assert!(
        e.starts_with(&format!("line {n}: digest: expected {}", &digest[..64])),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = crate::games::registry().verify_record_bytes(&bytes);
    }

    #[test]
    fn cut_or_corrupted_records_never_panic(cut in 0usize..4000, at in 0usize..4000, byte in any::<u8>()) {
        let text = good();
        let mut bytes = text.into_bytes();
        if !bytes.is_empty() {
            let i = at % bytes.len();
            bytes[i] = byte;
        }
        bytes.truncate(cut.min(bytes.len()));
        prop_assert!(crate::games::registry().verify_record_bytes(&bytes).is_err() || cut >= bytes.len());
    }
}

#[test]
fn a_roll_that_the_seed_does_not_give_is_named() {
    let text = good();
    let edited = replace_line(&text, 3, |l| {
        let (fox_at, _) = l.match_indices("\"fox\":\"").last().unwrap();
        let start = fox_at + 7;
        let end = start + l[start..].find('"').unwrap();
        let other = if &l[start..end] == "rabbit" {
            "sheep"
        } else {
            "rabbit"
        };
        format!("{}{other}{}", &l[..start], &l[end..])
    });
    let e = error_of(&edited);
    assert!(
        e.starts_with("line 3: ") && e.contains("roll.fox") && e.contains("(the dice of seed 11)"),
        "{e}"
    );
}
