// The writer the record writer must agree with, byte for byte.
mod value_writer;

use farkle_rules::{best_draft, score_draft, Reject};
use proptest::prelude::*;

use super::{Answer, Farkle, GameRecord, Observation, Setup, TurnEnd};
use crate::game::record::{verify_text, write_kept, VerifyError, VerifySummary};
use crate::game::seed::SeededDice;
use crate::game::{
    play_recorded, Fault, FaultKind, FaultPolicy, Outcome, Player, Question, RecordMeta, Reply,
};
use crate::sandbox::Init;

/// A test player: its drafts, and what it logs.
trait Drafter {
    fn start(&mut self) -> Result<(), Fault> {
        Ok(())
    }
    fn draft(&mut self, obs: &Observation) -> Result<Answer, Fault>;
    fn take_log(&mut self) -> Option<String> {
        None
    }
}

/// A [`Drafter`] in a seat.
struct At<'a>(&'a mut dyn Drafter);

impl Player<Farkle> for At<'_> {
    fn start(&mut self, _rules: &Farkle, _init: &Init) -> Result<(), Fault> {
        self.0.start()
    }
    fn decide(&mut self, _rules: &Farkle, _q: &Question, obs: &Observation) -> Reply<Answer> {
        Reply {
            answer: self.0.draft(obs),
            fuel: 0,
        }
    }
    fn take_log(&mut self) -> Option<String> {
        self.0.take_log()
    }
}

/// A game of `setup` and its record (for anonymous players and `meta`).
fn play_meta(
    setup: &Setup,
    players: &mut [&mut dyn Drafter],
    meta: &RecordMeta,
) -> (GameRecord, Vec<u8>) {
    let mut seats: Vec<At<'_>> = players.iter_mut().map(|p| At(&mut **p)).collect();
    let mut dyns: Vec<&mut dyn Player<Farkle>> = seats
        .iter_mut()
        .map(|s| s as &mut dyn Player<Farkle>)
        .collect();
    play_recorded(
        &Farkle,
        setup,
        meta,
        &mut dyns,
        &mut SeededDice::new(setup.seed),
    )
    .unwrap()
}

fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    verify_text(&Farkle, text)
}

/// Best draft; rolls on while fewer than `risk` points are at stake and more than two dice are
/// left.
struct Greedy {
    risk: u32,
}

impl Drafter for Greedy {
    fn draft(&mut self, obs: &Observation) -> Result<Answer, Fault> {
        let d = best_draft(obs.dice).expect("the game never asks about a farkle");
        let left = match obs.dice.len() - d.dice() {
            0 => 6,
            n => n,
        };
        let bank = obs.turn_points + d.score >= self.risk || left <= 2;
        Ok(Answer {
            action: if bank { 1 } else { 0 },
            draft: d.indices().map(|i| i as u32).collect(),
        })
    }
}

/// Gives the same raw answer every time.
struct Fixed(Answer);

impl Drafter for Fixed {
    fn draft(&mut self, _obs: &Observation) -> Result<Answer, Fault> {
        Ok(self.0.clone())
    }
}

/// Faults on every decision.
struct Crasher;

impl Drafter for Crasher {
    fn draft(&mut self, _obs: &Observation) -> Result<Answer, Fault> {
        Err(Fault::new(FaultKind::Trap, "boom"))
    }

    fn take_log(&mut self) -> Option<String> {
        Some("about to crash\n".into())
    }
}

fn play(setup: &Setup, players: &mut [&mut dyn Drafter]) -> (GameRecord, String) {
    let meta = RecordMeta::anonymous(setup.players);
    let (record, bytes) = play_meta(setup, players, &meta);
    assert_eq!(write_kept(&Farkle, &record, &meta).unwrap(), bytes);
    assert_same_bytes_as_the_value_writer(&record, &meta, &bytes);
    (record, String::from_utf8(bytes).unwrap())
}

fn assert_same_bytes_as_the_value_writer(record: &GameRecord, meta: &RecordMeta, bytes: &[u8]) {
    let expected = value_writer::write_record(record, meta).unwrap();
    assert_eq!(
        String::from_utf8_lossy(bytes),
        String::from_utf8_lossy(&expected)
    );
}

#[test]
fn a_solo_game_reaches_the_target_and_its_record_verifies() {
    let setup = Setup::new(1, 2026, 200);
    let (record, text) = play(&setup, &mut [&mut Greedy { risk: 300 }]);
    assert_eq!(
        record.end.outcome,
        Outcome::Win {
            seat: 0,
            last_standing: false
        }
    );
    assert!(record.end.scores[0] >= 10_000);
    let banked: u32 = record.turns.iter().map(|t| t.banked).sum();
    assert_eq!(
        banked, record.end.scores[0],
        "the score is the sum of banked turns"
    );
    // Every turn before the last left the score below the target.
    let last = record.turns.last().unwrap();
    assert!(last.score >= 10_000 && last.score - last.banked < 10_000);
    for t in &record.turns {
        match t.end {
            TurnEnd::Banked => assert!(t.banked > 0),
            TurnEnd::Farkle => {
                assert_eq!(t.banked, 0);
                assert!(farkle_rules::is_farkle(&t.rolls.last().unwrap().dice));
            }
            ref other => panic!("unexpected turn end {other:?}"),
        }
    }
    let summary = verify_record(&text).unwrap();
    assert_eq!(summary.turns, record.turns.len());
    // Same seed, same game.
    assert_eq!(play(&setup, &mut [&mut Greedy { risk: 300 }]).1, text);
}

