//! Every collision rule on a hand-drawn position (docs/LIGHTCYCLES.md, "A tick"), and what a tick
//! leaves behind: trails, heads, deaths, places and the end.

use lightcycles_rules::picture::parse;
use lightcycles_rules::{
    Answer, Answers, ApplyError, Cause, Content, Dir, End, Event, Pos, State, Turn, MAX_PLAYERS,
};

const L: Option<Answer> = Some(Answer::Turn(Turn::Left));
const S: Option<Answer> = Some(Answer::Turn(Turn::Straight));
const R: Option<Answer> = Some(Answer::Turn(Turn::Right));
const OUT: Option<Answer> = Some(Answer::Out);

fn state(picture: &str, headings: &[Dir]) -> State {
    parse(picture, headings, 100).unwrap_or_else(|e| panic!("{e}\n{picture}"))
}

fn answers(list: &[Option<Answer>]) -> Answers {
    let mut a = [None; MAX_PLAYERS];
    a[..list.len()].copy_from_slice(list);
    a
}

/// Plays one tick; returns each seat's cause of death in it (`None` for a survivor, and for a
/// seat dead before the tick).
fn tick(s: &mut State, list: &[Option<Answer>]) -> Vec<Option<Cause>> {
    let t = s.apply(&answers(list)).expect("answers fit");
    (0..s.players())
        .map(|seat| t.steps[seat].and_then(|st| st.death))
        .collect()
}

const OPEN: &str = "
    ........
    ........
    ........
    ..A.....
    ........
    ........
    .....B..
    ........";

#[test]
fn leaving_the_grid_is_a_wall() {
    let mut s = state(
        "
        A.......
        ........
        ........
        ........
        ........
        ........
        ........
        .......B",
        &[Dir::West, Dir::South],
    );
    let t = s.apply(&answers(&[S, L])).unwrap();
    assert_eq!(t.steps[0].unwrap().death, Some(Cause::Wall));
    assert_eq!(t.steps[0].unwrap().to, None);
    // Seat 1 turned left from south (east): off the grid too.
    assert_eq!(t.steps[1].unwrap().death, Some(Cause::Wall));
    assert_eq!(t.end, Some(End::AllDead));
    assert_eq!(s.places()[..2], [1, 1]);
    let events: Vec<Event> = t.events().collect();
    assert_eq!(
        events[0],
        Event::Died {
            seat: 0,
            at: Pos::new(0, 0),
            into: None,
            cause: Cause::Wall
        }
    );
}

#[test]
fn entering_a_wall_cell() {
    let mut s = state(
        "
        ........
        ..A#....
        ........
        ........
        ........
        ........
        ....B...
        ........",
        &[Dir::East, Dir::North],
    );
    assert_eq!(tick(&mut s, &[S, S]), [Some(Cause::Wall), None]);
    assert_eq!(s.end(), Some(End::LastAlive));
    assert_eq!(s.places()[..2], [2, 1]);
    assert_eq!(
        s.outcome().unwrap().winners().iter().collect::<Vec<_>>(),
        [1]
    );
    // The wall is still a wall and the dead head did not enter it.
    assert_eq!(s.grid().get(Pos::new(3, 1)), Content::Wall);
    assert_eq!(s.cycle(0).head, Pos::new(2, 1));
}

#[test]
fn entering_its_own_trail() {
    let mut s = state(
        "
        ........
        ..aa....
        ..Aa....
        ........
        ........
        ........
        ....B...
        ........",
        &[Dir::West, Dir::North],
    );
    // Seat 0 heads west; turning right takes it north into its own trail.
    assert_eq!(tick(&mut s, &[R, S]), [Some(Cause::Trail), None]);
    assert_eq!(s.cycle(0).heading, Dir::North);
}

#[test]
fn entering_another_trail_and_a_dead_cycles_trail() {
    let mut s = state(
        "
        ........
        ..A.....
        ...b....
        ...b....
        ...B..cC
        ........
        ........
        ........",
        &[Dir::South, Dir::West, Dir::North],
    );
    // Seat 2 turns right (east) off the grid and dies; seat 0 turns left (east) then right
    // (south) into seat 1's trail.
    assert_eq!(tick(&mut s, &[L, L, R]), [None, None, Some(Cause::Wall)]);
    assert_eq!(s.cycle(0).head, Pos::new(3, 1));
    assert_eq!(tick(&mut s, &[R, R]), [Some(Cause::Trail), None, None]);
    assert_eq!(s.end(), Some(End::LastAlive));
    // Seat 2 died first, seat 0 at tick 2, seat 1 lives.
    assert_eq!(s.places()[..3], [2, 1, 3]);

    // A dead cycle's trail kills as well.
    let mut s = state(
        "
        ........
        ........
        ...c....
        ..AC....
        ........
        ........
        ....B...
        ........",
        &[Dir::East, Dir::North, Dir::East],
    );
    assert_eq!(tick(&mut s, &[L, S, OUT]), [None, None, Some(Cause::Out)]);
    assert_eq!(s.cycle(0).head, Pos::new(2, 2));
    // North again, then right (east) into the dead cycle's trail.
    assert_eq!(tick(&mut s, &[R, S]), [Some(Cause::Trail), None, None]);
    assert_eq!(s.grid().get(Pos::new(3, 2)), Content::Trail(2));
}

