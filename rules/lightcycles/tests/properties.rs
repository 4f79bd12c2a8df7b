//! Properties over many random games (random grids, players, walls, seeds and answers, with now
//! and then a seat taken out): trails only grow, a dead cycle never moves, a game on has two
//! cycles or more alive and ends within as many ticks as the grid has cells, places follow the
//! ticks of death; the symmetries of the start give the symmetric game, and seats are treated
//! alike whatever their numbers; the seed picks the walls and nothing else.

use lightcycles_rules::{
    layout, Answer, Answers, Content, Cycle, Dir, Grid, Settings, State, Symmetry, Turn,
    MAX_PLAYERS,
};
use proptest::prelude::*;

fn settings() -> impl Strategy<Value = (Settings, usize, u64)> {
    (
        8u32..=32,
        8u32..=32,
        prop_oneof![Just(0u32), 0u32..=25],
        1u32..=400,
        2usize..=6,
        any::<u64>(),
    )
        .prop_map(|(width, height, walls, tick_cap, players, seed)| {
            let settings = Settings {
                width,
                height,
                walls,
                tick_cap,
            };
            (settings, players, seed)
        })
}

/// A stream of answer choices: 1 in 256 takes the seat out, 6 in 256 are a turn whatever it
/// meets, the rest a turn into a free cell when there is one, the one with the most room (so that
/// games last).
fn choices() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 64..2000)
}

fn answer(state: &State, seat: usize, choice: u8) -> Answer {
    if choice == 0 {
        return Answer::Out;
    }
    let pick = Turn::ALL[choice as usize % 3];
    if choice < 7 {
        return Answer::Turn(pick);
    }
    // Among the turns into a free cell, one with the most free cells around its target (the
    // choice breaks ties), so that cycles do not shut themselves in at once.
    let grid = state.grid();
    let cycle = state.cycle(seat);
    let room = |t: Turn| -> Option<usize> {
        let to = grid.step(cycle.head, cycle.heading.turned(t))?;
        let around = Dir::ALL
            .iter()
            .filter(|&&d| grid.step(to, d).is_some_and(|p| grid.is_free(p)))
            .count();
        grid.is_free(to).then_some(around)
    };
    let start = choice as usize;
    let best = (0..3)
        .map(|i| Turn::ALL[(start + i) % 3])
        .filter_map(|t| room(t).map(|r| (r, t)))
        .max_by_key(|&(r, _)| r);
    Answer::Turn(best.map_or(pick, |(_, t)| t))
}

/// The answers of the next tick, drawn from `choices` in seat order (cycling).
fn next_answers(state: &State, choices: &[u8], at: &mut usize) -> Answers {
    let mut a = [None; MAX_PLAYERS];
    for seat in state.to_move().iter() {
        a[seat] = Some(answer(state, seat, choices[*at % choices.len()]));
        *at += 1;
    }
    a
}

