//! Randomness from the game's seed: where newcomers land, and what agents draw. Both are
//! SplitMix64 streams (docs/CODEWAR.md, "Randomness"), so that another implementation can
//! reproduce a game from its seed.

/// SplitMix64's increment.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Mixed into the seed for the game's own stream (ASCII "codewar1").
pub const GAME_SALT: u64 = 0x636F_6465_7761_7231;

/// Mixed into the seed for the agents' streams (ASCII "visits!!").
pub const VISIT_SALT: u64 = 0x7669_7369_7473_2121;

/// SplitMix64's output function.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A SplitMix64 stream of 32-bit words (the high half of each output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stream {
    state: u64,
}

impl Stream {
    pub const fn new(state: u64) -> Stream {
        Stream { state }
    }

    /// The game's stream: newcomers' cells.
    pub const fn game(seed: u64) -> Stream {
        Stream::new(seed ^ GAME_SALT)
    }

    /// The stream of the agent visiting `cell` (from 0) during `iteration` (from 1): what its
    /// `random` import draws. It depends on nothing else, so an agent's draws are the same
    /// whatever happened before its visit.
    pub const fn visit(seed: u64, iteration: u32, cell: u32) -> Stream {
        let place = ((iteration as u64) << 32) | cell as u64;
        Stream::new(seed ^ VISIT_SALT ^ mix64(place))
    }

    /// The next 32-bit word.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self.state.wrapping_add(GOLDEN);
        (mix64(self.state) >> 32) as u32
    }

    /// A uniform number in `0..bound` (`bound` > 0), by rejection: words at or above the largest
    /// multiple of `bound` not above 2³² are drawn again.
    pub fn below(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0);
        let bound = bound.max(1);
        let limit = (1u64 << 32) / u64::from(bound) * u64::from(bound);
        loop {
            let v = self.next_u32();
            if u64::from(v) < limit {
                return v % bound;
            }
        }
    }

    /// What the `random(bound)` import answers: `below(bound)` for `bound` > 0, otherwise a
    /// whole 32-bit word as a signed number.
    pub fn draw(&mut self, bound: i32) -> i32 {
        if bound > 0 {
            self.below(bound as u32) as i32
        } else {
            self.next_u32() as i32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values() {
        // The values docs/CODEWAR.md gives, so that another implementation can check itself
        // (computed independently with a few lines of Python from the documented algorithm).
        let mut g = Stream::game(1);
        let words: [u32; 3] = [g.next_u32(), g.next_u32(), g.next_u32()];
        let mut g = Stream::game(1);
        let cells: [u32; 5] = core::array::from_fn(|_| g.below(100));
        let mut v = Stream::visit(1, 1, 0);
        let draws: [i32; 3] = [v.draw(10), v.draw(0), v.draw(-5)];
        assert_eq!(
            words,
            [917_049_789, 1_028_093_740, 2_467_265_186],
            "{words:?}"
        );
        assert_eq!(cells, [89, 40, 86, 99, 61], "{cells:?}");
        assert_eq!(draws, [5, -471_699_966, -809_582_232], "{draws:?}");
    }

    #[test]
    fn below_stays_below() {
        let mut s = Stream::new(7);
        for bound in [1u32, 2, 3, 97, 1000, u32::MAX] {
            for _ in 0..200 {
                assert!(s.below(bound) < bound);
            }
        }
    }

    #[test]
    fn visits_differ_by_place() {
        let a = Stream::visit(5, 1, 0).next_u32();
        let b = Stream::visit(5, 1, 1).next_u32();
        let c = Stream::visit(5, 2, 0).next_u32();
        assert!(a != b && a != c && b != c);
    }
}
