//! The Jungle game loop, its clock, faults and records, with native and scripted players.

use jungle_greedy::Greedy;
use jungle_random::Random;
use jungle_rules::{DrawReason, Move, Position, Side};
use proptest::prelude::*;

use super::rules::{passed, Ask};
use super::settings::Settings;
use super::turn::{EndReason, FuelClock, Setup};
use super::{native, GameRecord, Jungle};
use crate::game::record::{verify_text, write_kept, VerifyError, VerifySummary};
use crate::game::{play_seeded, Fault, FaultKind, FaultPolicy, Outcome, Player, Question};
use crate::records::RecordMeta;
use crate::sandbox::Init;

type Reply = crate::game::Reply<Move>;

/// A game of `setup` with `players` in its seats.
fn play_game(setup: &Setup, mut players: [&mut dyn Player<Jungle>; 2]) -> Option<GameRecord> {
    play_seeded(&Jungle, setup, &mut players)
}

fn write_record(record: &GameRecord, meta: &RecordMeta) -> anyhow::Result<Vec<u8>> {
    write_kept(&Jungle, record, meta)
}

fn verify_record(text: &str) -> Result<VerifySummary, VerifyError> {
    verify_text(&Jungle, text)
}

const CLOCK: FuelClock = FuelClock {
    start: 5_000,
    increment: 1_000,
    decision_cap: 4_000,
};

/// A player that answers with `decide(ask)`: the move (or fault) and the fuel it claims.
struct Scripted<F: FnMut(&Ask) -> Reply> {
    decide: F,
    load: Option<Fault>,
    asked: Vec<(u64, u64)>,
}

fn scripted<F: FnMut(&Ask) -> Reply>(decide: F) -> Scripted<F> {
    Scripted {
        decide,
        load: None,
        asked: Vec::new(),
    }
}

