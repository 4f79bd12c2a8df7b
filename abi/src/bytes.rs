/// Why bytes could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The buffer ends before the field at this offset.
    TooShort { needed: usize, got: usize },
    /// A field holds a value the layout does not allow.
    BadValue { offset: usize },
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            DecodeError::TooShort { needed, got } => {
                write!(f, "{got} bytes where {needed} are needed")
            }
            DecodeError::BadValue { offset } => {
                write!(f, "a value the layout does not allow at offset {offset}")
            }
        }
    }
}

pub(crate) fn need(buf: &[u8], len: usize) -> Result<(), DecodeError> {
    if buf.len() < len {
        Err(DecodeError::TooShort {
            needed: len,
            got: buf.len(),
        })
    } else {
        Ok(())
    }
}

/// The first `size` bytes of a fixed-size answer: `ret` is what the export returned, `buf` the
/// whole exchange buffer. `ret` below `size` (negative included) is `TooShort { needed: size,
/// got: max(ret, 0) }`; `ret` past the buffer is `TooShort { needed: ret, got: buf.len() }`.
pub(crate) fn answer_bytes(ret: i32, buf: &[u8], size: usize) -> Result<&[u8], DecodeError> {
    let got = usize::try_from(ret).unwrap_or(0);
    if got < size {
        return Err(DecodeError::TooShort { needed: size, got });
    }
    need(buf, got).map_err(|_| DecodeError::TooShort {
        needed: got,
        got: buf.len(),
    })?;
    Ok(&buf[..size])
}

/// The fuel a decision may use: the smaller of the agent's clock and the per-decision cap (the
/// fuel clocks of Jungle and light cycles).
pub(crate) const fn decision_fuel(clock: u64, decision_cap: u64) -> u64 {
    if clock < decision_cap {
        clock
    } else {
        decision_cap
    }
}

pub(crate) fn get_u32(buf: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]])
}

pub(crate) fn get_i32(buf: &[u8], at: usize) -> i32 {
    get_u32(buf, at) as i32
}

pub(crate) fn get_u64(buf: &[u8], at: usize) -> u64 {
    get_u32(buf, at) as u64 | (get_u32(buf, at + 4) as u64) << 32
}

/// The first `N` bytes of `buf` as an array (panics if `buf` is shorter): writes at constant
/// offsets into it need no bounds check of their own.
#[inline]
pub(crate) fn fixed<const N: usize>(buf: &mut [u8]) -> &mut [u8; N] {
    let len = buf.len();
    match buf.get_mut(..N) {
        Some(head) => head.try_into().expect("a slice of N bytes"),
        None => panic!("buffer of {len} bytes, {N} needed"),
    }
}

#[inline]
pub(crate) fn put_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[inline]
pub(crate) fn put_i32(buf: &mut [u8], at: usize, v: i32) {
    put_u32(buf, at, v as u32);
}

#[inline]
pub(crate) fn put_u64(buf: &mut [u8], at: usize, v: u64) {
    buf[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Checks shared by the fixed-size answers' tests.
#[cfg(test)]
pub(crate) mod answer_faults {
    use super::DecodeError;
    use core::fmt::Debug;

    /// `decode` (a `decode_answer`) over `buf` refuses exactly as [`super::answer_bytes`] says a
    /// `size`-byte answer is refused: one byte short, a negative return, one byte past the
    /// buffer.
    pub fn assert_length_faults<T: Debug + PartialEq>(
        decode: impl Fn(i32, &[u8]) -> Result<T, DecodeError>,
        buf: &[u8],
        size: usize,
    ) {
        let short = DecodeError::TooShort {
            needed: size,
            got: size - 1,
        };
        assert_eq!(decode(size as i32 - 1, buf), Err(short));
        let negative = DecodeError::TooShort {
            needed: size,
            got: 0,
        };
        assert_eq!(decode(-3, buf), Err(negative));
        let past = buf.len() + 1;
        let past_buffer = DecodeError::TooShort {
            needed: past,
            got: buf.len(),
        };
        assert_eq!(decode(past as i32, buf), Err(past_buffer));
    }
}