/// The whole game, every state from the start to the end.
fn play(settings: &Settings, players: usize, seed: u64, choices: &[u8]) -> Vec<State> {
    let mut s = State::start(settings, players, seed).expect("valid settings");
    let mut states = vec![s];
    let mut at = 0;
    while !s.is_over() {
        let a = next_answers(&s, choices, &mut at);
        s.apply(&a).expect("answers for the living seats");
        states.push(s);
    }
    states
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn trails_grow_the_dead_stay_and_the_game_ends((settings, players, seed) in settings(), choices in choices()) {
        let states = play(&settings, players, seed, &choices);
        let last = states.last().unwrap();
        prop_assert!(last.tick() as usize <= settings.cells());
        for pair in states.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            prop_assert_eq!(after.tick(), before.tick() + 1);
            // Trails and walls only grow: a cell that held something holds the same.
            for (b, a) in before.grid().codes().iter().zip(after.grid().codes()) {
                prop_assert!(*b == 0 || a == b);
            }
            for seat in 0..players {
                let (cb, ca) = (before.cycle(seat), after.cycle(seat));
                if !cb.is_alive() {
                    prop_assert_eq!(cb, ca, "a dead cycle never moves");
                    prop_assert!(!before.to_move().contains(seat));
                } else if ca.is_alive() {
                    // One step, onto a cell of its own trail, and one cell more of trail.
                    let one = before.grid().step(cb.head, ca.heading);
                    prop_assert_eq!(one, Some(ca.head));
                    prop_assert_eq!(after.grid().get(ca.head), Content::Trail(seat));
                    prop_assert_eq!(
                        after.grid().count(Content::Trail(seat)),
                        before.grid().count(Content::Trail(seat)) + 1
                    );
                } else {
                    let d = ca.death.unwrap();
                    prop_assert_eq!(d.tick, after.tick());
                    prop_assert_eq!(ca.head, cb.head);
                    prop_assert_eq!(
                        after.grid().count(Content::Trail(seat)),
                        before.grid().count(Content::Trail(seat))
                    );
                }
            }
            let alive = after.living().len();
            match after.end() {
                None => prop_assert!(alive >= 2 && after.tick() < settings.tick_cap),
                Some(_) => prop_assert!(alive <= 1 || after.tick() == settings.tick_cap),
            }
        }
        // Places follow the ticks of death: alive beats dead, later beats earlier, ties share.
        let out = last.outcome().expect("the game is over");
        let lasted = |c: &Cycle| c.death.map_or(u32::MAX, |d| d.tick);
        for a in 0..players {
            for b in 0..players {
                let (la, lb) = (lasted(last.cycle(a)), lasted(last.cycle(b)));
                prop_assert_eq!(la.cmp(&lb), out.places[b].cmp(&out.places[a]));
            }
        }
        prop_assert!(!out.winners().is_empty());
        prop_assert!(out.places[players..].iter().all(|&p| p == 0));
    }

    #[test]
    fn the_seed_picks_only_the_walls((settings, players, seed) in settings(), other in any::<u64>()) {
        let a = State::start(&settings, players, seed).unwrap();
        prop_assert_eq!(a, State::start(&settings, players, seed).unwrap());
        let b = State::start(&settings, players, other).unwrap();
        // Everything but the walls is the same whatever the seed.
        prop_assert_eq!(a.cycles(), b.cycles());
        for (ca, cb) in a.grid().codes().iter().zip(b.grid().codes()) {
            prop_assert!(ca == cb || *ca == 1 || *cb == 1);
        }
        let bare = Settings { walls: 0, ..settings };
        prop_assert_eq!(
            State::start(&bare, players, seed).unwrap(),
            State::start(&bare, players, other).unwrap()
        );
    }

    /// For every symmetry of the rectangle that takes the start cells onto one another, the game
    /// in which each seat plays the image of another seat's answers is the image of the game:
    /// the same grid seen through the symmetry, the places carried along. (Walls are symmetric
    /// under all four, so only the start cells decide which symmetries apply: half a turn for 2
    /// players, all of them for 4, half a turn for seats 0 to 3 and 4 to 5 of 6.)
    #[test]
    fn symmetric_seats_have_symmetric_games((settings, players, seed) in settings(), choices in choices()) {
        let start = State::start(&settings, players, seed).unwrap();
        let (w, h) = (settings.width, settings.height);
        for sym in Symmetry::ALL {
            let Some(image) = seat_image(&start, sym) else { continue };
            // Play the game once, and the image game with each seat's answers moved to its
            // image seat (a mirror swaps left and right).
            let mut a = start;
            let mut b = start;
            let mut at = 0;
            while !a.is_over() {
                let answers = next_answers(&a, &choices, &mut at);
                let mut mirrored = [None; MAX_PLAYERS];
                for seat in 0..players {
                    mirrored[image[seat]] = answers[seat].map(|ans| match ans {
                        Answer::Turn(t) => Answer::Turn(sym.turn(t)),
                        Answer::Out => Answer::Out,
                    });
                }
                a.apply(&answers).unwrap();
                b.apply(&mirrored).unwrap();
                prop_assert_eq!(a.end(), b.end());
            }
            prop_assert!(b.is_over());
            let (pa, pb) = (a.places(), b.places());
            for seat in 0..players {
                prop_assert_eq!(pa[seat], pb[image[seat]], "{:?}", sym);
                let (ca, cb) = (a.cycle(seat), b.cycle(image[seat]));
                prop_assert_eq!(sym.pos(w, h, ca.head), cb.head);
                prop_assert_eq!(sym.dir(ca.heading), cb.heading);
                prop_assert_eq!(ca.death, cb.death);
            }
            for i in 0..a.grid().len() {
                let p = a.grid().pos(i);
                let expected = match a.grid().get(p) {
                    Content::Trail(s) => Content::Trail(image[s]),
                    other => other,
                };
                prop_assert_eq!(b.grid().get(sym.pos(w, h, p)), expected);
            }
        }
    }

    /// Seats are treated alike whatever their numbers: the same cycles under other seat numbers
    /// (a permutation of the seats) play the same game with the places permuted.
    #[test]
    fn seat_numbers_do_not_matter((settings, players, seed) in settings(), choices in choices(), shuffle in any::<u64>()) {
        let a0 = State::start(&settings, players, seed).unwrap();
        let perm = permutation(players, shuffle);
        let b0 = relabel(&a0, &perm);
        let (mut a, mut b) = (a0, b0);
        let mut at = 0;
        while !a.is_over() {
            let answers = next_answers(&a, &choices, &mut at);
            let mut moved = [None; MAX_PLAYERS];
            for seat in 0..players {
                moved[perm[seat]] = answers[seat];
            }
            a.apply(&answers).unwrap();
            b.apply(&moved).unwrap();
        }
        prop_assert!(b.is_over());
        prop_assert_eq!(relabel(&a, &perm), b);
        let (pa, pb) = (a.places(), b.places());
        for seat in 0..players {
            prop_assert_eq!(pa[seat], pb[perm[seat]]);
        }
    }
}

