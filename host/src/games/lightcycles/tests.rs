//! The light cycles game loop: every living seat at once, the clock, faults under both
//! policies, records that verify and tampered ones refused, with native and scripted players.

use lightcycles_filler::Filler;
use lightcycles_random::Random;
use lightcycles_rules::{Answer, Cause, End, Turn};

use super::rules::{Ask, Setup};
use super::settings::DEFAULT;
use super::{native, GameRecord, Lightcycles};
use crate::game::record::{verify_text, write_kept, VerifySummary};
use crate::game::{play_seeded, Fault, FaultKind, FaultPolicy, Outcome, Player, Question};
use crate::records::RecordMeta;
use crate::sandbox::Init;

type Reply = crate::game::Reply<Turn>;

fn setup(players: usize, policy: FaultPolicy) -> Setup {
    Setup {
        seed: 7,
        players,
        round_cap: 100,
        policy,
        settings: super::Settings {
            clock: 5_000,
            increment: 1_000,
            ..DEFAULT
        },
        decision_cap: 4_000,
    }
}

/// A player that answers with `decide(ask)`, and remembers its clock and allowance.
struct Scripted<F: FnMut(&Ask) -> Reply> {
    decide: F,
    load: Option<Fault>,
    asked: Vec<(u32, u64, u64)>,
}

fn scripted<F: FnMut(&Ask) -> Reply>(decide: F) -> Scripted<F> {
    Scripted {
        decide,
        load: None,
        asked: Vec::new(),
    }
}

impl<F: FnMut(&Ask) -> Reply> Player<Lightcycles> for Scripted<F> {
    fn start(&mut self, _rules: &Lightcycles, _init: &Init) -> Result<(), Fault> {
        self.load.take().map_or(Ok(()), Err)
    }

    fn decide(&mut self, _rules: &Lightcycles, _q: &Question, ask: &Ask) -> Reply {
        self.asked
            .push((ask.tick, ask.observation.clock.mine, ask.allowance));
        (self.decide)(ask)
    }
}

fn straight(fuel: u64) -> impl FnMut(&Ask) -> Reply {
    move |_| Reply {
        answer: Ok(Turn::Straight),
        fuel,
    }
}

fn out_of_fuel(ask: &Ask) -> Reply {
    Reply {
        answer: Err(Fault::new(FaultKind::DecisionFuel, "ran out")),
        fuel: ask.allowance,
    }
}

