//! Farkle payloads: the observation the host writes after the envelope (decision
//! [`crate::Decision::FarkleDraft`], export `farkle_draft`) and the draft answer the agent
//! writes back.

use farkle_rules::{Action, DICE};

use crate::bytes::{fixed, get_u32, need, put_u32, DecodeError};

/// Size of the observation payload (it starts at buffer offset 32).
pub const OBSERVATION_SIZE: usize = 64;
/// Most seats a Farkle observation carries scores for.
pub const MAX_SEATS: usize = 6;
/// Most indices an answer may carry (one per die).
pub const MAX_INDICES: usize = DICE;
/// Size of an answer's header (action and count); the indices follow it.
pub const ANSWER_HEADER_SIZE: usize = 8;
/// Size of the largest answer: header and six indices.
pub const MAX_ANSWER_SIZE: usize = ANSWER_HEADER_SIZE + 4 * MAX_INDICES;
/// Bit of the observation's flags set in the final round: someone reached the target and this is
/// the seat's last turn.
pub const FLAG_FINAL_ROUND: u32 = 1;

/// Offsets of the observation payload (relative to the payload start, i.e. buffer offset 32).
pub mod offset {
    pub const TARGET: usize = 0;
    pub const TURN_POINTS: usize = 4;
    pub const ROLL_NUMBER: usize = 8;
    pub const DICE: usize = 12;
    pub const FACES: usize = 16;
    pub const RESERVED16: usize = 22;
    pub const SCORES: usize = 24;
    pub const FLAGS: usize = 48;
    pub const TURNS_DONE: usize = 52;
    pub const TURN_CAP: usize = 56;
    pub const RESERVED: usize = 60;
}

/// Offsets of the answer, from buffer offset 0.
pub mod answer_offset {
    pub const ACTION: usize = 0;
    pub const COUNT: usize = 4;
    pub const INDICES: usize = 8;
}

/// The observation of a `farkle_draft` decision. The host only asks when the roll is not a
/// farkle.
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | target (10000) |
/// | 4 | u32 | turn points: points drafted earlier in this turn, at risk |
/// | 8 | u32 | roll number in this turn, from 1 (hot-dice rerolls count on) |
/// | 12 | u32 | n: dice in this roll (1..=6) |
/// | 16 | u8 × 6 | the faces 1..=6; entries from n on are 0 |
/// | 22 | u16 | reserved, 0 |
/// | 24 | u32 × 6 | banked score of each seat (0 for seats beyond the players) |
/// | 48 | u32 | flags: bit 0 = final round (this is the seat's last turn) |
/// | 52 | u32 | turns this seat has completed (0 at its first turn) |
/// | 56 | u32 | turn cap (the game ends after this many rounds) |
/// | 60 | u32 | reserved, 0 |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    pub target: u32,
    pub turn_points: u32,
    pub roll_number: u32,
    /// Dice in this roll, 1 to 6.
    pub dice: u32,
    /// The faces; entries from `dice` on are 0.
    pub faces: [u8; DICE],
    pub scores: [u32; MAX_SEATS],
    pub flags: u32,
    pub turns_done: u32,
    pub turn_cap: u32,
}

impl Observation {
    /// The faces of this roll (`dice` of them).
    pub fn roll(&self) -> &[u8] {
        &self.faces[..(self.dice as usize).min(DICE)]
    }

    /// True in the final round (someone reached the target; this is the seat's last turn).
    pub fn final_round(&self) -> bool {
        self.flags & FLAG_FINAL_ROUND != 0
    }

    /// Writes the 64-byte payload at the start of `buf`. Faces from `dice` on are written as 0
    /// and the reserved fields as 0, whatever the struct holds.
    ///
    /// Panics if `buf` is shorter than [`OBSERVATION_SIZE`].
    pub fn encode(&self, buf: &mut [u8]) {
        // One length check; the writes below are then bounds-check free (see `bytes::fixed`).
        let buf: &mut [u8; OBSERVATION_SIZE] = fixed(buf);
        put_u32(buf, offset::TARGET, self.target);
        put_u32(buf, offset::TURN_POINTS, self.turn_points);
        put_u32(buf, offset::ROLL_NUMBER, self.roll_number);
        put_u32(buf, offset::DICE, self.dice);
        for (i, &f) in self.faces.iter().enumerate() {
            buf[offset::FACES + i] = if i < self.dice as usize { f } else { 0 };
        }
        buf[offset::RESERVED16..offset::RESERVED16 + 2].fill(0);
        for (i, &s) in self.scores.iter().enumerate() {
            put_u32(buf, offset::SCORES + 4 * i, s);
        }
        put_u32(buf, offset::FLAGS, self.flags);
        put_u32(buf, offset::TURNS_DONE, self.turns_done);
        put_u32(buf, offset::TURN_CAP, self.turn_cap);
        put_u32(buf, offset::RESERVED, 0);
    }

