//! Random games: conservation, termination, and write → verify round trips.

use farm_rules::START_STOCK;
use proptest::prelude::*;

use super::ledger::check_ledger;
use super::strategy::{random_game, Style};
use crate::games::farm::record::record_to_string;
use crate::games::farm::{FaultPolicy, Outcome};
use crate::records::{DiceOrigin, RecordMeta};

fn policy() -> impl Strategy<Value = FaultPolicy> {
    prop_oneof![Just(FaultPolicy::Forfeit), Just(FaultPolicy::LoseMove)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_games_conserve_end_and_verify(
        seed in any::<u64>(),
        players in 2usize..=6,
        round_cap in 1u32..80,
        policy in policy(),
        fault_rate in 0u32..8,
        load_fault_rate in 0u32..4,
    ) {
        let style = Style { fault_rate, load_fault_rate };
        let record = random_game(seed, players, round_cap, policy, style);

        // Every game ends within its cap, and the turns are numbered as documented.
        prop_assert!(record.end.rounds <= round_cap);
        prop_assert!(record.turns.len() <= round_cap as usize * players);
        for (i, t) in record.turns.iter().enumerate() {
            prop_assert_eq!(t.turn as usize, i + 1);
            prop_assert!(t.seat < players);
        }
        if matches!(record.end.outcome, Outcome::Draw { round_cap: true }) {
            prop_assert_eq!(record.end.rounds, round_cap);
        }
        prop_assert_ne!(record.end.outcome, Outcome::Unfinished);

        // Animals are conserved, and the books balance event by event.
        prop_assert_eq!(record.end.final_position.totals(), START_STOCK);
        prop_assert_eq!(check_ledger(&record), Ok(()));

        let meta = RecordMeta::anonymous(players);
        let text = record_to_string(&record, &meta).unwrap();
        let summary = crate::games::registry().verify_record(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(summary.turns, record.turns.len());
        prop_assert_eq!(summary.outcome, record.end.outcome);
        prop_assert_eq!(summary.dice, DiceOrigin::Seeded(seed));
    }
}

#[test]
fn gzip_records_verify() {
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;

    let record = random_game(
        5,
        3,
        30,
        FaultPolicy::Forfeit,
        Style {
            fault_rate: 1,
            load_fault_rate: 0,
        },
    );
    let text = record_to_string(&record, &RecordMeta::anonymous(3)).unwrap();
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    let summary = crate::games::registry()
        .verify_record_bytes(&bytes)
        .unwrap();
    assert_eq!(summary.turns, record.turns.len());

    let err = crate::games::registry()
        .verify_record_bytes(&bytes[..bytes.len() / 2])
        .unwrap_err();
    assert!(err.message.contains("gzip"), "{err}");
}

#[test]
fn metadata_round_trips() {
    let record = random_game(
        9,
        2,
        5,
        FaultPolicy::LoseMove,
        Style {
            fault_rate: 0,
            load_fault_rate: 0,
        },
    );
    let meta = RecordMeta {
        names: vec!["naive".into(), "greedy \"quoted\"".into()],
        agent_hashes: vec![Some("ab".repeat(32)), None],
        limits: std::sync::Arc::new(
            serde_json::json!({"decision_fuel": 1000000, "memory": "64 MiB"}),
        ),
    };
    let text = record_to_string(&record, &meta).unwrap();
    assert!(crate::games::registry().verify_record(&text).is_ok());
}

#[test]
fn writer_refuses_metadata_of_the_wrong_size() {
    let record = random_game(
        9,
        2,
        5,
        FaultPolicy::LoseMove,
        Style {
            fault_rate: 0,
            load_fault_rate: 0,
        },
    );
    assert!(record_to_string(&record, &RecordMeta::anonymous(3)).is_err());
}

/// The random players reach every kind of event, fault and most failure reasons, so that the
/// properties above are tested on more than passes and rolls.
#[test]
fn random_games_cover_every_event_kind() {
    use crate::games::farm::{Decision, Event};
    use std::collections::BTreeSet;

    let mut kinds = BTreeSet::new();
    let mut reasons = BTreeSet::new();
    let mut decisions = BTreeSet::new();
    for seed in 0..120u64 {
        let players = 2 + (seed % 5) as usize;
        let policy = if seed % 2 == 0 {
            FaultPolicy::Forfeit
        } else {
            FaultPolicy::LoseMove
        };
        let style = Style {
            fault_rate: (seed % 4) as u32,
            load_fault_rate: (seed % 7 == 3) as u32 * 70,
        };
        let record = random_game(seed, players, 150, policy, style);
        let events = record
            .end
            .start_events
            .iter()
            .chain(record.turns.iter().flat_map(|t| &t.events));
        for e in events {
            let json = serde_json::to_value(e).unwrap();
            kinds.insert(json["type"].as_str().unwrap().to_string());
            match e {
                Event::TradeFailed { reason, .. } => {
                    reasons.insert(reason.name());
                }
                Event::Fault { decision, .. } => {
                    decisions.insert(match decision {
                        Decision::Init => "init",
                        Decision::Trade => "trade",
                        Decision::Accept => "accept",
                    });
                }
                _ => {}
            }
        }
        // A refused trade moves nothing.
        for t in &record.turns {
            if t.events
                .iter()
                .any(|e| matches!(e, Event::TradeFailed { .. }))
            {
                assert!(!t.events.iter().any(|e| matches!(e, Event::Transfer { .. })));
            }
        }
    }
    for &k in super::EVENT_TYPES {
        assert!(
            kinds.contains(k),
            "no {k} event in the random games: {kinds:?}"
        );
    }
    assert_eq!(decisions.len(), 3, "{decisions:?}");
    assert!(reasons.len() >= 8, "{reasons:?}");
}

#[test]
fn agents_debug_logs_are_kept_per_turn_and_verified() {
    let record = random_game(
        4,
        3,
        60,
        FaultPolicy::LoseMove,
        Style {
            fault_rate: 0,
            load_fault_rate: 0,
        },
    );
    let logged: Vec<_> = record.turns.iter().filter(|t| !t.logs.is_empty()).collect();
    assert!(!logged.is_empty(), "the test player logs now and then");
    for t in &logged {
        assert!(t
            .logs
            .iter()
            .all(|l| l.seat == t.seat && l.text.contains(&format!("turn {}", t.turn))));
    }
    let text = crate::games::farm::record::record_to_string(
        &record,
        &crate::records::RecordMeta::anonymous(3),
    )
    .unwrap();
    assert!(
        text.contains("\"logs\":[{\"seat\":"),
        "logs are written on turn lines"
    );
    crate::games::registry()
        .verify_record(&text)
        .expect("a record with logs verifies");
}