impl<F: FnMut(&Ask) -> Reply> Player<Jungle> for Scripted<F> {
    fn start(&mut self, _rules: &Jungle, _init: &Init) -> Result<(), Fault> {
        match self.load.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    fn decide(&mut self, _rules: &Jungle, _q: &Question, ask: &Ask) -> Reply {
        self.asked.push((ask.observation.clock.mine, ask.allowance));
        (self.decide)(ask)
    }
}

/// The first legal move, costing `fuel`.
fn first_move(fuel: u64) -> impl FnMut(&Ask) -> Reply {
    move |ask: &Ask| Reply {
        answer: Ok(ask.observation.legal[0]),
        fuel,
    }
}

fn out_of_fuel(ask: &Ask) -> Reply {
    Reply {
        answer: Err(Fault::new(FaultKind::DecisionFuel, "ran out")),
        fuel: ask.allowance,
    }
}

fn setup(policy: FaultPolicy) -> Setup {
    Setup {
        policy,
        ..Setup::new(7, 40, CLOCK)
    }
}

/// The record's bytes, and its verification.
fn verified(record: &GameRecord) -> (Vec<u8>, crate::records::VerifySummary) {
    let bytes = write_record(record, &RecordMeta::anonymous(2)).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let summary = verify_record(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (bytes, summary)
}

fn native_game(seed: u64) -> GameRecord {
    let (a, b) = (native::<Greedy>(), native::<Random>());
    let (mut a, mut b) = (a.player::<Jungle>().unwrap(), b.player::<Jungle>().unwrap());
    let setup = Setup::new(
        seed,
        300,
        FuelClock {
            start: 60_000_000,
            increment: 1_000_000,
            decision_cap: 10_000_000,
        },
    );
    play_game(&setup, [&mut *a, &mut *b]).unwrap()
}

#[test]
fn greedy_beats_random_and_the_record_verifies_and_repeats() {
    let record = native_game(3);
    assert_eq!(record.end.outcome.winner(), Some(0), "{:?}", record.end);
    assert!(matches!(record.end.reason, EndReason::Won(_)));
    let (bytes, summary) = verified(&record);
    assert_eq!(summary.turns, record.turns.len());
    assert_eq!(summary.outcome, record.end.outcome);
    assert!(
        summary.describe().starts_with("jungle: "),
        "{}",
        summary.describe()
    );
    assert!(
        summary.describe().ends_with(", seed 3") && !summary.describe().contains("dice"),
        "{}",
        summary.describe()
    );
    // The same seed plays the same game.
    let again = write_record(&native_game(3), &RecordMeta::anonymous(2)).unwrap();
    assert_eq!(bytes, again);
    // Every ply's position is the previous one after its move.
    let mut pos = Position::start();
    for p in &record.turns {
        pos.make(p.answer.unwrap());
        assert_eq!(pos, p.position);
    }
}

#[test]
fn the_clock_gets_the_increment_and_loses_what_each_decision_used() {
    let mut a = scripted(first_move(1_500));
    let mut b = scripted(first_move(0));
    let record = play_game(&setup(FaultPolicy::Forfeit), [&mut a, &mut b]).unwrap();
    // Seat 0's clock before each decision: 5,000 + 1,000, then - 1,500 + 1,000 each move;
    // the allowance is the smaller of the clock and the cap (4,000).
    assert_eq!(a.asked[0], (6_000, 4_000));
    assert_eq!(a.asked[1], (5_500, 4_000));
    assert_eq!(a.asked[2], (5_000, 4_000));
    assert_eq!(a.asked[5], (3_500, 3_500));
    assert!(b
        .asked
        .iter()
        .enumerate()
        .all(|(i, &c)| c.0 == 6_000 + 1_000 * i as u64));
    // Its clock runs out: 6,000 - 500 a move, and when the clock (3,000 and below, under the
    // cap) cannot pay 1,500 more than once... the agent keeps answering within its allowance,
    // so it never loses on time; the plies record the fuel and the clock after each.
    let mine: Vec<_> = record.turns.iter().filter(|p| p.seat == 0).collect();
    assert_eq!(mine[0].fuel, 1_500);
    assert_eq!(mine[0].clock, 4_500);
    verified(&record);
}

#[test]
fn running_out_with_no_more_than_the_cap_on_the_clock_loses_on_time() {
    // Seat 0 spends 2,500 a move: its clock, 6,000 at its first decision, is 3,500 after it,
    // 4,500 at the second and 2,000 after, 3,000 at the third: under the cap, all of it is the
    // allowance, and running out of it loses on time.
    let mut spent = 0;
    let mut a = scripted(move |ask: &Ask| {
        spent += 1;
        if spent == 3 {
            out_of_fuel(ask)
        } else {
            first_move(2_500)(ask)
        }
    });
    let mut b = scripted(first_move(0));
    let record = play_game(&setup(FaultPolicy::LoseMove), [&mut a, &mut b]).unwrap();
    let end = &record.end;
    assert_eq!(end.reason, EndReason::Time);
    assert_eq!(
        end.outcome,
        Outcome::Win {
            seat: 1,
            last_standing: false
        }
    );
    assert_eq!(end.clocks[0], 0);
    let last = record.turns.last().unwrap();
    assert_eq!((last.seat, last.fuel, last.clock), (0, 3_000, 0));
    assert!(last.fault.as_ref().is_some_and(|f| !f.forfeit));
    let (_, summary) = verified(&record);
    assert_eq!(summary.faults.get(&(0, "decision_fuel".into())), Some(&1));
}

#[test]
fn running_out_of_the_cap_with_more_on_the_clock_is_a_fault_the_policy_handles() {
    // The first decision has 6,000 on the clock and a cap of 4,000: out of fuel there is a
    // fault. Under lose_move, the move is lost (a pass); under forfeit, the game.
    for policy in [FaultPolicy::LoseMove, FaultPolicy::Forfeit] {
        let mut calls = 0;
        let mut a = scripted(move |ask: &Ask| {
            calls += 1;
            if calls == 1 {
                out_of_fuel(ask)
            } else {
                first_move(0)(ask)
            }
        });
        let mut b = scripted(first_move(0));
        let record = play_game(&setup(policy), [&mut a, &mut b]).unwrap();
        let first = &record.turns[0];
        assert_eq!((first.fuel, first.clock), (4_000, 2_000));
        match policy {
            FaultPolicy::LoseMove => {
                assert_eq!(first.position, passed(&Position::start()));
                assert_eq!(first.position.side_to_move(), Side::Second);
                assert!(record.turns.len() > 1);
                // Seat 1 sees the pass among its recent plies.
                verified(&record);
            }
            FaultPolicy::Forfeit => {
                assert_eq!(record.end.reason, EndReason::Forfeit);
                assert_eq!(record.end.forfeits, vec![0]);
                assert_eq!(record.end.outcome, Outcome::last_standing(1));
                verified(&record);
            }
        }
    }
}

#[test]
fn an_illegal_move_is_a_bad_answer_fault_with_the_rules_reason() {
    let mut a = scripted(|_: &Ask| Reply {
        answer: Ok(Move::parse("a3a5").unwrap()),
        fuel: 10,
    });
    let mut b = scripted(first_move(0));
    let record = play_game(&setup(FaultPolicy::Forfeit), [&mut a, &mut b]).unwrap();
    let p = &record.turns[0];
    assert_eq!(p.illegal, Some(jungle_rules::Illegal::NotAStep));
    let f = &p.fault.as_ref().unwrap().fault;
    assert_eq!(f.kind, FaultKind::BadAnswer);
    assert!(
        f.detail.contains("a3a5") && f.detail.contains("not_a_step"),
        "{}",
        f.detail
    );
    assert_eq!(record.end.reason, EndReason::Forfeit);
    let (bytes, _) = verified(&record);
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains("\"illegal\":\"not_a_step\""), "{text}");
}

#[test]
fn load_faults_forfeit() {
    let mut a = scripted(first_move(0));
    a.load = Some(Fault::new(FaultKind::LoadFailed, "no"));
    let mut b = scripted(first_move(0));
    let record = play_game(&setup(FaultPolicy::LoseMove), [&mut a, &mut b]).unwrap();
    assert_eq!(record.end.outcome, Outcome::last_standing(1));
    assert!(record.turns.is_empty());
    verified(&record);
    let mut a = scripted(first_move(0));
    let mut b = scripted(first_move(0));
    a.load = Some(Fault::new(FaultKind::Trap, "x"));
    b.load = Some(Fault::new(FaultKind::Trap, "y"));
    let record = play_game(&setup(FaultPolicy::LoseMove), [&mut a, &mut b]).unwrap();
    assert_eq!(record.end.outcome, Outcome::Draw { round_cap: false });
    assert_eq!(record.end.forfeits, vec![0, 1]);
    verified(&record);
}

#[test]
fn a_game_starts_from_the_given_position_and_ends_at_the_draw_rules() {
    // Two rats alone, far apart, the second to move at move 30, 95 plies since a capture: the
    // draw rule comes after 5 more plies (nobody can be taken in time).
    let start = Position::parse("r6/7/7/7/7/7/7/7/6R b 95 30").unwrap();
    let mut a = scripted(first_move(0));
    let mut b = scripted(first_move(0));
    let s = Setup {
        start,
        ..setup(FaultPolicy::Forfeit)
    };
    let s = Setup {
        round_cap: 1000,
        ..s
    };
    let record = play_game(&s, [&mut a, &mut b]).unwrap();
    assert_eq!(record.turns.len(), 5);
    assert_eq!(record.turns[0].seat, 1);
    assert_eq!(record.end.reason, EndReason::Drawn(DrawReason::NoCapture));
    assert_eq!(record.end.outcome, Outcome::Draw { round_cap: true });
    let (bytes, summary) = verified(&record);
    // `arena verify -v` names the draw the end line records.
    assert_eq!(summary.result, "draw (100 plies without a capture)");
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.contains("\"position\":\"r6/7/7/7/7/7/7/7/6R b 95 30\""),
        "{text}"
    );
    // The ply cap counts the position's plies: move 30 is ply 59, a cap of 31 rounds (62
    // plies) leaves 3.
    let mut a = scripted(first_move(0));
    let mut b = scripted(first_move(0));
    let s = Setup {
        start: Position::parse("r6/7/7/7/7/7/7/7/6R b 0 30").unwrap(),
        round_cap: 31,
        ..setup(FaultPolicy::Forfeit)
    };
    let record = play_game(&s, [&mut a, &mut b]).unwrap();
    assert_eq!(record.end.reason, EndReason::Drawn(DrawReason::PlyCap));
    assert_eq!(record.turns.len(), 3);
    assert_eq!(verified(&record).1.result, "draw (the ply cap)");
}

