//! What a game declares of itself, written once in `game/`: its templates (`templates!`), the
//! changes to a [`GameInfo`] (dice, a solo form, the word for a turn), and what the league keeps
//! of a game's end ([`Summary::of`]).

use arena_game::{GameInfo, Outcome, Summary, Template};
use arena_sandbox::AgentInterface;

static TEMPLATES: [Template; 2] = arena_game::templates![
    "rust": "src/lib.rs" => "// a Rust agent",
    "wat": "{{name}}.wat" => "(module)",
];

const PLAIN: GameInfo = GameInfo {
    name: "plain",
    title: "Plain",
    seats: 1..=4,
    solo_target: None,
    turn_word: "turn",
    dice: false,
    agent: AgentInterface {
        title: "Plain",
        abi_id: 98,
        decisions: &["plain_move"],
        component: None,
        snippet: None,
    },
};

static CHANGED: GameInfo = PLAIN
    .with_dice()
    .with_solo_target("1,000")
    .with_turn_word("tick");

#[test]
fn templates_give_each_language_its_one_file() {
    let langs: Vec<_> = TEMPLATES.iter().map(|t| t.lang).collect();
    assert_eq!(langs, ["rust", "wat"]);
    assert_eq!(TEMPLATES[0].files, [("src/lib.rs", "// a Rust agent")]);
    assert_eq!(TEMPLATES[1].files, [("{{name}}.wat", "(module)")]);
}

#[test]
fn a_game_info_changed_keeps_the_rest() {
    assert!(!PLAIN.dice && PLAIN.solo_target.is_none() && PLAIN.turn_word == "turn");
    assert!(CHANGED.dice);
    assert_eq!(CHANGED.solo_target, Some("1,000"));
    assert_eq!(CHANGED.turn_word, "tick");
    assert_eq!((CHANGED.name, CHANGED.title), ("plain", "Plain"));
    assert_eq!(CHANGED.seats, 1..=4);
    assert_eq!(CHANGED.agent.abi_id, 98);
    assert_eq!(CHANGED.agent.decisions, ["plain_move"]);
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
