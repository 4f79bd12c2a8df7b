//! Jungle payloads: the observation the host writes after the envelope (decision
//! [`crate::Decision::JungleMove`], export `jungle_move`) and the move the agent writes back.
//!
//! Squares are the rules' indices, `rank × 7 + file` from 0 (a1 = 0, b1 = 1, …, g1 = 6,
//! a2 = 7, …, g9 = 62); pieces are [`jungle_rules::Piece::code`]s: 0 empty, 1–8 the first
//! player's rat, cat, dog, wolf, leopard, tiger, lion, elephant, 9–16 the second player's.

use jungle_rules::{Move, MoveList, Piece, Position, Side, Square, DRAW_PLIES, MAX_MOVES, SQUARES};

use crate::bytes::{answer_bytes, fixed, get_u32, get_u64, need, put_u32, put_u64, DecodeError};

/// Size of the fixed part of the observation; the recent moves follow it.
pub const OBSERVATION_FIXED_SIZE: usize = 192;
/// Size of one recent move.
pub const PLAYED_SIZE: usize = 4;
/// Most recent moves an observation carries.
pub const MAX_PLAYED: usize = 8;
/// Size of the largest observation.
pub const MAX_OBSERVATION_SIZE: usize = OBSERVATION_FIXED_SIZE + PLAYED_SIZE * MAX_PLAYED;
/// Size of the answer: the from and to squares.
pub const ANSWER_SIZE: usize = 2;
/// Square byte of a recent-move entry that records no move.
pub const NO_SQUARE: u8 = 255;

/// Offsets of the observation payload (relative to the payload start, i.e. buffer offset 32).
pub mod offset {
    pub const SIDE: usize = 0;
    pub const PLY: usize = 4;
    pub const QUIET: usize = 8;
    pub const DRAW_LIMIT: usize = 12;
    pub const PLY_CAP: usize = 16;
    pub const RESERVED: usize = 20;
    pub const MY_CLOCK: usize = 24;
    pub const THEIR_CLOCK: usize = 32;
    pub const INCREMENT: usize = 40;
    pub const DECISION_CAP: usize = 48;
    pub const BOARD: usize = 56;
    pub const RESERVED8: usize = 119;
    pub const PLAYED_COUNT: usize = 120;
    pub const LEGAL_COUNT: usize = 124;
    pub const LEGAL: usize = 128;
    pub const PLAYED: usize = 192;
}

/// The fuel clock as the observation gives it, in fuel units (wasm instructions as the sandbox
/// meters them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Fuel left on the agent's own game clock, this move's increment included.
    pub mine: u64,
    /// Fuel left on the opponent's game clock.
    pub theirs: u64,
    /// Fuel added to a player's clock for each of its moves.
    pub increment: u64,
    /// Most fuel a single decision may use, whatever the clock holds.
    pub decision_cap: u64,
}

impl Clock {
    /// The fuel this decision may use: the smaller of the clock and the per-decision cap.
    pub const fn this_decision(&self) -> u64 {
        crate::bytes::decision_fuel(self.mine, self.decision_cap)
    }
}

/// One ply played since the agent's previous decision, as the host applied it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The move; `None` for a ply in which no move was made (encoded with from = to = 255).
    pub mv: Option<Move>,
    /// The piece that moved.
    pub piece: Option<Piece>,
    /// The piece it captured.
    pub captured: Option<Piece>,
}

impl Played {
    /// The ply of `mv` played in `before` (the position before it).
    pub fn of(before: &Position, mv: Move) -> Played {
        Played {
            mv: Some(mv),
            piece: before.piece_at(mv.from),
            captured: before.piece_at(mv.to),
        }
    }
}

/// The observation of a `jungle_move` decision. The host asks only when the game is not over,
/// so the agent, who is the side to move, has at least one legal move.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | your side, which is to move: 0 first (upper case, bottom), 1 second |
/// | 4 | u32 | ply: plies played before this decision (even when the first player moves) |
/// | 8 | u32 | plies since the last capture |
/// | 12 | u32 | draw limit: that many plies without a capture draw (100) |
/// | 16 | u32 | ply cap: the game is a draw once this many plies are played |
/// | 20 | u32 | reserved, 0 |
/// | 24 | u64 | your clock: fuel left, this move's increment included |
/// | 32 | u64 | the opponent's clock |
/// | 40 | u64 | increment per move |
/// | 48 | u64 | per-decision cap |
/// | 56 | u8 × 63 | the board: a piece code per square, a1, b1, …, g9 |
/// | 119 | u8 | reserved, 0 |
/// | 120 | u32 | m: recent moves that follow the legal moves (at most 8) |
/// | 124 | u32 | n: legal moves (1 to 32) |
/// | 128 | (u8, u8) × 32 | the legal moves, from and to squares; entries from n on are 0 |
/// | 192 | (u8 × 4) × m | the plies since your previous decision, oldest first: from, to, piece moved, piece captured (0 none); from = to = 255 for a ply without a move |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub side: Side,
    pub ply: u32,
    pub plies_since_capture: u32,
    pub draw_limit: u32,
    pub ply_cap: u32,
    pub clock: Clock,
    pub board: [u8; SQUARES],
    pub legal: MoveList,
    played: [Played; MAX_PLAYED],
    played_len: u8,
}