#[test]
fn a_head_moving_away_leaves_a_trail_behind() {
    // Seat 0 enters the cell seat 1's head leaves in the same tick: that cell is trail.
    let mut s = state(
        "
        ........
        ........
        ........
        ..AB....
        ........
        ........
        ........
        ........",
        &[Dir::East, Dir::North],
    );
    assert_eq!(tick(&mut s, &[S, S]), [Some(Cause::Trail), None]);
    assert_eq!(s.cycle(1).head, Pos::new(3, 2));
}

#[test]
fn two_heads_entering_one_cell() {
    let mut s = state(
        "
        ........
        ........
        ........
        .A...B..
        ........
        ........
        ........
        ........",
        &[Dir::East, Dir::West],
    );
    assert_eq!(tick(&mut s, &[S, S]), [None, None]);
    let t = s.apply(&answers(&[S, S])).unwrap();
    for seat in 0..2 {
        let step = t.steps[seat].unwrap();
        assert_eq!(step.death, Some(Cause::SameCell));
        assert_eq!(step.to, Some(Pos::new(3, 3)));
    }
    // Nobody entered the cell: it stays empty, and both share first place.
    assert_eq!(s.grid().get(Pos::new(3, 3)), Content::Empty);
    assert_eq!(t.end, Some(End::AllDead));
    assert_eq!(s.places()[..2], [1, 1]);
}

#[test]
fn three_heads_entering_one_cell_while_a_fourth_lives() {
    let start = state(
        "
        ........
        ...C....
        ........
        .A...B..
        ........
        ........
        ........
        ......D.",
        &[Dir::East, Dir::West, Dir::South, Dir::North],
    );
    let mut s = start;
    assert_eq!(tick(&mut s, &[S, S, S, S]), [None, None, None, None]);
    assert_eq!(
        tick(&mut s, &[R, L, S, S]),
        [None, None, None, None],
        "seats 0 and 1 turned away"
    );
    let mut s = start;
    // Seat 2 comes down to (3, 2), seats 0 and 1 to (2, 3) and (4, 3); then all three enter
    // (3, 3): seat 2 straight, seat 0 straight, seat 1 straight.
    assert_eq!(tick(&mut s, &[S, S, S, S]), [None, None, None, None]);
    assert_eq!(
        tick(&mut s, &[S, S, S, S]),
        [
            Some(Cause::SameCell),
            Some(Cause::SameCell),
            Some(Cause::SameCell),
            None
        ]
    );
    assert_eq!(s.end(), Some(End::LastAlive));
    assert_eq!(s.places()[..4], [2, 2, 2, 1]);
}

#[test]
fn two_heads_swapping_cells() {
    let mut s = state(
        "
        ........
        ........
        ........
        ..AB....
        ........
        ........
        ........
        ........",
        &[Dir::East, Dir::West],
    );
    let t = s.apply(&answers(&[S, S])).unwrap();
    assert_eq!(t.steps[0].unwrap().death, Some(Cause::Swap));
    assert_eq!(t.steps[1].unwrap().death, Some(Cause::Swap));
    assert_eq!(s.cycle(0).head, Pos::new(2, 3));
    assert_eq!(s.cycle(1).head, Pos::new(3, 3));
}

#[test]
fn a_trail_cell_two_heads_enter_is_a_trail_for_both() {
    let mut s = state(
        "
        ........
        ........
        ........
        .A#B....
        ..c.....
        ..C.....
        ........
        ........",
        &[Dir::East, Dir::West, Dir::North],
    );
    // Seats 0 and 1 both enter the wall: a wall for both. Seat 2 goes into its own trail.
    assert_eq!(
        tick(&mut s, &[S, S, S]),
        [Some(Cause::Wall), Some(Cause::Wall), Some(Cause::Trail)]
    );
    let mut s = state(
        "
        ........
        ........
        ........
        .A.B....
        ..c.....
        ..C.....
        ........
        ........",
        &[Dir::East, Dir::West, Dir::West],
    );
    // Seats 0 and 1 both enter the empty (2, 3): the same cell. Seat 2 turns away and lives.
    assert_eq!(
        tick(&mut s, &[S, S, L]),
        [Some(Cause::SameCell), Some(Cause::SameCell), None]
    );
}

