//! Verification of a Little Animal Farm record: replay it through the game loop and require the
//! very same record back, line by line; check the books; check the digest.

use std::cell::RefCell;

use serde_json::{Map, Value};

use super::ledger::Ledger;
use super::read::{end_of, setup_of, start_of, turn_of};
use super::replay::{Checker, FarmTurns, RecordedDice, ReplayPlayer};
use super::write::{end_line as write_end_line, setup_line};
use crate::games::farm::{play_game_into, FarmPlayer, SeededDice};
use crate::records::lines::{Line, RecordReader};
use crate::records::stream::{check_digest, compare_line, to_value, TurnLines};
use crate::records::{fail, DiceOrigin, FaultCounts, VerifyError, VerifySummary};

/// Verifies a Little Animal Farm record whose setup line has been read.
pub fn verify(mut reader: RecordReader, first: Line) -> Result<VerifySummary, VerifyError> {
    let (setup, meta) = setup_of(&first)?;
    let replayed_setup = to_value(&setup_line(&setup, &meta).map_err(|e| fail(0, e.to_string()))?)?;
    compare_line(&first, &replayed_setup, false, |_| String::new())?;
    drop(first);
    let players = setup.players;
    let start = reader
        .next_line()?
        .ok_or_else(|| fail(2, "missing start line: the record is truncated"))?;
    let (start_events, start_logs) = start_of(&start, players)?;

    let turns: FarmTurns = RefCell::new(TurnLines::new(reader, move |line: &Line| {
        turn_of(line, players).map_err(VerifyError::from)
    }));
    let mut seats: Vec<ReplayPlayer> = (0..players)
        .map(|seat| ReplayPlayer {
            seat,
            start_events: &start_events,
            start_logs: &start_logs,
            turns: &turns,
            log: None,
        })
        .collect();
    let mut players_dyn: Vec<&mut dyn FarmPlayer> =
        seats.iter_mut().map(|p| p as &mut dyn FarmPlayer).collect();
    let mut checker = Checker {
        turns: &turns,
        start: Some(start),
        ledger: Ledger::new(&setup),
        seed: setup.seed,
        faults: FaultCounts::new(),
        load_faults: Vec::new(),
        error: None,
    };
    let end = match setup.seed {
        Some(seed) => play_game_into(
            &setup,
            &mut players_dyn,
            &mut SeededDice::new(seed),
            &mut checker,
        ),
        None => play_game_into(
            &setup,
            &mut players_dyn,
            &mut RecordedDice { turns: &turns },
            &mut checker,
        ),
    };
    drop(players_dyn);
    drop(seats);
    let Some(end) = end else {
        let e = checker.error.take();
        return Err(e
            .or_else(|| turns.borrow().error().cloned())
            .unwrap_or_else(|| fail(0, "the replay stopped without a reason")));
    };
    let (ledger, faults, load_faults) = (checker.ledger, checker.faults, checker.load_faults);
    let (end_line, mut reader) = turns
        .into_inner()
        .end_line(|| VerifySummary::outcome_text(end.outcome))?;
    let (found_end, _, _) = end_of(&end_line, players)?;
    let replayed_end = to_value(&write_end_line(
        end.outcome,
        end.rounds,
        &end.forfeits,
        &end.final_position,
        "",
    ))?;
    compare_line(&end_line, &replayed_end, true, |_| String::new())?;
    ledger
        .finish(end_line.number, &end.final_position)
        .map_err(|e| fail(e.line, e.message))?;
    check_digest(&reader, &end_line, &found_end.digest)?;
    reader.expect_end_of_file()?;

    Ok(VerifySummary {
        game: crate::games::farm::NAME,
        players,
        names: meta.names.clone(),
        agent_hashes: meta.agent_hashes.clone(),
        round_cap: setup.round_cap,
        policy: setup.policy,
        limits: match &*meta.limits {
            Value::Object(m) => m.clone(),
            _ => Map::new(),
        },
        turns: end.turns as usize,
        rounds: end.rounds,
        outcome: end.outcome,
        dice: match setup.seed {
            Some(seed) => DiceOrigin::Seeded(seed),
            None => DiceOrigin::Explicit,
        },
        forfeits: end.forfeits,
        faults,
        load_faults,
        scores: None,
        result: VerifySummary::outcome_text(end.outcome),
        settings: None,
    })
}
