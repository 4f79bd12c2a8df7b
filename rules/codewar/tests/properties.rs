//! Properties of the rules over random Arrays and random agents: what a visit may change, who
//! may own what, determinism, and the outcome's agreement with the cells.

use codewar_rules::stages::{visit_one, Round};
use codewar_rules::visit::Outcome as VisitOutcome;
use codewar_rules::{
    Array, Cell, Effect, Effects, Game, Instruction, Outcome, Run, Segfault, SegfaultKind,
    Settings, View,
};
use proptest::prelude::*;

type Code = Vec<u8>;

/// A random agent's behaviour is read from its bytes: `[op, x, y, flags, a, b, ...]`. Ops 0 to 4
/// return a no-op, copy, nuke, update or claim; 5 segfaults; 6 returns a raw value. Flags: 1
/// rewrites itself (bumps byte 4), 2 stages the cell at x (its bytes with byte 4 bumped), 4 sets
/// its facade to `a`, 8 empties itself.
fn random_agent(view: &View<Code>) -> Run<Code> {
    let code = &view.own().code;
    let byte = |i: usize| code.get(i).copied().unwrap_or(0);
    let (x, y) = (byte(1) as i8 as i16, byte(2) as i8 as i16);
    let flags = byte(3);
    let bump = |c: &[u8]| {
        let mut c = c.to_vec();
        if c.len() > 4 {
            c[4] = c[4].wrapping_add(1);
        }
        c
    };
    let mut effects = Effects::default();
    if flags & 1 != 0 {
        effects.own = Some(bump(code));
    }
    if flags & 8 != 0 {
        effects.own = Some(Vec::new());
    }
    if flags & 2 != 0 {
        let target = view.absolute(x.into());
        let base = view.cells[target]
            .as_ref()
            .map_or_else(|| code.clone(), |c| c.code.clone());
        effects.staged = Some((target, bump(&base)));
    }
    if flags & 4 != 0 {
        effects.facade = Some(byte(5) as usize % view.players);
    }
    let returned = match byte(0) % 7 {
        0 => 0,
        1 => Instruction::Copy { x, y }.encode(),
        2 => Instruction::Nuke { x }.encode(),
        3 => Instruction::Update { x }.encode(),
        4 => Instruction::Claim { x }.encode(),
        5 => return Run::Segfault(Segfault::new(SegfaultKind::Trap)),
        _ => i64::from_le_bytes(core::array::from_fn(|i| byte(4 + i))),
    };
    Run::Returned { returned, effects }
}

fn agent_code() -> impl Strategy<Value = Code> {
    proptest::collection::vec(any::<u8>(), 1..12)
}

fn array(players: usize) -> impl Strategy<Value = Array<Code>> {
    proptest::collection::vec(
        proptest::option::weighted(0.6, (agent_code(), 0..players, 0..players, any::<bool>())),
        2..40,
    )
    .prop_map(|cells| {
        Array::from_cells(
            cells
                .into_iter()
                .map(|c| {
                    c.map(|(code, owner, facade, may_run)| Cell {
                        code,
                        owner,
                        facade,
                        may_run,
                    })
                })
                .collect(),
        )
    })
}