#[test]
fn taken_out_where_it_stands() {
    let mut s = state(OPEN, &[Dir::North, Dir::South]);
    let t = s.apply(&answers(&[OUT, S])).unwrap();
    let step = t.steps[0].unwrap();
    assert_eq!((step.death, step.to), (Some(Cause::Out), None));
    assert_eq!(s.cycle(0).head, Pos::new(2, 3));
    assert_eq!(s.cycle(0).heading, Dir::North);
    assert_eq!(s.grid().get(Pos::new(2, 3)), Content::Trail(0));
    assert_eq!(t.end, Some(End::LastAlive));
    assert_eq!(s.places()[..2], [2, 1]);
}

#[test]
fn survivors_leave_one_cell_of_trail_a_tick() {
    let mut s = state(OPEN, &[Dir::North, Dir::South]);
    let t = s.apply(&answers(&[L, R])).unwrap();
    let events: Vec<Event> = t.events().collect();
    assert_eq!(
        events,
        [
            Event::Moved {
                seat: 0,
                from: Pos::new(2, 3),
                to: Pos::new(1, 3),
                heading: Dir::West
            },
            Event::Moved {
                seat: 1,
                from: Pos::new(5, 6),
                to: Pos::new(4, 6),
                heading: Dir::West
            },
        ]
    );
    assert_eq!(s.grid().count(Content::Trail(0)), 2);
    assert_eq!(s.grid().count(Content::Trail(1)), 2);
    assert_eq!(s.tick(), 1);
    assert_eq!(t.number, 1);
    assert!(t.deaths().is_empty());
    assert_eq!(s.to_move().bits(), 0b11);
}

#[test]
fn the_tick_cap_ends_with_the_survivors_first() {
    let picture = "
        ........
        ..A.....
        ........
        ........
        ........
        ........
        ....B...
        ......C.";
    let mut s = parse(picture, &[Dir::South, Dir::North, Dir::West], 2).unwrap();
    // Seat 2 turns left (south) off the grid at tick 1; the other two live to the cap.
    assert_eq!(tick(&mut s, &[S, S, L]), [None, None, Some(Cause::Wall)]);
    assert_eq!(s.end(), None);
    assert_eq!(tick(&mut s, &[S, S]), [None, None, None]);
    assert_eq!(s.end(), Some(End::TickCap));
    assert_eq!(s.places()[..3], [1, 1, 3]);
    assert!(s.to_move().is_empty());
    assert_eq!(s.apply(&answers(&[S, S])), Err(ApplyError::Over));
}

#[test]
fn answers_must_fit_the_living_seats() {
    let mut s = state(OPEN, &[Dir::North, Dir::South]);
    let before = s;
    assert_eq!(s.apply(&answers(&[S])), Err(ApplyError::Missing(1)));
    assert_eq!(
        s.apply(&answers(&[S, S, S])),
        Err(ApplyError::Unexpected(2))
    );
    assert_eq!(s, before);
}

#[test]
fn pictures_are_checked_and_round_trip() {
    let s = state(OPEN, &[Dir::North, Dir::South]);
    let drawn = s.to_string();
    assert_eq!(parse(&drawn, &[Dir::North, Dir::South], 100), Ok(s));
    assert!(parse("........\n", &[Dir::North], 10).is_err());
    assert!(parse(&OPEN.replace('B', "b"), &[Dir::North, Dir::South], 10).is_err());
    assert!(parse(&OPEN.replace('B', "x"), &[Dir::North, Dir::South], 10).is_err());
}

#[test]
fn targets_and_contested_cells() {
    let mut s = state(
        "
        ........
        ........
        ........
        ..A.B...
        ........
        ........
        ........
        c......C",
        &[Dir::East, Dir::North, Dir::West],
    );
    assert_eq!(s.target(0, Turn::Straight), Some(Pos::new(3, 3)));
    assert_eq!(s.target(0, Turn::Left), Some(Pos::new(2, 2)));
    assert_eq!(s.target(0, Turn::Right), Some(Pos::new(2, 4)));
    // Seat 2 heads west on the bottom row: turning left (south) leaves the grid.
    assert_eq!(s.target(2, Turn::Left), None);
    // Seat 1 (heading north) can enter (3, 3) by turning left, never the cell behind it.
    assert!(s.contested(0, Pos::new(3, 3)));
    assert!(!s.contested(0, Pos::new(4, 4)));
    // Only the other heads count: seat 0 can enter (2, 2), no other head can.
    assert!(!s.contested(0, Pos::new(2, 2)));
    assert!(s.contested(1, Pos::new(2, 2)));
    assert!(s.contested(0, Pos::new(6, 7)));
    // A dead cycle contests nothing.
    s.apply(&answers(&[L, R, OUT])).unwrap();
    assert!(!s.contested(0, Pos::new(6, 7)));
}
