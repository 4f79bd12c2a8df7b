//! `arena play` for Farkle: a game told roll by roll. One agent plays the solo benchmark (turns
//! to reach 10,000 alone); two to six race to 10,000.

use std::fmt::Write as _;

use farkle_rules::{Action, Reject, DICE};

use super::{Answer, GameRecord, TurnEnd, TurnRecord};
use crate::game::words::Teller;
use crate::terminal;

/// What a rejection means, for people.
pub fn describe_reject(r: Reject) -> &'static str {
    match r {
        Reject::EmptyDraft => "no die drafted",
        Reject::IndexOutOfRange => "an index is not a die of the roll",
        Reject::RepeatedIndex => "a die is drafted twice",
        Reject::NonScoring => "a drafted die scores nothing",
        Reject::UnknownAction => "the action is neither 0 (roll) nor 1 (bank)",
    }
}

/// The faces of the roll's dice at `indices`, and `#i` for an index past the roll: `1 5 #9`.
fn faces(dice: &[u8], indices: impl Iterator<Item = usize>) -> String {
    let parts: Vec<String> = indices
        .map(|i| dice.get(i).map_or_else(|| format!("#{i}"), u8::to_string))
        .collect();
    parts.join(" ")
}

/// The dice drafted from the roll (`nothing` for none).
fn drafted(dice: &[u8], answer: &Answer) -> String {
    if answer.draft.is_empty() {
        return "nothing".into();
    }
    faces(dice, answer.draft.iter().map(|&i| i as usize))
}

fn action_words(code: u32) -> String {
    match Action::from_code(code) {
        Some(Action::Roll) => "roll on".into(),
        Some(Action::Bank) => "bank".into(),
        None => format!("action {code}"),
    }
}

/// The whole game as text; `logs` adds what the agents logged, under the turn they logged it in.
pub fn narrate(names: &[String], record: &GameRecord, logs: bool) -> String {
    let tell = Teller { names, logs };
    let mut out = String::new();
    heading(&tell, record, &mut out);
    before_first_turn(&tell, record, &mut out);
    for t in &record.turns {
        turn(&tell, t, &mut out);
    }
    out.push('\n');
    if record.setup.players == 1 {
        solo_result(&tell, record, &mut out);
    } else {
        race_result(&tell, record, &mut out);
    }
    let _ = writeln!(out, "turns taken: {}", record.turns.len());
    out
}

/// The first line: the kind of game, who sits where, the setup.
fn heading(tell: &Teller, record: &GameRecord, out: &mut String) {
    let setup = &record.setup;
    let _ = writeln!(
        out,
        "Farkle, {} ({}), seed {}, target {}, round cap {}, fault policy {}\n",
        if setup.players == 1 {
            "solo benchmark".to_string()
        } else {
            format!("race of {} players", setup.players)
        },
        tell.seats(setup.players),
        setup.seed,
        setup.target,
        setup.round_cap,
        setup.policy.name()
    );
}

/// What the agents logged and how they failed while loading.
fn before_first_turn(tell: &Teller, record: &GameRecord, out: &mut String) {
    let logs_to_show = tell.logs && !record.end.started.logs.is_empty();
    if record.end.started.load_faults.is_empty() && !logs_to_show {
        return;
    }
    let _ = writeln!(out, "Before the first turn:");
    tell.logs(out, "  ", &record.end.started.logs);
    for f in &record.end.started.load_faults {
        let _ = writeln!(
            out,
            "  FAULT: {} failed to load: {} ({})\n  {} is out of the game",
            tell.name(f.seat),
            terminal::line(&f.fault.detail),
            f.fault.kind.name(),
            tell.name(f.seat)
        );
    }
    out.push('\n');
}

/// One turn: its rolls, what was drafted from each, and how it ended.
fn turn(tell: &Teller, t: &TurnRecord, out: &mut String) {
    let _ = writeln!(
        out,
        "Turn {} (round {}): {}, score {}",
        t.turn,
        t.round,
        tell.name(t.seat),
        t.score - t.banked
    );
    tell.logs(out, "  ", &t.logs);
    let at_risk = rolls(t, out);
    let end = match &t.end {
        TurnEnd::Banked => format!("banks {}: score {}", t.banked, t.score),
        TurnEnd::Farkle if at_risk > 0 => {
            format!("loses the {at_risk} points of the turn: score {}", t.score)
        }
        TurnEnd::Farkle => format!("scores nothing: score {}", t.score),
        TurnEnd::Rejected(reason) => format!(
            "REJECTED: {} ({}); the turn ends with no points: score {}",
            describe_reject(*reason),
            reason.name(),
            t.score
        ),
        TurnEnd::Fault { fault, forfeit } => format!(
            "FAULT: {} ({}); {}",
            terminal::line(&fault.detail),
            fault.kind.name(),
            if *forfeit {
                format!("{} is out of the game", tell.name(t.seat))
            } else {
                format!("the turn ends with no points: score {}", t.score)
            }
        ),
    };
    let _ = writeln!(out, "  {end}");
}