fn well_formed(a: &Array<Code>, players: usize) -> Result<(), TestCaseError> {
    for c in a.cells().iter().flatten() {
        prop_assert!(!c.code.is_empty());
        prop_assert!(c.owner < players && c.facade < players);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A visit changes the visited cell and the instruction's target (a copy: its destination),
    /// nothing else; a copy never lands on another player's agent; a claim and an update keep the
    /// target's bytes resp. owner; a segfault empties only the visited cell.
    #[test]
    fn a_visit_changes_only_what_it_may(players in 1usize..5, seed in any::<u64>(),
                                        a in array(4), at in any::<prop::sample::Index>()) {
        let players = players.max(a.cells().iter().flatten()
            .map(|c| c.owner.max(c.facade) + 1).max().unwrap_or(1));
        let n = a.size();
        let cell = at.index(n);
        let s = Settings { array_size: n as u32, max_size: 10, ..Settings::default() };
        let round = Round { settings: &s, seed, players, iteration: 3, max_size: 10 };
        let before = a.clone();
        let mut after = a;
        let visit = visit_one(&mut after, round, cell, &mut random_agent);
        well_formed(&after, players)?;
        let Some(visit) = visit else {
            prop_assert!(before.get(cell).is_none_or(|c| !c.may_run));
            prop_assert_eq!(before, after);
            return Ok(());
        };
        let agent = before.get(cell).unwrap();
        prop_assert_eq!(visit.owner, agent.owner);
        let changed: Vec<usize> = (0..n).filter(|&i| before.get(i) != after.get(i)).collect();
        match &visit.outcome {
            VisitOutcome::Segfault(s) => {
                if agent.len() > 10 {
                    prop_assert_eq!(s.kind, SegfaultKind::TooBig);
                }
                prop_assert_eq!(changed, vec![cell]);
                prop_assert!(after.get(cell).is_none());
            }
            VisitOutcome::Ran { instruction, effect, .. } => {
                let target = match instruction {
                    Instruction::Noop => None,
                    Instruction::Copy { y, .. } => Some(before.wrap(cell, (*y).into())),
                    Instruction::Nuke { x } | Instruction::Update { x } | Instruction::Claim { x } =>
                        Some(before.wrap(cell, (*x).into())),
                };
                for &i in &changed {
                    prop_assert!(i == cell || Some(i) == target,
                        "cell {} changed, visited {} target {:?}", i, cell, target);
                }
                if let Some(t) = target.filter(|&t| t != cell) {
                    let (was, now) = (before.get(t), after.get(t));
                    match instruction {
                        Instruction::Copy { .. } => {
                            if was.is_some_and(|c| c.owner != agent.owner) {
                                prop_assert_eq!(*effect, Effect::Occupied);
                                prop_assert_eq!(was, now);
                            }
                            if *effect == Effect::Done {
                                let now = now.unwrap();
                                prop_assert_eq!(now.owner, agent.owner);
                                prop_assert!(!now.may_run);
                            }
                        }
                        Instruction::Claim { .. } => {
                            if let (Some(w), Some(n)) = (was, now) {
                                prop_assert_eq!(&w.code, &n.code);
                                prop_assert_eq!(w.facade, n.facade);
                                prop_assert_eq!(n.owner, agent.owner);
                            }
                        }
                        Instruction::Update { .. } => {
                            if let (Some(w), Some(n)) = (was, now) {
                                prop_assert_eq!(w.owner, n.owner);
                                prop_assert_eq!(w.facade, n.facade);
                            }
                        }
                        Instruction::Nuke { .. } => prop_assert!(now.is_none()),
                        Instruction::Noop => {}
                    }
                }
            }
        }
    }

    /// The same seed and agents give the same game, iteration by iteration; the outcome agrees
    /// with the cells; eliminated players own nothing and never come back.
    #[test]
    fn games_are_deterministic_and_their_outcome_follows_the_cells(
        seed in any::<u64>(), agents in proptest::collection::vec(agent_code(), 1..5),
        n in 2u32..30, iterations in 1u32..25, reentry in 0u32..5, mambo in 0u32..2) {
        let s = Settings { array_size: n, max_size: 11, iterations, reentry_every: reentry,
                           mambo_step: mambo };
        let players = agents.len();
        let play = || {
            let mut g = Game::new(s, agents.clone(), seed).unwrap();
            let mut log = Vec::new();
            let mut problems = Vec::new();
            let outcome = g.play(&mut random_agent, |g, it| {
                for &seat in g.eliminated() {
                    if g.array().owned_by(seat) != 0 {
                        problems.push(format!("seat {seat} is out but owns cells"));
                    }
                }
                for e in &it.entries {
                    if !g.in_game(e.seat) && !it.out_before.contains(&e.seat)
                        && !it.out_after.contains(&e.seat) {
                        problems.push(format!("seat {} entered while out", e.seat));
                    }
                }
                log.push((it.clone(), g.array().clone()));
            });
            (outcome, log, g.counts(), g.played(), problems)
        };
        let (outcome, log, counts, played, problems) = play();
        prop_assert!(problems.is_empty(), "{:?}", problems);
        let again = play();
        prop_assert_eq!(&again.1, &log);
        prop_assert_eq!(again.0, outcome);
        prop_assert!(played <= iterations);
        let left = (0..players).filter(|&p| counts[p] > 0).count();
        if played < iterations {
            prop_assert!(left <= 1 || players == 1 && left == 0);
        }
        let best = counts.iter().copied().max().unwrap();
        match outcome {
            Outcome::Win { seat, last_standing } => {
                prop_assert_eq!(counts[seat], best);
                prop_assert!(best > 0);
                if last_standing {
                    prop_assert_eq!(left, 1);
                } else {
                    prop_assert_eq!(counts.iter().filter(|&&c| c == best).count(), 1);
                }
            }
            Outcome::Draw { nobody_left } => {
                prop_assert_eq!(nobody_left, best == 0);
                if !nobody_left {
                    prop_assert!(counts.iter().filter(|&&c| c == best).count() >= 2);
                }
            }
        }
    }
}
