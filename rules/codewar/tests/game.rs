//! Whole games with native agents: newcomers, re-entry, eliminations, the end, the outcome, the
//! Mambo variant.

use codewar_rules::game::Outcome;
use codewar_rules::visit::Outcome as VisitOutcome;
use codewar_rules::{
    Array, Effects, Game, Instruction, Run, Segfault, SegfaultKind, Settings, View,
};

mod support;
use support::{cell, Code};

/// Agents named by their code: `idle`, `crawl` (copies itself one cell ahead), `nuke:X`,
/// anything else idles.
fn agents(view: &View<Code>) -> Run<Code> {
    let own = String::from_utf8(view.own().code.clone()).unwrap();
    let instruction = match own.split_once(':') {
        Some(("nuke", x)) => Instruction::Nuke {
            x: x.trim().parse().unwrap(),
        },
        _ if own == "crawl" => Instruction::Copy { x: 0, y: 1 },
        _ if own.starts_with("crash") => {
            return Run::Segfault(Segfault::new(SegfaultKind::Trap));
        }
        _ => Instruction::Noop,
    };
    Run::Returned {
        returned: instruction.encode(),
        effects: Effects::default(),
    }
}

/// The default settings on an Array of `array_size` cells for `iterations` iterations.
fn settings(array_size: u32, iterations: u32) -> Settings {
    Settings {
        array_size,
        iterations,
        ..Settings::default()
    }
}

fn win(seat: usize, last_standing: bool) -> Outcome {
    Outcome::Win {
        seat,
        last_standing,
    }
}

fn modules(names: &[&str]) -> Vec<Code> {
    names.iter().map(|n| n.as_bytes().to_vec()).collect()
}

#[test]
fn every_player_enters_at_a_random_empty_cell() {
    let s = settings(10, 1);
    let mut g = Game::new(s, modules(&["idle", "idle", "idle"]), 42).unwrap();
    let it = g.play_iteration(&mut agents).unwrap();
    assert_eq!(it.entries.len(), 3);
    let cells: Vec<usize> = it.entries.iter().map(|e| e.cell.unwrap()).collect();
    assert!(cells[0] != cells[1] && cells[1] != cells[2] && cells[0] != cells[2]);
    for (seat, &c) in cells.iter().enumerate() {
        let cell = g.array().get(c).unwrap();
        assert_eq!((cell.owner, cell.facade), (seat, seat));
    }
    assert_eq!(
        it.visits.len(),
        3,
        "newcomers run in the iteration they enter"
    );
    assert!(g.is_over());
    assert_eq!(g.outcome(), Outcome::Draw { nobody_left: false });
    // Another seed, other cells; the same seed, the same cells.
    let again = Game::new(s, modules(&["idle", "idle", "idle"]), 42)
        .unwrap()
        .play_iteration(&mut agents)
        .unwrap();
    assert_eq!(again.entries, it.entries);
    let other = Game::new(s, modules(&["idle", "idle", "idle"]), 43)
        .unwrap()
        .play_iteration(&mut agents)
        .unwrap();
    assert_ne!(other.entries, it.entries);
}

#[test]
fn modules_enter_again_every_k_iterations() {
    let s = Settings {
        reentry_every: 3,
        ..settings(20, 8)
    };
    let mut g = Game::new(s, modules(&["idle", "idle"]), 1).unwrap();
    let mut counts = Vec::new();
    g.play(&mut agents, |g, it| {
        counts.push((it.iteration, it.entries.len(), g.counts()))
    });
    let entered: Vec<u32> = counts.iter().filter(|c| c.1 > 0).map(|c| c.0).collect();
    assert_eq!(entered, [1, 4, 7]);
    assert_eq!(counts.last().unwrap().2, [3, 3]);
}

#[test]
fn a_full_array_takes_a_newcomer_in_place_of_its_own_agent_or_discards_it() {
    let s = settings(4, 5);
    let full = Array::from_cells(vec![
        cell("old", 0),
        cell("old", 0),
        cell("old", 2),
        cell("old", 2),
    ]);
    let mut g = Game::from_array(s, modules(&["new0", "new1", "new2"]), 9, full, 0).unwrap();
    let it = g.play_iteration(&mut agents).unwrap();
    let e = &it.entries;
    assert!(e[0].replaced && e[0].cell.unwrap() < 2);
    assert_eq!((e[1].cell, e[1].replaced), (None, false), "discarded");
    assert!(e[2].replaced && e[2].cell.unwrap() >= 2);
    assert_eq!(it.out_before, [1], "seat 1 has no cell after the entries");
    let codes: Vec<&[u8]> = g
        .array()
        .cells()
        .iter()
        .map(|c| c.as_ref().unwrap().code.as_slice())
        .collect();
    assert_eq!(codes.iter().filter(|c| **c == b"new0").count(), 1);
    assert_eq!(codes.iter().filter(|c| **c == b"new2").count(), 1);
    assert!(!g.in_game(1) && g.in_game(0) && g.in_game(2));
}