impl Observation {
    /// The observation of `position` for its side to move, with the rules' legal moves and
    /// draw limit, and the last [`MAX_PLAYED`] of `played` (older ones are left out).
    pub fn new(position: &Position, ply_cap: u32, clock: Clock, played: &[Played]) -> Observation {
        let mut obs = Observation {
            side: position.side_to_move(),
            ply: position.ply(),
            plies_since_capture: position.plies_since_capture(),
            draw_limit: DRAW_PLIES,
            ply_cap,
            clock,
            board: *position.codes(),
            legal: position.legal_moves(),
            played: [NO_PLY; MAX_PLAYED],
            played_len: 0,
        };
        obs.set_played(played);
        obs
    }

    /// Replaces the recent moves by the last [`MAX_PLAYED`] of `played`.
    pub fn set_played(&mut self, played: &[Played]) {
        let keep = &played[played.len().saturating_sub(MAX_PLAYED)..];
        self.played = [NO_PLY; MAX_PLAYED];
        self.played[..keep.len()].copy_from_slice(keep);
        self.played_len = keep.len() as u8;
    }

    /// The plies since the agent's previous decision, oldest first.
    pub fn played(&self) -> &[Played] {
        &self.played[..self.played_len as usize]
    }

    /// The encoded size: 192 + 4 × recent moves.
    pub fn size(&self) -> usize {
        OBSERVATION_FIXED_SIZE + PLAYED_SIZE * self.played_len as usize
    }

    /// The position the board describes, if it is one the rules accept.
    pub fn position(&self) -> Option<Position> {
        Position::from_codes(&self.board, self.side, self.plies_since_capture, self.ply).ok()
    }

    /// Writes the payload ([`Observation::size`] bytes) at the start of `buf`. Reserved bytes
    /// and unused legal-move entries are written as 0.
    ///
    /// Panics if `buf` is shorter than [`MAX_OBSERVATION_SIZE`].
    pub fn encode(&self, buf: &mut [u8]) {
        let buf: &mut [u8; MAX_OBSERVATION_SIZE] = fixed(buf);
        put_u32(buf, offset::SIDE, self.side.index() as u32);
        put_u32(buf, offset::PLY, self.ply);
        put_u32(buf, offset::QUIET, self.plies_since_capture);
        put_u32(buf, offset::DRAW_LIMIT, self.draw_limit);
        put_u32(buf, offset::PLY_CAP, self.ply_cap);
        put_u32(buf, offset::RESERVED, 0);
        put_u64(buf, offset::MY_CLOCK, self.clock.mine);
        put_u64(buf, offset::THEIR_CLOCK, self.clock.theirs);
        put_u64(buf, offset::INCREMENT, self.clock.increment);
        put_u64(buf, offset::DECISION_CAP, self.clock.decision_cap);
        buf[offset::BOARD..offset::BOARD + SQUARES].copy_from_slice(&self.board);
        buf[offset::RESERVED8] = 0;
        put_u32(buf, offset::PLAYED_COUNT, self.played_len as u32);
        put_u32(buf, offset::LEGAL_COUNT, self.legal.len() as u32);
        buf[offset::LEGAL..offset::PLAYED].fill(0);
        for (i, mv) in self.legal.iter().enumerate() {
            buf[offset::LEGAL + 2 * i] = mv.from.index() as u8;
            buf[offset::LEGAL + 2 * i + 1] = mv.to.index() as u8;
        }
        for (i, p) in self.played().iter().enumerate() {
            let at = offset::PLAYED + PLAYED_SIZE * i;
            let (from, to) = match p.mv {
                Some(mv) => (mv.from.index() as u8, mv.to.index() as u8),
                None => (NO_SQUARE, NO_SQUARE),
            };
            buf[at] = from;
            buf[at + 1] = to;
            buf[at + 2] = p.piece.map_or(0, Piece::code);
            buf[at + 3] = p.captured.map_or(0, Piece::code);
        }
    }

