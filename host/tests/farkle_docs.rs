//! The Farkle documentation says what the code does: the ABI tables of docs/ABI.md, the scoring
//! table of docs/FARKLE.md and the dice check value of docs/RECORDS.md are checked against the
//! crates they copy.

use arena::game::seed::SeededDice;
use arena_abi::farkle::{offset, ANSWER_HEADER_SIZE, MAX_INDICES, OBSERVATION_SIZE};
use arena_doc_support::{assert_code_table, doc, section};
use farkle_rules::{score_draft, Reject};

#[test]
fn the_abi_doc_has_the_farkle_codes_and_layouts() {
    let abi = doc("ABI.md");
    assert!(abi.contains(
        "| 4 | u32 | game (1 = Little Animal Farm, 2 = Farkle, 3 = Jungle, 5 = light cycles) |"
    ));
    assert!(abi.contains(&format!("3 draft (`{}`)", arena_abi::names::FARKLE_DRAFT)));
    assert_eq!(arena_abi::game::FARKLE, 2);
    assert_eq!(arena_abi::Decision::FarkleDraft as u32, 3);

    let farkle = section(&abi, "## Farkle");
    assert!(farkle.contains(&format!(
        "### Observation payload (decision 3; {OBSERVATION_SIZE} bytes)"
    )));
    for (off, row) in [
        (offset::TARGET, "u32 | target (10000)"),
        (offset::TURN_POINTS, "u32 | turn points"),
        (offset::ROLL_NUMBER, "u32 | roll number"),
        (offset::DICE, "u32 | n: dice in this roll (1..=6)"),
        (offset::FACES, "u8 × 6 | the faces 1..=6"),
        (offset::RESERVED16, "u16 | reserved, 0"),
        (offset::SCORES, "u32 × 6 | banked score of each seat"),
        (offset::FLAGS, "u32 | flags: bit 0 = final round"),
        (offset::TURNS_DONE, "u32 | turns this seat has completed"),
        (offset::TURN_CAP, "u32 | turn cap"),
        (offset::RESERVED, "u32 | reserved, 0"),
    ] {
        assert!(
            farkle.contains(&format!("| {off} | {row}")),
            "observation row at {off}: {row}"
        );
    }
    for row in [
        "| 0 | u32 | action: 0 = roll",
        "| 4 | u32 | k: number of indices (at most 6) |",
        "| 8 | u32 × k | indices into the roll",
    ] {
        assert!(farkle.contains(row), "answer row {row}");
    }
    assert_eq!((ANSWER_HEADER_SIZE, MAX_INDICES), (8, 6));
    // The table lists them in the order the rules check them.
    let rejections: Vec<(u32, &str)> = Reject::ALL.iter().map(|r| (r.code(), r.name())).collect();
    assert_code_table(&farkle, &rejections, "rejection");
}

#[test]
fn the_farkle_scoring_table_is_the_rules() {
    let rules = doc("FARKLE.md");
    let table = section(&rules, "## Scoring a draft");
    for face in 1u8..=6 {
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| {face} |")))
            .unwrap_or_else(|| panic!("no row for face {face}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        for c in 1..=6usize {
            let want = match cells[1 + c] {
                "—" => None,
                n => Some(n.parse::<u32>().unwrap()),
            };
            assert_eq!(score_draft(&vec![face; c]), want, "{c} dice of face {face}");
        }
    }
}

#[test]
fn the_farkle_dice_check_value_is_the_dice() {
    let records = doc("RECORDS.md");
    let dice = section(&records, "### Farkle dice");
    let mut d = SeededDice::new(1);
    let faces: Vec<String> = (0..10).map(|_| (d.face(6) + 1).to_string()).collect();
    let value = format!("seed 1 gives the faces {}, …", faces.join(", "));
    let flat = dice.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&value), "{value} not in:\n{flat}");
}