/// The record's bytes, and its verification.
fn verified(record: &GameRecord) -> (String, VerifySummary) {
    let meta = RecordMeta::anonymous(record.setup.players);
    let text = String::from_utf8(write_kept(&Lightcycles, record, &meta).unwrap()).unwrap();
    let summary = verify_text(&Lightcycles, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (text, summary)
}

fn native_game(seed: u64, players: usize) -> GameRecord {
    let strategies: Vec<_> = (0..players)
        .map(|s| {
            if s % 2 == 0 {
                native::<Filler>()
            } else {
                native::<Random>()
            }
        })
        .collect();
    let mut seats: Vec<_> = strategies
        .iter()
        .map(|n| n.player::<Lightcycles>().unwrap())
        .collect();
    let mut at: Vec<&mut dyn Player<Lightcycles>> = seats
        .iter_mut()
        .map(|p| &mut **p as &mut dyn Player<Lightcycles>)
        .collect();
    let setup = Setup {
        seed,
        round_cap: 300,
        settings: super::Settings {
            walls: 8,
            ..DEFAULT
        },
        decision_cap: 10_000_000,
        ..setup(players, FaultPolicy::Forfeit)
    };
    let record = play_seeded(&Lightcycles, &setup, &mut at).unwrap();
    drop(at);
    record
}

#[test]
fn games_of_two_to_six_verify_repeat_and_rank_by_the_tick_of_death() {
    for players in 2..=6 {
        let record = native_game(players as u64, players);
        let (text, summary) = verified(&record);
        assert_eq!(summary.turns, record.turns.len(), "{players}");
        assert_eq!(summary.outcome, record.end.outcome);
        let again = native_game(players as u64, players);
        assert_eq!(record, again, "the same seed plays the same game");
        // Every living seat answers each tick; the places follow the ticks of death.
        for (i, t) in record.turns.iter().enumerate() {
            assert_eq!(t.tick, i as u32 + 1);
            assert!(t.moves.windows(2).all(|w| w[0].seat < w[1].seat));
        }
        let end = &record.end;
        let lasted = |s: usize| end.deaths[s].map_or(u32::MAX, |d| d.tick);
        for a in 0..players {
            for b in 0..players {
                assert_eq!(
                    end.places[a] < end.places[b],
                    lasted(a) > lasted(b),
                    "{text}"
                );
            }
        }
        match end.end {
            End::LastAlive => assert_eq!(
                end.outcome.winner(),
                (0..players).find(|&s| end.deaths[s].is_none())
            ),
            _ => assert!(matches!(end.outcome, Outcome::Draw { .. })),
        }
    }
}

#[test]
fn every_living_seat_is_asked_with_its_own_clock_and_pays_what_it_used() {
    let setup = setup(3, FaultPolicy::Forfeit);
    let (mut a, mut b, mut c) = (
        scripted(straight(300)),
        scripted(straight(0)),
        scripted(straight(2_000)),
    );
    let record = play_seeded(&Lightcycles, &setup, &mut [&mut a, &mut b, &mut c]).unwrap();
    // Tick 1: every clock got the increment; each pays what it used.
    assert_eq!(a.asked[0], (1, 6_000, 4_000));
    assert_eq!(b.asked[0], (1, 6_000, 4_000));
    assert_eq!(a.asked[1], (2, 6_700, 4_000));
    assert_eq!(c.asked[1], (2, 5_000, 4_000));
    let first = &record.turns[0];
    assert_eq!(first.moves.len(), 3);
    assert_eq!(
        first.moves.iter().map(|m| m.clock).collect::<Vec<_>>(),
        [5_700, 6_000, 4_000]
    );
    // Seat 2 (top middle, heading south) and 0/1 going straight: the game ends by crashes.
    assert!(record.end.ticks > 5);
    verified(&record);
}

#[test]
fn a_fault_goes_straight_under_lose_move_and_is_out_under_forfeit() {
    for policy in [FaultPolicy::LoseMove, FaultPolicy::Forfeit] {
        let s = setup(2, policy);
        let mut a = scripted(straight(10));
        let mut b = scripted(|ask: &Ask| Reply {
            answer: if ask.tick == 2 {
                Err(Fault::new(FaultKind::Trap, "boom"))
            } else {
                Ok(Turn::Straight)
            },
            fuel: 10,
        });
        let record = play_seeded(&Lightcycles, &s, &mut [&mut a, &mut b]).unwrap();
        let m = &record.turns[1].moves[1];
        assert_eq!(m.fault.as_ref().unwrap().fault.kind, FaultKind::Trap);
        if policy == FaultPolicy::Forfeit {
            assert_eq!(m.played, Answer::Out);
            assert_eq!(m.death, Some(Cause::Out));
            assert_eq!(record.end.outcome, Outcome::last_standing(0));
            assert_eq!(record.end.forfeits, [1]);
        } else {
            assert_eq!(m.played, Answer::Turn(Turn::Straight));
            assert_eq!(m.death, None);
            assert!(record.turns.len() > 2);
        }
        let (text, summary) = verified(&record);
        assert_eq!(summary.faults.len(), 1, "{text}");
    }
}

#[test]
fn running_out_with_no_more_than_the_cap_on_the_clock_is_out_on_time() {
    let s = setup(2, FaultPolicy::LoseMove);
    let mut a = scripted(straight(3_000));
    let mut b = scripted(|ask: &Ask| {
        if ask.tick < 3 {
            Reply {
                answer: Ok(Turn::Straight),
                fuel: 3_500,
            }
        } else {
            out_of_fuel(ask)
        }
    });
    let record = play_seeded(&Lightcycles, &s, &mut [&mut a, &mut b]).unwrap();
    // Seat 1's clock: 6,000 − 3,500 = 2,500, then 3,500 − 3,500 = 0, then 1,000 ≤ the cap.
    assert_eq!(b.asked[2], (3, 1_000, 1_000));
    let m = &record.turns[2].moves[1];
    assert!(m.fault.as_ref().unwrap().time);
    assert_eq!((m.played, m.clock, m.fuel), (Answer::Out, 0, 1_000));
    assert_eq!(record.end.outcome.winner(), Some(0));
    let (text, _) = verified(&record);
    assert!(text.contains("\"out\":\"time\""), "{text}");
}

#[test]
fn a_seat_that_fails_to_load_is_out_at_the_first_tick_unasked() {
    let s = setup(3, FaultPolicy::LoseMove);
    let (mut a, mut b) = (scripted(straight(0)), scripted(straight(0)));
    let mut c = scripted(straight(0));
    c.load = Some(Fault::new(FaultKind::LoadFailed, "no"));
    let record = play_seeded(&Lightcycles, &s, &mut [&mut a, &mut b, &mut c]).unwrap();
    assert!(c.asked.is_empty());
    let m = &record.turns[0].moves[2];
    assert!(!m.asked);
    assert_eq!((m.played, m.death), (Answer::Out, Some(Cause::Out)));
    assert_eq!(record.end.places[2], 3);
    verified(&record);
    // Nobody loads: the one tick plays itself, and everyone shares first place.
    let s = setup(2, FaultPolicy::LoseMove);
    let (mut a, mut b) = (scripted(straight(0)), scripted(straight(0)));
    a.load = Some(Fault::new(FaultKind::LoadFailed, "no"));
    b.load = Some(Fault::new(FaultKind::LoadFailed, "no"));
    let record = play_seeded(&Lightcycles, &s, &mut [&mut a, &mut b]).unwrap();
    assert_eq!((record.end.end, record.end.ticks), (End::AllDead, 1));
    verified(&record);
}

fn edit_line(text: &str, line: usize, from: &str, to: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines[line].contains(from), "{}", lines[line]);
    lines[line] = lines[line].replacen(from, to, 1);
    lines.join("\n") + "\n"
}