    /// Reads the payload. Refuses (`BadValue` at the field's offset) a side other than 0 or 1,
    /// a board byte above 16, more than 32 legal moves or 8 recent moves, a square byte of a
    /// legal move above 62, and a recent move whose squares are not both below 63 or both 255
    /// or whose piece codes are above 16; refuses a payload shorter than 192 + 4m bytes.
    /// Reserved bytes and legal-move entries from n on are ignored. Whether the board is a
    /// position the rules accept is [`Observation::position`]'s business.
    pub fn decode(payload: &[u8]) -> Result<Observation, DecodeError> {
        need(payload, OBSERVATION_FIXED_SIZE)?;
        let bad = |offset| DecodeError::BadValue { offset };
        let side =
            Side::from_index(get_u32(payload, offset::SIDE) as usize).ok_or(bad(offset::SIDE))?;
        let mut board = [0u8; SQUARES];
        board.copy_from_slice(&payload[offset::BOARD..offset::BOARD + SQUARES]);
        if let Some(i) = board.iter().position(|&c| c > 16) {
            return Err(bad(offset::BOARD + i));
        }
        let played_len = get_u32(payload, offset::PLAYED_COUNT);
        if played_len as usize > MAX_PLAYED {
            return Err(bad(offset::PLAYED_COUNT));
        }
        let legal_len = get_u32(payload, offset::LEGAL_COUNT);
        if legal_len as usize > MAX_MOVES {
            return Err(bad(offset::LEGAL_COUNT));
        }
        need(
            payload,
            OBSERVATION_FIXED_SIZE + PLAYED_SIZE * played_len as usize,
        )?;
        let square = |at: usize| Square::from_index(payload[at]).ok_or(bad(at));
        let mut legal = MoveList::new();
        for i in 0..legal_len as usize {
            let at = offset::LEGAL + 2 * i;
            legal.push(Move::new(square(at)?, square(at + 1)?));
        }
        let mut played = [NO_PLY; MAX_PLAYED];
        for (i, p) in played.iter_mut().enumerate().take(played_len as usize) {
            let at = offset::PLAYED + PLAYED_SIZE * i;
            let mv = match (payload[at], payload[at + 1]) {
                (NO_SQUARE, NO_SQUARE) => None,
                _ => Some(Move::new(square(at)?, square(at + 1)?)),
            };
            let piece = |at: usize| match payload[at] {
                0 => Ok(None),
                c => Piece::from_code(c).map(Some).ok_or(bad(at)),
            };
            *p = Played {
                mv,
                piece: piece(at + 2)?,
                captured: piece(at + 3)?,
            };
        }
        Ok(Observation {
            side,
            ply: get_u32(payload, offset::PLY),
            plies_since_capture: get_u32(payload, offset::QUIET),
            draw_limit: get_u32(payload, offset::DRAW_LIMIT),
            ply_cap: get_u32(payload, offset::PLY_CAP),
            clock: Clock {
                mine: get_u64(payload, offset::MY_CLOCK),
                theirs: get_u64(payload, offset::THEIR_CLOCK),
                increment: get_u64(payload, offset::INCREMENT),
                decision_cap: get_u64(payload, offset::DECISION_CAP),
            },
            board,
            legal,
            played,
            played_len: played_len as u8,
        })
    }
}

const NO_PLY: Played = Played {
    mv: None,
    piece: None,
    captured: None,
};

/// Writes `mv` at the start of `buf` (from square, then to square, one byte each) and returns
/// 2: the value the `jungle_move` export returns. Panics if `buf` is shorter than 2 bytes.
pub fn encode_answer(buf: &mut [u8], mv: Move) -> usize {
    buf[0] = mv.from.index() as u8;
    buf[1] = mv.to.index() as u8;
    ANSWER_SIZE
}