#[test]
fn the_envelope_counts_turns_and_rounds_from_the_positions_move_number() {
    // docs/ABI.md, Jungle: a game from `… b 7 20` starts at envelope turn 40 (ply 39 + 1) and
    // round 20, while its record counts its own plies from turn 1.
    let mut seen = Vec::new();
    let mut a = scripted(first_move(0));
    let mut b = scripted(|ask: &Ask| {
        let mut buf = vec![0u8; 1024];
        super::abi::encode_observation(ask, &mut buf);
        let envelope = arena_abi::Envelope::decode(&buf).unwrap();
        seen.push((envelope.turn, envelope.round, ask.observation.ply));
        Reply {
            answer: Ok(ask.observation.legal[0]),
            fuel: 0,
        }
    });
    let s = Setup {
        start: Position::parse("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 7 20").unwrap(),
        round_cap: 22,
        ..setup(FaultPolicy::Forfeit)
    };
    let record = play_game(&s, [&mut a, &mut b]).unwrap();
    assert_eq!(record.end.reason, EndReason::Drawn(DrawReason::PlyCap));
    assert_eq!(seen, [(40, 20, 39), (42, 21, 41), (44, 22, 43)]);
    let (bytes, _) = verified(&record);
    let text = String::from_utf8(bytes).unwrap();
    let turn: serde_json::Value = serde_json::from_str(text.lines().nth(2).unwrap()).unwrap();
    assert_eq!(
        (&turn["turn"], &turn["round"]),
        (&1.into(), &20.into()),
        "{turn}"
    );
}