/// The solo benchmark's result: turns to the target, or why it was not reached.
fn solo_result(tell: &Teller, record: &GameRecord, out: &mut String) {
    let (setup, turns) = (&record.setup, record.turns.len());
    let (score, target) = (record.end.scores[0], setup.target);
    let how = if score >= target {
        format!("reached {target} in {turns} turns")
    } else if record.end.forfeits.contains(&0) {
        format!("forfeited after {turns} turns and did not reach {target}")
    } else {
        let cap = setup.round_cap;
        format!("did not reach {target} within the round cap of {cap}")
    };
    let _ = writeln!(out, "Result: {} {how} (score {score})", tell.name(0));
}

/// A race's result, and each player's score.
fn race_result(tell: &Teller, record: &GameRecord, out: &mut String) {
    let result = tell.outcome(record.end.outcome, "draw");
    let _ = writeln!(out, "Result after {} rounds: {result}", record.end.rounds);
    for s in 0..record.setup.players {
        let played = record.turns.iter().filter(|t| t.seat == s).count();
        let gone = record.end.forfeits.contains(&s);
        let out_mark = if gone { " (out)" } else { "" };
        let _ = writeln!(
            out,
            "  {}: {} in {played} turns{out_mark}",
            tell.name(s),
            record.end.scores[s]
        );
    }
}