#[test]
fn verification_refuses_a_changed_answer_fuel_seed_or_grid() {
    let record = native_game(11, 2);
    let (text, _) = verified(&record);
    let turn = text.lines().nth(3).unwrap();
    let answer = if turn.contains("\"answer\":\"left\"") {
        ("\"answer\":\"left\"", "\"answer\":\"right\"")
    } else if turn.contains("\"answer\":\"right\"") {
        ("\"answer\":\"right\"", "\"answer\":\"left\"")
    } else {
        ("\"answer\":\"straight\"", "\"answer\":\"left\"")
    };
    let cases = [
        (3, answer.0, answer.1),
        (3, "\"fuel\":", "\"fuel\":1"),
        (0, "\"seed\":11", "\"seed\":12"),
        (0, "\"width\":30", "\"width\":31"),
        (0, "\"width\":30", "\"width\":3"),
    ];
    for (line, from, to) in cases {
        let bad = edit_line(&text, line, from, to);
        let e = verify_text(&Lightcycles, &bad).expect_err(to);
        assert!(!e.to_string().is_empty());
    }
    let e = verify_text(
        &Lightcycles,
        &edit_line(&text, 0, "\"width\":30", "\"width\":3"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("lightcycles.width"), "{e}");
}

#[test]
fn a_challenge_plays_lightcycles_with_its_table_and_two_players() {
    use std::path::Path;

    use crate::serve::config::Challenge;
    let c = Challenge::parse("game = \"lightcycles\"", Path::new("/c")).unwrap();
    assert_eq!(c.game.name(), "lightcycles");
    assert_eq!(super::Settings::of_map(&c.settings).unwrap(), DEFAULT);
    let c = Challenge::parse(
        "game = \"lightcycles\"\n[lightcycles]\nwidth = 16\nwalls = 5",
        Path::new("/c"),
    )
    .unwrap();
    let s = super::Settings::of_map(&c.settings).unwrap();
    assert_eq!((s.width, s.walls), (16, 5));
}
