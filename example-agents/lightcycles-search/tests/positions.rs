//! The search agent's decisions on positions: drawn by hand where the best turn is plain, and
//! reached by random play for what must always hold.

use arena_agent_sdk::fuel;
use arena_agent_sdk::lightcycles::picture::parse;
use arena_agent_sdk::lightcycles::{Answer, Dir, Settings, State, Turn, MAX_PLAYERS};
use lightcycles_search::SearchAgent;
use proptest::prelude::*;

/// The search's turn for `seat`, with `budget` fuel to spend (native stand-in).
fn decide(state: &State, seat: usize, budget: i64) -> Turn {
    fuel::native::set(10_000_000);
    SearchAgent::new(7).decide(state, seat, 10_000_000, budget)
}

fn free(state: &State, seat: usize, turn: Turn) -> bool {
    state
        .target(seat, turn)
        .is_some_and(|c| state.grid().is_free(c))
}

#[test]
fn cut_off_it_fills_the_larger_side() {
    // Seat 1 is walled off at the bottom. Seat 0 heads north into a wall: the left leads into a
    // pocket of three cells, the right to the rest of the top.
    let s = parse(
        "
        ........
        ........
        ########
        #...A...
        ####a...
        ########
        ......B.
        ......b.",
        &[Dir::North, Dir::North],
        300,
    )
    .unwrap();
    assert_eq!(decide(&s, 0, 2_000_000), Turn::Right);
}

#[test]
fn it_takes_the_gap_to_the_larger_region() {
    // A wall splits the grid; its only gap, (4, 5), leads to the 40 cells of the top. Seat 0,
    // heading north, enters the gap next tick and has the top to itself, cut off from seat 1,
    // which keeps the 27 free cells of the bottom: a won game. Turning away keeps it in the
    // bottom, fighting for less.
    let s = parse(
        "
        ........
        ........
        ........
        ........
        ........
        ####.###
        ....A...
        ....a...
        ......B.
        ......b.",
        &[Dir::North, Dir::North],
        300,
    )
    .unwrap();
    assert_eq!(decide(&s, 0, 2_000_000), Turn::Straight);
}

/// A position after `ticks` ticks of random play (turns into free cells when there are some),
/// on a grid of `width` × `height` with `walls` % of walls.
fn played() -> impl Strategy<Value = (State, usize)> {
    (
        10u32..=30,
        10u32..=20,
        prop_oneof![Just(0u32), 0u32..=20],
        2usize..=4,
        any::<u64>(),
        prop::collection::vec(any::<u8>(), 0..120),
    )
        .prop_filter_map(
            "the game ended",
            |(width, height, walls, players, seed, picks)| {
                let settings = Settings {
                    width,
                    height,
                    walls,
                    tick_cap: 300,
                };
                let mut s = State::start(&settings, players, seed).unwrap();
                for chunk in picks.chunks(players) {
                    let mut answers = [None; MAX_PLAYERS];
                    for seat in s.to_move().iter() {
                        let pick = chunk.get(seat).copied().unwrap_or(0) as usize;
                        let safe: Vec<Turn> = Turn::ALL
                            .into_iter()
                            .filter(|&t| free(&s, seat, t))
                            .collect();
                        let turn = if safe.is_empty() {
                            Turn::Straight
                        } else {
                            safe[pick % safe.len()]
                        };
                        answers[seat] = Some(Answer::Turn(turn));
                    }
                    let next = s.after(&answers).unwrap();
                    if next.is_over() {
                        break;
                    }
                    s = next;
                }
                let seat = s.living().iter().next()?;
                (!s.is_over()).then_some((s, seat))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever its budget, it never turns into a wall or a trail when a cell is free.
    #[test]
    fn never_to_an_immediate_death((state, seat) in played(), budget in prop_oneof![Just(0i64), 1i64..3_000_000]) {
        let turn = decide(&state, seat, budget);
        if Turn::ALL.into_iter().any(|t| free(&state, seat, t)) {
            prop_assert!(free(&state, seat, turn), "{:?} at\n{}", turn, state);
        }
    }
}