/// Replaces the first occurrence of `from` after line `line` (from 1) in `text`.
fn edit_line(text: &str, line: usize, from: &str, to: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    assert!(lines[line - 1].contains(from), "{}", lines[line - 1]);
    lines[line - 1] = lines[line - 1].replacen(from, to, 1);
    lines.join("\n") + "\n"
}

#[test]
fn verification_refuses_a_changed_move_fuel_clock_or_position() {
    let record = native_game(5);
    let (bytes, _) = verified(&record);
    let text = String::from_utf8(bytes).unwrap();
    // Without its final line break, the record is refused at its last line (docs/RECORDS.md).
    let e = verify_record(text.strip_suffix('\n').unwrap()).unwrap_err();
    assert_eq!(e.line, text.lines().count(), "{e}");
    assert!(e.message.contains("does not end with \\n"), "{e}");
    let ply = &record.turns[2];
    let fuel = format!("\"fuel\":{}", ply.fuel);
    // Turn 3 is line 5.
    let more_fuel = edit_line(&text, 5, &fuel, &format!("\"fuel\":{}", ply.fuel + 1));
    let e = verify_record(&more_fuel).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    assert!(
        e.message.contains("clock") && e.message.contains("the clock:"),
        "{e}"
    );
    let clock = format!("\"clock\":{}", ply.clock);
    let e = verify_record(&edit_line(&text, 5, &clock, "\"clock\":1")).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    let mv = format!("\"move\":\"{}\"", ply.answer.unwrap());
    let e = verify_record(&edit_line(&text, 5, &mv, "\"move\":\"a1a1\"")).unwrap_err();
    assert_eq!(e.line, 5, "{e}");
    let e = verify_record(&edit_line(&text, 5, &mv, "\"move\":\"z9z9\"")).unwrap_err();
    assert!(e.message.contains("move"), "{e}");
    // The seed seeds the agents, not the game: only the digest shows it changed.
    let e = verify_record(&edit_line(&text, 1, "\"seed\":5", "\"seed\":6")).unwrap_err();
    assert_eq!(e.line, text.lines().count(), "{e}");
    assert!(e.message.starts_with("digest: expected"), "{e}");
    let e = verify_record(&edit_line(&text, 1, "T5L w", "T5L x")).unwrap_err();
    assert!(
        e.message.contains("position") && e.message.contains("'w' or 'b'"),
        "{e}"
    );
    // A record whose limits say another clock than its clock.
    let limits = write_record(
        &record,
        &RecordMeta {
            limits: std::sync::Arc::new(serde_json::json!({"clock": 1})),
            ..RecordMeta::anonymous(2)
        },
    )
    .unwrap();
    let e = verify_record(std::str::from_utf8(&limits).unwrap()).unwrap_err();
    assert!(
        e.message
            .contains("limits.clock is 1, but clock.start is 60000000"),
        "{e}"
    );
}