/// The seat whose start is the image of each seat's start under `sym`, if every seat has one.
fn seat_image(start: &State, sym: Symmetry) -> Option<[usize; MAX_PLAYERS]> {
    let (w, h) = (start.grid().width(), start.grid().height());
    let starts = layout::starts(w, h, start.players());
    let mut image = [0; MAX_PLAYERS];
    for seat in 0..start.players() {
        let (pos, dir) = starts[seat];
        let target = (sym.pos(w, h, pos), sym.dir(dir));
        image[seat] = starts[..start.players()]
            .iter()
            .position(|&s| s == target)?;
    }
    Some(image)
}

/// A permutation of `0..n` drawn from `seed`.
fn permutation(n: usize, mut seed: u64) -> [usize; MAX_PLAYERS] {
    let mut p = [0, 1, 2, 3, 4, 5];
    for i in (1..n).rev() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (seed >> 33) as usize % (i + 1);
        p.swap(i, j);
    }
    p
}

/// The same state with seat s renamed `perm[s]`.
fn relabel(s: &State, perm: &[usize; MAX_PLAYERS]) -> State {
    let players = s.players();
    let g = s.grid();
    let mut grid = Grid::new(g.width(), g.height()).unwrap();
    for i in 0..g.len() {
        let p = g.pos(i);
        grid.set(
            p,
            match g.get(p) {
                Content::Trail(seat) => Content::Trail(perm[seat]),
                other => other,
            },
        );
    }
    let mut cycles = [Cycle::new(lightcycles_rules::Pos::new(0, 0), Dir::North); MAX_PLAYERS];
    for seat in 0..players {
        cycles[perm[seat]] = *s.cycle(seat);
    }
    State::from_parts(grid, &cycles[..players], s.tick(), s.tick_cap()).unwrap()
}

#[test]
fn the_symmetries_that_apply() {
    let count = |width, height, players| {
        let settings = Settings {
            width,
            height,
            ..Settings::default()
        };
        let s = State::start(&settings, players, 1).unwrap();
        Symmetry::ALL
            .iter()
            .filter(|&&sym| seat_image(&s, sym).is_some())
            .count()
    };
    // docs/LIGHTCYCLES.md, "Fairness". On the default grid (even sides): the identity and half a
    // turn for 2 and 6 players, all four for 4; for 3 and 5 the odd seat out has no image.
    assert_eq!([2, 3, 4, 5, 6].map(|n| count(30, 20, n)), [2, 1, 4, 1, 2]);
    // An odd width: the left-right mirror keeps the middle column, so it applies to 5 and 6
    // players (and the top-bottom one to 6), and to 3 when the height is odd too.
    assert_eq!([2, 3, 4, 5, 6].map(|n| count(31, 20, n)), [2, 1, 4, 2, 4]);
    assert_eq!(count(31, 21, 3), 2);
    let default = State::start(&Settings::default(), 4, 1).unwrap();
    assert_eq!(
        seat_image(&default, Symmetry::MirrorLeftRight).unwrap()[..4],
        [3, 2, 1, 0]
    );
    let two = State::start(&Settings::default(), 2, 1).unwrap();
    assert_eq!(seat_image(&two, Symmetry::HalfTurn).unwrap()[..2], [1, 0]);
}
