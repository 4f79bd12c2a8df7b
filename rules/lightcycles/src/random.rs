//! The game's randomness: the seed picks the walls and nothing else. A SplitMix64 stream
//! (docs/LIGHTCYCLES.md, "Walls"), so that another implementation can reproduce a game's grid
//! from its seed.

/// SplitMix64's increment.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Mixed into the seed (ASCII "lightcyc").
pub const WALL_SALT: u64 = 0x6C69_6768_7463_7963;

/// A SplitMix64 stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    state: u64,
}

impl Stream {
    /// The stream that places a game's walls.
    pub const fn walls(seed: u64) -> Stream {
        Stream {
            state: seed ^ WALL_SALT,
        }
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound` (`bound` > 0): the high 64 bits of `output × bound`,
    /// drawing again while the low 64 bits fall below `2⁶⁴ mod bound` (Lemire's method).
    pub fn below(&mut self, bound: u64) -> u64 {
        let bound = bound.max(1);
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(bound);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values() {
        // The values docs/LIGHTCYCLES.md gives, so that another implementation can check itself
        // (computed independently with a few lines of Python from the documented algorithm).
        let mut s = Stream::walls(1);
        let words = [s.next_u64(), s.next_u64()];
        let mut s = Stream::walls(1);
        let draws: [u64; 5] = core::array::from_fn(|_| s.below(100));
        assert_eq!(
            words,
            [0xEDD9_39D0_0258_CD9E, 0xE9E5_08CE_C99B_2C3C],
            "{words:x?}"
        );
        assert_eq!(draws, [92, 91, 47, 21, 63], "{draws:?}");
    }

    #[test]
    fn below_stays_below() {
        let mut s = Stream::walls(7);
        for bound in [1u64, 2, 3, 97, 1000, u64::MAX] {
            for _ in 0..200 {
                assert!(s.below(bound) < bound);
            }
        }
    }
}