    /// Reads the payload. Refuses a payload shorter than 64 bytes, a dice count outside 1..=6 and
    /// a face of the roll outside 1..=6; reserved fields and faces beyond the roll are ignored
    /// (the latter read as 0).
    pub fn decode(payload: &[u8]) -> Result<Observation, DecodeError> {
        need(payload, OBSERVATION_SIZE)?;
        let dice = get_u32(payload, offset::DICE);
        if !(1..=DICE as u32).contains(&dice) {
            return Err(DecodeError::BadValue {
                offset: offset::DICE,
            });
        }
        let mut faces = [0u8; DICE];
        for (i, f) in faces.iter_mut().enumerate().take(dice as usize) {
            *f = payload[offset::FACES + i];
            if !(1..=6).contains(f) {
                return Err(DecodeError::BadValue {
                    offset: offset::FACES + i,
                });
            }
        }
        let mut scores = [0u32; MAX_SEATS];
        for (i, s) in scores.iter_mut().enumerate() {
            *s = get_u32(payload, offset::SCORES + 4 * i);
        }
        Ok(Observation {
            target: get_u32(payload, offset::TARGET),
            turn_points: get_u32(payload, offset::TURN_POINTS),
            roll_number: get_u32(payload, offset::ROLL_NUMBER),
            dice,
            faces,
            scores,
            flags: get_u32(payload, offset::FLAGS),
            turns_done: get_u32(payload, offset::TURNS_DONE),
            turn_cap: get_u32(payload, offset::TURN_CAP),
        })
    }
}

/// A draft answer as it travels: the action code and up to six indices, both unjudged (the rules'
/// `check_answer` judges them; an unknown action or a bad index is a rejection, not a fault).
///
/// | offset | type | field |
/// |---|---|---|
/// | 0 | u32 | action: 0 roll the dice left, 1 bank |
/// | 4 | u32 | k: number of indices (at most 6) |
/// | 8 | u32 × k | indices into the roll |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    /// The action code: 0 roll, 1 bank; anything else is judged `unknown_action`.
    pub action: u32,
    count: u8,
    // Entries from `count` on are always 0, so the derived equality compares answers.
    indices: [u32; MAX_INDICES],
}

impl Answer {
    /// An answer with a raw action code and raw indices; indices past the sixth are dropped.
    pub fn raw(action: u32, indices: &[u32]) -> Answer {
        let mut a = Answer {
            action,
            count: indices.len().min(MAX_INDICES) as u8,
            indices: [0; MAX_INDICES],
        };
        for (slot, &i) in a.indices.iter_mut().zip(indices) {
            *slot = i;
        }
        a
    }

    /// Draft the dice at `indices` (indices past the sixth are dropped) and take `action`.
    pub fn new(action: Action, indices: &[usize]) -> Answer {
        let mut a = Answer::raw(action.code(), &[]);
        a.count = indices.len().min(MAX_INDICES) as u8;
        for (slot, &i) in a.indices.iter_mut().zip(indices) {
            *slot = u32::try_from(i).unwrap_or(u32::MAX);
        }
        a
    }

    /// Draft the dice at `indices`, then bank.
    pub fn bank(indices: &[usize]) -> Answer {
        Answer::new(Action::Bank, indices)
    }

    /// Draft the dice at `indices`, then roll the dice left.
    pub fn roll(indices: &[usize]) -> Answer {
        Answer::new(Action::Roll, indices)
    }

    /// Draft the dice whose bits are set in `mask` (bit i = index i; as in
    /// `farkle_rules::Draft::mask`) and take `action`.
    pub fn from_mask(action: Action, mask: u8) -> Answer {
        let mut a = Answer::raw(action.code(), &[]);
        for i in 0..8u32 {
            if mask & (1 << i) != 0 && (a.count as usize) < MAX_INDICES {
                a.indices[a.count as usize] = i;
                a.count += 1;
            }
        }
        a
    }

    /// The action, if the code is a known one.
    pub fn action(&self) -> Option<Action> {
        Action::from_code(self.action)
    }

    /// The drafted indices, as given.
    pub fn indices(&self) -> &[u32] {
        &self.indices[..self.count as usize]
    }

    /// Size of this answer in bytes: 8 + 4 × k.
    pub fn size(&self) -> usize {
        ANSWER_HEADER_SIZE + 4 * self.count as usize
    }
}

/// Writes `answer` at the start of `buf` and returns its size (8 + 4 × k): the value the
/// `farkle_draft` export returns. `buf` must hold at least [`MAX_ANSWER_SIZE`] bytes, or the
/// answer's size.
pub fn encode_answer(buf: &mut [u8], answer: &Answer) -> usize {
    put_u32(buf, answer_offset::ACTION, answer.action);
    put_u32(buf, answer_offset::COUNT, answer.count as u32);
    for (i, &idx) in answer.indices().iter().enumerate() {
        put_u32(buf, answer_offset::INDICES + 4 * i, idx);
    }
    answer.size()
}