/// Reads the answer of `jungle_move`: `ret` is what the export returned, `buf` the whole
/// exchange buffer (its length is the buffer size). An error is an unreadable answer, a
/// `bad_answer` fault; these are exactly the unreadable answers:
///
/// - `ret` < 2 (negative included): `TooShort { needed: 2, got: max(ret, 0) }`;
/// - `ret` > the buffer size: `TooShort { needed: ret, got: buf.len() }`;
/// - a square byte above 62: `BadValue { offset: 0 }` (from) or `BadValue { offset: 1 }` (to).
///
/// Bytes from 2 to `ret` are ignored. A readable move is judged by the rules
/// (`Position::check_move`); an illegal one is a fault too.
pub fn decode_answer(ret: i32, buf: &[u8]) -> Result<Move, DecodeError> {
    let answer = answer_bytes(ret, buf, ANSWER_SIZE)?;
    let square =
        |at: usize| Square::from_index(answer[at]).ok_or(DecodeError::BadValue { offset: at });
    Ok(Move::new(square(0)?, square(1)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::answer_faults::assert_length_faults;
    use proptest::prelude::*;

    fn square() -> impl Strategy<Value = Square> {
        (0u8..63).prop_map(|i| Square::from_index(i).unwrap())
    }

    fn a_move() -> impl Strategy<Value = Move> {
        (square(), square()).prop_map(|(f, t)| Move::new(f, t))
    }

    fn piece() -> impl Strategy<Value = Option<Piece>> {
        (0u8..=16).prop_map(Piece::from_code)
    }

    fn played() -> impl Strategy<Value = Played> {
        (prop::option::of(a_move()), piece(), piece()).prop_map(|(mv, piece, captured)| Played {
            mv,
            piece,
            captured,
        })
    }

    fn observation() -> impl Strategy<Value = Observation> {
        (
            (
                any::<bool>(),
                any::<u32>(),
                any::<u32>(),
                any::<u32>(),
                any::<u32>(),
            ),
            prop::array::uniform4(any::<u64>()),
            prop::collection::vec(0u8..=16, SQUARES),
            prop::collection::vec(a_move(), 0..=MAX_MOVES),
            prop::collection::vec(played(), 0..=MAX_PLAYED),
        )
            .prop_map(
                |((second, ply, quiet, limit, cap), c, board, legal, recent)| {
                    let mut list = MoveList::new();
                    for mv in legal {
                        list.push(mv);
                    }
                    let mut obs = Observation {
                        side: if second { Side::Second } else { Side::First },
                        ply,
                        plies_since_capture: quiet,
                        draw_limit: limit,
                        ply_cap: cap,
                        clock: Clock {
                            mine: c[0],
                            theirs: c[1],
                            increment: c[2],
                            decision_cap: c[3],
                        },
                        board: board.try_into().unwrap(),
                        legal: list,
                        played: [NO_PLY; MAX_PLAYED],
                        played_len: 0,
                    };
                    obs.set_played(&recent);
                    obs
                },
            )
    }

    proptest! {
        #[test]
        fn observations_round_trip(obs in observation(), junk in any::<u8>()) {
            let mut buf = [junk; MAX_OBSERVATION_SIZE];
            obs.encode(&mut buf);
            let back = Observation::decode(&buf[..obs.size()]).unwrap();
            prop_assert_eq!(back, obs);
            prop_assert_eq!(get_u32(&buf, offset::RESERVED), 0);
            prop_assert_eq!(buf[offset::RESERVED8], 0);
            prop_assert!(buf[offset::LEGAL + 2 * obs.legal.len()..offset::PLAYED].iter().all(|&b| b == 0));
            // One byte short of the recent moves is refused.
            prop_assert!(Observation::decode(&buf[..obs.size() - 1]).is_err());
        }

        #[test]
        fn answers_round_trip(mv in a_move(), extra in 0usize..16, junk in any::<u8>()) {
            let mut buf = [junk; 64];
            let n = encode_answer(&mut buf, mv);
            prop_assert_eq!(n, ANSWER_SIZE);
            prop_assert_eq!(decode_answer(n as i32, &buf), Ok(mv));
            prop_assert_eq!(decode_answer((n + extra) as i32, &buf), Ok(mv));
        }

        #[test]
        fn unreadable_answers_are_exactly_the_fault_conditions(ret in -20i32..80, size in 0usize..80, from in any::<u8>(), to in any::<u8>()) {
            let mut buf = [0u8; 80];
            buf[0] = from;
            buf[1] = to;
            let buf = &buf[..size];
            let readable = ret >= 2 && ret as usize <= size && from < 63 && to < 63;
            let got = decode_answer(ret, buf);
            prop_assert_eq!(got.is_ok(), readable, "{:?}", got);
            if let Ok(mv) = got {
                prop_assert_eq!((mv.from.index(), mv.to.index()), (from as usize, to as usize));
            }
        }

        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300), ret in any::<i32>()) {
            let _ = Observation::decode(&bytes);
            let _ = decode_answer(ret, &bytes);
            let _ = decode_answer(bytes.len() as i32, &bytes);
        }
    }

    #[test]
    fn the_start_position_as_the_host_sends_it() {
        let start = Position::start();
        let clock = Clock {
            mine: 50_000_000,
            theirs: 49_000_000,
            increment: 1_000_000,
            decision_cap: 10_000_000,
        };
        let obs = Observation::new(&start, 600, clock, &[]);
        assert_eq!(obs.size(), 192);
        let mut buf = [0u8; MAX_OBSERVATION_SIZE];
        obs.encode(&mut buf);
        // a1 holds the first player's tiger (code 6), g9 the second's (14), d1 is empty.
        assert_eq!(buf[offset::BOARD], 6);
        assert_eq!(buf[offset::BOARD + 62], 14);
        assert_eq!(buf[offset::BOARD + 3], 0);
        assert_eq!(get_u32(&buf, offset::LEGAL_COUNT), 24);
        assert_eq!(get_u32(&buf, offset::DRAW_LIMIT), 100);
        assert_eq!(get_u64(&buf, offset::MY_CLOCK), 50_000_000);
        // The first legal move is the rat's (g3, index 20; the rat comes first) to its first
        // destination in square order, g2 (13).
        assert_eq!(&buf[offset::LEGAL..offset::LEGAL + 2], &[20, 13]);
        let back = Observation::decode(&buf[..192]).unwrap();
        assert_eq!(back.position(), Some(start));
        assert_eq!(back.clock.this_decision(), 10_000_000);
        assert_eq!(back.legal, start.legal_moves());
    }

    #[test]
    fn recent_moves_keep_the_last_eight() {
        let start = Position::start();
        let mv = start.legal_moves()[0];
        let ply = Played::of(&start, mv);
        assert_eq!(ply.piece.map(|p| p.code()), Some(1));
        assert_eq!(ply.captured, None);
        let mut many = [ply; 11];
        many[10].captured = Piece::from_code(9);
        let obs = Observation::new(&start.after(mv), 600, Clock::default(), &many);
        assert_eq!(obs.played().len(), 8);
        assert_eq!(obs.played()[7].captured, Piece::from_code(9));
        assert_eq!(obs.size(), 192 + 32);
    }

    #[test]
    fn refusals_name_the_offset() {
        let obs = Observation::new(
            &Position::start(),
            600,
            Clock::default(),
            &[Played {
                mv: None,
                piece: None,
                captured: None,
            }],
        );
        let mut good = [0u8; MAX_OBSERVATION_SIZE];
        obs.encode(&mut good);
        assert_eq!(&good[offset::PLAYED..offset::PLAYED + 4], &[255, 255, 0, 0]);
        let n = obs.size();
        assert_eq!(Observation::decode(&good[..n]), Ok(obs));
        let cases: [(usize, u8, usize); 7] = [
            (offset::SIDE, 2, offset::SIDE),
            (offset::BOARD + 5, 17, offset::BOARD + 5),
            (offset::PLAYED_COUNT, 9, offset::PLAYED_COUNT),
            (offset::LEGAL_COUNT, 33, offset::LEGAL_COUNT),
            (offset::LEGAL + 1, 63, offset::LEGAL + 1),
            (offset::PLAYED, 7, offset::PLAYED + 1),
            (offset::PLAYED + 3, 17, offset::PLAYED + 3),
        ];
        for (at, value, reported) in cases {
            let mut bad = good;
            bad[at] = value;
            assert_eq!(
                Observation::decode(&bad[..n]),
                Err(DecodeError::BadValue { offset: reported }),
                "byte {at} = {value}"
            );
        }
        assert_eq!(
            Observation::decode(&good[..191]),
            Err(DecodeError::TooShort {
                needed: 192,
                got: 191
            })
        );
    }

    #[test]
    fn answer_fault_conditions() {
        let mut buf = [0u8; 16];
        let mv = Move::parse("g3g4").unwrap();
        assert_eq!(encode_answer(&mut buf, mv), 2);
        assert_eq!(&buf[..2], &[20, 27]);
        assert_eq!(decode_answer(2, &buf), Ok(mv));
        assert_eq!(decode_answer(16, &buf), Ok(mv));
        assert_length_faults(decode_answer, &buf, 2);
        buf[1] = 63;
        assert_eq!(
            decode_answer(2, &buf),
            Err(DecodeError::BadValue { offset: 1 })
        );
        buf[0] = 200;
        assert_eq!(
            decode_answer(2, &buf),
            Err(DecodeError::BadValue { offset: 0 })
        );
    }

    #[test]
    fn layout_offsets_are_consistent() {
        assert_eq!(offset::BOARD + SQUARES, offset::RESERVED8);
        assert_eq!(offset::LEGAL + 2 * MAX_MOVES, offset::PLAYED);
        assert_eq!(offset::PLAYED, OBSERVATION_FIXED_SIZE);
        assert_eq!(MAX_OBSERVATION_SIZE, 224);
    }
}
