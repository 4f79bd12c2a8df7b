//! What a game declares of itself, written once in `game/`: its templates (`templates!`) and what
//! the league keeps of a game's end ([`Summary::of`]). The changes to a `GameInfo` are tested
//! with the game of `simultaneous.rs`.

use arena_game::{Outcome, Summary, Template};

static TEMPLATES: [Template; 2] = arena_game::templates![
    "rust": "src/lib.rs" => "// a Rust agent",
    "wat": "{{name}}.wat" => "(module)",
];

#[test]
fn templates_give_each_language_its_one_file() {
    let langs: Vec<_> = TEMPLATES.iter().map(|t| t.lang).collect();
    assert_eq!(langs, ["rust", "wat"]);
    assert_eq!(TEMPLATES[0].files, [("src/lib.rs", "// a Rust agent")]);
    assert_eq!(TEMPLATES[1].files, [("{{name}}.wat", "(module)")]);
}

#[test]
fn a_summary_of_an_end_has_no_fault_notes_yet() {
    let outcome = Outcome::Win {
        seat: 1,
        last_standing: false,
    };
    let summary = Summary::of(outcome, 9, 3, &[2], Some(vec![10, 20, 0]));
    assert_eq!(
        summary,
        Summary {
            outcome,
            rounds: 3,
            turns: 9,
            forfeits: vec![2],
            faults: Vec::new(),
            scores: Some(vec![10, 20, 0]),
        }
    );
}