#[test]
fn hot_dice_roll_all_six_again() {
    // Look for a turn where every die of a roll was drafted and the turn rolled on.
    for seed in 0..200 {
        let (record, _) = play(&Setup::new(1, seed, 60), &mut [&mut Greedy { risk: 2_000 }]);
        for t in &record.turns {
            let mut left = 6;
            for r in &t.rolls {
                assert_eq!(r.dice.len(), left, "seed {seed} turn {}", t.turn);
                if let Some(a) = &r.answer {
                    left -= a.draft.len();
                    if left == 0 {
                        left = 6;
                    }
                }
            }
        }
        let hot = record.turns.iter().any(|t| {
            t.rolls
                .windows(2)
                .any(|w| w[0].answer.as_ref().map(|a| a.draft.len()) == Some(w[0].dice.len()))
        });
        if hot {
            return;
        }
    }
    panic!("no hot dice in 200 games");
}

#[test]
fn illegal_drafts_end_the_turn_without_points_with_their_reason() {
    let cases = [
        (vec![], Reject::EmptyDraft),
        (vec![6], Reject::IndexOutOfRange),
        (vec![0, 0], Reject::RepeatedIndex),
    ];
    for (draft, reason) in cases {
        let mut p = Fixed(Answer { action: 1, draft });
        let (record, text) = play(&Setup::new(1, 5, 3), &mut [&mut p]);
        for t in &record.turns {
            if t.end != TurnEnd::Farkle {
                assert_eq!(t.end, TurnEnd::Rejected(reason));
            }
            assert_eq!(t.banked, 0);
        }
        assert!(text.contains(&format!("\"reason\":\"{}\"", reason.name())));
        assert_eq!(record.end.outcome, Outcome::Draw { round_cap: true });
        verify_record(&text).unwrap();
    }
    // Drafting every die of the first roll is legal only when all of them score.
    let mut all = Fixed(Answer {
        action: 1,
        draft: (0..6).collect(),
    });
    let (record, _) = play(&Setup::new(1, 9, 5), &mut [&mut all]);
    for t in &record.turns {
        let first = &t.rolls[0].dice;
        match score_draft(first) {
            _ if farkle_rules::is_farkle(first) => assert_eq!(t.end, TurnEnd::Farkle),
            Some(points) => assert_eq!(t.banked, points),
            None => assert_eq!(t.end, TurnEnd::Rejected(Reject::NonScoring)),
        }
    }
    let mut odd = Fixed(Answer {
        action: 7,
        draft: vec![],
    });
    let (record, _) = play(&Setup::new(1, 9, 5), &mut [&mut odd]);
    assert!(record.turns.iter().all(|t| t.banked == 0));
}

#[test]
fn a_race_finishes_its_round_and_the_highest_score_wins() {
    for seed in 0..20 {
        let mut a = Greedy { risk: 300 };
        let mut b = Greedy { risk: 1_000 };
        let mut c = Greedy { risk: 150 };
        let setup = Setup::new(3, seed, 300);
        let (record, text) = play(&setup, &mut [&mut a, &mut b, &mut c]);
        let per_seat = |s: usize| record.turns.iter().filter(|t| t.seat == s).count();
        assert_eq!(per_seat(0), per_seat(1));
        assert_eq!(per_seat(1), per_seat(2), "everyone plays the final round");
        let best = *record.end.scores.iter().max().unwrap();
        assert!(best >= 10_000);
        match record.end.outcome {
            Outcome::Win { seat, .. } => assert_eq!(record.end.scores[seat], best),
            Outcome::Draw { round_cap: false } => {
                assert!(record.end.scores.iter().filter(|&&s| s == best).count() > 1)
            }
            other => panic!("{other:?}"),
        }
        verify_record(&text).unwrap();
    }
}

#[test]
fn faults_forfeit_or_lose_the_turn_by_policy() {
    let setup = Setup::new(2, 3, 40);
    let (record, text) = play(&setup, &mut [&mut Crasher, &mut Greedy { risk: 300 }]);
    assert_eq!(record.end.forfeits, vec![0]);
    assert_eq!(record.end.outcome, Outcome::last_standing(1));
    assert!(
        text.contains("about to crash"),
        "the log of a faulty decision is kept"
    );
    verify_record(&text).unwrap();

    let lenient = Setup {
        policy: FaultPolicy::LoseMove,
        ..setup
    };
    let (record, text) = play(&lenient, &mut [&mut Crasher, &mut Greedy { risk: 300 }]);
    assert!(record.end.forfeits.is_empty());
    assert_eq!(record.end.scores[0], 0);
    assert!(record.turns.iter().any(|t| t.seat == 0 && t.round > 1));
    assert_eq!(record.end.outcome.winner(), Some(1));
    verify_record(&text).unwrap();
}