/// A reply drawn from `choice`: a legal move, an illegal one, a fault, or running out of fuel,
/// with some fuel.
fn reply(ask: &Ask, choice: u8, pick: usize, fuel: u64) -> Reply {
    let legal = &ask.observation.legal;
    match choice % 8 {
        0 => Reply {
            answer: Ok(Move::parse("a1g9").unwrap()),
            fuel,
        },
        1 => Reply {
            answer: Err(Fault::new(FaultKind::Trap, "boom")),
            fuel,
        },
        2 => out_of_fuel(ask),
        _ => Reply {
            answer: Ok(legal[pick % legal.len()]),
            fuel,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any game, whatever its players answer, writes a record that verifies; and changing the
    /// fuel of any ply is caught at that ply's line.
    #[test]
    fn every_game_writes_a_record_that_verifies(
        seed in any::<u64>(),
        choices in prop::collection::vec((any::<u8>(), any::<usize>(), 0u64..6_000), 1..200),
        lose_move in any::<bool>(),
    ) {
        let choices = std::rc::Rc::new(choices);
        let (c0, c1) = (choices.clone(), choices.clone());
        let mut i0 = 0;
        let mut i1 = 0;
        let mut a = scripted(move |ask: &Ask| {
            let (c, p, f) = c0[i0 % c0.len()];
            i0 += 1;
            reply(ask, c, p, f)
        });
        let mut b = scripted(move |ask: &Ask| {
            let (c, p, f) = c1[(i1 + 7) % c1.len()];
            i1 += 1;
            reply(ask, c.wrapping_add(3), p, f)
        });
        let policy = if lose_move { FaultPolicy::LoseMove } else { FaultPolicy::Forfeit };
        let s = Setup { seed, ..setup(policy) };
        let record = play_game(&s, [&mut a, &mut b]).unwrap();
        let (bytes, summary) = verified(&record);
        prop_assert_eq!(summary.outcome, record.end.outcome);
        let text = String::from_utf8(bytes).unwrap();
        if let Some(p) = record.turns.first() {
            let line = edit_line(&text, 3, &format!("\"fuel\":{}", p.fuel), &format!("\"fuel\":{}", p.fuel + 4_001));
            let e = verify_record(&line).unwrap_err();
            prop_assert_eq!(e.line, 3);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whatever a record's bytes become, verifying it never panics; a record changed anywhere is
    /// refused (by the replay, or at the end by the digest), but for one change that says the same:
    /// the end line's final `\n` turned into JSON whitespace (a last line without its `\n` is read,
    /// and whitespace around a JSON value is free). The lines before the end line are covered byte
    /// for byte by the digest; the end line is compared as a JSON value, so the test also checks
    /// that it is compact JSON (no whitespace outside its strings) with no escape (where a change
    /// of spacing, or of case in a `\u` escape, would say the same thing).
    #[test]
    fn a_changed_record_is_refused_and_never_panics(
        seed in 0u64..4,
        at in any::<usize>(),
        byte in any::<u8>(),
    ) {
        let (bytes, _) = verified(&native_game(seed));
        let text = std::str::from_utf8(&bytes).unwrap();
        let end_line = text.trim_end_matches('\n').rsplit('\n').next().unwrap();
        let value: serde_json::Value = serde_json::from_str(end_line).unwrap();
        prop_assert_eq!(serde_json::to_string(&value).unwrap(), end_line);
        prop_assert!(!end_line.contains('\\'), "{}", end_line);
        let mut changed = bytes.clone();
        let i = at % changed.len();
        changed[i] = byte;
        let result = crate::games::registry().verify_record_bytes(&changed);
        // The byte it already was, or the final `\n` turned into other JSON whitespace.
        let same = changed == bytes
            || (i == bytes.len() - 1 && matches!(byte, b' ' | b'\t' | b'\r' | b'\n'));
        if same {
            prop_assert!(result.is_ok(), "{:?}", result.err());
        } else {
            prop_assert!(result.is_err(), "byte {} changed to {:?} was accepted", i, byte as char);
        }
    }
}

#[test]
fn a_challenge_plays_jungle_with_its_table_and_two_players() {
    use std::path::Path;

    use crate::serve::config::Challenge;
    let c = Challenge::parse("game = \"jungle\"", Path::new("/c")).unwrap();
    assert_eq!(c.game.name(), "jungle");
    assert_eq!(Settings::of_map(&c.settings).unwrap(), Settings::default());
    let c = Challenge::parse("game = \"jungle\"\n[jungle]\nclock = 7", Path::new("/c")).unwrap();
    assert_eq!(Settings::of_map(&c.settings).unwrap().clock, 7);
    let e = Challenge::parse("game = \"jungle\"\nplayers_per_game = 3", Path::new("/c"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("players_per_game"), "{e}");
}