/// Why a `farkle_draft` answer cannot be read (a `bad_answer` fault). Its `Display` is a
/// sentence for people, to follow "farkle_draft returned N: ".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// The export returned less than 8 (negative included).
    Short { ret: i32 },
    /// The export returned more than the buffer size.
    PastBuffer { ret: usize, buffer: usize },
    /// The count k is more than 6.
    TooManyDice { count: u32 },
    /// 8 + 4k is more than what the export returned.
    Truncated {
        count: u32,
        needed: usize,
        ret: usize,
    },
}

impl core::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            AnswerError::Short { .. } => write!(
                f,
                "an answer has at least {ANSWER_HEADER_SIZE} bytes (the action and the count)"
            ),
            AnswerError::PastBuffer { buffer, .. } => {
                write!(f, "more bytes than the exchange buffer has ({buffer})")
            }
            AnswerError::TooManyDice { count } => write!(
                f,
                "the answer drafts {count} dice (the count at offset 4), at most {MAX_INDICES}"
            ),
            AnswerError::Truncated { count, needed, ret } => write!(
                f,
                "drafting {count} dice takes {needed} bytes (8 + 4 × {count}), and the answer \
                 has {ret}"
            ),
        }
    }
}

/// Reads the answer of `farkle_draft`: `ret` is what the export returned, `buf` the whole
/// exchange buffer (its length is the buffer size). An error is a `bad_answer` fault; these are
/// exactly the unreadable answers:
///
/// - `ret` < 8 (negative included): [`AnswerError::Short`];
/// - `ret` > the buffer size: [`AnswerError::PastBuffer`];
/// - k > 6: [`AnswerError::TooManyDice`];
/// - 8 + 4k > `ret`: [`AnswerError::Truncated`].
///
/// Bytes past 8 + 4k (up to `ret`) are ignored. Everything else is readable, and judged by the
/// rules.
pub fn decode_answer(ret: i32, buf: &[u8]) -> Result<Answer, AnswerError> {
    if ret < ANSWER_HEADER_SIZE as i32 {
        return Err(AnswerError::Short { ret });
    }
    let ret = ret as usize;
    if ret > buf.len() {
        return Err(AnswerError::PastBuffer {
            ret,
            buffer: buf.len(),
        });
    }
    let count = get_u32(buf, answer_offset::COUNT);
    if count as usize > MAX_INDICES {
        return Err(AnswerError::TooManyDice { count });
    }
    let size = ANSWER_HEADER_SIZE + 4 * count as usize;
    if size > ret {
        return Err(AnswerError::Truncated {
            count,
            needed: size,
            ret,
        });
    }
    let mut indices = [0u32; MAX_INDICES];
    for (i, slot) in indices.iter_mut().enumerate().take(count as usize) {
        *slot = get_u32(buf, answer_offset::INDICES + 4 * i);
    }
    Ok(Answer::raw(
        get_u32(buf, answer_offset::ACTION),
        &indices[..count as usize],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn observation() -> impl Strategy<Value = Observation> {
        (
            (any::<u32>(), any::<u32>(), any::<u32>(), 1u32..=6),
            prop::array::uniform6(1u8..=6),
            prop::array::uniform6(any::<u32>()),
            (any::<u32>(), any::<u32>(), any::<u32>()),
        )
            .prop_map(
                |(
                    (target, turn_points, roll_number, dice),
                    mut faces,
                    scores,
                    (flags, turns_done, turn_cap),
                )| {
                    for f in faces.iter_mut().skip(dice as usize) {
                        *f = 0;
                    }
                    Observation {
                        target,
                        turn_points,
                        roll_number,
                        dice,
                        faces,
                        scores,
                        flags,
                        turns_done,
                        turn_cap,
                    }
                },
            )
    }

    fn answer() -> impl Strategy<Value = Answer> {
        (
            any::<u32>(),
            prop::collection::vec(any::<u32>(), 0..=MAX_INDICES),
        )
            .prop_map(|(action, idx)| Answer::raw(action, &idx))
    }

    proptest! {
        #[test]
        fn observations_round_trip(obs in observation(), junk in any::<u8>()) {
            let mut buf = [junk; OBSERVATION_SIZE];
            obs.encode(&mut buf);
            prop_assert_eq!(Observation::decode(&buf).unwrap(), obs);
            prop_assert_eq!(&buf[offset::RESERVED16..offset::RESERVED16 + 2], &[0, 0]);
            prop_assert_eq!(get_u32(&buf, offset::RESERVED), 0);
            prop_assert_eq!(obs.roll().len(), obs.dice as usize);
        }

        #[test]
        fn answers_round_trip(a in answer(), extra in 0usize..16, junk in any::<u8>()) {
            let mut buf = [junk; 256];
            let n = encode_answer(&mut buf, &a);
            prop_assert_eq!(n, a.size());
            prop_assert_eq!(decode_answer(n as i32, &buf).unwrap(), a);
            // Trailing bytes up to the returned length are ignored.
            prop_assert_eq!(decode_answer((n + extra) as i32, &buf).unwrap(), a);
        }

        #[test]
        fn unreadable_answers_are_exactly_the_fault_conditions(ret in -20i32..80, count in 0u32..10, size in 0usize..80, bytes in prop::collection::vec(any::<u8>(), 80)) {
            let mut buf = bytes.clone();
            buf.truncate(size);
            if buf.len() >= 8 {
                put_u32(&mut buf, 4, count);
            }
            let readable = ret >= 8
                && ret as usize <= buf.len()
                && count <= 6
                && 8 + 4 * count as usize <= ret as usize;
            let got = decode_answer(ret, &buf);
            prop_assert_eq!(got.is_ok(), readable, "{:?}", got);
            if let Ok(a) = got {
                prop_assert_eq!(a.indices().len(), count as usize);
                prop_assert_eq!(a.action, get_u32(&buf, 0));
            }
        }

        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200), ret in any::<i32>()) {
            let _ = Observation::decode(&bytes);
            let _ = decode_answer(ret, &bytes);
            let _ = decode_answer(bytes.len() as i32, &bytes);
        }

        #[test]
        fn mask_answers_list_the_mask(mask in 0u8..64) {
            let a = Answer::from_mask(Action::Roll, mask);
            prop_assert_eq!(a.indices().len(), mask.count_ones() as usize);
            for &i in a.indices() {
                prop_assert!(mask & (1 << i) != 0);
            }
            prop_assert_eq!(a.action(), Some(Action::Roll));
        }
    }

    #[test]
    fn fault_conditions() {
        let mut buf = [0u8; 64];
        let a = Answer::bank(&[0, 2]);
        assert_eq!(encode_answer(&mut buf, &a), 16);
        assert_eq!(
            &buf[..16],
            &[1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]
        );
        assert_eq!(decode_answer(16, &buf), Ok(a));
        assert_eq!(decode_answer(-1, &buf), Err(AnswerError::Short { ret: -1 }));
        assert_eq!(decode_answer(7, &buf), Err(AnswerError::Short { ret: 7 }));
        assert_eq!(
            decode_answer(65, &buf),
            Err(AnswerError::PastBuffer {
                ret: 65,
                buffer: 64
            })
        );
        assert_eq!(
            decode_answer(12, &buf),
            Err(AnswerError::Truncated {
                count: 2,
                needed: 16,
                ret: 12
            })
        );
        put_u32(&mut buf, 4, 7);
        assert_eq!(
            decode_answer(64, &buf),
            Err(AnswerError::TooManyDice { count: 7 })
        );
        // k = 0 is readable (the rules reject it as empty_draft).
        put_u32(&mut buf, 4, 0);
        assert_eq!(decode_answer(8, &buf).unwrap().indices(), &[] as &[u32]);
    }

    #[test]
    fn observation_refuses_bad_dice() {
        let obs = Observation {
            target: 10_000,
            turn_points: 350,
            roll_number: 2,
            dice: 3,
            faces: [1, 5, 6, 0, 0, 0],
            scores: [1, 2, 3, 0, 0, 0],
            flags: FLAG_FINAL_ROUND,
            turns_done: 4,
            turn_cap: 100,
        };
        let mut buf = [0u8; OBSERVATION_SIZE];
        obs.encode(&mut buf);
        let back = Observation::decode(&buf).unwrap();
        assert_eq!(back.roll(), &[1, 5, 6]);
        assert!(back.final_round());
        assert!(Observation::decode(&buf[..63]).is_err());
        let mut bad = buf;
        put_u32(&mut bad, offset::DICE, 0);
        assert_eq!(
            Observation::decode(&bad),
            Err(DecodeError::BadValue { offset: 12 })
        );
        let mut bad = buf;
        bad[offset::FACES + 2] = 7;
        assert_eq!(
            Observation::decode(&bad),
            Err(DecodeError::BadValue { offset: 18 })
        );
    }

    #[test]
    fn layout_offsets_are_consistent() {
        assert_eq!(offset::FACES + DICE, offset::RESERVED16);
        assert_eq!(offset::SCORES + 4 * MAX_SEATS, offset::FLAGS);
        assert_eq!(offset::RESERVED + 4, OBSERVATION_SIZE);
        assert_eq!(MAX_ANSWER_SIZE, 32);
    }
}