/// A turn's rolls, one line each; returns the points at risk when the turn ended.
fn rolls(t: &TurnRecord, out: &mut String) -> u32 {
    let mut left = DICE;
    let mut at_risk = 0u32;
    for (i, r) in t.rolls.iter().enumerate() {
        let head = format!("  roll {}: {}", i + 1, faces(&r.dice, 0..r.dice.len()));
        let last = i + 1 == t.rolls.len();
        let line = match (&r.answer, r.points) {
            (Some(a), Some(points)) => {
                at_risk += points;
                left -= a.draft.len().min(left);
                let then = if a.action == Action::Bank.code() {
                    "banks".to_string()
                } else if left == 0 {
                    left = DICE;
                    "rolls all six again (hot dice)".to_string()
                } else {
                    format!("rolls {left} dice")
                };
                format!(
                    "{head} -> drafts {} for {points} ({at_risk} this turn), {then}",
                    drafted(&r.dice, a)
                )
            }
            (Some(a), None) => format!(
                "{head} -> drafts {} and asks to {}",
                drafted(&r.dice, a),
                action_words(a.action)
            ),
            (None, _) if last && t.end == TurnEnd::Farkle => format!("{head} -> FARKLE"),
            (None, _) => head,
        };
        let _ = writeln!(out, "{line}");
    }
    at_risk
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{play_seeded, Fault, FaultKind, Game, Host, Hosted, Seat, Table};
    use crate::game::{AgentLog, FaultPolicy, Kept, Outcome, Player, Question, Reply};
    use crate::games::farkle::{Farkle, GameEnd, Observation, RollRecord, Setup, TurnRecord};
    use crate::sandbox::{run_with_big_stack, Init, Limits, Sandbox};

    /// The WAT Farkle agent of `arena new --game farkle --lang wat`.
    const BANKER: &str = include_str!("templates/wat/farkle.wat");

    #[test]
    fn a_played_race_is_narrated_with_its_result() {
        let sb = Sandbox::new(crate::games::registry().agents(), Limits::default()).unwrap();
        let m = sb.load_bytes("banker", BANKER.as_bytes()).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let table = Table::named(8, 100, FaultPolicy::Forfeit, names.clone());
        let seats = [Seat::Agent(&m), Seat::Agent(&m)];
        let played =
            run_with_big_stack(|| Hosted(Farkle).play(&Host::default(), &table, &seats)).unwrap();
        assert!(played
            .usage
            .iter()
            .flatten()
            .all(|u| u.fuel > 0 && u.max_decision_fuel > 0 && u.max_decision_fuel <= u.fuel));
        let record = played.detail.downcast_ref::<GameRecord>().unwrap();
        let text = narrate(&names, record, false);
        assert!(
            text.contains("Farkle, race of 2 players (seat 0: a, seat 1: b), seed 8"),
            "{text}"
        );
        assert!(text.contains("Turn 2 (round 1): b, score 0"), "{text}");
        assert!(text.contains("Result after "), "{text}");
        assert!(
            text.contains(&format!("turns taken: {}", record.turns.len())),
            "{text}"
        );
        assert!(
            record.end.scores.iter().any(|&s| s >= 10_000),
            "{:?}",
            record.end.scores
        );
    }

    fn turn(
        turn: u32,
        rolls: Vec<RollRecord>,
        end: TurnEnd,
        banked: u32,
        score: u32,
    ) -> TurnRecord {
        TurnRecord {
            turn,
            round: turn,
            seat: 0,
            rolls,
            end,
            banked,
            score,
            logs: vec![AgentLog {
                seat: 0,
                text: format!("turn {turn}"),
            }],
        }
    }

    fn roll(dice: &[u8], draft: &[u32], action: u32, points: Option<u32>) -> RollRecord {
        RollRecord {
            dice: dice.to_vec(),
            answer: Some(Answer {
                action,
                draft: draft.to_vec(),
            }),
            points,
        }
    }

    #[test]
    fn names_logs_and_fault_details_cannot_act_on_the_terminal() {
        struct Evil;
        impl Player<Farkle> for Evil {
            fn start(&mut self, _rules: &Farkle, _init: &Init) -> Result<(), Fault> {
                Ok(())
            }
            fn decide(&mut self, _: &Farkle, _: &Question, _: &Observation) -> Reply<Answer> {
                Reply {
                    answer: Err(Fault::new(
                        crate::game::FaultKind::Trap,
                        "boom\r\u{1b}[2Kok",
                    )),
                    fuel: 0,
                }
            }
            fn take_log(&mut self) -> Option<String> {
                Some("line\n\u{1b}]0;title\u{7}\n".into())
            }
        }
        let setup = Setup::new(1, 9, 3);
        let record = play_seeded(&Farkle, &setup, &mut [&mut Evil]).unwrap();
        let names = vec!["evil\u{1b}[31m".to_string()];
        let text = narrate(&names, &record, true);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.contains("  [evil\\x1b[31m log] line\n  [evil\\x1b[31m log] \\x1b]0;title\\x07\n"),
            "{text}"
        );
        assert!(text.contains("FAULT: boom\\r\\x1b[2Kok (trap)"), "{text}");
    }

    #[test]
    fn narration_tells_drafts_banks_farkles_rejections_and_faults() {
        let farkle = RollRecord {
            dice: vec![2, 3, 4],
            answer: None,
            points: None,
        };
        let record: GameRecord = Kept {
            setup: Setup::new(1, 9, 5),
            loaded: vec![Default::default()],
            turns: vec![
                turn(
                    1,
                    vec![
                        roll(&[1, 5, 2, 3, 4, 6], &[0, 1], 0, Some(150)),
                        roll(&[1, 1, 1, 5], &[0, 1, 2, 3], 0, Some(1050)),
                        roll(&[5, 2, 2, 3, 4, 6], &[0], 1, Some(50)),
                    ],
                    TurnEnd::Banked,
                    1250,
                    1250,
                ),
                turn(
                    2,
                    vec![roll(&[1, 2, 3, 4, 6, 6], &[0], 0, Some(100)), farkle],
                    TurnEnd::Farkle,
                    0,
                    1250,
                ),
                turn(
                    3,
                    vec![roll(&[1, 2, 3, 4, 6, 6], &[0, 9], 1, None)],
                    TurnEnd::Rejected(Reject::IndexOutOfRange),
                    0,
                    1250,
                ),
                turn(
                    4,
                    vec![RollRecord {
                        dice: vec![1, 2, 3, 4, 6, 6],
                        answer: None,
                        points: None,
                    }],
                    TurnEnd::Fault {
                        fault: Fault::new(FaultKind::BadAnswer, "farkle_draft returned 3"),
                        forfeit: false,
                    },
                    0,
                    1250,
                ),
            ],
            end: GameEnd {
                started: Default::default(),
                outcome: Outcome::Draw { round_cap: true },
                scores: vec![1250],
                forfeits: vec![],
                turns: 4,
                rounds: 4,
            },
        };
        let names = vec!["bot".to_string()];
        let text = narrate(&names, &record, true);
        for want in [
            "Farkle, solo benchmark (seat 0: bot), seed 9, target 10000, round cap 5",
            "Turn 1 (round 1): bot, score 0",
            "[bot log] turn 1",
            "roll 1: 1 5 2 3 4 6 -> drafts 1 5 for 150 (150 this turn), rolls 4 dice",
            "roll 2: 1 1 1 5 -> drafts 1 1 1 5 for 1050 (1200 this turn), rolls all six again (hot dice)",
            "-> drafts 5 for 50 (1250 this turn), banks",
            "banks 1250: score 1250",
            "roll 2: 2 3 4 -> FARKLE",
            "loses the 100 points of the turn: score 1250",
            "drafts 1 #9 and asks to bank",
            "REJECTED: an index is not a die of the roll (index_out_of_range); the turn ends with no points",
            "FAULT: farkle_draft returned 3 (bad_answer); the turn ends with no points",
            "did not reach 10000 within the round cap of 5 (score 1250)",
            "turns taken: 4",
        ] {
            assert!(text.contains(want), "{want:?} not in:\n{text}");
        }
        assert!(!narrate(&names, &record, false).contains("[bot log]"));
    }
}