/// What the games above do not reach: a load fault and a log while loading, names that need
/// escaping, agent hashes and limits.
#[test]
fn records_are_the_bytes_the_value_writer_wrote() {
    struct NoLoad;
    impl Drafter for NoLoad {
        fn start(&mut self) -> Result<(), Fault> {
            Err(Fault::new(
                FaultKind::LoadFailed,
                "no \"arena_init\" export",
            ))
        }
        fn draft(&mut self, _obs: &Observation) -> Result<Answer, Fault> {
            unreachable!("never loaded")
        }
        fn take_log(&mut self) -> Option<String> {
            Some("loading…\n".into())
        }
    }
    let setup = Setup::new(3, 8, 50);
    let meta = RecordMeta {
        names: vec!["greedy".into(), "no \"load\"".into(), "crasher\t".into()],
        agent_hashes: vec![Some("ab".repeat(32)), None, Some("0f".repeat(32))],
        limits: std::sync::Arc::new(serde_json::json!({
            "memory_bytes": 33554432,
            "fuel_per_decision": 10_000_000
        })),
    };
    let (record, bytes) = play_meta(
        &setup,
        &mut [&mut Greedy { risk: 300 }, &mut NoLoad, &mut Crasher],
        &meta,
    );
    assert_eq!(record.end.started.load_faults.len(), 1);
    assert_same_bytes_as_the_value_writer(&record, &meta, &bytes);
    verify_record(std::str::from_utf8(&bytes).unwrap()).unwrap();
}

#[test]
fn tampered_records_are_refused_with_the_line() {
    let (_, text) = play(
        &Setup::new(2, 77, 300),
        &mut [&mut Greedy { risk: 300 }, &mut Greedy { risk: 500 }],
    );
    let lines: Vec<&str> = text.lines().collect();
    let retouch = |line: usize, from: &str, to: &str| -> String {
        let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        assert!(l[line].contains(from), "{from} in line {}", line + 1);
        l[line] = l[line].replacen(from, to, 1);
        l.join("\n") + "\n"
    };
    // A better die, a bigger bank, another winner, a renamed player (caught by the digest).
    let dice_at = lines[2].find("\"dice\":[").unwrap() + 8;
    let face = &lines[2][dice_at..dice_at + 1];
    let other = if face == "1" { "2" } else { "1" };
    let tampered = [
        retouch(
            2,
            &format!("\"dice\":[{face}"),
            &format!("\"dice\":[{other}"),
        ),
        retouch(2, "\"score\":", "\"score\":1"),
        retouch(lines.len() - 1, "\"seat\":", "\"seat\":9"),
        retouch(0, "seat 0", "seat X"),
    ];
    let expected_lines = [3, 3, lines.len(), lines.len()];
    for (t, line) in tampered.iter().zip(expected_lines) {
        let e = verify_record(t).unwrap_err();
        assert_eq!(e.line, line, "{e}");
    }
    assert!(verify_record("").is_err());
    assert!(verify_record("{}\n{}\n{}\n").is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any answers at all: the game never panics, the score is the banked sum, and the record
    /// verifies.
    #[test]
    fn arbitrary_answers_never_break_the_game(
        answers in proptest::collection::vec((0u32..3, proptest::collection::vec(0u32..8, 0..8)), 1..20),
        seed in any::<u64>(),
        players in 1usize..4,
    ) {
        struct Cycle(Vec<(u32, Vec<u32>)>, usize);
        impl Drafter for Cycle {
            fn draft(&mut self, _obs: &Observation) -> Result<Answer, Fault> {
                let (action, draft) = self.0[self.1 % self.0.len()].clone();
                self.1 += 1;
                Ok(Answer { action, draft })
            }
        }
        let mut cycles: Vec<Cycle> = (0..players).map(|s| Cycle(answers.clone(), s)).collect();
        let mut seats: Vec<&mut dyn Drafter> =
            cycles.iter_mut().map(|c| c as &mut dyn Drafter).collect();
        let (record, text) = play(&Setup::new(players, seed, 30), &mut seats);
        for s in 0..players {
            let banked: u32 = record.turns.iter().filter(|t| t.seat == s).map(|t| t.banked).sum();
            prop_assert_eq!(banked, record.end.scores[s]);
        }
        for t in &record.turns {
            for r in &t.rolls {
                if let (Some(a), Some(p)) = (&r.answer, r.points) {
                    prop_assert!(a.action <= 1);
                    let faces: Vec<u8> = a.draft.iter().map(|&i| r.dice[i as usize]).collect();
                    prop_assert_eq!(score_draft(&faces), Some(p));
                }
            }
        }
        prop_assert!(verify_record(&text).is_ok());
    }
}
