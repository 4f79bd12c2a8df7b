//! Light cycles payloads: the observation the host writes after the envelope (decision
//! [`crate::Decision::LightcyclesTurn`], export `lightcycles_turn`) and the turn the agent writes
//! back.
//!
//! Every living player decides at every tick, all at once: each gets the same observation (the
//! grid and every cycle as they are before the tick) apart from its own clock. Cells are
//! `y × width + x` from the top-left; cell codes are the rules' ([`lightcycles_rules::Content`]):
//! 0 empty, 1 wall, 2 + s the trail of seat s (its head included).

use lightcycles_rules::{
    Cause, Cycle, Death, Dir, Grid, Pos, State, StateError, Turn, MAX_CELLS, MAX_PLAYERS, MAX_SIDE,
    MIN_SIDE,
};

use crate::bytes::{answer_bytes, fixed, get_u32, get_u64, need, put_u32, put_u64, DecodeError};

/// Size of the fixed part of the observation; the grid follows it.
pub const OBSERVATION_FIXED_SIZE: usize = 144;
/// Size of one seat's cycle record.
pub const CYCLE_SIZE: usize = 8;
/// Size of the largest observation (a grid of 64 × 64 cells).
pub const MAX_OBSERVATION_SIZE: usize = OBSERVATION_FIXED_SIZE + MAX_CELLS;
/// Size of the answer: the turn's code.
pub const ANSWER_SIZE: usize = 1;

// The largest observation fits the smallest exchange buffer after the envelope.
const _: () = assert!(crate::ENVELOPE_SIZE + MAX_OBSERVATION_SIZE <= crate::MIN_BUFFER_SIZE);

/// Offsets of the observation payload (relative to the payload start, i.e. buffer offset 32).
pub mod offset {
    pub const WIDTH: usize = 0;
    pub const HEIGHT: usize = 4;
    pub const TICK: usize = 8;
    pub const TICK_CAP: usize = 12;
    pub const RESERVED: usize = 16;
    pub const MY_CLOCK: usize = 24;
    pub const INCREMENT: usize = 32;
    pub const DECISION_CAP: usize = 40;
    pub const CLOCKS: usize = 48;
    pub const CYCLES: usize = 96;
    pub const GRID: usize = 144;
}

/// Offsets within a cycle record.
pub mod cycle_offset {
    pub const X: usize = 0;
    pub const Y: usize = 1;
    pub const HEADING: usize = 2;
    pub const CAUSE: usize = 3;
    pub const DIED_AT: usize = 4;
}

/// The fuel clock as the observation gives it, in fuel units (wasm instructions as the sandbox
/// meters them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Fuel left on the agent's own game clock, this tick's increment included.
    pub mine: u64,
    /// Fuel added to a player's clock at each of its decisions.
    pub increment: u64,
    /// Most fuel a single decision may use, whatever the clock holds.
    pub decision_cap: u64,
    /// Every seat's clock, in seat order (the agent's own is `mine`; 0 beyond the players).
    pub seats: [u64; MAX_PLAYERS],
}

impl Clock {
    /// The fuel this decision may use: the smaller of the clock and the per-decision cap.
    pub const fn this_decision(&self) -> u64 {
        crate::bytes::decision_fuel(self.mine, self.decision_cap)
    }
}

/// The observation of a `lightcycles_turn` decision: the state before the tick and the clock.
/// The host asks only while the game is on, and only the seats whose cycles are alive.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | width: columns of the grid (8 to 64) |
/// | 4 | u32 | height: rows (8 to 64) |
/// | 8 | u32 | tick: ticks played before this decision (this decision is for tick + 1) |
/// | 12 | u32 | tick cap: the game ends after this many ticks |
/// | 16 | u32 × 2 | reserved, 0 |
/// | 24 | u64 | your clock: fuel left, this tick's increment included |
/// | 32 | u64 | increment per tick |
/// | 40 | u64 | per-decision cap |
/// | 48 | u64 × 6 | every seat's clock, in seat order (0 beyond the players) |
/// | 96 | (u8 × 8) × 6 | every seat's cycle: x, y, heading, cause of death (0 alive), then the tick of death (u32, 0 alive); zeros beyond the players |
/// | 144 | u8 × (width × height) | the grid, row by row from the top-left: 0 empty, 1 wall, 2 + s the trail of seat s |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub state: State,
    pub clock: Clock,
}

impl Observation {
    pub fn new(state: &State, clock: Clock) -> Observation {
        Observation {
            state: *state,
            clock,
        }
    }