#[test]
fn the_last_player_standing_wins_at_once() {
    let s = settings(5, 50);
    let a = Array::from_cells(vec![cell("nuke:1", 0), cell("idle", 1), None, None, None]);
    // Played 1 iteration already: no entries at iteration 2 (reentry every 10).
    let mut g = Game::from_array(s, modules(&["nuke:1", "idle"]), 3, a, 1).unwrap();
    let it = g.play_iteration(&mut agents).unwrap();
    assert_eq!(it.out_after, [1]);
    assert!(it.over && g.is_over());
    assert_eq!(g.played(), 2);
    assert_eq!(g.outcome(), win(0, true));
    assert_eq!(g.eliminated(), [1]);
    assert!(g.play_iteration(&mut agents).is_none());
}

#[test]
fn most_cells_wins_after_the_last_iteration() {
    let s = Settings {
        reentry_every: 0,
        ..settings(30, 5)
    };
    let mut g = Game::new(s, modules(&["crawl", "idle"]), 5).unwrap();
    let outcome = g.play(&mut agents, |_, _| {});
    let counts = g.counts();
    assert_eq!(counts[1], 1);
    assert!(counts[0] > 1, "{counts:?}");
    assert_eq!(outcome, win(0, false));
}

#[test]
fn nobody_left_is_a_draw() {
    let s = settings(10, 5);
    let mut g = Game::new(s, modules(&["crash", "crash!"]), 5).unwrap();
    let outcome = g.play(&mut agents, |_, _| {});
    assert_eq!(g.played(), 1);
    assert_eq!(outcome, Outcome::Draw { nobody_left: true });
    assert_eq!(g.eliminated(), [0, 1]);
}

#[test]
fn a_game_of_one_goes_on_while_it_has_a_cell() {
    let s = settings(10, 7);
    let mut g = Game::new(s, modules(&["idle"]), 5).unwrap();
    let outcome = g.play(&mut agents, |_, _| {});
    assert_eq!(g.played(), 7);
    assert_eq!(outcome, win(0, false));
}

#[test]
fn mambo_shrinks_the_maximal_size_until_agents_segfault() {
    let s = Settings {
        max_size: 20,
        mambo_step: 4,
        ..settings(10, 10)
    };
    // 10 bytes: runs while S ≥ 10, i.e. iterations 1 to 3 (S = 20, 16, 12), segfaults at 4 (8).
    let mut g = Game::new(s, modules(&["idle000000", "idle000000"]), 5).unwrap();
    let mut seen = Vec::new();
    g.play(&mut agents, |_, it| {
        seen.push((it.iteration, it.max_size, it.visits.clone()))
    });
    assert_eq!(seen.len(), 4);
    assert_eq!(
        seen.iter().map(|s| s.1).collect::<Vec<_>>(),
        [20, 16, 12, 8]
    );
    for v in &seen[3].2 {
        assert_eq!(
            v.outcome,
            VisitOutcome::Segfault(Segfault::new(SegfaultKind::TooBig))
        );
    }
    assert_eq!(g.outcome(), Outcome::Draw { nobody_left: true });
}

#[test]
fn bad_setups_are_refused_with_a_reason() {
    let s = Settings::default();
    let e = Game::<Code>::new(s, vec![], 1).unwrap_err();
    assert_eq!(e.to_string(), "0 players: a code war has 1 to 16");
    let bad = Settings { max_size: 0, ..s };
    let e = Game::new(bad, modules(&["a"]), 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "max_size = 0 is out of bounds: it must be from 1 to 65536"
    );
    let e = Game::from_array(s, modules(&["a"]), 1, Array::new(3), 0).unwrap_err();
    assert_eq!(e.to_string(), "the Array has 3 cells, array_size is 100");
    let mut a = Array::new(100);
    *a.slot_mut(7) = cell("x", 4);
    let e = Game::from_array(s, modules(&["a"]), 1, a, 0).unwrap_err();
    assert_eq!(e.to_string(), "cell 7 names seat 4, which does not exist");
}