    /// The encoded size: 144 + width × height.
    pub fn size(&self) -> usize {
        OBSERVATION_FIXED_SIZE + self.state.grid().len()
    }

    /// Writes the payload ([`Observation::size`] bytes) at the start of `buf`. Reserved bytes,
    /// and the clocks and cycles beyond the players, are written as 0.
    ///
    /// Panics if `buf` is shorter than [`Observation::size`].
    pub fn encode(&self, buf: &mut [u8]) {
        let state = &self.state;
        let grid = state.grid();
        {
            let head: &mut [u8; OBSERVATION_FIXED_SIZE] = fixed(buf);
            head.fill(0);
            put_u32(head, offset::WIDTH, grid.width());
            put_u32(head, offset::HEIGHT, grid.height());
            put_u32(head, offset::TICK, state.tick());
            put_u32(head, offset::TICK_CAP, state.tick_cap());
            put_u64(head, offset::MY_CLOCK, self.clock.mine);
            put_u64(head, offset::INCREMENT, self.clock.increment);
            put_u64(head, offset::DECISION_CAP, self.clock.decision_cap);
            for (seat, cycle) in state.cycles().iter().enumerate() {
                put_u64(head, offset::CLOCKS + 8 * seat, self.clock.seats[seat]);
                let at = offset::CYCLES + CYCLE_SIZE * seat;
                head[at + cycle_offset::X] = cycle.head.x;
                head[at + cycle_offset::Y] = cycle.head.y;
                head[at + cycle_offset::HEADING] = cycle.heading.code();
                if let Some(d) = cycle.death {
                    head[at + cycle_offset::CAUSE] = d.cause.code();
                    put_u32(head, at + cycle_offset::DIED_AT, d.tick);
                }
            }
        }
        buf[offset::GRID..offset::GRID + grid.len()].copy_from_slice(grid.codes());
    }

    /// Reads the payload of a game of `players` (the envelope's). Refuses (`BadValue` at the
    /// field's offset) a width or height outside 8 to 64 (at 0 or 4), a tick cap of 0 or above
    /// 4,096 (at 12), and for the first `players` cycle records a cell off the grid or not on the
    /// seat's own trail (at the record's x), a heading above 3, a cause above 5, a tick of death
    /// that is 0 or after the tick for a dead cycle or not 0 for a living one (at that field);
    /// a grid code above 1 + `players` (at the cell). Refuses a payload shorter than
    /// 144 + width × height bytes, and a number of players other than 2 to 6 (at 0). Reserved
    /// bytes, and clocks and cycle records beyond the players, are ignored.
    pub fn decode(payload: &[u8], players: usize) -> Result<Observation, DecodeError> {
        need(payload, OBSERVATION_FIXED_SIZE)?;
        let bad = |offset| DecodeError::BadValue { offset };
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(bad(0));
        }
        let side = |at| {
            let v = get_u32(payload, at);
            if (MIN_SIDE..=MAX_SIDE).contains(&v) {
                Ok(v)
            } else {
                Err(bad(at))
            }
        };
        let (width, height) = (side(offset::WIDTH)?, side(offset::HEIGHT)?);
        let cells = (width * height) as usize;
        need(payload, OBSERVATION_FIXED_SIZE + cells)?;
        let codes = &payload[offset::GRID..offset::GRID + cells];
        let trail_limit = 2 + players as u8;
        if let Some(i) = codes.iter().position(|&c| c >= trail_limit) {
            return Err(bad(offset::GRID + i));
        }
        let grid = Grid::from_codes(width, height, codes).ok_or(bad(offset::GRID))?;
        let tick = get_u32(payload, offset::TICK);
        let mut cycles = [Cycle::new(Pos::new(0, 0), Dir::North); MAX_PLAYERS];
        let mut clock = Clock {
            mine: get_u64(payload, offset::MY_CLOCK),
            increment: get_u64(payload, offset::INCREMENT),
            decision_cap: get_u64(payload, offset::DECISION_CAP),
            seats: [0; MAX_PLAYERS],
        };
        for (seat, cycle) in cycles.iter_mut().enumerate().take(players) {
            clock.seats[seat] = get_u64(payload, offset::CLOCKS + 8 * seat);
            let at = offset::CYCLES + CYCLE_SIZE * seat;
            let head = Pos::new(payload[at + cycle_offset::X], payload[at + cycle_offset::Y]);
            let heading = Dir::from_code(payload[at + cycle_offset::HEADING])
                .ok_or(bad(at + cycle_offset::HEADING))?;
            let died_at = get_u32(payload, at + cycle_offset::DIED_AT);
            let death = match payload[at + cycle_offset::CAUSE] {
                0 if died_at == 0 => None,
                0 => return Err(bad(at + cycle_offset::DIED_AT)),
                code => Some(Death {
                    cause: Cause::from_code(code).ok_or(bad(at + cycle_offset::CAUSE))?,
                    tick: died_at,
                }),
            };
            *cycle = Cycle {
                head,
                heading,
                death,
            };
        }
        let tick_cap = get_u32(payload, offset::TICK_CAP);
        let state = State::from_parts(grid, &cycles[..players], tick, tick_cap).map_err(|e| {
            let record = |seat: usize| offset::CYCLES + CYCLE_SIZE * seat;
            match e {
                StateError::Players(_) => bad(0),
                StateError::TickCap(_) => bad(offset::TICK_CAP),
                StateError::HeadOffGrid(s) | StateError::HeadOffTrail(s) => bad(record(s)),
                StateError::DeathTick(s) => bad(record(s) + cycle_offset::DIED_AT),
                StateError::TrailOfNoSeat(p) => bad(offset::GRID + grid.index(p)),
            }
        })?;
        Ok(Observation { state, clock })
    }
}

/// Writes `turn` at the start of `buf` (its code: 0 left, 1 straight, 2 right) and returns 1:
/// the value the `lightcycles_turn` export returns. Panics if `buf` is empty.
pub fn encode_answer(buf: &mut [u8], turn: Turn) -> usize {
    buf[0] = turn.code();
    ANSWER_SIZE
}

/// Reads the answer of `lightcycles_turn`: `ret` is what the export returned, `buf` the whole
/// exchange buffer (its length is the buffer size). An error is an unreadable answer, a
/// `bad_answer` fault; these are exactly the unreadable answers:
///
/// - `ret` < 1 (negative included): `TooShort { needed: 1, got: 0 }`;
/// - `ret` > the buffer size: `TooShort { needed: ret, got: buf.len() }`;
/// - a turn code above 2: `BadValue { offset: 0 }`.
///
/// Bytes from 1 to `ret` are ignored. Every readable turn is a move the rules play (a turn into
/// a wall or a trail kills the cycle; it is not a fault).
pub fn decode_answer(ret: i32, buf: &[u8]) -> Result<Turn, DecodeError> {
    let answer = answer_bytes(ret, buf, ANSWER_SIZE)?;
    Turn::from_code(answer[0]).ok_or(DecodeError::BadValue { offset: 0 })
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::bytes::answer_faults::assert_length_faults;
    use lightcycles_rules::{Answer, Settings};
    use proptest::prelude::*;
    use std::vec;

    /// A state reached by playing random turns from a random start.
    fn state() -> impl Strategy<Value = State> {
        (
            8u32..=40,
            8u32..=40,
            0u32..=25,
            2usize..=6,
            any::<u64>(),
            prop::collection::vec(0u8..3, 0..300),
        )
            .prop_map(|(width, height, walls, players, seed, turns)| {
                let settings = Settings {
                    width,
                    height,
                    walls,
                    tick_cap: 500,
                };
                let mut s = State::start(&settings, players, seed).unwrap();
                let mut turns = turns.into_iter();
                while !s.is_over() {
                    let mut answers = [None; MAX_PLAYERS];
                    for seat in s.to_move().iter() {
                        let Some(code) = turns.next() else { return s };
                        answers[seat] = Some(Answer::Turn(Turn::from_code(code).unwrap()));
                    }
                    s.apply(&answers).unwrap();
                }
                s
            })
    }

    fn clock() -> impl Strategy<Value = Clock> {
        (
            prop::array::uniform3(any::<u64>()),
            prop::array::uniform6(any::<u64>()),
        )
            .prop_map(|(c, seats)| Clock {
                mine: c[0],
                increment: c[1],
                decision_cap: c[2],
                seats,
            })
    }

    /// The clocks beyond the players are not sent.
    fn sent(mut obs: Observation) -> Observation {
        let players = obs.state.players();
        obs.clock.seats[players..].fill(0);
        obs
    }

    proptest! {
        #[test]
        fn observations_round_trip(state in state(), clock in clock(), junk in any::<u8>()) {
            let obs = Observation::new(&state, clock);
            let mut buf = vec![junk; MAX_OBSERVATION_SIZE];
            obs.encode(&mut buf);
            let n = obs.size();
            let back = Observation::decode(&buf[..n], state.players()).unwrap();
            prop_assert_eq!(back, sent(obs));
            prop_assert!(buf[offset::RESERVED..offset::MY_CLOCK].iter().all(|&b| b == 0));
            let beyond = offset::CYCLES + CYCLE_SIZE * state.players();
            prop_assert!(buf[beyond..offset::GRID].iter().all(|&b| b == 0));
            // One byte short of the grid is refused.
            prop_assert!(Observation::decode(&buf[..n - 1], state.players()).is_err());
        }

        #[test]
        fn answers_round_trip(code in 0u8..3, extra in 0usize..16, junk in any::<u8>()) {
            let turn = Turn::from_code(code).unwrap();
            let mut buf = [junk; 32];
            let n = encode_answer(&mut buf, turn);
            prop_assert_eq!(n, ANSWER_SIZE);
            prop_assert_eq!(decode_answer(n as i32, &buf), Ok(turn));
            prop_assert_eq!(decode_answer((n + extra) as i32, &buf), Ok(turn));
        }

        #[test]
        fn unreadable_answers_are_exactly_the_fault_conditions(ret in -20i32..40, size in 0usize..40, code in any::<u8>()) {
            let mut buf = [0u8; 40];
            buf[0] = code;
            let buf = &buf[..size];
            let readable = ret >= 1 && ret as usize <= size && code < 3;
            let got = decode_answer(ret, buf);
            prop_assert_eq!(got.is_ok(), readable, "{:?}", got);
            if let Ok(turn) = got {
                prop_assert_eq!(turn.code(), code);
            }
        }

        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..600), players in 0usize..9, ret in any::<i32>()) {
            let _ = Observation::decode(&bytes, players);
            let _ = decode_answer(ret, &bytes);
        }

        #[test]
        fn decoding_altered_observations_never_panics(state in state(), at in 0usize..MAX_OBSERVATION_SIZE, value in any::<u8>()) {
            let obs = Observation::new(&state, Clock::default());
            let mut buf = vec![0u8; MAX_OBSERVATION_SIZE];
            obs.encode(&mut buf);
            let n = obs.size();
            buf[at % n] = value;
            if let Ok(back) = Observation::decode(&buf[..n], state.players()) {
                // Whatever is accepted is a state the rules accept, and encodes to the same bytes
                // but for those the decoder ignores: reserved, beyond the players, and beyond the
                // grid it read (a width or height made smaller leaves the rest of the payload
                // unread, as any payload longer than its grid is).
                let mut again = vec![0u8; MAX_OBSERVATION_SIZE];
                back.encode(&mut again);
                let (players, read) = (state.players(), back.size());
                let ignored = [
                    offset::RESERVED..offset::MY_CLOCK,
                    offset::CLOCKS + 8 * players..offset::CYCLES,
                    offset::CYCLES + CYCLE_SIZE * players..offset::GRID,
                    read..n,
                ];
                if !ignored.iter().any(|r| r.contains(&(at % n))) {
                    prop_assert_eq!(&again[..read], &buf[..read]);
                }
            }
        }
    }

    #[test]
    fn the_start_as_the_host_sends_it() {
        let start = State::start(&Settings::default(), 2, 9).unwrap();
        let clock = Clock {
            mine: 61_000_000,
            increment: 1_000_000,
            decision_cap: 10_000_000,
            seats: [61_000_000, 60_000_000, 0, 0, 0, 0],
        };
        let obs = Observation::new(&start, clock);
        assert_eq!(obs.size(), 144 + 600);
        let mut buf = [0u8; MAX_OBSERVATION_SIZE];
        obs.encode(&mut buf);
        assert_eq!(get_u32(&buf, offset::WIDTH), 30);
        assert_eq!(get_u32(&buf, offset::HEIGHT), 20);
        assert_eq!(get_u32(&buf, offset::TICK), 0);
        assert_eq!(get_u32(&buf, offset::TICK_CAP), 300);
        assert_eq!(get_u64(&buf, offset::CLOCKS + 8), 60_000_000);
        // Seat 0 at (7, 9) heading east (1), seat 1 at (22, 10) heading west (3), both alive.
        assert_eq!(&buf[96..104], &[7, 9, 1, 0, 0, 0, 0, 0]);
        assert_eq!(&buf[104..112], &[22, 10, 3, 0, 0, 0, 0, 0]);
        assert_eq!(buf[offset::GRID + 9 * 30 + 7], 2);
        assert_eq!(buf[offset::GRID + 10 * 30 + 22], 3);
        assert_eq!(
            buf[offset::GRID..offset::GRID + 600]
                .iter()
                .filter(|&&c| c != 0)
                .count(),
            2
        );
        let back = Observation::decode(&buf[..744], 2).unwrap();
        assert_eq!(back.state, start);
        assert_eq!(back.clock.this_decision(), 10_000_000);
    }

    #[test]
    fn a_dead_cycle_as_sent() {
        let mut s = State::start(&Settings::default(), 3, 0).unwrap();
        // Seat 2 (on the top row, heading south) is taken out at tick 1: it dies where it
        // stands, cause 5 (out).
        let answers = [
            Some(Answer::Turn(Turn::Straight)),
            Some(Answer::Turn(Turn::Straight)),
            Some(Answer::Out),
            None,
            None,
            None,
        ];
        s.apply(&answers).unwrap();
        let obs = Observation::new(&s, Clock::default());
        let mut buf = [0u8; MAX_OBSERVATION_SIZE];
        obs.encode(&mut buf);
        assert_eq!(&buf[112..120], &[14, 0, 2, 5, 1, 0, 0, 0]);
        assert_eq!(Observation::decode(&buf[..obs.size()], 3).unwrap().state, s);
    }

    #[test]
    fn refusals_name_the_offset() {
        let start = State::start(&Settings::default(), 2, 9).unwrap();
        let obs = Observation::new(&start, Clock::default());
        let mut good = [0u8; MAX_OBSERVATION_SIZE];
        obs.encode(&mut good);
        let n = obs.size();
        let cases: [(usize, u8, usize); 10] = [
            (offset::WIDTH, 7, offset::WIDTH),
            (offset::HEIGHT, 65, offset::HEIGHT),
            (offset::TICK_CAP + 2, 0x10, offset::TICK_CAP),
            (96 + cycle_offset::X, 8, 96),
            (104 + cycle_offset::Y, 60, 104),
            (96 + cycle_offset::HEADING, 4, 96 + cycle_offset::HEADING),
            (96 + cycle_offset::CAUSE, 6, 96 + cycle_offset::CAUSE),
            (96 + cycle_offset::CAUSE, 1, 96 + cycle_offset::DIED_AT),
            (96 + cycle_offset::DIED_AT, 1, 96 + cycle_offset::DIED_AT),
            (offset::GRID + 5, 4, offset::GRID + 5),
        ];
        for (at, value, reported) in cases {
            let mut bad = good;
            bad[at] = value;
            assert_eq!(
                Observation::decode(&bad[..n], 2),
                Err(DecodeError::BadValue { offset: reported }),
                "byte {at} = {value}"
            );
        }
        // A cell of a third seat's trail in a game of two.
        let mut bad = good;
        bad[offset::GRID + 5] = 4;
        assert_eq!(
            Observation::decode(&bad[..n], 2),
            Err(DecodeError::BadValue {
                offset: offset::GRID + 5
            })
        );
        assert_eq!(
            Observation::decode(&good[..n], 7),
            Err(DecodeError::BadValue { offset: 0 })
        );
        assert_eq!(
            Observation::decode(&good[..143], 2),
            Err(DecodeError::TooShort {
                needed: 144,
                got: 143
            })
        );
        assert_eq!(
            Observation::decode(&good[..n - 1], 2),
            Err(DecodeError::TooShort {
                needed: n,
                got: n - 1
            })
        );
    }

    #[test]
    fn answer_fault_conditions() {
        let mut buf = [0u8; 16];
        assert_eq!(encode_answer(&mut buf, Turn::Right), 1);
        assert_eq!(buf[0], 2);
        assert_eq!(decode_answer(1, &buf), Ok(Turn::Right));
        assert_eq!(decode_answer(16, &buf), Ok(Turn::Right));
        assert_length_faults(decode_answer, &buf, 1);
        buf[0] = 3;
        assert_eq!(
            decode_answer(1, &buf),
            Err(DecodeError::BadValue { offset: 0 })
        );
    }

    #[test]
    fn layout_offsets_are_consistent() {
        assert_eq!(offset::CLOCKS + 8 * MAX_PLAYERS, offset::CYCLES);
        assert_eq!(offset::CYCLES + CYCLE_SIZE * MAX_PLAYERS, offset::GRID);
        assert_eq!(offset::GRID, OBSERVATION_FIXED_SIZE);
        assert_eq!(MAX_OBSERVATION_SIZE, 4240);
    }
}
